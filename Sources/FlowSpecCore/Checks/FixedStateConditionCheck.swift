/// `fixed-state-condition`: an `in:` or `notIn:` whose value is the same in every state that
/// tries its candidate, so it decides nothing: the state it names is that state or around it
/// (the flow is always in it), or can never be active beside it (a state of the same region
/// the flow has left, a history state). Where the flow is may vary only for a state in another
/// region of a parallel state around the one that tries it, or inside the compound state that
/// writes the transition.
struct FixedStateConditionCheck: MachineCheck {
    static let definition = RuleDefinition(
        rule: .fixedStateCondition, defaultSeverity: .warning,
        summary: "An `in:` or `notIn:` that holds always, or never, where it is written.",
        reportedAt: "the state named",
        finding:
            "an `in:` or `notIn:` naming a state the flow is always in, or never in, when the candidate is tried: the state trying it or one around it; one it cannot be in beside it; a history state"
    )

    func check(_ analysis: MachineAnalysis, _ reporter: RuleReporter) {
        guard analysis.nameUses.readsStates else { return }
        let machine = analysis.machine
        let leaves = machine.states.indices.filter(machine.isLeaf)
        let index = analysis.graph.stateIndex
        func check(_ candidates: Candidates, writtenBy writer: Int?, _ what: @autoclosure () -> String) {
            for candidate in candidates {
                for term in candidate.stateTerms {
                    guard let named = index[term.state.value] else { continue }
                    let trying =
                        writer.map { writer in leaves.filter { machine.nesting.isWithin($0, writer) || $0 == writer } }
                        ?? leaves
                    let values = Set(trying.map { machine.isIn(named, whileIn: $0) })
                    guard values.count == 1, let fixed = values.first, let holds = fixed else { continue }
                    report(term, named: named, holds: holds == term.holds, what(), machine, reporter)
                }
            }
        }
        for transition in machine.machineWide {
            check(
                transition.candidates, writtenBy: nil,
                "the machine's transition on '\(machine.names[transition.event.value])'")
        }
        for state in machine.states.indices {
            let transitions = machine.transitions(of: state)
            for position in transitions.indices where transitions[position].candidates.anyHasExtras {
                let event = machine.names[transitions[position].event.value]
                check(
                    transitions[position].candidates, writtenBy: state,
                    "the transition on '\(event)' of '\(machine.name(of: state))'")
            }
            if let always = machine.states[state].always {
                check(always.value, writtenBy: state, "an `always` branch of '\(machine.name(of: state))'")
            }
            if let done = machine.nesting.details[state]?.done {
                check(done.value, writtenBy: state, "the `done` of '\(machine.name(of: state))'")
            }
        }
    }

    private func report(
        _ term: (state: Located<Name>, holds: Bool), named: Int, holds: Bool, _ what: String, _ machine: MachineSpec,
        _ reporter: RuleReporter
    ) {
        let key = term.holds ? "in" : "notIn"
        let name = machine.name(of: named)
        let why =
            machine.isHistory(named)
            ? "a history state is never a state the flow is in"
            : holds == term.holds
                ? "the flow is always in '\(name)' when it tries this candidate"
                : "the flow is never in '\(name)' when it tries this candidate"
        let effect = holds ? "always holds" : "never holds, so the candidate is never taken"
        reporter.report(
            "`\(key): \(name)` in \(what) \(effect): \(why)",
            at: term.state.location, subjects: [name],
            notes: [
                .init(
                    holds
                        ? "remove `\(key):`; it decides nothing"
                        : "name a state of another region of a parallel state around it, or one inside the state that writes the transition; or remove the candidate"
                )
            ])
    }
}
