import Foundation
import Testing

/// Bad input ends quickly with a located error and exit 1 (2 for a file that cannot be read),
/// never a crash, a trap or a hang. The exact findings of each bad input are fixtures in
/// `Tests/Fixtures/input`; here each is run as a process to check how it ends.
///
/// The suite's time limit is a watchdog, not a measure (each process has its own): a case's
/// time runs from when it is started, and in a full run on two cores the compile tests hold
/// the test threads for minutes.
@Suite("Bad input (process)", .timeLimit(.minutes(10)))
struct BadInputTests {
    static let inputs = [
        "truncated-flow-sequence", "tab-indentation", "only-comments", "deep-nesting", "alias-bomb",
        "binary", "second-document", "invalid-utf8", "control-character"
    ]

    @Test(arguments: inputs)
    func endsWithALocatedErrorAndExitOne(name: String) throws {
        let path = "Tests/Fixtures/input/\(name).yaml"
        let output = try CLI.run(["check", "--format", "json", path])
        #expect(output.status == 1, "\(name): \(output.stderr)")
        struct Findings: Decodable {
            struct Entry: Decodable {
                var line: Int
                var column: Int
                var file: String
            }
            var diagnostics: [Entry]
        }
        let findings = try JSONDecoder().decode(Findings.self, from: Data(output.stdout.utf8))
        let first = try #require(findings.diagnostics.first)
        #expect(first.file == path)
        #expect(first.line >= 1 && first.column >= 1)
    }

    /// A large spec is mapped while it is read; one that another program truncates meanwhile
    /// ends with a clear error and status 2, not with the bus error reading past its end raises.
    ///
    /// The truncation comes at a point the test knows, not after a guessed delay. `diff --base
    /// REF NEW` reads NEW (a large file, so it maps it, touching only its first page) and then
    /// runs `git` before it checks it. The `git` on the test's `PATH` is a script that first
    /// opens a FIFO (flowspec itself refuses FIFOs), whose opening waits for the test to open
    /// its other end. So when the test's open returns, NEW is mapped and not yet parsed: the
    /// test truncates it, and only then lets the script go on, as a repository where NEW did
    /// not exist at REF.
    @Test func aLargeSpecTruncatedWhileItIsReadIsAnErrorNotACrash() throws {
        let text = Self.chain(states: 40_000)
        // Over SpecFileReader.mappingThreshold (1 MiB), so that NEW is mapped, not copied.
        try #require(text.utf8.count > 1 << 20)
        let directory = try CLI.temporaryDirectory(with: [
            "big.yaml": text,
            "bin/git": "#!/bin/sh\ncase \"$*\" in *rev-parse*) cat \"$FLOWSPEC_TEST_GATE\" >/dev/null ;; esac\nexit 0\n"
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let bin = directory.appendingPathComponent("bin")
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o755], ofItemAtPath: bin.appendingPathComponent("git").path)
        let big = directory.appendingPathComponent("big.yaml").path
        let gate = directory.appendingPathComponent("gate").path
        try #require(mkfifo(gate, 0o600) == 0, "mkfifo: \(String(cString: strerror(errno)))")
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let run = try FIFORun(
            ["diff", "--base", "HEAD", big], fifo: gate, environment: ["PATH": path, "FLOWSPEC_TEST_GATE": gate])
        let writer = try #require(FileHandle(forWritingAtPath: gate), "cannot open the FIFO for writing")
        defer { try? writer.close() }
        // Only the script, or the end of flowspec, opens the FIFO's read end (see FIFORun).
        try #require(run.process.isRunning, "flowspec ended before it ran git: \(run.finish().message)")
        try #require(truncate(big, 100) == 0, "truncate: \(String(cString: strerror(errno)))")
        try writer.close()
        let outcome = run.finish()
        #expect(outcome.reason == .exit, "ended by signal \(outcome.status): \(outcome.message)")
        #expect(outcome.status == 2, "\(outcome.message)")
        #expect(outcome.message.contains("flowspec: error: a spec file shrank while it was being read"))
    }

    /// A spec of one machine whose `states` are a chain of `states` input states.
    static func chain(states: Int) -> String {
        var text = "flowspec: 1\nmachines:\n  Big:\n    initial: s0\n    defaults: { kind: input }\n    states:\n"
        for index in 0..<states { text += "      s\(index): { on: { go: s\(index + 1) } }\n" }
        return text + "      s\(states): { kind: terminal }\n"
    }

    /// `flowspec` started on arguments whose run opens a FIFO's read end (through a program it
    /// runs), with its standard error captured. If flowspec ends without the FIFO having been
    /// opened, its end opens the FIFO's read end and keeps it open, so that the test's open for
    /// writing returns rather than waiting for ever (the test then sees that flowspec is no
    /// longer running).
    struct FIFORun {
        let process = Process()
        private let errors = Pipe()
        private let readEnd = ReadEnd()

        /// The FIFO's read end opened by the termination handler, closed by `finish()`.
        final class ReadEnd: @unchecked Sendable {
            // Set on the termination handler's thread, read on the test's: behind the lock.
            private let lock = NSLock()
            private var descriptor: Int32 = -1

            func openFIFO(_ fifo: String) {
                let opened = open(fifo, O_RDONLY | O_NONBLOCK)
                lock.withLock { descriptor = opened }
            }

            func closeFIFO() {
                lock.withLock {
                    if descriptor >= 0 { close(descriptor) }
                    descriptor = -1
                }
            }
        }

        init(_ arguments: [String], fifo: String, environment: [String: String] = [:]) throws {
            process.executableURL = CLI.executable
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            let readEnd = readEnd
            process.terminationHandler = { _ in readEnd.openFIFO(fifo) }
            try process.run()
        }

        /// Waits for flowspec to end, and says how it did.
        func finish() -> (reason: Process.TerminationReason, status: Int32, message: String) {
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            readEnd.closeFIFO()
            return (process.terminationReason, process.terminationStatus, message)
        }
    }

    @Test func emptyFileSaysItIsEmpty() throws {
        let directory = try CLI.temporaryDirectory(with: ["empty.yaml": ""])
        let output = try CLI.run(["check", "empty.yaml"], in: directory)
        #expect(output.status == 1)
        #expect(
            output.stdout.hasPrefix(
                "empty.yaml:1:1: error: the file is empty; a spec starts with `flowspec: 1` [unsupported-version]"))
    }

    @Test func pathThroughAFileExitsTwo() throws {
        let directory = try CLI.temporaryDirectory(with: ["spec.yaml": "flowspec: 1\n"])
        let output = try CLI.run(["check", "spec.yaml/inner.yaml"], in: directory)
        #expect(output.status == 2)
        #expect(output.stderr.contains("cannot read 'spec.yaml/inner.yaml': Not a directory"))
    }
}
