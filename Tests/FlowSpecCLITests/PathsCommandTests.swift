import Foundation
import Testing

/// `flowspec paths`: the paths of the reference flows as goldens, each path a trace that
/// `simulate --replay` accepts, and the refusals.
@Suite("flowspec paths (process)")
struct PathsCommandTests {
    /// Compares `text` with the golden `Tests/Fixtures/paths/NAME`, or writes it when
    /// `FLOWSPEC_RECORD_GOLDEN=1`.
    static func expectGolden(_ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = CLI.packageRoot.appendingPathComponent("Tests/Fixtures/paths/\(name)")
        if ProcessInfo.processInfo.environment["FLOWSPEC_RECORD_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let golden = try String(contentsOf: url, encoding: .utf8)
        #expect(
            text == golden, "differs from \(name); re-record with FLOWSPEC_RECORD_GOLDEN=1",
            sourceLocation: sourceLocation)
    }

    @Test(arguments: ["text", "json"])
    func theReferenceFlowsPathsAreTheGolden(format: String) throws {
        let output = try CLI.run(["paths", "specs/app.yaml", "--format", format])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.isEmpty)
        try Self.expectGolden(output.stdout, "app.\(format == "text" ? "txt" : "json")")
        let again = try CLI.run(["paths", "specs/app.yaml", "--format", format])
        #expect(again.stdout == output.stdout, "the same spec gives the same paths")
    }

    /// Every path of the text output, alone in a file, replays against the spec.
    @Test func eachPathReplaysWithSimulate() throws {
        let output = try CLI.run(["paths", "specs/app.yaml"])
        var replayed = 0
        for block in output.stdout.components(separatedBy: "\n\n") {
            // `# MACHINE path N: …`
            guard
                let header = block.split(separator: "\n").first(where: {
                    $0.split(separator: " ").dropFirst(2).first == "path"
                }),
                let machine = header.split(separator: " ").dropFirst().first
            else { continue }
            let directory = try CLI.temporaryDirectory(with: ["path.trace": block + "\n"])
            let spec = CLI.packageRoot.appendingPathComponent("specs/app.yaml").path
            let replay = try CLI.run(
                ["simulate", spec, "--machine", String(machine), "--replay", "path.trace"], in: directory)
            #expect(replay.status == 0, "\(header): \(replay.stdout)\(replay.stderr)")
            replayed += 1
        }
        #expect(replayed == 25, "every path of the four machines: 9 cover them, 16 show their properties")
    }

    @Test func aSpecWithErrorsGetsChecksFindingsAndNoPaths() throws {
        let directory = try CLI.temporaryDirectory(with: [
            "bad.yaml":
                "flowspec: 1\nmachines:\n  M:\n    initial: a\n    states:\n      a: { kind: input, on: { go: nowhere } }\n"
        ])
        let output = try CLI.run(["paths", "bad.yaml"], in: directory)
        #expect(output.status == 1)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains("bad.yaml:6:"), "\(output.stderr)")
        #expect(output.stderr.contains("[undefined-state]"))
        #expect(output.stderr.contains("no paths were generated"))
    }

    @Test func tooManyPathsIsRefusedWithTheCount() throws {
        let output = try CLI.run(["paths", "specs/app.yaml", "--machine", "LaunchAuth", "--max-paths", "3"])
        #expect(output.status == 2)
        #expect(output.stdout.isEmpty)
        #expect(
            output.stderr.hasPrefix(
                "specs/app.yaml:\(try Self.line(of: "  LaunchAuth:")):3: error: "
                    + "machine 'LaunchAuth' needs 8 paths of 61 steps"),
            "\(output.stderr)")
        #expect(output.stderr.contains("the limit is 3 paths"))
        #expect(output.stderr.hasSuffix("[limit-exceeded]\n"), "\(output.stderr)")
    }

    /// A parallel state of 3 regions, each a loop of 50 states on its own event; with `timers`,
    /// every other state is a task state whose timeout (1 to 5 seconds) goes on too.
    static func grid(timers: Bool) -> String {
        var text = "flowspec: 1\nmachines:\n  Grid:\n    initial: grid\n    states:\n      grid:\n        parallel:\n"
        for region in 0..<3 {
            text += "          r\(region):\n            initial: r\(region)s0\n            states:\n"
            for index in 0..<50 {
                let next = "r\(region)s\((index + 1) % 50)"
                text +=
                    timers && index.isMultiple(of: 2)
                    ? "              r\(region)s\(index): { kind: task, on: { e\(region): \(next) }, "
                        + "timeout: { after: \(1 + (index * 7 + region) % 5)s, to: \(next) } }\n"
                    : "              r\(region)s\(index): { kind: input, on: { e\(region): \(next) } }\n"
            }
        }
        return text
    }

    /// Regions whose timers run on while the others move: every combination of the time left
    /// on them is a configuration, far more than the default for a parallel machine allows.
    @Test func tooManyConfigurationsAreRefusedAtTheMachineWithTheLimit() throws {
        let text = Self.grid(timers: true)
        let start =
            "start -> r0s0, r1s0, r2s0 | effects: - | timeout: r0s0 1000ms -> r0s1, r1s0 2000ms -> r1s1, "
            + "r2s0 3000ms -> r2s1\n"
        let directory = try CLI.temporaryDirectory(with: ["grid.yaml": text, "start.trace": start])
        // The default once (the exploration up to it takes a while in a debug build), then a
        // lower limit in each command that plans paths.
        let commands = [
            (["paths", "grid.yaml"], 30_000),
            (["paths", "grid.yaml", "--max-configurations", "100"], 100),
            (["coverage", "grid.yaml", "start.trace", "--max-configurations", "100"], 100),
            (["gen", "--tests", "grid.yaml", "--output", "Tests.swift", "--max-configurations", "100"], 100)
        ]
        for (command, limit) in commands {
            let output = try CLI.run(command, in: directory)
            #expect(output.status == 2, "\(command)")
            #expect(output.stdout.isEmpty)
            #expect(
                output.stderr.hasPrefix("grid.yaml:3:3: error: machine 'Grid' has more than \(limit) configurations"),
                "\(output.stderr)")
            #expect(output.stderr.contains("raise --max-configurations"))
            #expect(output.stderr.hasSuffix("[limit-exceeded]\n"), "\(output.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("Tests.swift").path))
        let zero = try CLI.run(["paths", "grid.yaml", "--max-configurations", "0"], in: directory)
        #expect(zero.status == 2)
        #expect(zero.stderr.contains("--max-configurations must be at least 1; got 0"), "\(zero.stderr)")
        let withoutTests = try CLI.run(
            ["gen", "grid.yaml", "--output", "Grid.swift", "--max-configurations", "10"], in: directory)
        #expect(withoutTests.status == 2)
        #expect(withoutTests.stderr.contains("use it with --tests"), "\(withoutTests.stderr)")
    }

    /// The same regions without timers: once every item is found, what lies further is not
    /// explored, so their 125,000 configurations are never built.
    @Test func coveringStopsExploringOnceEveryItemIsFound() throws {
        let directory = try CLI.temporaryDirectory(with: ["grid.yaml": Self.grid(timers: false)])
        let output = try CLI.run(["paths", "grid.yaml", "--max-configurations", "40000"], in: directory)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("# Grid: 1 path covers 304 of 304 "), "\(output.stdout.prefix(300))")
    }

    /// The line of `specs/app.yaml` that starts with `prefix`.
    static func line(of prefix: String) throws -> Int {
        let text = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("specs/app.yaml"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return try #require(lines.firstIndex { $0.hasPrefix(prefix) }) + 1
    }

    @Test func anUnknownMachineIsNamed() throws {
        let output = try CLI.run(["paths", "specs/app.yaml", "--machine", "Launch"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("has no machine 'Launch'; it has FirstRun, LaunchAuth, Chapters"))
    }
}

/// A machine that runs only as a sub-flow (`standalone: false`) has no paths, coverage or test
/// suite of its own: it is exercised through the machines that run it.
@Suite("A machine that runs only as a sub-flow (process)")
struct SubFlowOnlyCommandTests {
    static let spec = "Tests/Fixtures/gen/golden/subflows.yaml"

    @Test func pathsCoverTheMachinesThatRunItOnly() throws {
        let all = try CLI.run(["paths", Self.spec])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stdout.contains("# Checkout path 1"))
        #expect(all.stdout.contains("# verify runs Verify"), "Checkout's paths go through Verify")
        #expect(!all.stdout.contains("# Verify"), "\(all.stdout)")
        let alone = try CLI.run(["paths", Self.spec, "--machine", "Verify"])
        #expect(alone.status != 0)
        #expect(alone.stdout.isEmpty)
        #expect(alone.stderr.contains("machine 'Verify' runs only as a sub-flow (`standalone: false`)"))
    }

    @Test func coverageIsMeasuredOnTheMachinesThatRunIt() throws {
        let directory = try CLI.temporaryDirectory(with: ["run.trace": "start -> entering | effects: -\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("run.trace").path
        let alone = try CLI.run(["coverage", Self.spec, trace, "--machine", "Verify"])
        #expect(alone.status != 0)
        #expect(alone.stderr.contains("its paths and coverage are those of the machines that run it"))
    }

    @Test func genTestsWritesNoSuiteOfItsOwn() throws {
        let directory = try CLI.temporaryDirectory(with: [:])
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("suites").path
        let run = try CLI.run(["gen", "--tests", Self.spec, "--output", output])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output).sorted() == ["CheckoutPathTests.swift"])
    }
}
