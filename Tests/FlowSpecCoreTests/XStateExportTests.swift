import FlowSpecTestSupport
import Foundation
import Testing

@testable import FlowSpecCore

/// `flowspec export --format xstate`: the configs of the reference flows (golden), the shape
/// of what flowspec decides in XState's terms, and every config run in XState itself (through
/// `Tests/Engines/xstate_export_runs.js`), which must reach the same states and run the same
/// effects as `flowspec simulate` on the same inputs.
@Suite("XState export")
struct XStateExportTests {
    static let runner = Fixtures.packageRoot.appendingPathComponent("Tests/Engines/xstate_export_runs.js")

    static func config(_ spec: String, machine: String) throws -> String {
        let result = SpecChecker().check(try Fixtures.source(spec))
        let graph = try #require(result.graphs.first { $0.machine.name.value == machine })
        return XStateExporter.config(graph)
    }

    static func config(ofSpec text: String) throws -> String {
        let result = SpecChecker().check(SourceFile(path: "spec.yaml", text: text))
        #expect(result.diagnostics.filter { $0.severity == .error }.isEmpty, "\(result.diagnostics)")
        return XStateExporter.config(try #require(result.graphs.first))
    }

    @Test("the reference flows export as the goldens", arguments: SCXMLExportTests.referenceMachines)
    func referenceFlowsMatchTheGolden(machine: String) throws {
        let output = try Self.config("specs/app.yaml", machine: machine)
        try Fixtures.expectGolden(
            output, at: Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/export/app.\(machine).xstate.json"))
    }

    @Test func everyExportIsJSONThatKeepsItsStatesInOrder() throws {
        for (graph, _, _) in try SCXMLExportTests.machines() {
            let config = XStateExporter.config(graph)
            let value = try JSONReader.read(Array(config.utf8))
            #expect(value["id"]?.string == graph.machine.name.value)
            var keys: [String] = []
            func visit(_ states: FlowSpecCore.JSONValue?) {
                for member in states?.members ?? [] {
                    if member.value["meta"]?["flowspec"]?["role"]?.string != "route" { keys.append(member.key) }
                    visit(member.value["states"])
                }
            }
            visit(value["states"])
            // A machine parallel at its top is the root itself: its regions are the root's states.
            let states = graph.machine.states.indices.dropFirst(graph.machine.parallelAtTop == nil ? 0 : 1)
            #expect(keys == states.map { graph.machine.name(of: $0) }, "\(config)")
        }
    }

    @Test func flowspecsDecisionsAreWrittenInXStatesTerms() throws {
        let config = try Self.config(
            ofSpec: """
                flowspec: 1
                machines:
                  Shapes:
                    initial: start
                    conditions: [ready, blocked]
                    effects: [log]
                    on: { reset: start }
                    states:
                      start: { kind: input, on: { go: { to: busy, if: ready }, reset: { to: start, unless: blocked } } }
                      busy:
                        kind: task
                        timeout: { after: 1500ms, to: busy, retry: { max: 2, then: failed, effects: [log] } }
                        on: { ok: start }
                      failed: { kind: terminal }
                """)
        // A state that handles an event under a condition overrides the machine's transition
        // on it even when the condition does not hold: a targetless transition ends the search.
        #expect(
            config.contains(
                #"""
                "reset" : [
                          {
                            "target" : "start",
                            "guard" : {
                              "type" : "flowspec.when",
                              "params" : {
                                "unless" : "blocked"
                              }
                            },
                            "reenter" : true
                          },
                          {

                          }
                        ]
                """#), "\(config)")
        #expect(config.contains(#""guard" : "ready""#))
        // A retry counts while below its bound, then goes to `then`; the timeout is `after`.
        #expect(config.contains(#""after" : {"#) && config.contains(#""1500" : ["#))
        #expect(config.contains(#""type" : "flowspec.retry.count""#))
        #expect(config.contains(#""below" : 2"#) && config.contains(#""atLeast" : 2"#))
        // Input and terminal states start the retry counts again.
        #expect(config.components(separatedBy: #""type" : "flowspec.retry.reset""#).count == 3)
        // A terminal state ignores the machine's events.
        let failed = try #require(JSONReader.read(Array(config.utf8))["states"]?["failed"])
        #expect(failed["on"]?.members.map(\.key) == ["reset"])
        #expect(failed["on"]?["reset"]?.members.isEmpty == true)
        #expect(failed["meta"]?["flowspec"]?["kind"]?.string == "terminal")
    }

    /// A transition without a target is XState's actions-only transition (`actions: []` when
    /// it has no effects, so that it is not the export's own `{}`); one in a region, where the
    /// parallel state handles the event too, is a place where XState differs.
    @Test func transitionsWithoutATargetAreActionsOnly() throws {
        let config = try Self.config(
            ofSpec: """
                flowspec: 1
                machines:
                  Player:
                    initial: playing
                    defaults: { kind: input }
                    conditions: [busy]
                    effects: [logStop]
                    states:
                      playing:
                        on: { stop: stopped }
                        parallel:
                          video:
                            initial: running
                            states:
                              running: { on: { stop: { effects: [logStop] }, quit: { if: busy, effects: [] } } }
                          audio:
                            initial: loud
                            states:
                              loud: { on: { quit: stopped } }
                      stopped: { kind: terminal }
                """)
        let root = try JSONReader.read(Array(config.utf8))
        let running = try #require(root["states"]?["playing"]?["states"]?["video"]?["states"]?["running"]?["on"])
        let stop = try #require(running["stop"])
        #expect(stop["target"] == nil && stop["actions"]?.list.compactMap(\.string) == ["logStop"], "\(config)")
        let quit = try #require(running["quit"]?.list.first)
        #expect(quit["target"] == nil && quit["guard"]?.string == "busy", "\(config)")
        #expect(quit["actions"]?.list.isEmpty == true, "\(config)")
        let differs = root["meta"]?["flowspec"]?["differsInXState"]?.list.compactMap(\.string) ?? []
        #expect(
            differs == [
                "'playing', 'stop': where a state in one region handles it without a target (it stays), XState does not look above the regions, so it does not take the transition on it that flowspec takes for the other regions"
            ], "\(config)")
    }

    /// A machine parallel at its top is a root of `type: "parallel"`, its regions the root's
    /// states; a target naming the machine names the root by its id. Started at a chosen state
    /// inside a region, it keeps its parallel state as a state, entered through a router.
    @Test func aMachineParallelAtItsTopIsAParallelRoot() throws {
        let config = try Self.config(ofSpec: SCXMLExportTests.parallelAtTop)
        let root = try JSONReader.read(Array(config.utf8))
        #expect(root["id"]?.string == "Player" && root["type"]?.string == "parallel", "\(config)")
        #expect(root["initial"] == nil, "\(config)")
        #expect(root["states"]?.members.map(\.key) == ["playback", "volume"], "\(config)")
        #expect(root["on"]?["reset"]?["target"]?.string == "#Player", "\(config)")
        let started = try Self.config(
            ofSpec: SCXMLExportTests.parallelAtTop.replacingOccurrences(
                of: "    on: { reset:", with: "    initial: muted\n    on: { reset:"))
        let other = try JSONReader.read(Array(started.utf8))
        #expect(other["type"] == nil && other["initial"]?.string == "start_muted", "\(started)")
        #expect(other["states"]?.members.map(\.key) == ["Player", "start_muted"], "\(started)")
    }

    /// XState's `initial` and a history's `target` run no actions: a way in with effects goes
    /// through a router that runs them on its way on, which `flowspec import` reads back.
    @Test func aWayInWithEffectsGoesThroughARouter() throws {
        let config = try Self.config("Tests/Fixtures/gen/golden/initial.yaml", machine: "CodeEntry")
        let verifying = try #require(JSONReader.read(Array(config.utf8))["states"]?["verifying"])
        #expect(verifying["initial"]?.string == "initial_sending", "\(config)")
        let router = try #require(verifying["states"]?["initial_sending"])
        #expect(router["meta"]?["flowspec"]?["role"]?.string == "route")
        #expect(router["always"]?["target"]?.string == "sending")
        #expect(router["always"]?["actions"]?.list.compactMap(\.string) == ["startAttempt"])
        #expect(verifying["states"]?["last"]?["target"]?.string == "initial_typing", "\(config)")
        let back = try XStateImportTests.imported(config, name: "CodeEntry").0.spec
        #expect(back.contains("initial: { to: sending, effects: [startAttempt] }"), "\(back)")
        #expect(back.contains("default: { to: typing, effects: [restored] }"), "\(back)")
    }

    /// A parallel state's history state takes no router (SCXML leaves and enters the parallel
    /// state on a transition into it from inside, as flowspec does); XState's domain is the
    /// parallel state itself, which the config says.
    @Test func aParallelStatesHistoryIsListedWhereXStateDiffers() throws {
        let config = try Self.config(ofSpec: ParallelMachineTests.radio)
        let root = try JSONReader.read(Array(config.utf8))
        #expect(root["states"]?["on"]?["states"]?["last"]?["type"]?.string == "history", "\(config)")
        #expect(
            root["states"]?["on"]?["states"]?["playback"]?["states"]?["paused"]?["on"]?["restart"]?.string == "#last",
            "\(config)")
        let differences = root["meta"]?["flowspec"]?["differsInXState"]?.list.compactMap(\.string) ?? []
        #expect(differences.contains { $0.hasPrefix("'on': a transition from inside it into its history state") })
    }

    @Test func whatXStateCannotHoldIsListedInTheMeta() throws {
        let config = try Self.config("specs/app.yaml", machine: "Chapters")
        let meta = try #require(JSONReader.read(Array(config.utf8))["meta"]?["flowspec"])
        let left = meta["notCarriedOver"]?.list.compactMap(\.string) ?? []
        #expect(left.contains { $0.hasPrefix("persist") }, "\(config)")
    }

    @Test func theSameMachineGivesTheSameBytes() throws {
        let first = try Self.config("specs/app.yaml", machine: "App")
        let second = try Self.config("specs/app.yaml", machine: "App")
        #expect(first == second)
    }

    // MARK: - XState itself

    /// `node` where it loads XState 5 (`FLOWSPEC_XSTATE`, else `require("xstate")`), or why not.
    static let engine: Result<URL, EngineDifferentialTests.Missing> = {
        let purpose = "the XState export cannot be run in XState"
        guard let node = ExternalTool.find("node") else {
            return .failure(
                .init(ExternalTool.notOnPath("node", for: purpose, install: "apt-get install nodejs")))
        }
        let probe = try? ProcessRunner.run(
            node,
            ["-e", #"const X = require(process.env.FLOWSPEC_XSTATE || "xstate"); process.exit(X.createActor ? 0 : 1)"#])
        guard let probe, probe.status == 0 else {
            return .failure(
                .init(
                    "node cannot load XState 5, so \(purpose): set FLOWSPEC_XSTATE to a build of it "
                        + "(npm install xstate@5; node_modules/xstate/dist/xstate.cjs.js). The npm registry "
                        + "is out of CI's reach, so only the round trip through `flowspec import` runs there."))
        }
        return .success(node)
    }()

    static var node: URL? { try? engine.get() }
    static var missingMessage: String {
        if case .failure(let missing) = engine { return missing.message }
        return ""
    }

    /// The lines `Tests/Engines/xstate_export_runs.js` prints for `runs`, by run.
    static func run(_ runs: [[String: Any]], node: URL) throws -> [String: [String]] {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("flowspec-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: runs).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        // FLOWSPEC_KEEP_ENGINE_RUNS=PATH keeps the runs there, to run the script by hand.
        if let kept = ProcessInfo.processInfo.environment["FLOWSPEC_KEEP_ENGINE_RUNS"] {
            try JSONSerialization.data(withJSONObject: runs).write(to: URL(fileURLWithPath: kept))
        }
        let output = try ProcessRunner.run(node, [runner.path, input.path])
        // The last lines: the first may quote a whole minified build of XState.
        let stderr = output.stderr.split(separator: "\n").suffix(12).map { $0.prefix(300) }.joined(separator: "\n")
        try #require(output.status == 0, "the engine's driver failed:\n\(stderr)")
        return EngineDifferentialTests.linesByRun(output.stdout)
    }

    @Test(.enabled(if: node != nil, Comment(rawValue: missingMessage)))
    func everyStepAgreesInXState() throws {
        let node = try #require(Self.node)
        let machines = try SCXMLExportTests.machines()
        var runs: [[String: Any]] = []
        var expected: [String: [String]] = [:]
        // Machines whose config lists where XState differs (`meta.flowspec.differsInXState`).
        var flagged: Set<String> = []
        var configs: [String: String] = [:]
        for run in try SCXMLExportTests.engineRuns(machines) {
            let name = run.program.name.name
            // As text: a dictionary would lose the order of the states, which is XState's
            // document order.
            let config = configs[name] ?? XStateExporter.config(run.graph)
            if configs[name] == nil,
                try JSONReader.read(Array(config.utf8))["meta"]?["flowspec"]?["differsInXState"] != nil
            {
                flagged.insert(name)
            }
            configs[name] = config
            // XState cannot cancel a timer from JSON: a state at rest ignores it instead, which
            // the states and effects show; so timers are not compared.
            expected[run.key] = run.expected.map { $0.components(separatedBy: " | timers: ")[0] }
            runs.append(["key": run.key, "config": config, "steps": try run.steps.map(SCXMLExportTests.json)])
        }
        if let kept = ProcessInfo.processInfo.environment["FLOWSPEC_KEEP_ENGINE_RUNS"] {
            try JSONSerialization.data(withJSONObject: expected).write(to: URL(fileURLWithPath: kept + ".expected"))
        }
        let actual = try Self.run(runs, node: node)
        var comparison = TraceComparison(expectedSide: "flowspec", actualSide: "XState")
        var differing = TraceComparison(expectedSide: "flowspec", actualSide: "XState")
        for (key, lines) in expected.sorted(by: { $0.key < $1.key }) {
            if flagged.contains(String(key.prefix { $0 != "#" })) {
                differing.compare(key, expected: lines, actual: actual[key] ?? [])
            } else {
                comparison.compare(key, expected: lines, actual: actual[key] ?? [])
            }
        }
        #expect(comparison.compared > 10_000, "only \(comparison.compared) steps were compared")
        #expect(comparison.disagreements.count == 0, "\(comparison.disagreements.summary)")
        // Where the config says XState differs, it does: the note is not a blanket excuse.
        #expect(flagged.count == 34, "\(flagged.sorted())")
        #expect(differing.disagreements.count > 0, "\(differing.compared) steps of flagged machines all agree")
    }
}
