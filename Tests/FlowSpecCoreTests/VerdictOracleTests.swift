import FlowSpecTestSupport
import Foundation
import Testing

@testable import FlowSpecCore

/// `check`'s verdicts on nested, parallel, history and composed machines, held to what an
/// exploration of the W3C algorithm (``StatechartOracle``) finds, knowing nothing of flowspec's
/// graph (``OracleVerdicts``): random machines, with the mistakes teams make put in on
/// purpose, and every fixture of the rules compared.
///
/// `FLOWSPEC_VERDICT_MACHINES=N` draws N machines instead of the default (a longer campaign).
@Suite("check's verdicts agree with an exploration of the W3C algorithm")
struct VerdictOracleTests {
    typealias Gen = DifferentialSpecs

    /// Explorations larger than this are left out (and counted).
    static let nodeLimit = 2_000

    static var machineCount: Int {
        ProcessInfo.processInfo.environment["FLOWSPEC_VERDICT_MACHINES"].flatMap { Int($0) } ?? 520
    }

    /// Four draws of a quarter of the machines each, which run side by side.
    @Test(arguments: 0..<4)
    func randomMachinesGetTheVerdictsTheirRunsShow(quarter: Int) throws {
        var random = Gen.SplitMix64(seed: 0x0_7E2D_1C7 &+ UInt64(quarter) &* 0x9E37_79B9)
        var comparison = VerdictComparison()
        let count = (Self.machineCount + 3) / 4
        var drawn = 0
        while comparison.compared < count {
            drawn += 1
            try #require(drawn < count * 3, "too many drawn machines were too large: \(comparison)")
            let text = VerdictSpecs.draw(index: quarter * 100_000 + drawn, &random)
            try comparison.compare(text, path: "verdicts-\(quarter)-\(drawn).yaml")
        }
        // The draw puts in every mistake the rules are about, and every construct.
        for (finding, least) in [
            "unreachable": 20, "unbounded tasks": 10, "loops": 20, "no way out": 5, "stuck runs": 5,
            "done never fires": 10
        ] {
            #expect(comparison.found[finding, default: 0] >= least, "few machines with \(finding): \(comparison)")
        }
        #expect(comparison.found["unbounded runs", default: 0] >= 2, "few runs of unbounded tasks: \(comparison)")
        for construct in ["parallel", "history", "run", "done"] {
            #expect(comparison.constructs[construct, default: 0] >= 15, "few machines with \(construct): \(comparison)")
        }
        #expect(comparison.tooLarge * 10 < comparison.compared, "too many machines were too large: \(comparison)")
        #expect(comparison.disagreements.isEmpty, "\(comparison.disagreements.prefix(5).joined(separator: "\n\n"))")
    }

    /// The requirements `check` proves or refutes on random nested machines agree with the
    /// runs: ``RequirementOracle``, on machines that arm one timer at a time.
    @Test func requirementsHoldWhereTheRunsSayTheyDo() throws {
        var random = Gen.SplitMix64(seed: 0x0_BE0_4E0)
        var compared: [Bool: Int] = [:]
        var kinds: [String: Int] = [:]
        var disagreements: [String] = []
        var drawn = 0
        while compared.values.reduce(0, +) < 600 {
            drawn += 1
            try #require(drawn < 2_000, "too few requirements could be compared: \(compared)")
            let text = VerdictSpecs.drawWithRequirements(index: drawn, &random)
            let result = SpecChecker().check(SourceFile(path: "required.yaml", text: text))
            for graph in result.graphs where !graph.machine.requirements.isEmpty {
                let machine = graph.machine
                let findings = result.diagnostics.filter { $0.machine == machine.name.value }
                // Properties are searched once a machine generates and no loop keeps a step going.
                guard FlowProgramBuilder.build(graph) != nil, !findings.contains(where: { $0.rule == .infiniteLoop }),
                    let verdicts = try RequirementOracle.verdicts(machine, limit: VerdictOracleTests.nodeLimit)
                else { continue }
                for (requirement, holds) in zip(machine.requirements, verdicts) {
                    guard let holds else { continue }
                    let at = findings.filter { $0.location == requirement.location }
                    // Not searched: over a limit, or naming what the machine does not have.
                    guard !at.contains(where: { $0.rule == .limitExceeded }),
                        !findings.contains(where: {
                            $0.location.line == requirement.location.line && $0.rule != .requirementFailed
                        })
                    else { continue }
                    let proved = !at.contains { $0.rule == .requirementFailed }
                    compared[holds, default: 0] += 1
                    kinds[String("\(requirement)".prefix { $0 != "(" }), default: 0] += 1
                    if proved != holds {
                        disagreements.append(
                            "line \(requirement.location.line): check \(proved ? "proves" : "refutes"), the runs \(holds ? "hold" : "break") it\n\(text)"
                        )
                    }
                }
            }
        }
        #expect(compared[true, default: 0] > 150 && compared[false, default: 0] > 150, "\(compared)")
        for kind in ["never", "before", "between", "everyEntry", "atMost", "whenever"] {
            #expect(kinds[kind, default: 0] > 30, "few \(kind) requirements were compared: \(kinds)")
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(3).joined(separator: "\n\n"))")
    }

    @Test func everyRuleFixtureGetsTheVerdictsItsRunsShow() throws {
        var comparison = VerdictComparison()
        let root = Fixtures.root.appendingPathComponent("rules")
        for rule in ["unreachable-state", "missing-timeout", "infinite-loop", "no-way-out", "done-never-fires"] {
            let directory = root.appendingPathComponent(rule)
            for file in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            where file.hasSuffix(".yaml") {
                let path = directory.appendingPathComponent(file).path
                try comparison.compare(try String(contentsOfFile: path, encoding: .utf8), path: path)
            }
        }
        #expect(comparison.compared > 40, "\(comparison)")
        #expect(comparison.disagreements.isEmpty, "\(comparison.disagreements.joined(separator: "\n\n"))")
    }
}

/// The comparison, machine by machine, of `check`'s verdicts with the oracle's.
struct VerdictComparison: CustomStringConvertible {
    private(set) var compared = 0
    private(set) var tooLarge = 0
    private(set) var disagreements: [String] = []
    /// How many machines the oracle found each kind of finding in.
    private(set) var found: [String: Int] = [:]
    /// How many machines hold each construct.
    private(set) var constructs: [String: Int] = [:]

    var description: String {
        "\(compared) machines compared, \(tooLarge) too large; findings \(found.sorted { $0.key < $1.key }), constructs \(constructs.sorted { $0.key < $1.key })"
    }

    mutating func compare(_ text: String, path: String) throws {
        let result = SpecChecker().check(SourceFile(path: path, text: text))
        let subFlowsOnly = Set(result.spec.machines.filter { !$0.isStandalone }.map(\.name.value))
        for graph in result.graphs {
            let machine = graph.machine
            let derived: OracleVerdicts?
            do {
                derived = try OracleVerdicts.derive(
                    machine, subFlowsOnly: subFlowsOnly, limit: VerdictOracleTests.nodeLimit)
            } catch {
                disagreements.append("\(path), machine \(machine.name.value): no chart: \(error)\n\(text)")
                continue
            }
            guard let oracle = derived else {
                tooLarge += 1
                continue
            }
            compared += 1
            count(machine, oracle)
            let checked = Self.verdicts(of: result.diagnostics, machine, reached: oracle.reached)
            guard checked != oracle else { continue }
            if let directory = ProcessInfo.processInfo.environment["FLOWSPEC_VERDICT_DUMP"] {
                // For a look at a disagreement: the spec, as `flowspec check` and `simulate` read
                // it, and the two verdicts.
                let file = "\(directory)/\(URL(fileURLWithPath: path).lastPathComponent)"
                try? text.write(toFile: file, atomically: true, encoding: .utf8)
                try? "\(machine.name.value)\n  check:  \(checked)\n  oracle: \(oracle)\n".write(
                    toFile: file + ".\(machine.name.value).txt", atomically: true, encoding: .utf8)
            }
            disagreements.append(
                "\(path), machine \(machine.name.value):\n  check:  \(checked)\n  oracle: \(oracle)\n\(text)")
        }
    }

    private mutating func count(_ machine: MachineSpec, _ oracle: OracleVerdicts) {
        for (name, set) in [
            ("unreachable", oracle.unreachable), ("unbounded tasks", oracle.unboundedTasks), ("loops", oracle.loops),
            ("no way out", oracle.noWayOut), ("stuck runs", oracle.stuckRuns),
            ("done never fires", oracle.doneNeverFires), ("unbounded runs", oracle.unboundedRuns)
        ] where !set.isEmpty {
            found[name, default: 0] += 1
        }
        if machine.states.indices.contains(where: machine.isParallel) { constructs["parallel", default: 0] += 1 }
        if machine.states.indices.contains(where: machine.isHistory) { constructs["history", default: 0] += 1 }
        if !machine.runs.isEmpty { constructs["run", default: 0] += 1 }
        if machine.nesting.details.values.contains(where: { $0.done != nil }) { constructs["done", default: 0] += 1 }
    }

    /// `check`'s findings on the machine, as the same sets. **Decision:** `missing-timeout`,
    /// `infinite-loop` and a `done` with no terminal state to end on are about what is written,
    /// reached or not (an unreachable state is `unreachable-state` too); the runs say nothing of
    /// states they never reach, so those are compared on the `reached` states.
    static func verdicts(of diagnostics: [Diagnostic], _ machine: MachineSpec, reached: Set<String>) -> OracleVerdicts {
        var verdicts = OracleVerdicts()
        let runs = Dictionary(
            machine.runs.map { ($0.machine.location, machine.name(of: $0.state)) },
            uniquingKeysWith: { first, _ in first })
        let passedThrough = Set(
            machine.states.indices.filter { machine.isHistory($0) || machine.isCompound($0) }.map(machine.name(of:)))
        for diagnostic in diagnostics where diagnostic.machine == machine.name.value {
            guard let subject = diagnostic.subjects.first else { continue }
            let atRun = runs[diagnostic.location]
            switch diagnostic.rule {
            case .unreachableState: verdicts.unreachable.insert(subject)
            case .infiniteLoop where atRun != nil, .noWayOut where atRun != nil: verdicts.stuckRuns.insert(atRun!)
            case .missingTimeout where atRun != nil: verdicts.unboundedRuns.insert(atRun!)
            case .missingTimeout: verdicts.unboundedTasks.insert(subject)
            case .infiniteLoop:
                // A history or compound state on the loop is a way through it, not a state the
                // flow rests in: the oracle's loops are of the states the flow is in.
                verdicts.loops.formUnion(diagnostic.subjects.filter { !passedThrough.contains($0) })
            case .noWayOut: verdicts.noWayOut.insert(subject)
            case .doneNeverFires: verdicts.doneNeverFires.insert(subject)
            default: break
            }
        }
        verdicts.unboundedTasks.formIntersection(reached)
        verdicts.loops.formIntersection(reached)
        verdicts.doneNeverFires.formIntersection(reached)
        return verdicts
    }
}

/// Random specs for the verdict oracle: nested machines (with history), machines with a
/// parallel state, and machines that run another; each now and then given a mistake the rules
/// are about (a task state without a timeout, a loop of task and choice states, a transition
/// sent elsewhere, an input state made a task).
enum VerdictSpecs {
    typealias Gen = DifferentialSpecs

    static func draw(index: Int, _ random: inout Gen.SplitMix64) -> String {
        switch random.below(10) {
        case 0..<4:
            var machine = NestedSpecs.draw(name: "V\(index)", &random)
            mutate(&machine, &random)
            return NestedSpecs.specText([machine])
        case 4..<7:
            return "flowspec: 1\nmachines:\n"
                + ParallelSpecs.draw(name: "V\(index)", mutate: { mutate(&$0, &$1) }, &random)
        default:
            return subFlow(index: index, &random)
        }
    }

    /// A parent that runs a child from one of its input or task states.
    private static func subFlow(index: Int, _ random: inout Gen.SplitMix64) -> String {
        var child = NestedSpecs.draw(name: "C\(index)", &random)
        mutate(&child, &random)
        // Now and then the child's screens only lead to each other: an input state whose
        // transitions all go to input states.
        if random.percent(25) {
            let inputs = child.flat.states.indices.filter { child.flat.states[$0].kind == .input }
            if inputs.count >= 2 {
                for state in inputs {
                    child.flat.states[state].timeout = nil
                    for transition in child.flat.states[state].on.indices {
                        for candidate in child.flat.states[state].on[transition].candidates.indices {
                            child.flat.states[state].on[transition].candidates[candidate].target = random.pick(inputs)
                            child.flat.states[state].on[transition].candidates[candidate].retry = nil
                        }
                    }
                }
                child.flat.machineWide = []
            }
        }
        var parent = NestedSpecs.draw(name: "V\(index)", &random)
        mutate(&parent, &random)
        let kinds = parent.flat.states.map(\.kind)
        let runnable = kinds.indices.filter { kinds[$0] == .input || kinds[$0] == .task }
        let free = kinds.indices.filter { kinds[$0] == .input || kinds[$0] == .terminal }.map { "s\($0)" }
        guard !runnable.isEmpty, !free.isEmpty else { return NestedSpecs.specText([parent]) }
        let running = random.pick(runnable)
        var body = ["run: C\(index)"]
        if random.percent(80) { body.append("done: \(random.pick(free))") }
        if random.percent(40) { body.append("on: { e\(random.below(parent.flat.eventCount)): \(random.pick(free)) }") }
        if random.percent(35) { body.append("timeout: { after: 5m, to: \(random.pick(free)) }") }
        parent.writtenAs[running] = body
        // The child's names are the parent's too: declared alike.
        parent.flat.conditionCount = max(parent.flat.conditionCount, child.flat.conditionCount)
        parent.flat.effectCount = max(parent.flat.effectCount, child.flat.effectCount)
        parent.flat.eventCount = max(parent.flat.eventCount, child.flat.eventCount)
        child.flat.conditionCount = parent.flat.conditionCount
        child.flat.effectCount = parent.flat.effectCount
        child.flat.eventCount = parent.flat.eventCount
        child.flat.declareEvents = parent.flat.declareEvents
        child.flat.persist = nil
        // Now and then the child runs only as a sub-flow, its tasks bounded where it runs (or
        // not: the running state has a timeout about a third of the time).
        let subFlowOnly = random.percent(50)
        if subFlowOnly {
            for state in child.flat.states.indices where child.flat.states[state].kind == .task && random.percent(80) {
                child.flat.states[state].timeout = nil
            }
        }
        let text = NestedSpecs.specText([child, parent])
        guard subFlowOnly else { return text }
        let summary = "    summary: Random machine C\(index).\n"
        return text.replacingOccurrences(of: summary, with: summary + "    standalone: false\n")
    }

    /// A nested machine with requirements on its states (`never`, `before`, `between`,
    /// `everyEntry`, `atMost`, `whenever`), drawn so that it arms at most one timer at a time: no compound state has
    /// a timeout. Nothing is persisted (a relaunch is an input the oracle does not have).
    static func drawWithRequirements(index: Int, _ random: inout Gen.SplitMix64) -> String {
        var machine = NestedSpecs.draw(name: "Q\(index)", &random)
        mutate(&machine, &random)
        machine.top = machine.top.map(withoutTimeouts)
        machine.flat.persist = nil
        let states = machine.flat.states.indices.map { "s\($0)" }
        var lines: [String] = []
        let events = (0..<machine.flat.eventCount).map { "e\($0)" }
        for _ in 0..<(2 + random.below(4)) {
            switch random.below(6) {
            case 4:
                lines.append(
                    "- atMost: { times: \(1 + random.below(3)), of: \(random.pick(events)), before: \(random.pick(states)) }"
                )
            case 5:
                lines.append(
                    "- whenever: { event: \(random.pick(events)), to: [\(random.pick(states)), \(random.pick(states))] }"
                )
            case 0: lines.append("- never: [\(random.pick(states))]")
            case 1: lines.append("- before: { first: \(random.pick(states)), then: \(random.pick(states)) }")
            case 2:
                lines.append(
                    "- between: { after: \(random.pick(states)), until: \(random.pick(states)), never: [\(random.pick(states))] }"
                )
            default:
                guard machine.flat.effectCount > 0 else { continue }
                lines.append(
                    "- everyEntry: { to: \(random.pick(states)), runs: f\(random.below(machine.flat.effectCount)) }")
            }
        }
        if lines.isEmpty { lines.append("- never: [\(random.pick(states))]") }
        let text = NestedSpecs.specText([machine])
        let required = "    require:\n" + lines.map { "      \($0)\n" }.joined()
        return text.replacingOccurrences(of: "\n    states:\n", with: "\n" + required + "    states:\n")
    }

    private static func withoutTimeouts(_ member: NestedSpecs.Member) -> NestedSpecs.Member {
        guard case .compound(var compound) = member else { return member }
        compound.timeout = nil
        compound.members = compound.members.map(withoutTimeouts)
        return .compound(compound)
    }

    /// Now and then one mistake or more, on the machine's states.
    static func mutate(_ machine: inout NestedSpecs.Machine, _ random: inout Gen.SplitMix64) {
        var states = machine.flat.states
        let count = states.count
        let tasks = states.indices.filter { states[$0].kind == .task }
        let looping = states.indices.filter { states[$0].kind == .task || states[$0].kind == .choice }
        if random.percent(35), !tasks.isEmpty {
            // A task state without a timeout.
            states[random.pick(tasks)].timeout = nil
        }
        if random.percent(30), !looping.isEmpty {
            // A transition from a task or choice state back to another: often a loop.
            let source = random.pick(looping)
            let candidate = Gen.Candidate(target: random.pick(looping))
            if states[source].kind == .choice {
                states[source].always.insert(candidate, at: states[source].always.count - 1)
                if machine.flat.conditionCount > 0 {
                    states[source].always[states[source].always.count - 2].ifCondition = random.below(
                        machine.flat.conditionCount)
                }
            } else {
                let event = random.below(machine.flat.eventCount)
                if let existing = states[source].on.firstIndex(where: { $0.event == event }) {
                    states[source].on[existing].candidates.insert(candidate, at: 0)
                } else {
                    states[source].on.append(Gen.Transition(event: event, candidates: [candidate]))
                }
            }
        }
        if random.percent(30) {
            // A transition sent elsewhere: states left unreached, or with no way out.
            let source = random.below(count)
            if !states[source].on.isEmpty {
                let transition = random.below(states[source].on.count)
                states[source].on[transition].candidates[0].target = random.below(count)
            } else if !states[source].always.isEmpty {
                states[source].always[states[source].always.count - 1].target = random.below(count)
            }
        }
        if random.percent(15) {
            // An input state made a task, with no timeout.
            let inputs = states.indices.filter { states[$0].kind == .input }
            if !inputs.isEmpty {
                let state = random.pick(inputs)
                states[state].kind = .task
                states[state].timeout = nil
            }
        }
        machine.flat.states = states
    }
}
