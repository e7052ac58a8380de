/// Builds a ``MachineGraph`` from a decoded machine, resolving every state reference once
/// and reporting each name that is not a state (`undefined-state`, with a suggestion).
struct GraphBuilder {
    let machine: MachineSpec
    /// Reports `undefined-state`.
    let reporter: RuleReporter
    private let stateIndex: StateIndex
    private var suggestions = SuggestionBudget()
    /// The events a state handles itself or inherits from the compound states around it so far
    /// (`addInherited`): a few, kept between states so that no state allocates a set.
    private var handledEvents: [Name] = []

    init(machine: MachineSpec, reporter: RuleReporter) {
        self.machine = machine
        self.reporter = reporter
        stateIndex = StateIndex(machine)
    }

    /// Builds the graph and checks the state references outside transitions (`initial`,
    /// sequences, `resume`, `migrate`, requirements).
    mutating func build() -> MachineGraph {
        let initial = machine.initial.flatMap { resolve($0, as: "initial state") }
        // One flat array, grouped by source: no array per state.
        var edges: [Edge] = []
        edges.reserveCapacity(Self.edgeCount(machine))
        var edgeStart: [Int32] = [0]
        edgeStart.reserveCapacity(machine.states.count + 1)
        // Only a machine whose compound states write `always` has any to inherit.
        let inheritsEventless =
            machine.nesting.isNested
            && machine.states.indices.contains { machine.states[$0].always != nil && machine.isCompound($0) }
        // States are read in place (`machine.states[index].…`): binding a whole state copies it,
        // which on a large machine costs more than everything else done here.
        for index in machine.states.indices {
            if machine.isCompound(index) {
                addInitial(of: index, to: &edges)
                edgeStart.append(Int32(edges.count))
                continue
            }
            if machine.isHistory(index) {
                addHistory(of: index, to: &edges)
                edgeStart.append(Int32(edges.count))
                continue
            }
            let transitions = machine.transitions(of: index)
            for position in transitions.indices {
                addCandidates(
                    transitions[position].candidates, from: index, trigger: .event,
                    transitionIndex: position, to: &edges)
            }
            let inherits = machine.states[index].kind.inheritsMachineWideTransitions
            if inherits { addInherited(by: index, ownEvents: transitions, to: &edges) }
            if let always = machine.states[index].always {
                addCandidates(always.value, from: index, trigger: .always, to: &edges)
            }
            if inheritsEventless { addInheritedEventless(by: index, to: &edges) }
            if let timeout = machine.states[index].timeout {
                addTimeout(timeout, from: index, to: &edges)
            }
            if inherits { addInheritedTimeouts(of: index, to: &edges) }
            addDone(of: index, to: &edges)
            edgeStart.append(Int32(edges.count))
        }
        resolveOtherReferences()
        resolveCompoundReferences()
        return MachineGraph(
            machine: machine, stateIndex: stateIndex, initial: initial, edges: edges, edgeStart: edgeStart)
    }

    /// How many edges the states can make: one per candidate, `always` branch and timeout,
    /// one more for each retry, and the machine-wide ones for every state that may inherit them
    /// (fewer where names are not states or a state handles the event itself). The edges are
    /// the graph's largest part: room for exactly as many saves a tenth of it.
    private static func edgeCount(_ machine: MachineSpec) -> Int {
        var count = 0
        var inheritors = 0
        for index in machine.states.indices {
            let transitions = machine.transitions(of: index)
            for position in transitions.indices { count += transitions[position].edgeCount }
            if let always = machine.states[index].always { count += edgeCount(always.value) }
            if machine.states[index].hasTimeout { count += machine.states[index].timeout?.retry == nil ? 1 : 2 }
            if machine.states[index].kind.inheritsMachineWideTransitions { inheritors += 1 }
        }
        let machineWide = machine.machineWide.reduce(0) { $0 + edgeCount($1.candidates) }
        return count + machineWide * inheritors
    }

    /// The transitions a state inherits for the events it does not handle itself: those of the
    /// compound states around it, innermost first, then the machine's `on`.
    private mutating func addInherited(
        by state: Int, ownEvents: TransitionStore.Transitions, to edges: inout [Edge]
    ) {
        let inherited = machine.machineWide
        var ancestor = machine.nesting.parent(of: state)
        guard !inherited.isEmpty || ancestor != nil else { return }
        // A linear search of a few events, where a set per state would cost more than the rest.
        handledEvents.removeAll(keepingCapacity: true)
        for position in ownEvents.indices { handledEvents.append(ownEvents[position].event.value) }
        var level = 0
        while let compound = ancestor {
            let transitions = machine.transitions(of: compound)
            for position in transitions.indices where !handledEvents.contains(transitions[position].event.value) {
                handledEvents.append(transitions[position].event.value)
                addCandidates(
                    transitions[position].candidates, from: state, trigger: .event, transitionIndex: position,
                    levelsUp: level + 1, to: &edges)
            }
            level += 1
            ancestor = machine.nesting.parent(of: compound)
        }
        for position in inherited.indices where !handledEvents.contains(inherited[position].event.value) {
            addCandidates(
                inherited[position].candidates, from: state, trigger: .event,
                transitionIndex: position, levelsUp: level + 1, to: &edges)
        }
    }

    /// The `always` branches of the compound states around a state, innermost first: tried
    /// after its own while it is active (SCXML: each atomic state's ancestors in turn).
    private mutating func addInheritedEventless(by state: Int, to edges: inout [Edge]) {
        var ancestor = machine.nesting.parent(of: state)
        var level = 0
        while let compound = ancestor {
            level += 1
            ancestor = machine.nesting.parent(of: compound)
            guard let always = machine.states[compound].always else { continue }
            addCandidates(always.value, from: state, trigger: .always, levelsUp: level, to: &edges)
        }
    }

    /// The timeouts of the compound states around a state: armed on entering each, they may
    /// fire while the state is active.
    private mutating func addInheritedTimeouts(of state: Int, to edges: inout [Edge]) {
        var ancestor = machine.nesting.parent(of: state)
        var level = 0
        while let compound = ancestor {
            level += 1
            ancestor = machine.nesting.parent(of: compound)
            guard let timeout = machine.states[compound].timeout else { continue }
            addTransition(
                to: timeout.target, as: "timeout target", retry: timeout.retry, from: state, trigger: .timeout,
                levelsUp: level, conditional: false, to: &edges)
        }
    }

    /// A terminal state inside a compound state with `done` leaves at once through it. One
    /// directly inside a region (that has no `done` of its own) ends its region, and the
    /// parallel state's `done` may follow: it is taken once every region has ended, so each
    /// region's terminal states lead there (levels up: the region, then the parallel state).
    private mutating func addDone(of state: Int, to edges: inout [Edge]) {
        guard machine.states[state].kind == .terminal, let parent = machine.nesting.parent(of: state) else { return }
        if let done = machine.nesting.details[parent]?.done {
            addCandidates(
                done.value, as: "`done` target", from: state, trigger: .always, transitionIndex: Edge.doneIndex,
                levelsUp: 1, to: &edges)
        } else if let parallel = machine.nesting.parent(of: parent), machine.isParallel(parallel),
            let done = machine.nesting.details[parallel]?.done
        {
            addCandidates(
                done.value, as: "`done` target", from: state, trigger: .always, transitionIndex: Edge.doneIndex,
                levelsUp: 2, to: &edges)
        }
    }

    /// Entering a compound state enters its `initial` state, or the first one inside it;
    /// entering a parallel state enters every region, in document order.
    private mutating func addInitial(of state: Int, to edges: inout [Edge]) {
        if machine.isParallel(state) {
            for region in machine.nesting.children(of: state) where !machine.isHistory(region) {
                edges.append(
                    Edge(
                        source: state, target: region, trigger: .initial, isConditional: false, isBounded: false,
                        isRetryFallback: false, isInherited: false))
            }
            return
        }
        guard let target = initialChild(of: state) else { return }
        edges.append(
            Edge(
                source: state, target: target, trigger: .initial, isConditional: false, isBounded: false,
                isRetryFallback: false, isInherited: false))
    }

    /// A history state leads to its `default` (or its compound state's `initial`) when nothing
    /// was recorded (an `initial` edge, candidate 0), and otherwise back to what was: a deep
    /// history to any state the flow can be in inside its compound state, a shallow one to any
    /// state directly inside it (resume edges, candidate 1; see ``Edge/isResume``).
    private mutating func addHistory(of state: Int, to edges: inout [Edge]) {
        guard let parent = machine.nesting.parent(of: state) else { return }
        let written = machine.nesting.details[state]?.historyDefault.flatMap { stateIndex[$0.value] }
        let inside = machine.nesting.descendants(of: parent)
        if let target = written.flatMap({ inside.contains($0) && !machine.isHistory($0) ? $0 : nil })
            ?? initialChild(of: parent)
        {
            edges.append(
                Edge(
                    source: state, target: target, trigger: .initial, isConditional: false, isBounded: false,
                    isRetryFallback: false, isInherited: false))
        }
        let deep = machine.nesting.details[state]?.deep?.value == true
        let resumed = deep ? Array(inside.filter(machine.isLeaf)) : machine.nesting.children(of: parent)
        for target in resumed where !machine.isHistory(target) {
            edges.append(
                Edge(
                    source: state, target: target, trigger: .initial, candidateIndex: 1, isConditional: false,
                    isBounded: false, isRetryFallback: false, isInherited: false))
        }
    }

    /// The state a compound state enters first: its `initial` (when that is a state directly
    /// inside it, as the decoder checks, or deeper inside it: a running state enters the
    /// `initial` of the machine it runs, which may stand inside a compound or parallel state of
    /// that machine), else its first that is no history state.
    private func initialChild(of state: Int) -> Int? {
        let children = machine.nesting.children(of: state)
        if let initial = machine.nesting.details[state]?.initial {
            if let child = children.first(where: { machine.name(of: $0) == initial.value && !machine.isHistory($0) }) {
                return child
            }
            guard let inside = stateIndex[initial.value], !machine.isHistory(inside) else { return nil }
            var ancestor = machine.nesting.parent(of: inside)
            while let current = ancestor, current != state { ancestor = machine.nesting.parent(of: current) }
            return ancestor == state ? inside : nil
        }
        return children.first { !machine.isHistory($0) }
    }

    private static func edgeCount(_ candidates: Candidates) -> Int {
        candidates.indices.reduce(0) { $0 + (candidates[$1].edgeFacts.retry == nil ? 1 : 2) }
    }

    /// The machine-wide names reported as not states, by role: each is reported once, not once
    /// per inheriting state.
    private var reportedMachineWide: Set<MachineWideName> = []

    private struct MachineWideName: Hashable {
        let role: String
        let name: Name
    }

    private mutating func resolveMachineWide(_ name: Located<Name>, as role: String) -> Int? {
        if let index = stateIndex[name.value] { return index }
        guard reportedMachineWide.insert(MachineWideName(role: role, name: name.value)).inserted else { return nil }
        return resolve(name, as: role)
    }

    /// `transitionIndex` is the index of an event's transition in `machine.transitions(of: source)`, or
    /// in the machine's `machineWide` for an `inherited` one. Inlined into the loop over the
    /// states: as a call of its own it costs a large flat machine about 0.5% more instructions.
    @inline(__always)
    private mutating func addCandidates(
        _ candidates: Candidates, as role: String = "target", from source: Int, trigger: Edge.TriggerKind,
        transitionIndex: Int = 0, levelsUp: Int = 0, to edges: inout [Edge]
    ) {
        // By position, not by element: iterating copies each candidate twice.
        for index in candidates.indices {
            let facts = candidates[index].edgeFacts
            if facts.readsStates, isNeverTaken(candidates[index], from: source, levelsUp: levelsUp) { continue }
            guard let target = candidates[index].target else {
                // It stays where it is: a loop on the source, flagged (it has no retry).
                edges.append(
                    Edge(
                        source: source, target: source, trigger: trigger, transitionIndex: transitionIndex,
                        candidateIndex: index, levelsUp: levelsUp, isConditional: facts.isConditional,
                        isBounded: false, isRetryFallback: false, isInherited: levelsUp > 0, isTargetless: true))
                continue
            }
            addTransition(
                to: target, as: role, retry: facts.retry, from: source,
                trigger: trigger, transitionIndex: transitionIndex, candidateIndex: index, levelsUp: levelsUp,
                conditional: facts.isConditional, to: &edges)
        }
    }

    private mutating func addTimeout(_ timeout: Timeout, from source: Int, to edges: inout [Edge]) {
        addTransition(
            to: timeout.target, as: "timeout target", retry: timeout.retry, from: source, trigger: .timeout,
            conditional: false, to: &edges)
    }

    /// The edge to a target and, with a retry, the edge to its `then` once the retries are used
    /// up; a name that is not a state is reported and makes no edge. Inherited names are
    /// resolved once for all the states that inherit them (`levelsUp` above 0): machine-wide
    /// ones here, those of compound states in ``resolveCompoundReferences()``.
    private mutating func addTransition(
        to target: Located<Name>, as role: String, retry: Retry?, from source: Int,
        trigger: Edge.TriggerKind, transitionIndex: Int = 0, candidateIndex: Int = 0, levelsUp: Int = 0,
        conditional: Bool, to edges: inout [Edge]
    ) {
        let inherited = levelsUp > 0
        if let resolved = inheritedOrResolved(target, as: role, source: source, levelsUp: levelsUp) {
            edges.append(
                Edge(
                    source: source, target: resolved, trigger: trigger, transitionIndex: transitionIndex,
                    candidateIndex: candidateIndex, levelsUp: levelsUp, isConditional: conditional,
                    isBounded: retry != nil, isRetryFallback: false, isInherited: inherited))
        }
        guard let retry else { return }
        let role = "retry's `then`"
        if let fallback = inheritedOrResolved(retry.then, as: role, source: source, levelsUp: levelsUp) {
            edges.append(
                Edge(
                    source: source, target: fallback, trigger: trigger, transitionIndex: transitionIndex,
                    candidateIndex: candidateIndex, levelsUp: levelsUp, isConditional: conditional, isBounded: false,
                    isRetryFallback: true, isInherited: inherited))
        }
    }

    /// A target resolved: reported here when written by the source itself or the machine, and
    /// silently when written by a compound state around the source (reported once, there).
    private mutating func inheritedOrResolved(
        _ name: Located<Name>, as role: String, source: Int, levelsUp: Int
    ) -> Int? {
        if levelsUp == 0 { return resolve(name, as: role) }
        if levelsUp > machine.nesting.depth(of: source) { return resolveMachineWide(name, as: role) }
        return stateIndex[name.value]
    }

    /// Reports the names compound states write that are not states: their transitions' targets
    /// and retries' `then`, their timeout's target and their `done`, once each.
    private mutating func resolveCompoundReferences() {
        guard machine.nesting.isNested else { return }
        for index in machine.states.indices where machine.isCompound(index) {
            let transitions = machine.transitions(of: index)
            for position in transitions.indices {
                let candidates = transitions[position].candidates
                for candidate in candidates.indices {
                    if let target = candidates[candidate].target { _ = resolve(target, as: "target") }
                    if let retry = candidates[candidate].retry { _ = resolve(retry.then, as: "retry's `then`") }
                    resolveStates(read: candidates[candidate])
                }
            }
            if let timeout = machine.states[index].timeout {
                _ = resolve(timeout.target, as: "timeout target")
                if let retry = timeout.retry { _ = resolve(retry.then, as: "retry's `then`") }
            }
            for candidate in machine.states[index].always?.value ?? [] {
                if let target = candidate.target { _ = resolve(target, as: "target") }
                if let retry = candidate.retry { _ = resolve(retry.then, as: "retry's `then`") }
                resolveStates(read: candidate)
            }
            for candidate in machine.nesting.details[index]?.done?.value ?? [] {
                if let target = candidate.target { _ = resolve(target, as: "`done` target") }
                if let retry = candidate.retry { _ = resolve(retry.then, as: "retry's `then`") }
                resolveStates(read: candidate)
            }
        }
    }

    private mutating func resolveOtherReferences() {
        // Machine-wide targets are checked even when every state overrides the event (or no
        // state inherits it): a wrong name is wrong wherever it is written.
        for transition in machine.machineWide {
            for candidate in transition.candidates {
                if let target = candidate.target { _ = resolveMachineWide(target, as: "target") }
                if let retry = candidate.retry { _ = resolveMachineWide(retry.then, as: "retry's `then`") }
                resolveStates(read: candidate)
            }
        }
        for sequence in machine.sequences {
            for member in sequence.states { _ = resolve(member, as: "member of sequence '\(sequence.name.value)'") }
        }
        for (from, to) in machine.persist?.resume ?? [] {
            _ = resolve(from, as: "state in `resume`")
            _ = resolve(to, as: "state in `resume`")
        }
        for (_, to) in machine.persist?.migrate ?? [] { _ = resolve(to, as: "state in `migrate`") }
        for requirement in machine.requirements {
            for state in requirement.states { _ = resolve(state, as: "state in a requirement") }
        }
    }

    /// Whether a candidate whose guard reads where the flow is (`in:`, `notIn:`) is never taken
    /// from `source`, which, unlike a condition, may be known here: then it makes no edge. The
    /// names it reads are reported where it is written. Apart from ``addCandidates``, which
    /// most candidates go through without it.
    @inline(never)
    private mutating func isNeverTaken(_ candidate: Candidate, from source: Int, levelsUp: Int) -> Bool {
        if levelsUp == 0 { resolveStates(read: candidate) }
        return machine.isNeverTaken(candidate, from: source, stateIndex)
    }

    /// Reports the states a candidate's guard reads (`in:`, `notIn:`) that are not states.
    private mutating func resolveStates(read candidate: Candidate) {
        for term in candidate.stateTerms { _ = resolve(term.state, as: term.holds ? "`in` state" : "`notIn` state") }
    }

    /// The index of the state a transition names, or `nil` after reporting `undefined-state`.
    private mutating func resolve(_ name: Located<Name>, as role: @autoclosure () -> String) -> Int? {
        if let index = stateIndex[name.value] { return index }
        return reportUndefined(machine.names.text(name), as: role())
    }

    /// The index of the named state, or `nil` after reporting `undefined-state`.
    private mutating func resolve(_ name: Located<String>, as role: @autoclosure () -> String) -> Int? {
        if let index = stateIndex[name.value] { return index }
        return reportUndefined(name, as: role())
    }

    private mutating func reportUndefined(_ name: Located<String>, as role: String) -> Int? {
        let meant = suggestions.closest(to: name.value, count: machine.states.count) {
            machine.states.indices.map(machine.name(of:))
        }
        reporter.report(
            UndefinedStateRule.notAState(
                name.value, as: role, machine: machine.name.value, hint: Suggestion.didYouMean(meant)),
            at: name.location, subjects: [name.value], fix: meant.map { .replace(with: $0) })
        return nil
    }
}
