import Foundation
import Testing

/// `flowspec coverage`: recorded traces replayed and counted against what the machine can do.
@Suite("flowspec coverage (process)")
struct CoverageCommandTests {
    static let spec = "specs/app.yaml"
    static let trace = "Tests/Fixtures/traces/launch-auth.trace"

    /// The paths `flowspec paths` prints exercise everything each machine can do.
    @Test(arguments: ["FirstRun", "LaunchAuth", "Chapters", "App"])
    func thePathsCoverEverything(machine: String) throws {
        let paths = try CLI.run(["paths", Self.spec, "--machine", machine])
        let directory = try CLI.temporaryDirectory(with: ["paths.trace": paths.stdout])
        let spec = CLI.packageRoot.appendingPathComponent(Self.spec).path
        let output = try CLI.run(
            ["coverage", spec, "--machine", machine, "paths.trace", "--minimum", "100"], in: directory)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        let lines = output.stdout.split(separator: "\n")
        #expect(lines.count == 1, "nothing is left unexercised:\n\(output.stdout)")
        #expect(lines.first?.hasPrefix("\(machine): 100.0% of transitions exercised") == true, "\(output.stdout)")
    }

    @Test func whatARecordedTraceMissedIsListedBySpecLine() throws {
        let output = try CLI.run(["coverage", Self.spec, "--machine", "LaunchAuth", Self.trace])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "LaunchAuth: 40.7% of transitions exercised (9/11 states, 10/22 transitions, 1/5 timeouts) by 1 run")
        // Located by content: the spec's lines move as it grows.
        let specLines = try String(
            contentsOfFile: CLI.packageRoot.appendingPathComponent(Self.spec).path, encoding: .utf8
        )
        .split(separator: "\n", omittingEmptySubsequences: false)
        let launchAuth = try #require(specLines.firstIndex { $0 == "  LaunchAuth:" })
        func line(_ text: String) throws -> Int {
            try #require(specLines[launchAuth...].firstIndex { $0.contains(text) }) + 1
        }
        #expect(
            lines.contains("specs/app.yaml:\(try line("      authenticated:")):7: not exercised: state 'authenticated'")
        )
        #expect(
            lines.contains(
                "specs/app.yaml:\(try line("timeout: { after: 10s, to: error }")):18: not exercised: 'authLoading' timeout -> 'error'"
            ))
        #expect(
            lines.contains(
                "specs/app.yaml:\(try line("forceReset: unauthenticated")):19: not exercised: machine-wide 'forceReset' -> 'unauthenticated'"
            ))
        #expect(!lines.contains { $0.contains("'networkError'") }, "the trace retries until the bound")
        #expect(lines.count == 19)
    }

    /// A transition without a target is an item of its own: the paths take it, a trace that
    /// takes it exercises it, and one that does not lists it, as staying.
    @Test func aTransitionWithoutATargetIsCoveredLikeAnyOther() throws {
        let spec = "Tests/Fixtures/rules/invalid-value/clean-transitions-without-to.yaml"
        let paths = try CLI.run(["paths", spec])
        #expect(paths.status == 0, "\(paths.stderr)")
        #expect(paths.stdout.contains("\nresend -> entering | effects: sendCode | timeout: -\n"), "\(paths.stdout)")
        let directory = try CLI.temporaryDirectory(with: [
            "paths.trace": paths.stdout,
            "short.trace":
                "start -> entering | effects: - | timeout: -\nsubmit -> verifying | effects: - | timeout: 10000ms -> entering\n"
        ])
        let path = CLI.packageRoot.appendingPathComponent(spec).path
        let full = try CLI.run(["coverage", path, "paths.trace", "--minimum", "100"], in: directory)
        #expect(full.status == 0, "\(full.stdout)\(full.stderr)")
        let short = try CLI.run(["coverage", path, "short.trace"], in: directory)
        #expect(short.status == 0, "\(short.stderr)")
        #expect(
            short.stdout.contains(":17:19: not exercised: 'entering' on 'resend' -> (stays)\n"), "\(short.stdout)")
        #expect(
            short.stdout.contains(":12:12: not exercised: machine-wide 'tap' -> (stays)\n"), "\(short.stdout)")
    }

    /// Each outcome of a machine run counts once, where the running state's `done` maps it.
    @Test func eachOutcomeOfASubFlowCounts() throws {
        let paths = try CLI.run(["paths", Self.spec, "--machine", "App"]).stdout.split(separator: "\n")
        // The first path up to the story's first chapter: sign-in ended, the story did not.
        let end = try #require(paths.firstIndex { $0.hasPrefix("mainAppLoaded -> story.handshake") })
        let start = try #require(paths.firstIndex { $0.hasPrefix("start -> ") })
        let trace = paths[start...end].joined(separator: "\n") + "\n"
        let directory = try CLI.temporaryDirectory(with: ["app.trace": trace])
        let spec = CLI.packageRoot.appendingPathComponent(Self.spec).path
        let output = try CLI.run(["coverage", spec, "--machine", "App", "app.trace"], in: directory)
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n").map(String.init)
        // Located at the `done` entry that maps it.
        let specLines = try String(contentsOfFile: spec, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        let doneLine = try #require(specLines.firstIndex { $0.contains("done: { eventHorizon: finished }") }) + 1
        #expect(lines.first?.contains(", 1/2 outcomes) by 1 run") == true, "\(output.stdout)")
        #expect(!lines.contains { $0.contains("outcome 'mainApp'") }, "sign-in ended where its `done` maps")
        #expect(
            lines.contains {
                $0.hasSuffix(":\(doneLine):31: not exercised: 'story' outcome 'eventHorizon' of Chapters -> 'finished'")
            }, "\(output.stdout)")
    }

    @Test func belowTheMinimumIsAnError() throws {
        let output = try CLI.run(["coverage", Self.spec, "--machine", "LaunchAuth", Self.trace, "--minimum", "50"])
        #expect(output.status == 1)
        #expect(
            output.stderr.contains(
                "flowspec: error: 40.7% of the transitions of 'LaunchAuth' were exercised, less than the --minimum of 50%"
            ))
    }

    @Test func jsonCountsEachKind() throws {
        let output = try CLI.run(["coverage", Self.spec, "--machine", "LaunchAuth", Self.trace, "--format", "json"])
        #expect(output.status == 0)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let machine = try #require((document["machines"] as? [[String: Any]])?.first)
        let counts = try #require(machine["counts"] as? [String: [String: Int]])
        #expect(counts["transition"] == ["exercised": 10, "total": 22])
        #expect(counts["timeout"] == ["exercised": 1, "total": 5])
        #expect((machine["notExercised"] as? [Any])?.count == 18)
        #expect(machine["transitionPercent"] as? String == "40.7%")
    }

    @Test(arguments: ["mermaid", "dot"])
    func theDiagramMarksWhatWasMissed(format: String) throws {
        let output = try CLI.run(["coverage", Self.spec, "--machine", "LaunchAuth", Self.trace, "--format", format])
        #expect(output.status == 0)
        // Mermaid shows `#58;` as `:` (it rejects a second raw `:` in a description).
        let colon = format == "mermaid" ? "#58;" : ":"
        #expect(output.stdout.contains("not exercised\(colon) not entered, mainAppLoaded, mainAppLoadFailed, timeout"))
        if format == "mermaid" { #expect(output.stdout.contains("classDef unexercised")) }
    }

    @Test func aTraceThatDisagreesIsLocated() throws {
        var text = try String(contentsOf: CLI.packageRoot.appendingPathComponent(Self.trace), encoding: .utf8)
        text = text.replacingOccurrences(of: "noSession -> unauthenticated", with: "noSession -> mainApp")
        let directory = try CLI.temporaryDirectory(with: ["device.trace": text])
        let spec = CLI.packageRoot.appendingPathComponent(Self.spec).path
        let output = try CLI.run(["coverage", spec, "--machine", "LaunchAuth", "device.trace"], in: directory)
        #expect(output.status == 1)
        #expect(output.stdout.hasPrefix("device.trace:4:1: error: the log and the spec disagree"), "\(output.stdout)")
    }

    @Test func aSpecOfSeveralMachinesNeedsOne() throws {
        let output = try CLI.run(["coverage", Self.spec, Self.trace])
        #expect(output.status == 2)
        #expect(
            output.stderr.contains("has 4 machines; choose one with --machine (FirstRun, LaunchAuth, Chapters, App)"))
    }
}
