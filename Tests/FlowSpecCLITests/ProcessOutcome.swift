import FlowSpecTestSupport
import Foundation

/// Runs a program like ``CLI/run(_:in:environment:)`` but also says how it ended (an exit or a
/// signal) and stops it after a time limit, so a test can tell a crash or a hang from an exit
/// status.
enum ProcessOutcome {
    struct Result: CustomStringConvertible {
        /// The exit status, or the signal number when `signalled`.
        var status: Int32
        /// Whether the process was ended by a signal (a crash, a trap, or the time limit).
        var signalled: Bool
        /// Whether the time limit ran out and the process was killed.
        var timedOut: Bool
        var stdout: Data
        var stderr: Data

        var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        var stderrText: String { String(decoding: stderr, as: UTF8.self) }

        /// Ended by `exit` with one of `statuses`.
        func exited(with statuses: Set<Int32>) -> Bool { !signalled && !timedOut && statuses.contains(status) }

        var description: String {
            let ending = timedOut ? "timed out" : signalled ? "killed by signal \(status)" : "exit \(status)"
            return "\(ending); stderr: \(stderrText.prefix(2_000))"
        }
    }

    /// Runs `executable` with `arguments` in `directory`, killing it after `seconds`.
    static func run(
        _ executable: URL, _ arguments: [String], in directory: URL,
        timeLimit seconds: Double = 60
    ) throws -> Result {
        let run = try ProcessRunner.capture(
            executable, arguments, in: directory,
            environment: ["NO_COLOR": "1"], timeLimit: seconds)
        return Result(
            status: run.status, signalled: run.signalled, timedOut: run.timedOut,
            stdout: run.stdout, stderr: run.stderr)
    }
}

/// A snapshot of every file and folder below a directory: path (relative) → kind, size and a
/// digest of the contents, for asserting what a command changed.
struct TreeSnapshot: Equatable {
    struct Entry: Equatable {
        var isDirectory: Bool
        var size: Int
        var digest: Int
    }

    var entries: [String: Entry]

    init(of root: URL) {
        entries = [:]
        let base = root.resolvingSymlinksInPath().path + "/"
        guard
            let enumerator = FileManager.default.enumerator(
                at: root.resolvingSymlinksInPath(), includingPropertiesForKeys: [.isDirectoryKey, .isSymbolicLinkKey],
                options: [])
        else { return }
        for case let url as URL in enumerator {
            let path = url.resolvingSymlinksInPath().path
            let relative = path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
            let values = try? url.resourceValues(forKeys: [.isDirectoryKey])
            if values?.isDirectory == true {
                entries[relative] = Entry(isDirectory: true, size: 0, digest: 0)
            } else {
                let data = (try? Data(contentsOf: url)) ?? Data()
                var hasher = Hasher()
                hasher.combine(data)
                entries[relative] = Entry(isDirectory: false, size: data.count, digest: hasher.finalize())
            }
        }
    }

    /// The paths added, changed or removed between `self` and `later`.
    func changes(to later: TreeSnapshot) -> (added: [String], changed: [String], removed: [String]) {
        let added = later.entries.keys.filter { entries[$0] == nil }.sorted()
        let removed = entries.keys.filter { later.entries[$0] == nil }.sorted()
        let changed = entries.keys.filter { key in later.entries[key].map { $0 != entries[key] } ?? false }.sorted()
        return (added, changed, removed)
    }
}
