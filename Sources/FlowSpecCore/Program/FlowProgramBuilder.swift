/// Builds a ``FlowProgram`` from a machine's graph. Call it only for machines the checker
/// found no errors in: it assumes every name resolves.
public enum FlowProgramBuilder {
    /// The program for a checked machine, or `nil` if a name does not resolve (the machine
    /// has errors).
    public static func build(_ graph: MachineGraph) -> FlowProgram? {
        var builder = Builder(graph: graph)
        return builder.build()
    }

    private struct Builder {
        let graph: MachineGraph
        var machine: Machine { graph.machine }
        var eventIndex: [String: Int] = [:]
        var conditionIndex: [String: Int] = [:]
        var effectIndex: [String: Int] = [:]
        var retrySlots = 0
        var failed = false

        init(graph: MachineGraph) {
            self.graph = graph
        }

        mutating func build() -> FlowProgram? {
            guard let initial = graph.initial,
                let machineName = name(machine.name.value, scope: .machine)
            else { return nil }
            let events = eventNames()
            for (index, event) in events.enumerated() { eventIndex[event.name] = index }
            let conditions = (machine.conditions ?? []).compactMap { name($0.value, scope: .property) }
            for (index, condition) in conditions.enumerated() { conditionIndex[condition.name] = index }
            let effects = (machine.effects ?? []).compactMap { name($0.value, scope: .enumCase) }
            for (index, effect) in effects.enumerated() { effectIndex[effect.name] = index }
            let inherited = machine.machineWide.map { transition in
                (event: transition.event.value, candidates: transition.candidates.map { resolve($0) })
            }
            var states: [FlowProgram.State] = []
            for index in machine.states.indices {
                states.append(
                    resolve(
                        machine.states[index], transitions: machine.transitions(of: index),
                        inherited: inherited))
            }
            let sequences = machine.sequences.compactMap { sequence -> FlowProgram.StateSequence? in
                guard let swiftName = name(sequence.name.value, scope: .enumCase)?.swiftName else { return nil }
                return FlowProgram.StateSequence(
                    name: sequence.name.value, swiftName: swiftName,
                    members: sequence.states.compactMap { index($0.value) })
            }
            let persistence = machine.persist.map { persist in
                var resume: [Int: Int] = [:]
                for (from, to) in persist.resume {
                    if let from = index(from.value), let to = index(to.value) { resume[from] = to }
                }
                var migrate: [Persist.StoredValue: Int] = [:]
                for (from, to) in persist.migrate {
                    if let to = index(to.value) { migrate[from.value] = to }
                }
                return FlowProgram.Persistence(
                    rawValue: persist.rawValue, restore: persist.restore, resume: resume, migrate: migrate)
            }
            guard !failed else { return nil }
            return FlowProgram(
                name: machineName, summary: machine.summary, states: states, events: events,
                conditions: conditions, effects: effects, sequences: sequences, initial: initial,
                retrySlotCount: retrySlots, persist: persistence)
        }

        mutating func resolve(
            _ state: State, transitions own: TransitionStore.Transitions,
            inherited: [(event: Name, candidates: [FlowProgram.Candidate])]
        ) -> FlowProgram.State {
            var transitions: [(event: Int, candidates: [FlowProgram.Candidate])] = []
            for transition in own {
                transitions.append((event(transition.event.value), transition.candidates.map { resolve($0) }))
            }
            let ownTransitionCount = transitions.count
            if state.kind.inheritsMachineWideTransitions {
                let overridden = Set(own.map(\.event.value))
                for transition in inherited where !overridden.contains(transition.event) {
                    transitions.append((event(transition.event), transition.candidates))
                }
            }
            let always = (state.always?.value ?? []).map { resolve($0) }
            var timeout: FlowProgram.Timeout?
            if let written = state.timeout, let after = written.after?.value, let target = index(written.target.value) {
                let candidate = FlowProgram.Candidate(
                    target: target, requires: [], forbids: [],
                    effects: written.effects.map { effect($0.value) },
                    retry: written.retry.map { retry($0) })
                timeout = FlowProgram.Timeout(after: after, candidate: candidate)
            } else if state.timeoutLocation != nil {
                failed = true
            }
            var swiftName = SwiftName.placeholder
            let stateName = machine.names[state.name.value]
            if let mapped = name(stateName, scope: .enumCase) { swiftName = mapped.swiftName } else { failed = true }
            return FlowProgram.State(
                name: stateName, swiftName: swiftName, kind: state.kind,
                summary: state.summary, transitions: transitions, ownTransitionCount: ownTransitionCount,
                always: always,
                timeout: timeout)
        }

        mutating func resolve(_ candidate: Candidate) -> FlowProgram.Candidate {
            FlowProgram.Candidate(
                target: index(candidate.target.value) ?? 0,
                requires: candidate.condition.map { [condition($0.value)] } ?? [],
                forbids: candidate.unlessCondition.map { [condition($0.value)] } ?? [],
                effects: candidate.effects.map { effect($0.value) },
                retry: candidate.retry.map { retry($0) })
        }

        mutating func retry(_ retry: Retry) -> FlowProgram.Retry {
            defer { retrySlots += 1 }
            if retry.max == nil { failed = true }
            return FlowProgram.Retry(
                slot: retrySlots, max: retry.max?.value ?? 1, fallback: index(retry.then.value) ?? 0,
                effects: retry.effects.map { effect($0.value) })
        }

        func eventNames() -> [FlowProgram.Name] {
            if let declared = machine.events {
                return declared.compactMap { name($0.value, scope: .enumCase) }
            }
            return NameUses.derivedEvents(machine).compactMap { name($0.value, scope: .enumCase) }
        }

        func name(_ text: String, scope: SwiftName.Scope) -> FlowProgram.Name? {
            guard case .success(let swiftName) = SwiftName.make(text, scope: scope) else { return nil }
            return FlowProgram.Name(name: text, swiftName: swiftName)
        }

        mutating func index(_ state: String) -> Int? {
            guard let index = graph.stateIndex[state] else {
                failed = true
                return nil
            }
            return index
        }

        mutating func index(_ state: Name) -> Int? {
            guard let index = graph.stateIndex[state] else {
                failed = true
                return nil
            }
            return index
        }

        mutating func event(_ name: Name) -> Int { lookup(machine.names[name], in: eventIndex) }
        mutating func condition(_ name: String) -> Int { lookup(name, in: conditionIndex) }
        mutating func effect(_ name: String) -> Int { lookup(name, in: effectIndex) }

        mutating func lookup(_ name: String, in table: [String: Int]) -> Int {
            guard let index = table[name] else {
                failed = true
                return 0
            }
            return index
        }
    }
}

extension SwiftName {
    /// Stands in for a name that failed to map; a program containing it is never returned.
    static let placeholder = SwiftName(code: "_invalid", bare: "_invalid")
}
