import FlowSpecTestSupport
import Foundation
import Testing

/// util-linux's `prlimit`, which runs a command with a resource limit of our choosing.
private let prlimit = ExternalTool.find("prlimit")

/// `gen` writes atomically: a process ended at any moment leaves the output either as it was
/// or complete, never truncated.
///
/// The moments are chosen, and each run proves where it ended, rather than killing after a
/// guessed delay (which may land before anything was written, proving nothing): a file-size
/// limit stops `gen` at a chosen byte of its temporary file, and strace kills it on entry to
/// a chosen system call after the whole file is written.
@Suite("Atomic writes (process)")
struct AtomicWriteTests {
    /// A machine big enough that its Swift is written over many pages (about 900 KB).
    static func bigSpec(states: Int) -> String {
        var text = "flowspec: 1\nmachines:\n  Big:\n    initial: s0\n    defaults: { kind: input }\n    states:\n"
        for index in 0..<states { text += "      s\(index): { on: { next: s\((index + 1) % states) } }\n" }
        return text
    }

    /// A directory holding `Big.swift` as `gen` wrote it from a 3-state spec (the old output),
    /// and `new.yaml`, whose complete output is `new`.
    struct Setup {
        let directory: URL
        let output: URL
        let old: Data
        let new: Data
        static let genArguments = ["gen", "new.yaml", "--output", "Big.swift"]

        init() throws {
            directory = try CLI.temporaryDirectory(with: [
                "old.yaml": AtomicWriteTests.bigSpec(states: 3), "new.yaml": AtomicWriteTests.bigSpec(states: 20_000)
            ])
            output = directory.appendingPathComponent("Big.swift")
            try #require(try CLI.run(["gen", "old.yaml", "--output", "Big.swift"], in: directory).status == 0)
            old = try Data(contentsOf: output)
            // The complete new output, generated once elsewhere, to compare with. (Both name
            // their source `new.yaml` in the header, so the bytes are the same.)
            try #require(try CLI.run(["gen", "new.yaml", "--output", "Complete.swift"], in: directory).status == 0)
            new = try Data(contentsOf: directory.appendingPathComponent("Complete.swift"))
        }

        /// Puts the old output back and removes the temporary files that ended runs left.
        func reset() throws {
            try old.write(to: output)
            for name in try temporaries().keys {
                try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
            }
        }

        /// The temporary siblings of `Big.swift` (`.Big.swift.flowspec-PID.tmp`) and their sizes.
        func temporaries() throws -> [String: Int] {
            var found: [String: Int] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path)
            where name.hasPrefix(".Big.swift.flowspec-") {
                let attributes = try FileManager.default.attributesOfItem(
                    atPath: directory.appendingPathComponent(name).path)
                found[name] = (attributes[.size] as? NSNumber)?.intValue ?? -1
            }
            return found
        }

        /// What `Big.swift` holds now: "old", "new", or its size when it is neither.
        func outputState() throws -> String {
            let now = try Data(contentsOf: output)
            return now == old ? "old" : now == new ? "new" : "neither old nor new (\(now.count) bytes)"
        }
    }

    /// `gen` ended part-way through writing its temporary file, at byte offsets drawn from a
    /// seeded generator (and at 0, just after creating it). `prlimit --fsize=N` lets the
    /// process write N bytes to a file; the write that reaches the limit stops there and the
    /// next one raises SIGXFSZ, which ends the process. The temporary file left holding
    /// exactly N bytes proves that the run ended mid-write.
    @Test(
        .enabled(
            if: prlimit != nil,
            Comment(
                rawValue: ExternalTool.notOnPath(
                    "prlimit", for: "gen cannot be stopped at a chosen byte",
                    install: "util-linux; .ci/run installs it"))))
    func genEndedMidWriteLeavesTheOldOutput() throws {
        let prlimit = try #require(prlimit)
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.directory) }
        var generator = SplitMix64(seed: 0xA70_41C)
        let limits = [0] + (0..<6).map { _ in generator.inRange(1...(setup.new.count - 1)) }
        for limit in limits {
            try setup.reset()
            let result = try Self.withFileSizeSignalUnblocked {
                try ProcessOutcome.run(
                    prlimit, ["--fsize=\(limit)", CLI.executable.path] + Setup.genArguments, in: setup.directory)
            }
            #expect(result.signalled && result.status == SIGXFSZ, "limit \(limit): \(result)")
            // Proof that the run ended mid-write, and where: one temporary file, of `limit` bytes.
            let temporaries = try setup.temporaries()
            #expect(Array(temporaries.values) == [limit], "limit \(limit): \(temporaries)")
            #expect(try setup.outputState() == "old", "limit \(limit)")
        }
    }

    /// Runs `body` with SIGXFSZ unblocked on this thread, so that the processes it starts
    /// inherit it unblocked. The test runner's threads block most signals, and a child that
    /// inherits SIGXFSZ blocked gets EFBIG at the limit instead, then cleans up and exits 2.
    static func withFileSizeSignalUnblocked<T>(_ body: () throws -> T) rethrows -> T {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGXFSZ)
        var previous = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &signals, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }

    /// Where strace kills `gen` (SIGKILL on entry to the call), and what it must leave: the
    /// temporary file complete but the output old before the rename, the new output after it.
    static let killPoints: [(call: String, output: String)] = [
        ("fsync", "old"), ("rename", "old"), ("exit_group", "new")
    ]

    /// `gen` killed after its temporary file is written in full: before it is flushed, before
    /// it is renamed, and after (when the process exits).
    // Skipped, saying which, when strace is missing or cannot trace here (see `StraceTool`).
    @Test(StraceTool.required, arguments: killPoints.map(\.call))
    func genKilledAfterWritingLeavesTheOldOrTheNewOutput(call: String) throws {
        let point = try #require(Self.killPoints.first { $0.call == call })
        let strace = try StraceTool.executable()
        let setup = try Setup()
        defer { try? FileManager.default.removeItem(at: setup.directory) }
        try setup.reset()
        let log = setup.directory.appendingPathComponent("strace.log")
        let result = try ProcessOutcome.run(
            strace,
            ["-f", "-e", "trace=\(call)", "-e", "inject=\(call):signal=KILL", "-o", log.path, CLI.executable.path]
                + Setup.genArguments, in: setup.directory)
        let trace = try String(contentsOf: log, encoding: .utf8)
        try FileManager.default.removeItem(at: log)
        // The proof that the kill landed at that call: strace saw the call, then the death.
        #expect(trace.contains("\(call)(") && trace.contains("+++ killed by SIGKILL +++"), "\(result)\n\(trace)")
        let temporaries = try setup.temporaries()
        if point.output == "old" {
            #expect(Array(temporaries.values) == [setup.new.count], "\(call): \(temporaries)")
        } else {
            #expect(temporaries.isEmpty, "\(call): \(temporaries)")
        }
        #expect(try setup.outputState() == point.output, "killed on entry to \(call)")
    }
}
