import FlowSpecTestSupport
import Foundation
import Testing

/// Whether `strace` can trace here, and if not, which precondition failed: it is not on
/// `PATH`, or it is but cannot trace (containers often forbid ptrace).
///
/// Tests that need it are skipped with that reason, except in CI (`CI=true`): `.ci/run` has
/// installed strace there and checked that it traces, so a strace that is installed but
/// cannot trace fails those tests instead of hiding them.
enum StraceTool {
    enum Availability {
        case usable(URL)
        case notOnPath
        case cannotTrace(URL, reason: String)
    }

    static let availability = probe()

    /// The trait of a test that needs strace.
    static var required: ConditionTrait {
        .enabled(if: shouldRun, Comment(rawValue: unusableReason ?? "strace traces here"))
    }

    /// The strace executable; throws, with the reason, where it cannot trace (which only a
    /// test that runs in CI despite that reaches).
    static func executable() throws -> URL {
        guard case .usable(let strace) = availability else {
            throw Unusable(description: unusableReason ?? "strace cannot be used")
        }
        return strace
    }

    struct Unusable: Error, CustomStringConvertible {
        var description: String
    }

    /// Why strace cannot be used here, or `nil` where it can.
    static var unusableReason: String? {
        switch availability {
        case .usable: nil
        case .notOnPath:
            "strace is not installed: there is no `strace` on PATH (apt-get install strace; .ci/run installs it)"
        case .cannotTrace(let strace, let reason):
            "strace is installed (\(strace.path)) but cannot trace here: \(reason)"
        }
    }

    /// Whether a test that needs strace runs: where strace traces, and in CI wherever it is
    /// installed, so that a strace that cannot trace there is a failure, not a skip.
    private static var shouldRun: Bool {
        switch availability {
        case .usable: true
        case .notOnPath: false
        case .cannotTrace: ExternalTool.isCI
        }
    }

    /// Finds strace and traces `/bin/true` with it once.
    private static func probe() -> Availability {
        guard let strace = ExternalTool.find("strace") else { return .notOnPath }
        let result: ProcessOutcome.Result
        do {
            result = try ProcessOutcome.run(
                strace, ["-f", "-o", "/dev/null", "/bin/true"], in: FileManager.default.temporaryDirectory,
                timeLimit: 30)
        } catch {
            return .cannotTrace(strace, reason: "it could not be started: \(error)")
        }
        if result.exited(with: [0]) { return .usable(strace) }
        let ending =
            result.timedOut
            ? "timed out" : result.signalled ? "was killed by signal \(result.status)" : "exited \(result.status)"
        let said = result.stderrText.split(separator: "\n").first.map { ": \($0)" } ?? " saying nothing"
        let ptrace = result.stderrText.contains("Operation not permitted") ? " (ptrace is not permitted)" : ""
        return .cannotTrace(strace, reason: "`strace -f /bin/true` \(ending)\(said)\(ptrace)")
    }
}
