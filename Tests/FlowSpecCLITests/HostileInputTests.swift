import FlowSpecTestSupport
import Foundation
import Testing

/// util-linux's `prlimit`, which bounds a process's CPU time and memory.
private let prlimit = ExternalTool.find("prlimit")

/// Specs, documents and traces as a stranger's pull request may send them, through every
/// command as a process: nothing the user did not name is printed, no name forges a line, and
/// each input ends with a located finding or a clear refusal, within bounded CPU time and
/// memory (`prlimit`: the process is killed past either bound, and the test fails). Large
/// inputs are generated here. The classes and the promise are in docs/hostile-input.md.
/// Without `prlimit` on `PATH` (a fresh machine; `.ci/run` installs it, and fails without it)
/// only the watchdog bounds each run.
///
/// The bounds are for a debug build on a loaded two-core machine, far above what a release
/// build takes (measured in `Benchmarks/`) and far below what the same inputs took before
/// they were bounded (minutes, gigabytes).
@Suite("Hostile input (process)", .timeLimit(.minutes(10)))
struct HostileInputTests {
    /// A file's content that must never reach any output: what a secrets file would hold.
    static let secret = "API_TOKEN=hunter2-0123456789abcdef"

    /// How a bounded run ended.
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        var all: String { stdout + stderr }
    }

    /// Runs `flowspec` in `directory` under CPU and memory
    /// bounds, with a wall-clock watchdog for what waits without computing (a FIFO); records
    /// an issue if the process was killed or crashed.
    static func bounded(
        _ arguments: [String], in directory: URL, cpuSeconds: Int = 60, memory: Int = 1 << 30,
        executable: URL = CLI.executable
    ) throws -> Run {
        var program = executable
        var words = arguments
        if let prlimit {
            program = prlimit
            words = ["--cpu=\(cpuSeconds)", "--as=\(memory)", executable.path] + arguments
        }
        let capture = try ProcessRunner.capture(program, words, in: directory, timeLimit: 120)
        let run = Run(
            status: capture.status, stdout: String(decoding: capture.stdout, as: UTF8.self),
            stderr: String(decoding: capture.stderr, as: UTF8.self))
        #expect(!capture.timedOut, "flowspec \(arguments.joined(separator: " ")) did not end")
        #expect(
            !capture.signalled,
            "flowspec \(arguments.joined(separator: " ")) was killed (signal \(capture.status)): over its bounds, or a crash\n\(run.stderr.suffix(2_000))"
        )
        return run
    }

    // MARK: - Nothing leaks

    /// A spec that imports a file that is not a spec (`/etc/passwd`, `.env`) gets a finding
    /// at its `imports` entry that says where the file's first error is, never what the file
    /// holds, in every output format.
    @Test(arguments: ["text", "json", "github", "sarif"])
    func anImportedFileIsNeverQuoted(format: String) throws {
        let directory = try CLI.temporaryDirectory(with: [
            "repo/app.yaml": """
            flowspec: 1
            imports: [../outside/.env, secrets.txt]
            machines:
              App:
                initial: a
                states:
                  a: { kind: terminal }

            """,
            "outside/.env": Self.secret + "\n",
            "repo/secrets.txt": "- " + Self.secret + "\n- more: " + Self.secret + "\n"
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try Self.bounded(["check", "--format", format, "repo/app.yaml"], in: directory)
        #expect(run.status == 1)
        #expect(!run.all.contains("hunter2"), "\(run.all)")
        #expect(run.all.contains("invalid-import"))
        if format == "text" {
            #expect(run.stdout.contains("note: the first is at ../outside/.env:1:1 [invalid-value]"), "\(run.stdout)")
        }
    }

    /// The language server publishes the same finding, and quotes nothing either.
    @Test func theLanguageServerQuotesNoImportedFile() throws {
        let directory = try CLI.temporaryDirectory(with: ["secrets.txt": Self.secret + "\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let uri = directory.appendingPathComponent("app.yaml").absoluteString
        let text =
            "flowspec: 1\nimports: [secrets.txt]\nmachines:\n  App:\n    initial: a\n    states:\n      a: { kind: terminal }\n"
        let messages = try LanguageServerTests.session(opening: uri, text)
        let found = try #require(LanguageServerTests.diagnostics(messages, uri))
        let dump = String(decoding: try JSONSerialization.data(withJSONObject: messages), as: UTF8.self)
        #expect(found.contains { ($0["code"] as? String) == "invalid-import" }, "\(found)")
        #expect(!dump.contains("hunter2"))
    }

    /// A spec that is one long string is quoted by its start only.
    @Test func aLongValueIsQuotedByItsStart() throws {
        let long = String(repeating: "x", count: 5_000)
        let directory = try CLI.temporaryDirectory(with: ["long.yaml": long + "\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try Self.bounded(["check", "--format", "json", "long.yaml"], in: directory)
        #expect(run.status == 1)
        #expect(run.stdout.contains("not the string '\(String(repeating: "x", count: 40))… (5000 characters)'"))
        #expect(!run.stdout.contains(String(repeating: "x", count: 41)))
    }

    /// A value restored from the command line cannot add a line to the trace.
    @Test func aRestoredValueCannotForgeATraceLine() throws {
        let directory = try CLI.temporaryDirectory(with: [
            "p.yaml": """
            flowspec: 1
            machines:
              P:
                initial: a
                persist: { rawValue: string }
                events: [go]
                states:
                  a: { kind: input, on: { go: b } }
                  b: { kind: input, on: { go: a } }

            """
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try Self.bounded(
            ["simulate", "p.yaml", "--restore", "x\n-> b | effects: - | forged\u{2028}", "go"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout
                == "restore(x\\u{A}-> b | effects: - | forged\\u{2028}) -> a | effects: - | timeout: -\n"
                + "go -> b | effects: - | timeout: -\n")
        // What simulate prints, replay reads back: the escapes are the value's characters.
        try run.stdout.write(to: directory.appendingPathComponent("t.trace"), atomically: true, encoding: .utf8)
        let replay = try Self.bounded(["simulate", "p.yaml", "--replay", "t.trace"], in: directory)
        #expect(replay.status == 0, "\(replay.all)")
    }

    // MARK: - Nothing hangs

    /// What is not a regular file (a FIFO no one writes to, a device) is refused before it is
    /// read, wherever a path is taken: a spec, an import, a trace, a document, an output to
    /// compare with.
    @Test func whatIsNotARegularFileIsRefused() throws {
        let spec = "flowspec: 1\nmachines:\n  A:\n    initial: a\n    states:\n      a: { kind: terminal }\n"
        let directory = try CLI.temporaryDirectory(with: [
            "a.yaml": spec,
            "imports.yaml": "flowspec: 1\nimports: [fifo, /dev/zero]\nmachines:\n" + spec.dropFirst(22),
            "invoke.scxml": """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s">
              <state id="s"><invoke src="fifo"/><transition event="e" target="t"/></state>
              <final id="t"/>
            </scxml>

            """
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(mkfifo(directory.appendingPathComponent("fifo").path, 0o600) == 0)
        #expect(mkfifo(directory.appendingPathComponent("fifo.swift").path, 0o600) == 0)
        let refused = "not a regular file"
        let commands: [[String]] = [
            ["check", "fifo"], ["check", "/dev/zero"], ["gen", "fifo", "--output", "out.swift"],
            ["simulate", "fifo"], ["simulate", "a.yaml", "--replay", "fifo"], ["paths", "fifo"],
            ["coverage", "a.yaml", "fifo"], ["graph", "fifo", "--format", "dot"], ["diff", "a.yaml", "fifo"],
            ["export", "fifo", "--format", "scxml"],
            ["import", "fifo"], ["import", "invoke.scxml", "fifo"],
            ["gen", "a.yaml", "--output", "fifo.swift", "--check"]
        ]
        for command in commands {
            let run = try Self.bounded(command, in: directory)
            #expect(run.status == 2 || run.status == 1, "\(command): \(run.all)")
            #expect(run.all.contains(refused), "\(command): \(run.all)")
        }
        let imports = try Self.bounded(["check", "imports.yaml"], in: directory)
        #expect(imports.status == 1)
        #expect(imports.stdout.contains("cannot import 'fifo': it is \(refused)"), "\(imports.stdout)")
        #expect(imports.stdout.contains("cannot import '/dev/zero': it is \(refused)"), "\(imports.stdout)")
        let invoke = try Self.bounded(["import", "invoke.scxml"], in: directory)
        #expect(invoke.all.contains(refused), "\(invoke.all)")
    }

    /// 24 machines, each running the next from two states: 2^24 states if composed.
    static let machinesRunningTheNextTwice: String = {
        var lines = ["flowspec: 1", "machines:"]
        for level in 0..<24 {
            lines += ["  M\(level):", "    initial: a", "    states:"]
            lines +=
                level < 23
                ? [
                    "      a: { run: M\(level + 1), done: { end: b } }",
                    "      b: { run: M\(level + 1), done: { end: end } }", "      end: { kind: terminal }"
                ]
                : ["      a: { kind: input, on: { go: end } }", "      end: { kind: terminal }"]
        }
        return lines.joined(separator: "\n") + "\n"
    }()

    /// 24 machines, each running the next from two states, would copy 2^24 states: refused
    /// before any is copied, once, at the `run` that crosses the limit, by every command.
    @Test func machinesThatRunOneAnotherDoNotMultiply() throws {
        let directory = try CLI.temporaryDirectory(with: ["dag.yaml": Self.machinesRunningTheNextTwice])
        defer { try? FileManager.default.removeItem(at: directory) }
        for command in [
            ["check", "dag.yaml"], ["gen", "dag.yaml", "--output", "out.swift"], ["paths", "dag.yaml"],
            ["graph", "dag.yaml", "--format", "mermaid"], ["simulate", "dag.yaml", "--machine", "M0"],
            ["export", "dag.yaml", "--machine", "M0", "--format", "scxml"]
        ] {
            let run = try Self.bounded(command, in: directory, cpuSeconds: 60, memory: 1 << 30)
            // `graph` draws what it can, and exits 0 when it printed a diagram.
            #expect(run.status == (command[0] == "graph" ? 0 : 1), "\(command): \(run.all.suffix(1_000))")
            let findings = run.all.components(separatedBy: "[limit-exceeded]").count - 1
            #expect(findings == 1, "\(command): \(run.all.suffix(2_000))")
            #expect(run.all.contains("--max-composed-states"), "\(command)")
        }
        let raised = try Self.bounded(["check", "dag.yaml", "--max-composed-states", "100"], in: directory)
        #expect(raised.stdout.contains("over 100 states"), "\(raised.stdout.suffix(1_000))")
    }

    /// 300 parallel regions of two states each, each region with its own event: more
    /// configurations than can be explored. Every command that explores them refuses within
    /// a bounded memory, with a message about regions (the machine has no timers).
    @Test func manyRegionsAreRefusedWithinBoundedMemory() throws {
        func spec(property: Bool) -> String {
            var lines = [
                "flowspec: 1", "machines:", "  P:", "    initial: p", "    states:", "      p:", "        parallel:"
            ]
            for region in 0..<300 {
                lines += [
                    "          r\(region):", "            initial: x\(region)", "            states:",
                    "              x\(region): { kind: input, on: { e\(region): y\(region) } }",
                    "              y\(region): { kind: input, on: { e\(region): x\(region) } }"
                ]
            }
            if property { lines += ["    conditions: [c]", "    require:", "      - never: { in: x0, while: c }"] }
            return lines.joined(separator: "\n") + "\n"
        }
        let directory = try CLI.temporaryDirectory(with: [
            "regions.yaml": spec(property: false), "property.yaml": spec(property: true)
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        // A trace of the start alone, for `coverage`: as `simulate` prints it.
        let start = try Self.bounded(["simulate", "regions.yaml"], in: directory)
        try start.stdout.write(to: directory.appendingPathComponent("start.trace"), atomically: true, encoding: .utf8)
        let property = try Self.bounded(["check", "property.yaml"], in: directory, memory: 1 << 30)
        #expect(property.status == 1)
        #expect(
            property.stdout.contains("too many configurations to explore within"), "\(property.stdout.prefix(2_000))")
        #expect(property.stdout.contains("the 300 states it can be in at once"))
        #expect(!property.stdout.contains("timer"))
        for command in [
            ["paths", "regions.yaml"], ["coverage", "regions.yaml", "start.trace"],
            ["gen", "--tests", "regions.yaml", "--output", "Tests.swift"]
        ] {
            let run = try Self.bounded(command, in: directory, memory: 1 << 30)
            #expect(run.status == 2, "\(command): \(run.all.prefix(1_000))")
            #expect(run.stderr.contains("too many configurations to explore within"), "\(command): \(run.stderr)")
            #expect(!run.stderr.contains("timer"), "\(command)")
        }
        let diff = try Self.bounded(["diff", "property.yaml", "property.yaml"], in: directory, memory: 1 << 30)
        #expect(diff.status == 1)
        #expect(diff.stderr.hasSuffix("flowspec: 0 changes, 2 errors (2 in the specs, above), 0 other findings\n"))
    }

    /// A retry bound too large to explore is refused where it is written.
    @Test func aHugeRetryBoundIsRefused() throws {
        let directory = try CLI.temporaryDirectory(with: [
            "retry.yaml": """
            flowspec: 1
            machines:
              A:
                initial: a
                states:
                  a:
                    timeout: { after: 1s, to: a, retry: { max: 9223372036854775807, then: c } }
                  c: { kind: terminal }

            """
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        for command in [["check", "retry.yaml"], ["paths", "retry.yaml"]] {
            let run = try Self.bounded(command, in: directory, cpuSeconds: 20, memory: 1 << 30)
            #expect(run.status == 1, "\(command)")
            #expect(run.all.contains("retry.yaml:7:52: error: `max` of a retry is at most 1000"), "\(run.all)")
        }
    }

    /// Collections nested deeper than any spec needs: `--max-depth` accepts at most 1,024
    /// (libyaml's time grows with the square of the depth of flow collections), and a file
    /// nested 8,000 deep ends at that depth.
    @Test func deepNestingIsBoundedWhateverTheOption() throws {
        let depth = 8_000
        var text = "flowspec: 1\nmachines:\n  D:\n    initial: s0\n    states: "
        for level in 0..<depth { text += "{ s\(level): { initial: s\(level + 1), states: " }
        text += "{ s\(depth): { kind: input } }" + String(repeating: " } }", count: depth) + "\n"
        let directory = try CLI.temporaryDirectory(with: ["deep.yaml": text])
        defer { try? FileManager.default.removeItem(at: directory) }
        let refused = try Self.bounded(["check", "--max-depth", "40000", "deep.yaml"], in: directory)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--max-depth can be at most 1024; got 40000"), "\(refused.stderr)")
        let deepest = try Self.bounded(["check", "--max-depth", "1024", "deep.yaml"], in: directory, cpuSeconds: 20)
        #expect(deepest.status == 1)
        #expect(deepest.stdout.contains("collections nest more than 1024 levels deep here [limit-exceeded]"))
    }

    /// One state with 20,000 events: each input is found by its event, not by a scan of the
    /// state's transitions, and the paths take each once (one path: each event, then back).
    /// The properties are searched over every one of them. (Linear time: `Benchmarks/`.)
    @Test func aStateWithThousandsOfEventsIsPlannedAndSearched() throws {
        let count = 20_000
        let events = (0..<count).map { "e\($0)" }
        let spec =
            "flowspec: 1\nmachines:\n  H:\n    initial: a\n    conditions: [c]\n"
            + "    events: [\(events.joined(separator: ", ")), back]\n    states:\n      a:\n        kind: input\n        on:\n"
            + events.map { "          \($0): b\n" }.joined() + "      b: { kind: input, on: { back: a } }\n"
            + "    require:\n      - never: { in: b, while: c }\n      - atMost: { times: 3, of: e0, before: b }\n"
        let directory = try CLI.temporaryDirectory(with: ["hub.yaml": spec])
        defer { try? FileManager.default.removeItem(at: directory) }
        let check = try Self.bounded(["check", "hub.yaml"], in: directory, cpuSeconds: 60)
        #expect(check.status == 1)
        #expect(check.stdout.contains("requirement failed: a run enters 'b' at an input where 'c' holds"))
        #expect(check.stdout.components(separatedBy: "[requirement-failed]").count == 2, "atMost holds")
        let withoutProperties = spec.components(separatedBy: "    require:")[0]
        try withoutProperties.write(
            to: directory.appendingPathComponent("hub.yaml"), atomically: true, encoding: .utf8)
        let paths = try Self.bounded(["paths", "hub.yaml"], in: directory, cpuSeconds: 60)
        #expect(paths.status == 0, "\(paths.stderr)")
        let steps = paths.stdout.split(separator: "\n").filter { $0.contains(" -> ") }
        #expect(steps.count == 1 + 2 * count - 1, "start, each event, and back between them")
    }

    /// SCXML documents that invoke the next from two states each come in as machines that run
    /// one another, once each; the check of what `import` writes stops at the composition
    /// limit, once.
    @Test func documentsThatInvokeOneAnotherDoNotMultiply() throws {
        var files: [String: String] = [:]
        for level in 0..<24 {
            let body =
                level < 23
                ? """
                <state id="a"><invoke src="d\(level + 1).scxml" autoforward="true"/><transition event="done.invoke" target="b"/></state>
                <state id="b"><invoke src="d\(level + 1).scxml" autoforward="true"/><transition event="done.invoke" target="end"/></state>
                """
                : #"<state id="a"><transition event="go" target="end"/></state>"#
            files["d\(level).scxml"] =
                #"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="a" name="D\#(level)">"#
                + body + #"<final id="end"/></scxml>"# + "\n"
        }
        let directory = try CLI.temporaryDirectory(with: files)
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try Self.bounded(["import", "d0.scxml", "--output", "out.yaml"], in: directory)
        #expect(run.status == 1, "\(run.all.suffix(2_000))")
        #expect(run.all.components(separatedBy: "[limit-exceeded]").count == 2, "\(run.all.suffix(2_000))")
    }

    /// The language server checks what an editor sends as the user types: a spec changed into
    /// one whose machines run one another from two states each is refused as `check` refuses it.
    @Test func theLanguageServerBoundsAnEditedSpec() throws {
        let uri = "file:///w/app.flowspec.yaml"
        let clean = "flowspec: 1\nmachines:\n  A:\n    initial: a\n    states:\n      a: { kind: terminal }\n"
        var input = try LanguageServerTests.frame(LanguageServerTests.request(1, "initialize"))
        input += try LanguageServerTests.frame(
            LanguageServerTests.notification(
                "textDocument/didOpen", ["textDocument": ["uri": uri, "version": 1, "text": clean]]))
        input += try LanguageServerTests.frame(
            LanguageServerTests.notification(
                "textDocument/didChange",
                [
                    "textDocument": ["uri": uri, "version": 2],
                    "contentChanges": [["text": Self.machinesRunningTheNextTwice]]
                ]))
        input += try LanguageServerTests.frame(LanguageServerTests.request(2, "shutdown"))
        input += try LanguageServerTests.frame(LanguageServerTests.notification("exit"))
        let directory = try CLI.temporaryDirectory(with: [:])
        defer { try? FileManager.default.removeItem(at: directory) }
        let inputFile = directory.appendingPathComponent("input")
        try input.write(to: inputFile)
        let server = LanguageServerTests.executable
        let words = prlimit.map { _ in ["--cpu=60", "--as=\(1 << 30)", server.path] } ?? []
        let process = Process()
        process.executableURL = prlimit ?? server
        process.arguments = words
        process.standardInput = try FileHandle(forReadingFrom: inputFile)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "killed or failed")
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.components(separatedBy: "limit-exceeded").count == 2, "\(text.suffix(2_000))")
        #expect(text.contains("--max-composed-states"))
    }

    /// A 20 MB attribute value, and a 20 MB JSON string, are refused where they start, within
    /// bounded memory, and nothing is written.
    @Test func hugeValuesInDocumentsAreRefusedWhereTheyStart() throws {
        let huge = String(repeating: "x", count: 20 << 20)
        let directory = try CLI.temporaryDirectory(with: [
            "big.scxml": #"<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="s">"# + "\n"
                + #"  <state id="s" x=""# + huge + #""/></scxml>"# + "\n",
            "big.json": #"{"id": "m", "initial": "s", "states": {"s": {"description": ""# + huge + #""}}}"# + "\n"
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        for (file, position, what) in [
            ("big.scxml", "2:19", "an attribute value"), ("big.json", "1:61", "a string")
        ] {
            let run = try Self.bounded(
                ["import", file, "--output", "out.yaml"], in: directory, cpuSeconds: 30, memory: 1 << 30)
            #expect(run.status == 2, "\(file): \(run.all.prefix(1_000))")
            #expect(
                run.all.contains("\(file):\(position): error: \(what) of \(20 << 20) bytes is over the limit of"),
                "\(file): \(run.all.prefix(1_000))")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.yaml").path))
        }
    }
}
