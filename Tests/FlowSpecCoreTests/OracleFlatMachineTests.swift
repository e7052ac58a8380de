import FlowSpecTestSupport
import Testing

@testable import FlowSpecCore

/// flowspec's reference semantics (``Simulation``, which the generated code and the driver
/// are held to) against the W3C algorithm (``StatechartOracle``), in process: each machine
/// becomes a chart of the oracle's, with flowspec's rules stated in SCXML's terms as
/// ``FlatChart`` says, and every step of random runs must reach the same state and run the
/// same effects in the same order. The same machines as `EngineDifferentialTests`, which needs
/// python; this needs nothing, so it runs on every machine.
@Suite("flowspec's semantics agree with the W3C algorithm on flat machines")
struct OracleFlatMachineTests {
    typealias Gen = DifferentialSpecs

    @Test func everyStepReachesTheSameStateWithTheSameEffects() throws {
        var random = Gen.SplitMix64(seed: 0x0_4AC1E)
        var comparison = TraceComparison(expectedSide: "flowspec", actualSide: "oracle")
        for program in try EngineDifferentialTests.programs() {
            let chart = FlatChart.chart(program)
            for index in 0..<10 {
                let steps = Gen.drawSteps(program, count: 25, &random)
                let expected = try Simulation(program: program).run(steps)
                    .filter { !$0.hasPrefix("+") && !$0.hasPrefix("-") }.map(EngineDifferentialTests.withoutTimeout)
                let actual = try Self.run(chart, program, steps)
                comparison.compare(
                    "\(program.name.name)#\(index)", expected: expected, actual: actual,
                    context: "inputs \(Gen.script(steps))")
            }
        }
        #expect(comparison.compared > 20_000, "only \(comparison.compared) steps were compared")
        #expect(comparison.disagreements.count == 0, "\(comparison.disagreements.summary)")
    }

    /// The oracle's trace of `steps`: conditions set before the first input hold at the start.
    static func run(_ chart: StatechartOracle.Chart, _ program: FlowProgram, _ steps: [Simulation.Step]) throws
        -> [String]
    {
        var conditions = [Bool](repeating: false, count: program.conditions.count)
        var rest = steps[...]
        while case .condition(let name, let value)? = rest.first {
            conditions[try #require(program.conditions.firstIndex { $0.name == name })] = value
            rest = rest.dropFirst()
        }
        var oracle = try StatechartOracle(chart, conditions: conditions, counters: program.retrySlotCount)
        var lines = [line("start", oracle.activeIDs, oracle.takeLog(), program)]
        for step in rest {
            switch step {
            case .condition(let name, let value):
                oracle.conditions[try #require(program.conditions.firstIndex { $0.name == name })] = value
            case .event(let name):
                _ = try FlatChart.settle(&oracle)
                try oracle.send(name)
                lines.append(line(name, oracle.activeIDs, oracle.takeLog(), program))
            case .timeout:
                if try !FlatChart.settle(&oracle) { try oracle.send(FlatChart.timeoutEvent) }
                lines.append(line("@timeout", oracle.activeIDs, oracle.takeLog(), program))
            case .conditionsChanged:
                // An event no transition takes: what follows it is SCXML's macrostep.
                try oracle.send(FlatChart.conditionsEvent)
                lines.append(line("@conditions", oracle.activeIDs, oracle.takeLog(), program))
            case .relaunch, .compoundTimeout:
                throw Simulation.Failure(description: "\(step) has no counterpart in a flat chart")
            }
        }
        return lines
    }

    private static func line(_ input: String, _ ids: [String], _ effects: [String], _ program: FlowProgram) -> String {
        let states = ids.compactMap { Int($0.dropFirst()) }.map { program.states[$0].name }
        let effectText = effects.isEmpty ? "-" : effects.joined(separator: ", ")
        return "\(input) -> \(states.joined(separator: ",")) | effects: \(effectText)"
    }
}

/// A flat machine as a chart of the oracle's, which python-statemachine also runs (through
/// ``SCXMLWriter``): flowspec's rules stated once, in SCXML's terms. Own then inherited
/// transitions in the order flowspec tries them; `if`/`unless` as guards; effects logged; a
/// bounded retry as two guarded transitions, one counting, one going to `then` with the
/// retry's effects; `entry` and `exit` effects as `onentry` and `onexit`; counters back to 0 on
/// entering an `input` or `terminal` state; `choice`
/// states left by eventless transitions, and `always` branches of states that wait eventless
/// transitions too; `terminal` states final; the timeout an event. States
/// are `sN` by index, which `Tests/Engines/scxml_runs.py` maps back to names.
enum FlatChart {
    typealias Chart = StatechartOracle.Chart
    /// The event that fires a state's timeout.
    static let timeoutEvent = "flowspec_timeout"
    /// The event the app's "conditions changed" is: no transition takes it, so only the
    /// eventless transitions enabled after it are taken.
    static let conditionsEvent = "flowspec_conditions"

    /// What flowspec does first at every input: the conditions that changed since the last are
    /// seen, as SCXML sees a datamodel change at once (``conditionsEvent``'s macrostep). Returns
    /// whether that took a transition: then a timer armed for the state left does nothing.
    static func settle(_ oracle: inout StatechartOracle) throws -> Bool {
        let before = oracle.activeIDs
        try oracle.send(conditionsEvent)
        return oracle.activeIDs != before || !oracle.log.isEmpty
    }

    static func chart(_ program: FlowProgram) -> Chart {
        var chart = Chart(nodes: [Chart.Node(id: "root", kind: .root, parent: nil)])
        for (index, state) in program.states.enumerated() {
            var node = Chart.Node(id: "s\(index)", kind: state.kind == .terminal ? .final : .atomic, parent: 0)
            if state.kind == .input || state.kind == .terminal {
                node.onentry = (0..<program.retrySlotCount).map { .reset($0) }
            }
            node.onentry += state.entry.map { .log(program.effects[$0].name) }
            node.onexit = state.exit.map { .log(program.effects[$0].name) }
            chart.nodes.append(node)
            chart.nodes[0].children.append(index + 1)
        }
        chart.nodes[0].initial = [program.initial + 1]
        for (index, state) in program.states.enumerated() {
            for (event, candidates) in state.transitions {
                for candidate in candidates {
                    add(candidate, on: program.events[event].name, from: index, program, &chart)
                }
            }
            for candidate in state.always { add(candidate, on: nil, from: index, program, &chart) }
            // A state that waits leaves by its eventless transitions too, tried after every event.
            for candidate in state.eventless { add(candidate, on: nil, from: index, program, &chart) }
            if let timeout = state.timeout { add(timeout.candidate, on: timeoutEvent, from: index, program, &chart) }
        }
        chart.addInitialTransitions()
        return chart
    }

    private static func add(
        _ candidate: FlowProgram.Candidate, on event: String?, from state: Int, _ program: FlowProgram,
        _ chart: inout Chart
    ) {
        let guards = candidate.requires.map { Chart.Guard.condition($0) } + candidate.forbids.map { .not($0) }
        let effects = candidate.effects.map { Chart.Action.log(program.effects[$0].name) }
        func append(_ guards: [Chart.Guard], _ target: Int, _ content: [Chart.Action]) {
            // A candidate without a target is SCXML's targetless transition.
            chart.transitions.append(
                Chart.Transition(
                    source: state + 1, event: event, guards: guards, targets: target < 0 ? [] : [target + 1],
                    content: content))
            chart.nodes[state + 1].transitions.append(chart.transitions.count - 1)
        }
        guard let retry = candidate.retry else { return append(guards, candidate.target, effects) }
        append(guards + [.below(retry.slot, retry.max)], candidate.target, [.increment(retry.slot)] + effects)
        append(
            guards + [.atLeast(retry.slot, retry.max)], retry.fallback,
            effects + retry.effects.map { .log(program.effects[$0].name) })
    }
}
