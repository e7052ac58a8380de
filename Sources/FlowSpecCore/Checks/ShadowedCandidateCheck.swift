/// `shadowed-candidate`: a candidate listed after an unconditional one can never be taken
/// (in `on`, machine-wide `on`, `always` and `done` lists).
struct ShadowedCandidateCheck: MachineCheck {
    static let definition = RuleDefinition(
        rule: .shadowedCandidate, defaultSeverity: .warning,
        summary: "A candidate listed after an unconditional one can never be taken.",
        reportedAt: "the candidate",
        finding:
            "a candidate after an unconditional one (in `on`, `always` and `done`); a compound state's transition that every state inside it overrides; a running state's transition on an event the machine it runs handles in its own `on`"
    )

    /// A running state's transition on an event that the machine it runs handles machine-wide:
    /// the sub-flow takes the event first, in every state, so the running state never does
    /// (found while composing, where the running state's `on` and the machine's meet).
    static func reportShadowedByRun(
        event: Located<String>, state: String, machine: String, into reporter: RuleReporter
    ) {
        reporter.report(
            "the transition on '\(event.value)' of '\(state)' can never be taken: '\(machine)', which '\(state)' runs, handles '\(event.value)' in its own `on`, and the sub-flow takes an event first",
            at: event.location, subjects: [state, event.value],
            notes: [.init("remove it, or remove '\(event.value)' from the `on` of '\(machine)'")])
    }

    func check(_ analysis: MachineAnalysis, _ reporter: RuleReporter) {
        let machine = analysis.machine
        for transition in machine.machineWide {
            report(
                transition.candidates, what: "machine-wide event '\(machine.names[transition.event.value])'",
                names: machine.names, reporter)
        }
        for index in machine.states.indices {
            // Only lists of two or more can shadow; looking at the count in place keeps this
            // pass from copying every transition of a large machine.
            let transitions = machine.transitions(of: index)
            for position in transitions.indices where transitions[position].candidates.count > 1 {
                let transition = transitions[position]
                report(
                    transition.candidates,
                    what: "event '\(machine.names[transition.event.value])' in state '\(machine.name(of: index))'",
                    names: machine.names, reporter)
            }
            // An outcome's copy holds the candidates of the running state's `done`, reported there.
            if let always = machine.states[index].always, !machine.isOutcome(index) {
                report(
                    always.value, what: "`always` of state '\(machine.name(of: index))'", names: machine.names,
                    reporter)
            }
        }
        // Only lists of two or more can shadow, read in place, in document order.
        let lists = machine.nesting.details.compactMap { index, details -> (index: Int, done: Candidates)? in
            guard let done = details.done, done.value.count > 1 else { return nil }
            return (index, done.value)
        }
        for (index, done) in lists.sorted(by: { $0.index < $1.index }) {
            report(done, what: "`done` of '\(machine.name(of: index))'", names: machine.names, reporter)
        }
        for run in machine.runs {
            for outcome in run.outcomes where outcome.mapping != nil {
                guard let always = machine.states[outcome.state].always else { continue }
                report(
                    always.value, what: "outcome '\(outcome.name)' in the `done` of '\(machine.name(of: run.state))'",
                    names: machine.names, reporter)
            }
        }
        if machine.nesting.isNested { reportOverridden(analysis, reporter) }
    }

    /// A compound state's transition that no state inside it inherits: each one that waits for
    /// events handles the event itself (or a closer compound state does).
    private func reportOverridden(_ analysis: MachineAnalysis, _ reporter: RuleReporter) {
        let graph = analysis.graph
        let machine = analysis.machine
        // Each inherited transition once, as its declaring state and position in one integer: an
        // array per edge would allocate for every state inside.
        func key(_ state: Int, _ position: Int) -> Int { state << 32 | position }
        var inherited = Set<Int>()
        for edge in graph.edges where edge.isInherited && edge.triggerKind == .event {
            if let declaring = graph.declaringState(of: edge) { inherited.insert(key(declaring, edge.transitionIndex)) }
        }
        for index in machine.states.indices where machine.isCompound(index) && !machine.states[index].isMalformed {
            let transitions = machine.transitions(of: index)
            guard transitions.indices.contains(where: { !inherited.contains(key(index, $0)) }) else { continue }
            let inside = machine.nesting.descendants(of: index)
            // A state inside whose transitions could not all be read may have been meant to inherit it.
            if inside.contains(where: { machine.states[$0].hasLostTransitions }) { continue }
            let waiting = inside.filter {
                !machine.isCompound($0) && machine.states[$0].kind.inheritsMachineWideTransitions
            }
            for position in transitions.indices where !inherited.contains(key(index, position)) {
                // Its edges may be gone because where the flow is keeps it from being taken
                // (`fixed-state-condition` says so), not because it is overridden.
                if transitions[position].candidates.contains(where: { $0.edgeFacts.readsStates }),
                    waiting.contains(where: {
                        !Self.isOverridden(transitions[position].event.value, in: $0, by: index, machine)
                    })
                {
                    continue
                }
                let event = machine.names[transitions[position].event.value]
                let name = machine.name(of: index)
                let why =
                    waiting.isEmpty
                    ? "no state inside it waits for events"
                    : "every state inside it that waits for events handles '\(event)' itself"
                reporter.report(
                    "the transition on '\(event)' of '\(name)' can never be taken: \(why)",
                    at: transitions[position].event.location, subjects: [name, event],
                    notes: [.init("remove it, or remove '\(event)' from the states inside that handle it")])
            }
        }
    }

    /// Whether `state`, or a compound state between it and `compound`, handles `event` itself.
    private static func isOverridden(_ event: Name, in state: Int, by compound: Int, _ machine: MachineSpec) -> Bool {
        var current: Int? = state
        while let here = current, here != compound {
            if machine.transitions(of: here).contains(where: { $0.event.value == event }) { return true }
            current = machine.nesting.parent(of: here)
        }
        return false
    }

    private func report(
        _ candidates: Candidates, what: @autoclosure () -> String, names: NameTable,
        _ reporter: RuleReporter
    ) {
        guard candidates.count > 1, let first = candidates.firstIndex(where: \.isUnconditional) else { return }
        let blocker = candidates[first]
        for shadowed in candidates[(first + 1)...] {
            reporter.report(
                "\(Self.describe(shadowed, names)) for \(what()) can never be taken: an unconditional candidate comes before it",
                at: shadowed.location, subjects: shadowed.target.map { [names[$0.value]] } ?? [],
                notes: [
                    .init(
                        "the unconditional \(Self.describe(blocker, names).dropFirst(4)) is always taken first",
                        at: blocker.location)
                ])
        }
    }

    /// `the candidate to 'home'`, or `the candidate without a target` for one that stays.
    private static func describe(_ candidate: Candidate, _ names: NameTable) -> String {
        candidate.target.map { "the candidate to '\(names[$0.value])'" } ?? "the candidate without a target"
    }
}
