import FlowSpecTestSupport
import Foundation
import Testing

@testable import FlowSpecCore

/// `flowspec export --format scxml`: the documents of the reference flows (golden), and every
/// document run in an SCXML engine flowspec did not write (python-statemachine, through
/// `Tests/Engines/scxml_export_runs.py`), which must reach the same states, run the same
/// effects and keep the same timers armed as `flowspec simulate` on the same inputs.
@Suite("SCXML export")
struct SCXMLExportTests {
    typealias Gen = DifferentialSpecs

    static let runner = Fixtures.packageRoot.appendingPathComponent("Tests/Engines/scxml_export_runs.py")

    static func document(_ spec: String, machine: String, datamodel: SCXMLExporter.Datamodel) throws -> String {
        let result = SpecChecker().check(try Fixtures.source(spec))
        let graph = try #require(result.graphs.first { $0.machine.name.value == machine })
        return SCXMLExporter.document(graph, datamodel: datamodel)
    }

    static let referenceMachines = ["FirstRun", "LaunchAuth", "Chapters", "App"]

    @Test("the reference flows export as the goldens", arguments: referenceMachines)
    func referenceFlowsMatchTheGolden(machine: String) throws {
        let output = try Self.document("specs/app.yaml", machine: machine, datamodel: .ecmascript)
        try Fixtures.expectGolden(
            output, at: Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/export/app.\(machine).scxml"))
    }

    @Test func theDatamodelsDifferOnlyInTheirExpressions() throws {
        let ecmascript = try Self.document("specs/app.yaml", machine: "LaunchAuth", datamodel: .ecmascript)
        let python = try Self.document("specs/app.yaml", machine: "LaunchAuth", datamodel: .python)
        #expect(ecmascript.contains(#"datamodel="ecmascript""#))
        #expect(ecmascript.contains(#"<data id="firstLaunch" expr="false"/>"#))
        #expect(python.contains(#"<data id="firstLaunch" expr="False"/>"#))
        #expect(
            python.replacingOccurrences(of: "python", with: "ecmascript").replacingOccurrences(
                of: "False", with: "false") == ecmascript)
    }

    @Test func namesSCXMLWouldReadDifferentlyAreEscapedAndKept() throws {
        let text = """
            flowspec: 1
            machines:
              Names:
                initial: sign in
                conditions: [is-ready, class]
                states:
                  sign in: { kind: input, on: { done: a, go: { to: a, if: is-ready }, go.on: { to: a, unless: class } } }
                  a: { kind: input, on: { back: sign in } }
            """
        let result = SpecChecker().check(SourceFile(path: "names.yaml", text: text))
        #expect(result.diagnostics.filter { $0.severity == .error }.isEmpty, "\(result.diagnostics)")
        let document = SCXMLExporter.document(result.graphs[0], datamodel: .ecmascript)
        #expect(document.contains(#"<state id="sign_in" flowspec:name="sign in" flowspec:kind="input">"#))
        #expect(document.contains(#"<data id="is_ready" expr="false" flowspec:name="is-ready"/>"#))
        #expect(document.contains(#"<data id="c_class" expr="false" flowspec:name="class"/>"#))
        // `done` would also match the platform's `done.state.…` events, and `go` every `go.…`.
        #expect(document.contains(#"<transition event="done_" target="a" flowspec:event="done"/>"#))
        #expect(document.contains(#"<transition event="go_" cond="is_ready" target="a" flowspec:event="go"/>"#))
        #expect(document.contains(#"<transition event="go.on" cond="!c_class" target="a"/>"#))
    }

    /// Entering an `input` state sets every retry counter back to 0 with one assignment (a new
    /// epoch), so the document grows with the states and the retries, not with their product.
    @Test func retryCountersStartAgainInOneAssignment() throws {
        var states = ""
        for index in 0..<20 {
            states += "      w\(index): { kind: input, on: { go: t\(index) } }\n"
            states +=
                "      t\(index): { on: { fail: { to: t\(index), retry: { max: 2, then: w\((index + 1) % 20) } } }, timeout: { after: 1s, to: w\(index) } }\n"
        }
        let text = "flowspec: 1\nmachines:\n  Retries:\n    initial: w0\n    states:\n" + states
        let result = SpecChecker().check(SourceFile(path: "retries.yaml", text: text))
        #expect(result.diagnostics.filter { $0.severity == .error }.isEmpty, "\(result.diagnostics)")
        let document = SCXMLExporter.document(result.graphs[0])
        #expect(document.components(separatedBy: "<assign location=\"flowspec_epoch\"").count - 1 == 20)
        // Per retry: its counting transition sets its count and its epoch.
        #expect(document.components(separatedBy: "<assign ").count - 1 == 20 + 20 * 2)
    }

    @Test func theSameSpecGivesTheSameBytes() throws {
        let first = try Self.document("specs/app.yaml", machine: "App", datamodel: .python)
        let second = try Self.document("specs/app.yaml", machine: "App", datamodel: .python)
        #expect(first == second)
    }

    // MARK: - The W3C schema

    /// `python3` where it imports xmlschema, or why not.
    static let validator: Result<URL, EngineDifferentialTests.Missing> = {
        let purpose = "exported SCXML cannot be validated against the W3C schema"
        guard let python = ExternalTool.find("python3") else {
            return .failure(.init(ExternalTool.notOnPath("python3", for: purpose, install: "apt-get install python3")))
        }
        let probe = try? ProcessRunner.run(python, ["-c", "import xmlschema"])
        guard let probe, probe.status == 0 else {
            return .failure(
                .init(
                    "\(python.path) cannot import xmlschema, so \(purpose) (pip install xmlschema; .ci/run installs it)"
                ))
        }
        return .success(python)
    }()

    static var validatorMessage: String {
        if case .failure(let missing) = validator { return missing.message }
        return ""
    }

    @Test(.enabled(if: (try? validator.get()) != nil, Comment(rawValue: validatorMessage)))
    func everyExportIsValidAgainstTheW3CSchema() throws {
        let python = try Self.validator.get()
        var documents: [String: String] = [:]
        for (graph, program, _) in try Self.machines() {
            for datamodel in SCXMLExporter.Datamodel.allCases {
                documents["\(program.name.name).\(datamodel)"] = SCXMLExporter.document(graph, datamodel: datamodel)
            }
        }
        // The validator is live: a `<final>` may hold no transition.
        documents["control"] =
            #"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0"><final id="f"><transition event="x"/></final></scxml>"#
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("flowspec-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: documents).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let script = Fixtures.packageRoot.appendingPathComponent("Tests/Engines/scxml_validate.py")
        let output = try ProcessRunner.run(python, [script.path, input.path])
        try #require(output.status == 0, "the validator failed:\n\(output.stderr)")
        var verdicts: [String: String] = [:]
        for line in output.stdout.split(separator: "\n") {
            let parts = line.split(separator: "|", maxSplits: 1).map { String($0) }
            if parts.count == 2 { verdicts[parts[0]] = parts[1] }
        }
        #expect(verdicts.count == documents.count)
        #expect(verdicts["control"]?.contains("transition") == true, "\(verdicts["control"] ?? "no verdict")")
        let invalid = verdicts.filter { $0.key != "control" && $0.value != "valid" }.sorted { $0.key < $1.key }
        #expect(
            invalid.isEmpty,
            "\(invalid.count) invalid, the first: \(invalid.first.map { "\($0.key): \($0.value)" } ?? "")")
        #expect(documents.count > 500)
    }

    // MARK: - In an engine

    @Test(
        .enabled(
            if: EngineDifferentialTests.python != nil, Comment(rawValue: EngineDifferentialTests.missingMessage)))
    func everyStepAgreesInAnSCXMLEngine() throws {
        let python = try #require(EngineDifferentialTests.python)
        let machines = try Self.machines()
        #expect(machines.contains { $0.graph.machine.nesting.hasParallel })
        #expect(machines.contains { $0.program.retrySlotCount > 0 })
        #expect(machines.contains { !$0.program.histories.isEmpty })

        var runs: [[String: Any]] = []
        var expected: [String: [String]] = [:]
        var documents: [String: String] = [:]
        for run in try Self.engineRuns(machines) {
            let name = run.program.name.name
            let document = documents[name] ?? SCXMLExporter.document(run.graph, datamodel: .python)
            documents[name] = document
            expected[run.key] = run.expected
            runs.append(["key": run.key, "scxml": document, "steps": try run.steps.map(Self.json)])
        }
        if let kept = ProcessInfo.processInfo.environment["FLOWSPEC_KEEP_ENGINE_RUNS"] {
            try JSONSerialization.data(withJSONObject: expected).write(to: URL(fileURLWithPath: kept + ".expected"))
        }
        let actual = try EngineDifferentialTests.run(runs, python: python, script: Self.runner)
        var comparison = TraceComparison(expectedSide: "flowspec", actualSide: "engine")
        for (key, lines) in expected.sorted(by: { $0.key < $1.key }) {
            comparison.compare(key, expected: lines, actual: actual[key] ?? [])
        }
        #expect(comparison.compared > 10_000, "only \(comparison.compared) steps were compared")
        #expect(comparison.disagreements.count == 0, "\(comparison.disagreements.summary)")
    }

    /// A run of an engine test: a machine, random inputs, and the lines `simulate` prints for
    /// them as the engine's runner prints them (``comparable(_:label:order:)``).
    struct EngineRun {
        var key: String
        var graph: MachineGraph
        var program: FlowProgram
        var steps: [Simulation.Step]
        var expected: [String]
    }

    /// The runs of the engine tests: as many per machine as `machines` asks, each of 30 random
    /// inputs.
    static func engineRuns(_ machines: [(graph: MachineGraph, program: FlowProgram, draws: Int)]) throws
        -> [EngineRun]
    {
        var random = Gen.SplitMix64(seed: 0x5C_E4)
        var runs: [EngineRun] = []
        for (graph, program, draws) in machines {
            let order = Dictionary(
                graph.machine.states.indices.map { (graph.machine.name(of: $0), $0) }, uniquingKeysWith: { a, _ in a })
            for index in 0..<draws {
                let drawn = ParallelSpecs.drawSteps(program, count: 30, &random)
                // Without regions, `simulate` fires the current state's own timeout as `@timeout`.
                let steps = drawn.map { step -> Simulation.Step in
                    guard case .compoundTimeout(let name) = step, !program.hasParallel,
                        !program.compounds.contains(where: { $0.name == name })
                    else { return step }
                    return .timeout
                }
                let lines = try Simulation(program: program).run(steps)
                    .filter { !$0.hasPrefix("+") && !$0.hasPrefix("-") && !$0.hasPrefix("#") }
                let labels = ["start"] + steps.compactMap(Self.label)
                try #require(lines.count == labels.count, "\(lines)")
                let expected = zip(lines, labels).map { Self.comparable($0, label: $1, order: order) }
                runs.append(
                    EngineRun(
                        key: "\(program.name.name)#\(index)", graph: graph, program: program, steps: steps,
                        expected: expected))
            }
        }
        return runs
    }

    /// The machines exported: the reference flows, the generation fixtures' features, the
    /// differential generator's machines, random parallel and nested machines, and the history
    /// fixture, and the `done` golden; with how many runs to draw on each.
    static func machines() throws -> [(graph: MachineGraph, program: FlowProgram, draws: Int)] {
        var machines: [(graph: MachineGraph, program: FlowProgram, draws: Int)] = []
        for spec in ["specs/app.yaml", "Tests/Fixtures/gen/golden/features.yaml"] {
            let result = SpecChecker().check(try Fixtures.source(spec))
            let programs = try #require(SpecGeneration.programs(result, diagnostics: result.diagnostics))
            machines += zip(result.graphs, programs).map { ($0, $1, 12) }
        }
        for text in try EngineDifferentialTests.texts().dropFirst(2) { machines += try Self.checked(text, draws: 2) }
        for (text, _, _) in try ParallelMachineTests.machines(seed: 0x9A4A, count: 60) {
            machines += try Self.checked(text, draws: 3)
        }
        for (spec, _, _) in try NestedMachineTests.machines(seed: 0x0_E491, count: 60) {
            machines += try Self.checked(NestedSpecs.specText([spec]), draws: 3)
        }
        machines += try Self.checked(NestedEngineDifferentialTests.withoutContentIntoHistory, draws: 6)
        // Last, so that the inputs drawn for the machines above stay as they were.
        machines += try Self.checked(
            String(
                contentsOf: Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/gen/golden/done.yaml"),
                encoding: .utf8), draws: 12)
        machines += try Self.checked(Self.parallelAtTop, draws: 12)
        machines += try Self.checked(
            String(
                contentsOf: Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/gen/golden/initial.yaml"),
                encoding: .utf8), draws: 12)
        machines += try Self.checked(
            String(
                contentsOf: Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/gen/golden/instate.yaml"),
                encoding: .utf8), draws: 12)
        return machines
    }

    /// A machine parallel at its top: its root is its parallel state in XState, the document's
    /// first state in SCXML; `reset` targets it by the machine's name.
    static let parallelAtTop = """
        flowspec: 1
        machines:
          Player:
            events: [play, pause, eject, mute, unmute, reset]
            effects: [startAudio, stopAudio, resetVolume, dim]
            on: { reset: { to: Player, effects: [resetVolume] } }
            parallel:
              playback:
                initial: paused
                states:
                  paused: { kind: input, on: { play: playing, eject: ejected } }
                  playing: { kind: input, entry: [startAudio], exit: [stopAudio], on: { pause: paused } }
                  ejected: { kind: terminal }
              volume:
                initial: normal
                states:
                  normal: { kind: input, on: { mute: muted, eject: silent } }
                  muted: { kind: task, entry: [dim], on: { unmute: normal }, timeout: { after: 5s, to: normal } }
                  silent: { kind: terminal }

        """

    /// The two places where python-statemachine 3.2.2 departs from the W3C algorithm, which
    /// the runner corrects (see `Tests/Engines/scxml_export_runs.py`), shown on the engine as
    /// it is: if a later release follows the algorithm, this fails, and the correction can go.
    @Test(
        .enabled(
            if: EngineDifferentialTests.python != nil, Comment(rawValue: EngineDifferentialTests.missingMessage)))
    func theEngineDepartsFromTheW3CAlgorithm() throws {
        let python = try #require(EngineDifferentialTests.python)
        func state(_ id: String, _ body: String = "") -> String {
            #"<state id="\#(id)" flowspec:kind="input">\#(body)</state>"#
        }
        func exit(_ effect: String) -> String { #"<onexit><log label="effect" expr="'\#(effect)'"/></onexit>"# }
        func document(_ body: String) -> String {
            #"<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:flowspec="urn:flowspec:scxml" version="1.0" datamodel="python" initial="p"><parallel id="p">\#(body)</parallel>\#(state("out"))</scxml>"#
        }
        // Leaving both regions: W3C exits in reverse document order, b, r2, a, r1.
        let exits = document(
            #"<state id="r1" initial="a">\#(exit("r1"))\#(state("a", exit("a")))<transition event="go" target="out"/></state>"#
                + #"<state id="r2" initial="b">\#(exit("r2"))\#(state("b", exit("b")))</state>"#)
        // Two regions' transitions on `go`, one leaving the parallel state: W3C takes the
        // first region's, in document order, whenever its state was entered.
        let selection = document(
            #"<state id="r1" initial="a">\#(state("a", #"<transition event="x" target="a2"/>"#))\#(state("a2"))"#
                + #"<transition event="go" target="out"/></state>"#
                + #"<state id="r2" initial="b">\#(state("b", #"<transition event="go" target="b2"/>"#))\#(state("b2"))</state>"#
        )
        // A list of descriptors broken over lines: W3C splits it at any white space, so `z`
        // matches none of them.
        let descriptors = document(
            #"<state id="r1" initial="a">\#(state("a", "<transition event=\"x\n    y\" target=\"out\"/>"))</state>"#)
        let runs: [[String: Any]] = [
            ["key": "exits", "scxml": exits, "steps": [["event", "go"]]],
            ["key": "selection", "scxml": selection, "steps": [["event", "x"], ["event", "go"]]],
            ["key": "descriptors", "scxml": descriptors, "steps": [["event", "z"]]]
        ]
        let corrected = try EngineDifferentialTests.run(runs, python: python, script: Self.runner)
        #expect(corrected["exits"]?.last == "go -> out | effects: b, r2, a, r1 | timers: -")
        #expect(corrected["selection"]?.last == "go -> out | effects: - | timers: -")
        #expect(corrected["descriptors"]?.last == "z -> a | effects: - | timers: -")
        let asIs = try EngineDifferentialTests.run(runs, python: python, script: Self.runner, options: ["--as-is"])
        #expect(asIs["exits"]?.last == "go -> out | effects: b, a, r2, r1 | timers: -")
        #expect(asIs["selection"]?.last == "go -> a2, b2 | effects: - | timers: -")
        #expect(asIs["descriptors"]?.last == "z -> out | effects: - | timers: -")
    }

    /// The machines of a spec, checked, with how many runs to draw on each.
    static func checked(_ text: String, draws: Int) throws -> [(MachineGraph, FlowProgram, Int)] {
        let result = SpecChecker().check(SourceFile(path: "drawn.yaml", text: text))
        let programs = try #require(SpecGeneration.programs(result, diagnostics: result.diagnostics))
        return zip(result.graphs, programs).map { ($0, $1, draws) }
    }

    /// A line of `flowspec simulate` as the engine's runner prints it: the timer a step fires
    /// named, no `(ignored)`, and the timers armed named by their states, in document order.
    static func comparable(_ line: String, label: String, order: [String: Int]) -> String {
        let parts = line.components(separatedBy: " | ")
        let result = parts[0].components(separatedBy: " -> ")[1].replacingOccurrences(of: " (ignored)", with: "")
        let head = label + " -> " + result
        let states = result.components(separatedBy: ", ")
        let timeouts = parts[2].dropFirst("timeout: ".count)
        var owners: [String] = []
        if timeouts != "-" {
            for armed in timeouts.components(separatedBy: ", ") {
                let first = armed.components(separatedBy: " ")[0]
                owners.append(first.hasSuffix("ms") && first.dropLast(2).allSatisfy(\.isNumber) ? states[0] : first)
            }
        }
        owners.sort { order[$0, default: 0] < order[$1, default: 0] }
        return "\(head) | \(parts[1]) | timers: \(owners.isEmpty ? "-" : owners.joined(separator: ", "))"
    }

    /// How the runner names an input, `nil` for a condition (not an input of its own).
    static func label(_ step: Simulation.Step) -> String? {
        switch step {
        case .event(let name): name
        case .compoundTimeout(let name): "@timeout(\(name))"
        case .timeout: "@timeout"
        case .conditionsChanged: "@conditions"
        case .condition, .relaunch: nil
        }
    }

    static func json(_ step: Simulation.Step) throws -> [Any] {
        switch step {
        case .event(let name): return ["event", name]
        case .condition(let name, let value): return ["condition", name, value]
        case .compoundTimeout(let name): return ["timeout", name]
        case .timeout: return ["timeout", NSNull()]
        case .conditionsChanged: return ["conditions"]
        case .relaunch: throw Simulation.Failure(description: "\(step) is not drawn here")
        }
    }
}
