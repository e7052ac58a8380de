import Foundation
import Testing

/// `flowspec graph` as a process: every machine or the one chosen, exactly the goldens of
/// `Tests/Fixtures/graph`; specs with errors drawn; exit codes 0 (printed), 1 (the YAML could not
/// be read), 2 (unreadable file, bad command line, unknown machine); byte-identical runs.
@Suite("flowspec graph (process)")
struct GraphCommandTests {
    static let machines = ["FirstRun", "LaunchAuth", "Chapters", "App"]

    static func golden(_ name: String) throws -> String {
        try String(contentsOf: CLI.packageRoot.appendingPathComponent("Tests/Fixtures/graph/\(name)"), encoding: .utf8)
    }

    @Test(arguments: [("mermaid", "mmd"), ("dot", "dot")])
    func printsEveryMachineInSourceOrder(format: String, ext: String) throws {
        let output = try CLI.run(["graph", "specs/app.yaml", "--format", format])
        #expect(output.status == 0)
        #expect(output.stderr.isEmpty, "a clean spec prints no findings: \(output.stderr)")
        let expected = try Self.machines.map { try Self.golden("app.\($0).\(ext)") }.joined(separator: "\n")
        #expect(output.stdout == expected)
    }

    @Test(arguments: [("mermaid", "mmd"), ("dot", "dot")])
    func machineChoosesOne(format: String, ext: String) throws {
        for machine in Self.machines {
            let output = try CLI.run(["graph", "specs/app.yaml", "--format", format, "--machine", machine])
            #expect(output.status == 0)
            #expect(output.stdout == (try Self.golden("app.\(machine).\(ext)")))
        }
    }

    @Test func aSpecWithErrorsIsDrawnAndHighlightMarksItsFindings() throws {
        let spec = "Tests/Fixtures/graph/findings.yaml"
        let marked = try CLI.run(["graph", spec, "--format", "dot", "--machine", "Loops", "--highlight"])
        #expect(marked.status == 0)
        #expect(marked.stdout == (try Self.golden("findings.Loops.highlight.dot")))
        #expect(marked.stderr.contains("findings.yaml:19:7: error: states 'poll' and 'check' form a loop"))
        #expect(marked.stderr.contains("[undefined-state]"), "findings of every machine are reported")

        let plain = try CLI.run(["graph", spec, "--format", "mermaid", "--machine", "Loops"])
        #expect(plain.status == 0)
        #expect(!plain.stdout.contains("finding") && !plain.stdout.contains("infinite-loop"))

        let all = try CLI.run(["graph", spec, "--format", "mermaid", "--highlight"])
        #expect(
            all.stdout
                == (try ["Loops", "Broken"].map { try Self.golden("findings.\($0).highlight.mmd") }.joined(
                    separator: "\n")))
    }

    @Test(arguments: [("mermaid", "mmd"), ("dot", "dot")])
    func compoundStatesAreDrawnAsTheGoldensShow(format: String, ext: String) throws {
        let output = try CLI.run(["graph", "Tests/Fixtures/graph/nested.yaml", "--format", format])
        #expect(output.status == 0)
        #expect(output.stderr.isEmpty, "a clean spec prints no findings: \(output.stderr)")
        let machines = ["Auth", "Checkout", "Reader"]
        let expected = try machines.map { try Self.golden("nested.\($0).\(ext)") }.joined(separator: "\n")
        #expect(output.stdout == expected)
    }

    @Test(arguments: ["mermaid", "dot"])
    func aSpecWithNestingErrorsIsDrawn(format: String) throws {
        let directory = try CLI.temporaryDirectory(with: [
            "nesting.yaml": """
            flowspec: 1
            machines:
              M:
                initial: outer
                states:
                  outer:
                    initial: elsewhere
                    done: nowhere
                    states:
                      inner: { kind: input, on: { go: elsewhere } }
                  elsewhere: { kind: input, on: { back: outer } }

            """
        ])
        let output = try CLI.run(["graph", "nesting.yaml", "--format", format], in: directory)
        #expect(output.status == 0)
        #expect(output.stderr.contains("[invalid-nesting]") && output.stderr.contains("[undefined-state]"))
        #expect(output.stdout.contains(format == "dot" ? "subgraph cluster_s0 {" : "state \"outer\" as s0 {"))
    }

    @Test func anUnknownMachineExitsTwoAndNamesTheMachines() throws {
        let output = try CLI.run(["graph", "specs/app.yaml", "--format", "mermaid", "--machine", "Onboarding"])
        #expect(output.status == 2)
        #expect(output.stdout.isEmpty)
        #expect(
            output.stderr.contains(
                "specs/app.yaml has no machine 'Onboarding'; it has FirstRun, LaunchAuth, Chapters, App"))
    }

    @Test func anUnreadableFileExitsTwo() throws {
        let directory = try CLI.temporaryDirectory(with: [:])
        let missing = try CLI.run(["graph", "nope.yaml", "--format", "dot"], in: directory)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot read 'nope.yaml'"))
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("dir.yaml"), withIntermediateDirectories: true)
        #expect(try CLI.run(["graph", "dir.yaml", "--format", "dot"], in: directory).status == 2)
    }

    @Test(arguments: [
        ["graph", "specs/app.yaml", "--format", "svg"],
        ["graph", "specs/app.yaml"],
        ["graph", "--format", "mermaid"],
        ["graph", "specs/app.yaml", "--format", "dot", "--colour"]
    ])
    func aBadCommandLineExitsTwo(arguments: [String]) throws {
        let output = try CLI.run(arguments)
        #expect(output.status == 2, "\(arguments): \(output.stderr)")
        #expect(output.stdout.isEmpty)
    }

    @Test func yamlThatCannotBeReadExitsOne() throws {
        let directory = try CLI.temporaryDirectory(with: [
            "broken.yaml": "flowspec: 1\nmachines: { M: [\n",
            "empty.yaml": "flowspec: 1\nmachines: {}\n"
        ])
        let broken = try CLI.run(["graph", "broken.yaml", "--format", "mermaid"], in: directory)
        #expect(broken.status == 1)
        #expect(broken.stdout.isEmpty)
        #expect(broken.stderr.contains("[yaml-syntax]"))
        #expect(broken.stderr.contains("broken.yaml has no machine that could be read; nothing was drawn"))
        let empty = try CLI.run(["graph", "empty.yaml", "--format", "dot"], in: directory)
        #expect(empty.status == 1)
        #expect(empty.stdout.isEmpty)
    }

    @Test func outputIsByteIdenticalAcrossRuns() throws {
        // Each process hashes with its own random seed, so dictionary order would show here.
        for format in ["mermaid", "dot"] {
            let arguments = ["graph", "Tests/Fixtures/graph/findings.yaml", "--format", format, "--highlight"]
            let runs = try (0..<3).map { _ in try CLI.run(arguments).stdout }
            #expect(Set(runs).count == 1)
        }
    }

    @Test func helpListsTheCommand() throws {
        let output = try CLI.run(["--help"])
        #expect(output.stdout.contains("graph"))
        let help = try CLI.run(["graph", "--help"])
        #expect(help.stdout.contains("--highlight") && help.stdout.contains("--machine"))
    }
}
