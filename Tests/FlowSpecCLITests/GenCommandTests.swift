import Foundation
import Testing

/// `flowspec gen` as a process: refusal on errors, the header, atomic only-if-changed writes,
/// the `--check` drift gate, per-machine output and the access level.
@Suite("flowspec gen (process)")
struct GenCommandTests {
    static func scratch() throws -> URL {
        let directory = try CLI.temporaryDirectory(with: [:])
        let spec = try String(contentsOf: CLI.packageRoot.appendingPathComponent("specs/app.yaml"), encoding: .utf8)
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("specs"), withIntermediateDirectories: true)
        try spec.write(to: directory.appendingPathComponent("specs/app.yaml"), atomically: true, encoding: .utf8)
        return directory
    }

    static func read(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    @Test func refusesASpecWithErrorsAndWritesNothing() throws {
        let directory = try CLI.temporaryDirectory(with: [
            "bad.yaml": """
            flowspec: 1
            machines:
              M:
                initial: a
                states:
                  a: { kind: input, on: { go: b } }
            """
        ])
        let output = try CLI.run(["gen", "bad.yaml", "--output", "Out.swift"], in: directory)
        #expect(output.status == 1)
        #expect(
            output.stderr.contains(
                "bad.yaml:6:35: error: target 'b' is not a state of machine 'M'; did you mean 'a'? [undefined-state]"))
        #expect(output.stderr.contains("nothing was generated"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("Out.swift").path))
    }

    /// Every command runs a machine with a parallel state, and both forms of code write it.
    @Test func runsParallelRegionsInEveryCommand() throws {
        let directory = try CLI.temporaryDirectory(with: [
            "player.yaml": """
            flowspec: 1
            machines:
              Player:
                initial: playing
                defaults: { kind: input }
                events: [stop, toggle]
                states:
                  playing:
                    on: { stop: stopped }
                    parallel:
                      video: { states: { running: { on: { toggle: paused } }, paused: { on: { toggle: running } } } }
                      audio: { states: { loud: { on: { toggle: quiet } }, quiet: { on: { toggle: loud } } } }
                  stopped: { kind: terminal }
            """,
            "run.trace": ""
        ])
        let table = try CLI.run(["gen", "player.yaml", "--shape", "table", "--output", "Table.swift"], in: directory)
        #expect(table.status == 0, "\(table.stderr)")
        let tableForm = try Self.read(directory.appendingPathComponent("Table.swift"))
        #expect(tableForm.contains("sharedTable") && tableForm.contains("static let maximumLeaves = 2"))
        let generated = try CLI.run(["gen", "player.yaml", "--output", "Out.swift"], in: directory)
        #expect(generated.status == 0, "\(generated.stderr)")
        #expect(try Self.read(directory.appendingPathComponent("Out.swift")).contains("static let maximumLeaves = 2"))
        let simulated = try CLI.run(["simulate", "player.yaml", "toggle", "stop"], in: directory)
        #expect(
            simulated.stdout == """
                start -> running, loud | effects: - | timeout: -
                toggle -> paused, quiet | effects: - | timeout: -
                stop -> stopped | effects: - | timeout: -

                """, "\(simulated.stderr)")
        let paths = try CLI.run(["paths", "player.yaml"], in: directory)
        #expect(paths.status == 0, "\(paths.stderr)")
        #expect(paths.stdout.contains("toggle -> paused, quiet | effects: - | timeout: -\n"), "\(paths.stdout)")
        try simulated.stdout.write(
            to: directory.appendingPathComponent("run.trace"), atomically: true, encoding: .utf8)
        let coverage = try CLI.run(["coverage", "player.yaml", "run.trace"], in: directory)
        #expect(coverage.stdout.contains("state 'quiet'") || coverage.stdout.contains("quiet"), "\(coverage.stdout)")
        #expect(!coverage.stderr.contains("error"), "\(coverage.stderr)")
        let suite = try CLI.run(["gen", "player.yaml", "--tests", "--output", "Tests.swift"], in: directory)
        #expect(suite.status == 0, "\(suite.stderr)")
        #expect(
            try Self.read(directory.appendingPathComponent("Tests.swift")).contains(
                ".init(.event(.toggle), .paused, states: [.paused, .quiet])"))
        #expect(try CLI.run(["check", "player.yaml"], in: directory).status == 0)
        let graph = try CLI.run(["graph", "player.yaml", "--format", "mermaid"], in: directory)
        #expect(graph.status == 0 && graph.stdout.contains("\n        --\n"), "\(graph.stderr)")
    }

    @Test func writesOneFileWithAFixedHeaderAndNoAbsolutePaths() throws {
        let directory = try Self.scratch()
        // A missing parent directory is created.
        let output = try CLI.run(["gen", "specs/app.yaml", "--output", "Generated/App.swift"], in: directory)
        #expect(output.status == 0, "\(output.stderr)")
        let text = try Self.read(directory.appendingPathComponent("Generated/App.swift"))
        #expect(text.hasPrefix("// Generated by flowspec from specs/app.yaml. DO NOT EDIT.\n"))
        #expect(!text.contains(directory.path))
        #expect(
            text.contains("enum FirstRun: FlowSpecRuntime.FlowSpec {")
                && text.contains("enum LaunchAuth: FlowSpecRuntime.FlowSpec {")
                && text.contains("enum Chapters: FlowSpecRuntime.PersistentFlowSpec {"))
        let leftovers = try FileManager.default.contentsOfDirectory(
            atPath: directory.appendingPathComponent("Generated").path)
        #expect(leftovers == ["App.swift"], "no temporary files are left behind")
    }

    @Test func anUnchangedSpecRewritesNothing() throws {
        let directory = try Self.scratch()
        let file = directory.appendingPathComponent("App.swift")
        #expect(try CLI.run(["gen", "specs/app.yaml", "--output", "App.swift"], in: directory).status == 0)
        let past = Date(timeIntervalSince1970: 1_000_000)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: file.path)
        #expect(try CLI.run(["gen", "specs/app.yaml", "--output", "App.swift"], in: directory).status == 0)
        let modified = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        #expect(modified == past, "the file was rewritten although its bytes did not change")
    }

    @Test func checkIsADriftGate() throws {
        let directory = try Self.scratch()
        let missing = try CLI.run(["gen", "specs/app.yaml", "--output", "App.swift", "--check"], in: directory)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("App.swift does not exist"))
        #expect(try CLI.run(["gen", "specs/app.yaml", "--output", "App.swift"], in: directory).status == 0)
        let current = try CLI.run(["gen", "specs/app.yaml", "--output", "App.swift", "--check"], in: directory)
        #expect(current.status == 0)
        #expect(current.stderr.isEmpty)

        let spec = directory.appendingPathComponent("specs/app.yaml")
        try Self.read(spec).replacingOccurrences(
            of: "after: 2s, to: onboardingCheck", with: "after: 3s, to: onboardingCheck"
        )
        .write(to: spec, atomically: true, encoding: .utf8)
        let stale = try CLI.run(["gen", "specs/app.yaml", "--output", "App.swift", "--check"], in: directory)
        #expect(stale.status == 1)
        #expect(stale.stderr.contains("App.swift is out of date with specs/app.yaml"))
        #expect(stale.stderr.contains("on disk:   ") && stale.stderr.contains("generated: "))
        #expect(stale.stderr.contains(".seconds(3)"))
    }

    @Test func aDirectoryGetsOneFilePerMachine() throws {
        let directory = try Self.scratch()
        let output = try CLI.run(
            ["gen", "specs/app.yaml", "--output", "Sources/Flows", "--access-level", "public"],
            in: directory)
        #expect(output.status == 0, "\(output.stderr)")
        let files = try FileManager.default.contentsOfDirectory(
            atPath: directory.appendingPathComponent("Sources/Flows").path)
        #expect(files.sorted() == ["App.swift", "Chapters.swift", "FirstRun.swift", "LaunchAuth.swift"])
        let chapters = try Self.read(directory.appendingPathComponent("Sources/Flows/Chapters.swift"))
        #expect(chapters.contains("public enum Chapters: FlowSpecRuntime.PersistentFlowSpec {"))
        #expect(chapters.contains("\nimport FlowSpecRuntime\n"))
        #expect(chapters.hasPrefix("// Generated by flowspec from specs/app.yaml. DO NOT EDIT.\n"))
    }

    @Test func anAbsoluteSpecPathOutsideTheWorkingDirectoryIsNamedByItsFileName() throws {
        let elsewhere = try Self.scratch()
        let directory = try CLI.temporaryDirectory(with: [:])
        let spec = elsewhere.appendingPathComponent("specs/app.yaml").path
        #expect(try CLI.run(["gen", spec, "--output", "App.swift"], in: directory).status == 0)
        let text = try Self.read(directory.appendingPathComponent("App.swift"))
        #expect(text.hasPrefix("// Generated by flowspec from app.yaml. DO NOT EDIT.\n"))
    }

    @Test func outputIsByteIdenticalAcrossRunsAndDirectories() throws {
        let first = try Self.scratch()
        let second = try Self.scratch()
        #expect(try CLI.run(["gen", "specs/app.yaml", "--output", "App.swift"], in: first).status == 0)
        #expect(try CLI.run(["gen", "specs/app.yaml", "--output", "App.swift"], in: second).status == 0)
        #expect(
            try Self.read(first.appendingPathComponent("App.swift"))
                == Self.read(second.appendingPathComponent("App.swift")))
    }

    @Test func aMissingSpecExitsTwo() throws {
        let directory = try CLI.temporaryDirectory(with: [:])
        let output = try CLI.run(["gen", "nope.yaml", "--output", "App.swift"], in: directory)
        #expect(output.status == 2)
        #expect(output.stderr.contains("cannot read 'nope.yaml'"))
    }
}
