/// `flowspec paths` output: each machine's paths as text (one replayable trace per path) or
/// JSON (for UI test tools), with what the paths could not cover.
public enum PathReport {
    /// A machine's paths and where its spec is, for locations.
    public struct Machine: Sendable {
        /// The paths.
        public var cover: PathCover
        /// The spec's machine, for where each item is written.
        public var machine: FlowSpecCore.MachineSpec

        /// A machine's report.
        public init(cover: PathCover, machine: FlowSpecCore.MachineSpec) {
            self.cover = cover
            self.machine = machine
        }
    }

    /// The text: per machine a `#` header, then each path as the trace `flowspec simulate`
    /// prints for it (`+condition`/`-condition` lines where conditions change), paths
    /// separated by a blank line. Each path replays with `flowspec simulate --replay`.
    public static func text(_ machines: [Machine], file: String) -> String {
        var output = ""
        for (position, report) in machines.enumerated() {
            if position > 0 { output += "\n" }
            let cover = report.cover
            let program = cover.program
            let covered = cover.items.count - cover.notCovered.count
            let kinds =
                cover.items.contains { $0.kind == .outcome }
                ? "states, transitions, timeouts, outcomes and relaunches"
                : "states, transitions, timeouts and relaunches"
            output +=
                "# \(program.name.name): \(cover.paths.count) \(cover.paths.count == 1 ? "path covers" : "paths cover") "
                + "\(covered) of \(cover.items.count) \(kinds)\n"
            for (item, reason) in cover.notCovered {
                let location = item.location(in: report.machine, program: program)
                output +=
                    "# not covered: \(item.description(in: program)) (\(file):\(location.line):\(location.column)): "
                    + "\(reason)\n"
            }
            for (_, reason) in cover.skippedRequirements { output += "# requirement not tested: \(reason)\n" }
            for (index, path) in cover.paths.enumerated() {
                output += "\n# \(program.name.name) path \(index + 1): \(purpose(path, program))\n"
                for line in traceLines(path, program) { output += line + "\n" }
            }
        }
        return output
    }

    /// The lines of a path as a trace.
    public static func traceLines(_ path: PathCover.Path, _ program: FlowProgram) -> [String] {
        var lines: [String] = []
        var conditions = [Bool](repeating: false, count: program.conditions.count)
        let notes = subFlowNotes(path, program)
        for (position, step) in path.steps.enumerated() {
            for (index, value) in step.conditions.enumerated() where value != conditions[index] {
                lines.append(TraceLine.condition(program.conditions[index].name, holds: value))
            }
            conditions = step.conditions
            if position < notes.count { lines += notes[position] }
            guard !program.hasParallel else {
                lines.append(
                    Trace.configurationLine(
                        input: label(step.input, program), states: step.states, program: program, ignored: false,
                        effects: step.effects, timeouts: timeouts(step, program)))
                continue
            }
            lines.append(
                Trace.line(
                    input: label(step.input, program), state: step.state, program: program, ignored: false,
                    effects: step.effects, targets: step.timeoutTargets))
        }
        return lines
    }

    /// Per step, the `#` lines naming the sub-flows it ends, stops and starts (see
    /// ``Simulation/runNamingSubFlows(_:restoring:)``): none in a machine that runs no machine.
    static func subFlowNotes(_ path: PathCover.Path, _ program: FlowProgram) -> [[String]] {
        guard program.compounds.contains(where: { $0.runs != nil }), let first = path.steps.first else { return [] }
        func conditions(_ values: [Bool]) -> [Simulation.Step] {
            values.enumerated().map { .condition(program.conditions[$0.offset].name, $0.element) }
        }
        var restoring: String?? = nil
        if case .relaunch(let stored) = first.input { restoring = .some(stored) }
        var steps: [Simulation.Step] = []
        for step in path.steps.dropFirst() {
            steps += conditions(step.conditions)
            switch step.input {
            case .start: break
            case .event(let event): steps.append(.event(program.events[event].name))
            case .timeout: steps.append(.timeout)
            case .compoundTimeout(let compound): steps.append(.compoundTimeout(program.compounds[compound].name))
            case .stateTimeout(let state): steps.append(.compoundTimeout(program.states[state].name))
            case .relaunch: steps.append(.relaunch)
            case .conditionsChanged: steps.append(.conditionsChanged)
            }
        }
        let run = try? Simulation(program: program).runWithSubFlowNotes(
            startingUnder: conditions(first.conditions), then: steps, restoring: restoring)
        return run?.notes ?? []
    }

    /// Each timeout armed after a step: how long, where it leads, whose it is.
    static func timeouts(_ step: PathCover.Step, _ program: FlowProgram) -> [(
        after: Duration, target: Int, state: Int, compound: Int?
    )] {
        zip(step.timeoutOwners, step.timeoutTargets).map { owner, target in
            let after =
                owner.compound.flatMap { program.compounds[$0].timeout?.after }
                ?? program.states[owner.state].timeout?.after ?? .zero
            return (after: after, target: target, state: owner.state, compound: owner.compound)
        }
    }

    /// What a path is for, in words.
    static func purpose(_ path: PathCover.Path, _ program: FlowProgram) -> String {
        switch path.purpose {
        case .cover(let items):
            return "exercises \(items) items"
        case .within(_, let from, let worst, let max):
            return "within: from '\(program.states[path.steps[from].state].name)' (step \(from + 1)) the worst case "
                + "takes \(worst.specDescription), at most \(max.specDescription)"
        case .reach(_, let target):
            return "alwaysReachable: '\(program.states[target].name)' is reached from each state before it"
        case .witness(_, let text):
            return "\(text): a run that shows it holding"
        case .counterexample(_, let text, let refutation):
            return "\(text): refuted, \(refutation)"
        }
    }

    static func label(_ input: PathCover.Step.Input, _ program: FlowProgram) -> String {
        let named: TraceLine.Input =
            switch input {
            case .start: .start
            case .event(let event): .event(program.events[event].name)
            case .timeout: .timeout
            case .compoundTimeout(let compound): .timeoutOf(program.compounds[compound].name)
            case .stateTimeout(let state): .timeoutOf(program.states[state].name)
            case .relaunch(let stored): .restore(stored)
            case .conditionsChanged: .conditions
            }
        return named.text
    }

    /// The JSON document: `{"spec", "machines": [{"machine", "items", "covered", "notCovered",
    /// "requirementsNotTested", "paths": [{"purpose", …, "steps": [{"input", "event", "waitMilliseconds",
    /// "stored", "conditions", "state", "effects", "timeout"}]}]}]}`.
    public static func json(_ machines: [Machine], file: String, to output: inout some TextOutputStream) {
        let document = JSONNode.object([
            "spec": .string(file),
            "machines": .array(machines.map { machineNode($0) })
        ])
        document.writeDocument(to: &output)
    }

    private static func machineNode(_ report: Machine) -> JSONNode {
        let cover = report.cover
        let program = cover.program
        return .object([
            "machine": .string(program.name.name),
            "items": .int(cover.items.count),
            "covered": .int(cover.items.count - cover.notCovered.count),
            "notCovered": .array(
                cover.notCovered.map { item, reason in
                    let location = item.location(in: report.machine, program: program)
                    return .object([
                        "item": .string(item.description(in: program)),
                        "kind": .string(item.kind.rawValue),
                        "line": .int(location.line),
                        "column": .int(location.column),
                        "reason": .string(reason)
                    ])
                }),
            "requirementsNotTested": .array(cover.skippedRequirements.map { .string($0.reason) }),
            "paths": .lazyArray(count: cover.paths.count) { pathNode(cover.paths[$0], program) }
        ])
    }

    private static func pathNode(_ path: PathCover.Path, _ program: FlowProgram) -> JSONNode {
        var members: [String: JSONNode] = [:]
        switch path.purpose {
        case .cover(let items):
            members["purpose"] = .string("cover")
            members["exercises"] = .int(items)
        case .within(_, let from, let worst, let max):
            members["purpose"] = .string("within")
            members["fromStep"] = .int(from)
            members["worstMilliseconds"] = .int(Int(worst.wholeMilliseconds))
            members["maxMilliseconds"] = .int(Int(max.wholeMilliseconds))
        case .reach(_, let target):
            members["purpose"] = .string("alwaysReachable")
            members["target"] = .string(program.states[target].name)
        case .witness(_, let text):
            members["purpose"] = .string("witness")
            members["requirement"] = .string(text)
        case .counterexample(_, let text, let refutation):
            members["purpose"] = .string("counterexample")
            members["requirement"] = .string(text)
            members["message"] = .string(RequirementCheck.failed(refutation))
        }
        members["steps"] = .lazyArray(count: path.steps.count) { stepNode(path.steps[$0], program) }
        return .object(members)
    }

    private static func stepNode(_ step: PathCover.Step, _ program: FlowProgram) -> JSONNode {
        var members: [String: JSONNode] = [
            "state": .string(program.states[step.state].name),
            "effects": .array(step.effects.map { .string(program.effects[$0].name) }),
            "conditions": .array(
                step.conditions.indices.filter { step.conditions[$0] }.map { .string(program.conditions[$0].name) })
        ]
        switch step.input {
        case .start:
            members["input"] = .string("start")
        case .event(let event):
            members["input"] = .string("event")
            members["event"] = .string(program.events[event].name)
        case .timeout:
            members["input"] = .string("timeout")
            members["waitMilliseconds"] = .int(Int(step.waited.wholeMilliseconds))
        case .compoundTimeout(let compound):
            members["input"] = .string("timeout")
            members["compound"] = .string(program.compounds[compound].name)
            members["waitMilliseconds"] = .int(Int(step.waited.wholeMilliseconds))
        case .stateTimeout(let state):
            members["input"] = .string("timeout")
            members["timeoutOf"] = .string(program.states[state].name)
            members["waitMilliseconds"] = .int(Int(step.waited.wholeMilliseconds))
        case .relaunch(let stored):
            members["input"] = .string("relaunch")
            members["stored"] = .string(stored)
        case .conditionsChanged:
            members["input"] = .string("conditions")
        }
        if program.hasParallel {
            // Every state, and every timer armed, each named after its state or compound state.
            members["configuration"] = .array(step.states.map { .string(program.states[$0].name) })
            members["timeouts"] = .array(
                timeouts(step, program).map { timeout in
                    var scoped: [String: JSONNode] = [
                        "milliseconds": .int(Int(timeout.after.wholeMilliseconds)),
                        "target": .string(program.states[timeout.target].name)
                    ]
                    if let compound = timeout.compound {
                        scoped["compound"] = .string(program.compounds[compound].name)
                    } else {
                        scoped["state"] = .string(program.states[timeout.state].name)
                    }
                    return .object(scoped)
                })
        } else if let timeout = program.states[step.state].timeout, let target = step.timeoutTargets.last {
            members["timeout"] = .object([
                "milliseconds": .int(Int(timeout.after.wholeMilliseconds)),
                "target": .string(program.states[target].name)
            ])
        }
        return .object(members)
    }
}
