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
        #expect(replayed == 7, "every path of the three machines")
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
            output.stderr.contains("flowspec: error: machine 'LaunchAuth' needs 4 paths of 48 steps"),
            "\(output.stderr)")
        #expect(output.stderr.contains("the limit is 3 paths"))
    }

    @Test func anUnknownMachineIsNamed() throws {
        let output = try CLI.run(["paths", "specs/app.yaml", "--machine", "Launch"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("has no machine 'Launch'; it has FirstRun, LaunchAuth, Chapters"))
    }
}
