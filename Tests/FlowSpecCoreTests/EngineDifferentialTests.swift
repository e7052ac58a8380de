import FlowSpecTestSupport
import Foundation
import Testing

@testable import FlowSpecCore

/// flowspec's semantics against an engine it did not write: python-statemachine, which runs
/// SCXML. Each machine (the reference flows, the generation golden's features and the
/// differential generator's random machines) becomes a chart (``FlatChart``), is written as
/// SCXML by ``SCXMLWriter`` and runs on random inputs; every step must reach the state, and
/// run the effects in the order, that `flowspec simulate` (``Simulation``) prints. The safety net for the statecharts' semantics,
/// which will follow the same W3C algorithm. Skipped where python-statemachine is not installed;
/// `.ci/run` installs it.
@Suite("python-statemachine runs flowspec's machines as flowspec does (process)")
struct EngineDifferentialTests {
    typealias Gen = DifferentialSpecs

    static let script = Fixtures.packageRoot.appendingPathComponent("Tests/Engines/scxml_runs.py")

    /// `python3` where it imports python-statemachine 3, or why not.
    static let engine: Result<URL, Missing> = {
        let purpose = "flowspec's semantics cannot be run in an engine it did not write"
        guard let python = ExternalTool.find("python3") else {
            return .failure(
                Missing(ExternalTool.notOnPath("python3", for: purpose, install: "apt-get install python3")))
        }
        let probe = try? ProcessRunner.run(
            python, ["-c", "import statemachine; print(statemachine.__version__.split('.')[0])"])
        guard let probe, probe.status == 0, probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "3" else {
            return .failure(
                Missing(
                    "\(python.path) cannot import python-statemachine 3, so \(purpose) "
                        + "(pip install python-statemachine==3.2.2; .ci/run installs it)"))
        }
        return .success(python)
    }()

    struct Missing: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    static var python: URL? { try? engine.get() }
    static var missingMessage: String {
        if case .failure(let missing) = engine { return missing.message }
        return ""
    }

    @Test(.enabled(if: python != nil, Comment(rawValue: missingMessage)))
    func everyStepReachesTheSameStateWithTheSameEffects() throws {
        let python = try #require(Self.python)
        let programs = try Self.programs()
        var random = Gen.SplitMix64(seed: 0x5C_0A11)
        var runs: [[String: Any]] = []
        var expected: [String: [String]] = [:]
        for program in programs {
            for index in 0..<6 {
                let key = "\(program.name.name)#\(index)"
                var steps = Gen.drawSteps(program, count: 25, &random)
                // Conditions set before the first input hold at the start: the datamodel's first values.
                var initial = [Bool](repeating: false, count: program.conditions.count)
                while case .condition(let name, let value)? = steps.first {
                    initial[try #require(program.conditions.firstIndex { $0.name == name })] = value
                    steps.removeFirst()
                }
                let simulated = try Simulation(program: program).run(
                    initial.enumerated().filter(\.element).map { .condition(program.conditions[$0.offset].name, true) }
                        + steps)
                expected[key] = simulated.filter { !$0.hasPrefix("+") && !$0.hasPrefix("-") }.map(Self.withoutTimeout)
                runs.append([
                    "key": key,
                    "scxml": SCXMLWriter.document(
                        FlatChart.chart(program), conditions: initial, counters: program.retrySlotCount),
                    "states": program.states.map(\.name), "steps": try steps.map { try Self.json($0, program) }
                ])
            }
        }
        let actual = try Self.run(runs, python: python)
        var comparison = TraceComparison(expectedSide: "flowspec", actualSide: "engine")
        for (key, lines) in expected.sorted(by: { $0.key < $1.key }) {
            comparison.compare(key, expected: lines, actual: actual[key] ?? [])
        }
        #expect(comparison.compared > 10_000, "only \(comparison.compared) steps were compared")
        #expect(comparison.disagreements.count == 0, "\(comparison.disagreements.summary)")
    }

    /// The programs: the reference flows, the features golden, and the random machines of the
    /// differential generator's seeds.
    static func programs() throws -> [FlowProgram] {
        var programs: [FlowProgram] = []
        for text in try texts() {
            let result = SpecChecker().check(SourceFile(path: "spec.yaml", text: text))
            programs += try #require(SpecGeneration.programs(result, diagnostics: result.diagnostics))
        }
        return programs
    }

    /// The specs of ``programs()``: the reference flows, the features golden, then one spec per
    /// seed of the differential generator.
    static func texts() throws -> [String] {
        var texts = [
            try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("specs/app.yaml"), encoding: .utf8),
            try String(
                contentsOf: Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/gen/golden/features.yaml"),
                encoding: .utf8)
        ]
        var next = 0
        for seed in DifferentialGenerationTests.seeds {
            var random = Gen.SplitMix64(seed: seed)
            var machines: [Gen.Machine] = []
            while machines.count < 50 {
                let machine = Gen.drawMachine(name: "M\(next)", &random)
                next += 1
                let result = SpecChecker().check(SourceFile(path: "draw.yaml", text: Gen.specText([machine])))
                if !result.diagnostics.contains(where: { $0.severity == .error }) { machines.append(machine) }
            }
            texts.append(Gen.specText(machines))
        }
        return texts
    }

    /// A trace line without the timeout it arms and without `(ignored)`, which SCXML does not show.
    static func withoutTimeout(_ line: String) -> String {
        let kept = line.range(of: " | timeout: ").map { String(line[..<$0.lowerBound]) } ?? line
        return kept.replacingOccurrences(of: " (ignored) | ", with: " | ")
    }

    static func json(_ step: Simulation.Step, _ program: FlowProgram) throws -> [Any] {
        switch step {
        case .event(let name): return ["event", name]
        case .timeout: return ["timeout"]
        case .conditionsChanged: return ["conditions"]
        case .condition(let name, let value):
            return ["condition", try #require(program.conditions.firstIndex { $0.name == name }), value]
        case .relaunch, .compoundTimeout:
            throw Simulation.Failure(description: "\(step) has no counterpart in a flat chart's SCXML")
        }
    }

    /// Runs every run in one python process; the lines it printed, by run.
    static func run(
        _ runs: [[String: Any]], python: URL, script: URL = script, options: [String] = []
    ) throws -> [String: [String]] {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("flowspec-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: runs).write(to: input)
        // FLOWSPEC_KEEP_ENGINE_RUNS=PATH keeps the runs there, to run the script by hand.
        if let kept = ProcessInfo.processInfo.environment["FLOWSPEC_KEEP_ENGINE_RUNS"] {
            try JSONSerialization.data(withJSONObject: runs).write(to: URL(fileURLWithPath: kept))
        }
        defer { try? FileManager.default.removeItem(at: input) }
        let output = try ProcessRunner.run(python, [script.path, input.path] + options)
        try #require(output.status == 0, "the engine's driver failed:\n\(output.stderr)")
        return linesByRun(output.stdout)
    }

    /// An engine runner's `KEY|LINE` output as each run's lines.
    static func linesByRun(_ output: String) -> [String: [String]] {
        var lines: [String: [String]] = [:]
        for line in output.split(separator: "\n") {
            guard let bar = line.firstIndex(of: "|") else { continue }
            lines[String(line[..<bar]), default: []].append(String(line[line.index(after: bar)...]))
        }
        return lines
    }
}
