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
        var machine: MachineSpec { graph.machine }
        var eventIndex: [String: Int] = [:]
        var conditionIndex: [String: Int] = [:]
        var effectIndex: [String: Int] = [:]
        var activityIndex: [String: Int] = [:]
        var retrySlots = 0
        var failed = false
        /// Per state of the machine, the program state it stands for (see ``leaves(of:)``).
        var leafOf: [Int] = []
        /// Per compound state of the machine, its position in the program's compounds.
        var compoundIndex: [Int: Int] = [:]
        /// Per history state of the machine, its position in the program's histories.
        var historyIndex: [Int: Int] = [:]
        var compoundTransitions: [Int: [(event: Name, candidates: [FlowProgram.Candidate])]] = [:]
        var compoundTimeouts: [Int: FlowProgram.Timeout?] = [:]
        var compoundEventless: [Int: [FlowProgram.Candidate]] = [:]
        /// The states guards read (`in:`, `notIn:`), by state of the machine: their positions
        /// in the program's ``FlowProgram/statesRead``, in the order first resolved.
        var stateReadIndex: [Int: Int] = [:]
        var statesRead: [Int] = []

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
            let activities = activityDeclarations()
            for (index, activity) in activities.enumerated() { activityIndex[activity.name] = index }
            leafOf = Self.leaves(of: graph)
            for index in machine.states.indices where machine.isCompound(index) {
                compoundIndex[index] = compoundIndex.count
            }
            for index in machine.states.indices where machine.isHistory(index) {
                historyIndex[index] = historyIndex.count
            }
            let inherited = machine.machineWide.map { transition in
                (event: transition.event.value, candidates: transition.candidates.map { resolve($0, from: nil) })
            }
            var states: [FlowProgram.State] = []
            for index in machine.states.indices where machine.isLeaf(index) {
                states.append(
                    resolve(
                        index, transitions: machine.transitions(of: index),
                        inherited: inherited))
            }
            let compounds = compoundStates()
            for (compound, written) in compounds.enumerated() {
                for outcome in written.runs?.outcomes ?? [] where states[outcome].kind == .choice {
                    states[outcome].outcomeOf = compound
                }
            }
            let histories = historyStates()
            let sequences = machine.sequences.compactMap { sequence -> FlowProgram.StateSequence? in
                guard let swiftName = name(sequence.name.value, scope: .enumCase)?.swiftName else { return nil }
                return FlowProgram.StateSequence(
                    name: sequence.name.value, swiftName: swiftName,
                    members: sequence.states.compactMap { index($0.value).map { leafOf[$0] } })
            }
            let persistence = machine.persist.map { persist in
                var resume: [Int: Int] = [:]
                for (from, to) in persist.resume {
                    if let from = index(from.value), let to = index(to.value) { resume[leafOf[from]] = leafOf[to] }
                }
                var migrate: [Persist.StoredValue: Int] = [:]
                for (from, to) in persist.migrate {
                    if let to = index(to.value) { migrate[from.value] = leafOf[to] }
                }
                return FlowProgram.Persistence(
                    rawValue: persist.rawValue, restore: persist.restore, resume: resume, migrate: migrate)
            }
            guard !failed else { return nil }
            var program = FlowProgram(
                name: machineName, summary: machine.summary, states: states, events: events,
                conditions: conditions, effects: effects, sequences: sequences, initial: leafOf[initial],
                retrySlotCount: retrySlots, persist: persistence, compounds: compounds, histories: histories,
                hasParallel: compounds.contains(where: \.isParallel))
            program.isStandalone = machine.isStandalone
            program.statesRead = statesRead.map { machine.name(of: $0) }
            program.statesReadWhileIn = statesReadWhileIn()
            program.initialFrom = initialFrom(initial)
            program.activities = activities
            program.ownActivityCount = machine.ownActivityCount ?? activities.count
            program.steps = ProgramSteps(program)
            return program
        }

        /// Per state of the machine, the position among the program's states of the state it
        /// stands for: itself, or for a compound state the one its `initial` chain leads to.
        static func leaves(of graph: MachineGraph) -> [Int] {
            let machine = graph.machine
            var position: [Int] = []
            position.reserveCapacity(machine.states.count)
            var count = 0
            for index in machine.states.indices {
                position.append(count)
                if machine.isLeaf(index) { count += 1 }
            }
            guard machine.nesting.isNested else { return position }
            // Inner states come later: resolve from the last, so each compound state's initial
            // state is resolved already.
            for index in machine.states.indices.reversed() where machine.isCompound(index) {
                if let entered = graph.edges(from: index).first?.target { position[index] = position[entered] }
            }
            // A history state stands for its default (its first edge), which may be a compound state.
            for index in machine.states.indices where machine.isHistory(index) {
                if let entered = graph.edges(from: index).first?.target { position[index] = position[entered] }
            }
            return position
        }

        /// The compound states, with the range of program states inside each.
        mutating func compoundStates() -> [FlowProgram.Compound] {
            guard machine.nesting.isNested else { return [] }
            var compounds: [FlowProgram.Compound] = []
            for index in machine.states.indices where machine.isCompound(index) {
                // Its states are the leaves among its descendants, one run of the program's states.
                let inside = machine.nesting.descendants(of: index).filter(machine.isLeaf)
                let first = inside.first.map { leafOf[$0] } ?? 0
                let count = inside.count
                var swiftName = SwiftName.placeholder
                if let mapped = name(machine.name(of: index), scope: .enumCase) {
                    swiftName = mapped.swiftName
                } else {
                    failed = true
                }
                let done = (machine.nesting.details[index]?.done?.value ?? []).map { resolve($0, from: index) }
                compounds.append(
                    FlowProgram.Compound(
                        name: machine.name(of: index), swiftName: swiftName, depth: machine.nesting.depth(of: index),
                        states: first..<first + count,
                        entry: machine.nesting.entry(of: index).map { effect($0.value) },
                        exit: machine.nesting.exit(of: index).map { effect($0.value) }, specIndex: index,
                        initialEffects: (machine.nesting.details[index]?.initialEffects ?? []).map { effect($0.value) },
                        timeout: machine.states[index].timeoutLocation == nil ? nil : outerTimeout(of: index),
                        done: done, parent: machine.nesting.parent(of: index).flatMap { compoundIndex[$0] },
                        initialState: leafOf[index],
                        memorySlot: machine.remembers(index) ? compounds.count { $0.memorySlot != nil } : nil,
                        isParallel: machine.isParallel(index),
                        activities: activities(of: index), runs: run(by: index)))
            }
            return compounds
        }

        /// The history states, each with the compound state it resumes and its default.
        mutating func historyStates() -> [FlowProgram.History] {
            machine.states.indices.filter(machine.isHistory).compactMap { index in
                guard let parent = machine.nesting.parent(of: index), let compound = compoundIndex[parent] else {
                    failed = true
                    return nil
                }
                return FlowProgram.History(
                    name: machine.name(of: index), compound: compound,
                    deep: machine.nesting.details[index]?.deep?.value == true, defaultTarget: leafOf[index],
                    specIndex: index, defaultEffects: machine.historyDefaultEffects(of: index).map { effect($0.value) })
            }
        }

        /// The depth from which the compound states around the state a target stands for are
        /// entered through their `initial` (``FlowProgram/Candidate/initialFrom``): the target's
        /// own when it is a compound state; for a history state, its default's (or its compound
        /// state's initial state's) when that is one.
        func initialFrom(_ target: Int) -> Int {
            var entered = target
            if machine.isHistory(target), let next = graph.edges(from: target).first?.target { entered = next }
            return machine.isCompound(entered) ? machine.nesting.depth(of: entered) : .max
        }

        /// How many states around a transition's source stay active when it goes to `target`:
        /// those around the innermost compound state that holds both the source and the target,
        /// as a proper ancestor of both (SCXML's transition domain: so a transition to or inside
        /// its own source leaves and enters the source again, and one to a compound state around
        /// its source leaves and enters that state). `nil` is the machine's `on`: every state is
        /// left.
        func keep(from source: Int?, to target: Int) -> Int {
            guard let source, machine.nesting.isNested else { return 0 }
            // A history state directly under `parallel` enters its parallel state afresh: the
            // transition's domain is the parallel state's, as if it targeted it.
            let target = machine.historyOfParallel(target) ?? target
            for ancestor in machine.nesting.ancestors(of: source)
            where ancestor != target && machine.nesting.isWithin(target, ancestor) {
                return machine.nesting.depth(of: ancestor) + 1
            }
            return 0
        }

        mutating func resolve(
            _ index: Int, transitions own: TransitionStore.Transitions,
            inherited: [(event: Name, candidates: [FlowProgram.Candidate])]
        ) -> FlowProgram.State {
            let state = machine.states[index]
            var transitions: [(event: Int, candidates: [FlowProgram.Candidate])] = []
            var scopes: [FlowProgram.Scope] = []
            for transition in own {
                transitions.append(
                    (event(transition.event.value), transition.candidates.map { resolve($0, from: index) }))
                scopes.append(.own)
            }
            // What the state inherits is what the graph gave it (``GraphBuilder`` decides that,
            // once): an inherited event edge per candidate, in the order they are tried.
            var seen = Set<[Int]>()
            var outerTimeouts: [(depth: Int, timeout: FlowProgram.Timeout)] = []
            for edge in graph.edges(from: index) where edge.isInherited && !edge.isRetryFallback {
                let declaring = graph.declaringState(of: edge)
                switch edge.triggerKind {
                case .event where seen.insert([edge.levelsUp, edge.transitionIndex]).inserted:
                    if let declaring {
                        let transition = outerTransitions(of: declaring)[edge.transitionIndex]
                        transitions.append((event(transition.event), transition.candidates))
                        scopes.append(.compound(compoundIndex[declaring] ?? 0))
                    } else {
                        let transition = inherited[edge.transitionIndex]
                        transitions.append((event(transition.event), transition.candidates))
                        scopes.append(.machine)
                    }
                case .timeout:
                    guard let declaring, let resolved = outerTimeout(of: declaring) else {
                        failed = true
                        continue
                    }
                    outerTimeouts.insert((machine.nesting.depth(of: declaring), resolved), at: 0)
                default:
                    break
                }
            }
            let branches = (state.always?.value ?? []).map { resolve($0, from: index) }
            let always = state.kind == .choice ? branches : []
            var eventless = state.kind == .choice ? [] : branches
            var eventlessScopes = [FlowProgram.Scope](repeating: .own, count: eventless.count)
            for ancestor in machine.nesting.ancestors(of: index) {
                let inherited = outerEventless(of: ancestor)
                eventless += inherited
                eventlessScopes += inherited.map { _ in .compound(compoundIndex[ancestor] ?? 0) }
            }
            var timeout: FlowProgram.Timeout?
            if state.timeoutLocation != nil {
                timeout = resolveTimeout(of: index)
                if timeout == nil { failed = true }
            }
            var done: [FlowProgram.Candidate] = []
            if state.kind == .terminal, let parent = machine.nesting.parent(of: index),
                let candidates = machine.nesting.details[parent]?.done?.value
            {
                done = candidates.map { resolve($0, from: parent) }
            }
            var swiftName = SwiftName.placeholder
            let stateName = machine.names[state.name.value]
            if let mapped = name(stateName, scope: .enumCase) { swiftName = mapped.swiftName } else { failed = true }
            let ancestors = machine.nesting.ancestors(of: index)
            return FlowProgram.State(
                name: stateName, swiftName: swiftName, kind: state.kind,
                summary: state.summary, transitions: transitions,
                transitionPositions: FlowProgram.State.positions(of: transitions), always: always,
                timeout: timeout, depth: ancestors.count, ancestors: ancestors.map { compoundIndex[$0] ?? 0 },
                entry: machine.nesting.entry(of: index).map { effect($0.value) },
                exit: machine.nesting.exit(of: index).map { effect($0.value) },
                outerTimeouts: outerTimeouts, done: done, scopes: scopes, specIndex: index,
                activities: activities(of: index), eventless: eventless, eventlessScopes: eventlessScopes)
        }

        /// The machine's activities, with the events each sends.
        mutating func activityDeclarations() -> [FlowProgram.Activity] {
            (machine.activities ?? []).compactMap { activity in
                guard let mapped = name(activity.name.value, scope: .enumCase) else {
                    failed = true
                    return nil
                }
                return FlowProgram.Activity(
                    name: mapped.name, swiftName: mapped.swiftName, summary: activity.summary,
                    sends: activity.sends.map { lookup($0.value, in: eventIndex) })
            }
        }

        /// The machine a state runs, if it runs one.
        mutating func run(by state: Int) -> FlowProgram.Run? {
            guard let ran = machine.nesting.details[state]?.ran else { return nil }
            guard let machineName = name(ran.machine, scope: .machine) else {
                failed = true
                return nil
            }
            let prefix = machine.name(of: state) + "."
            return FlowProgram.Run(
                machine: machineName, events: ran.events.map { lookup($0, in: eventIndex) },
                effects: ran.effects.map { lookup($0, in: effectIndex) },
                activities: ran.activities.map { lookup($0, in: activityIndex) },
                outcomes: ran.outcomes.compactMap { index(prefix + $0).map { leafOf[$0] } })
        }

        /// The activities a state lists, by index.
        mutating func activities(of state: Int) -> [Int] {
            (machine.nesting.details[state]?.activities ?? []).map { lookup($0.value, in: activityIndex) }
        }

        /// The transitions a compound state writes, resolved once for every state inside it
        /// (their retries share one counter each).
        mutating func outerTransitions(of compound: Int) -> [(event: Name, candidates: [FlowProgram.Candidate])] {
            if let resolved = compoundTransitions[compound] { return resolved }
            let resolved = machine.transitions(of: compound).map { transition in
                (event: transition.event.value, candidates: transition.candidates.map { resolve($0, from: compound) })
            }
            compoundTransitions[compound] = resolved
            return resolved
        }

        /// A compound state's `always` branches, resolved once for every state inside it (their
        /// retries share one counter each).
        mutating func outerEventless(of compound: Int) -> [FlowProgram.Candidate] {
            if let resolved = compoundEventless[compound] { return resolved }
            let resolved = (machine.states[compound].always?.value ?? []).map { resolve($0, from: compound) }
            compoundEventless[compound] = resolved
            return resolved
        }

        /// A compound state's timeout, resolved once for every state inside it.
        mutating func outerTimeout(of compound: Int) -> FlowProgram.Timeout? {
            if let resolved = compoundTimeouts[compound] { return resolved }
            let resolved = resolveTimeout(of: compound)
            compoundTimeouts[compound] = resolved
            return resolved
        }

        mutating func resolveTimeout(of index: Int) -> FlowProgram.Timeout? {
            guard let written = machine.states[index].timeout, let after = written.after?.value,
                let target = self.index(written.target.value)
            else { return nil }
            let candidate = FlowProgram.Candidate(
                target: leafOf[target], requires: [], forbids: [],
                effects: written.effects.map { effect($0.value) },
                retry: written.retry.map { retry($0, from: index) }, keep: keep(from: index, to: target),
                history: historyIndex[target], initialFrom: initialFrom(target))
            return FlowProgram.Timeout(after: after, candidate: candidate)
        }

        /// A candidate written by `source` (`nil`: the machine's `on`). A state its guard reads
        /// is a condition after the declared ones (``FlowProgram/statesRead``).
        mutating func resolve(_ candidate: Candidate, from source: Int?) -> FlowProgram.Candidate {
            var requires = candidate.condition.map { [condition($0.value)] } ?? []
            var forbids = candidate.unlessCondition.map { [condition($0.value)] } ?? []
            for term in candidate.stateTerms {
                let read = conditionIndex.count + stateRead(term.state.value)
                if term.holds { requires.append(read) } else { forbids.append(read) }
            }
            let effects = candidate.effects.map { effect($0.value) }
            guard let written = candidate.target else {
                return FlowProgram.Candidate(
                    target: -1, requires: requires, forbids: forbids, effects: effects, retry: nil)
            }
            let target = index(written.value) ?? 0
            return FlowProgram.Candidate(
                target: leafOf[target], requires: requires, forbids: forbids, effects: effects,
                retry: candidate.retry.map { retry($0, from: source) }, keep: keep(from: source, to: target),
                history: historyIndex[target], initialFrom: initialFrom(target))
        }

        /// The position of a state a guard reads among those read so far, added if new.
        mutating func stateRead(_ name: Name) -> Int {
            guard let state = index(name) else { return 0 }
            if let known = stateReadIndex[state] { return known }
            stateReadIndex[state] = statesRead.count
            statesRead.append(state)
            return statesRead.count - 1
        }

        /// Per program state, the states read that the flow is in while it is in that state:
        /// the state itself and those around it.
        func statesReadWhileIn() -> [[Int]] {
            guard !statesRead.isEmpty else { return [] }
            var whileIn: [[Int]] = []
            for index in machine.states.indices where machine.isLeaf(index) {
                var read: [Int] = []
                var around: Int? = index
                while let state = around {
                    if let position = stateReadIndex[state] { read.append(position) }
                    around = machine.nesting.parent(of: state)
                }
                whileIn.append(read.sorted())
            }
            return whileIn
        }

        mutating func retry(_ retry: Retry, from source: Int?) -> FlowProgram.Retry {
            defer { retrySlots += 1 }
            if retry.max == nil { failed = true }
            let fallback = index(retry.then.value) ?? 0
            return FlowProgram.Retry(
                slot: retrySlots, max: retry.max?.value ?? 1, fallback: leafOf[fallback],
                effects: retry.effects.map { effect($0.value) }, keep: keep(from: source, to: fallback),
                history: historyIndex[fallback], initialFrom: initialFrom(fallback))
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
