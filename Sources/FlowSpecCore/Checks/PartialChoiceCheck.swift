/// `partial-choice`: a `choice` state whose last `always` branch has a condition, so that
/// when no condition holds the state has nowhere to go; likewise a `done` whose last candidate
/// has one (a terminal state waits for nothing, so the flow would be stuck there).
struct PartialChoiceCheck: MachineCheck {
    static let definition = RuleDefinition(
        rule: .partialChoice, defaultSeverity: .error,
        summary: "A choice state whose last `always` branch has a condition, or a `done` whose last candidate has one.",
        reportedAt: "the last branch",
        finding:
            "a `choice` whose last `always` branch has a condition; a `done` (or an outcome's entry in it) whose last candidate has one"
    )

    func check(_ analysis: MachineAnalysis, _ reporter: RuleReporter) {
        let machine = analysis.machine
        for index in machine.states.indices where machine.states[index].kind == .choice && !machine.isOutcome(index) {
            guard let last = machine.states[index].always?.value.last, !last.isUnconditional else { continue }
            let name = machine.name(of: index)
            reporter.report(
                "the last `always` branch of choice state '\(name)' has a condition, so when none holds the state has nowhere to go",
                at: last.location, subjects: [name], notes: [fix(last, machine, "a branch")])
        }
        // Read in place, in document order: the details of most compound states have no `done`.
        let partial = machine.nesting.details.compactMap { index, details -> (index: Int, last: Candidate)? in
            guard let last = details.done?.value.last, !last.isUnconditional else { return nil }
            return (index, last)
        }
        for (index, last) in partial.sorted(by: { $0.index < $1.index }) {
            let name = machine.name(of: index)
            reporter.report(
                "the last candidate of the `done` of '\(name)' has a condition, so when none holds the flow stays in a terminal state and waits for ever",
                at: last.location, subjects: [name], notes: [fix(last, machine, "a candidate")])
        }
        // A running state's `done`, composed: each outcome it maps is a copy that takes its candidates.
        for run in machine.runs {
            let name = machine.name(of: run.state)
            for outcome in run.outcomes where outcome.mapping != nil {
                guard let last = machine.states[outcome.state].always?.value.last, !last.isUnconditional else {
                    continue
                }
                reporter.report(
                    "the last candidate for outcome '\(outcome.name)' in the `done` of '\(name)' has a condition, so when none holds the flow stays in that outcome and waits for ever",
                    at: last.location, subjects: [name], notes: [fix(last, machine, "a candidate")])
            }
        }
    }

    private func fix(_ last: Candidate, _ machine: MachineSpec, _ what: String) -> Diagnostic.Note {
        .init(
            "end the list with \(what) without `if` or `unless`, such as `- { to: \(last.target.map { machine.names[$0.value] } ?? "a-state") }`"
        )
    }
}
