/// `partial-choice`: a `choice` state whose last `always` branch has a condition, so that
/// when no condition holds the state has nowhere to go.
struct PartialChoiceCheck: MachineCheck {
    static let definition = RuleDefinition(
        rule: .partialChoice, defaultSeverity: .error,
        summary: "A choice state whose last `always` branch has a condition.",
        reportedAt: "the last branch",
        finding: "a `choice` whose last `always` branch has a condition")

    func check(_ analysis: MachineAnalysis, _ reporter: RuleReporter) {
        let states = analysis.machine.states
        for index in states.indices where states[index].kind == .choice {
            let state = states[index]
            guard let last = state.always?.value.last, !last.isUnconditional else { continue }
            reporter.report(
                "the last `always` branch of choice state '\(analysis.machine.name(of: index))' has a condition, so when none holds the state has nowhere to go",
                at: last.location, subjects: [analysis.machine.name(of: index)],
                notes: [
                    .init(
                        "end the list with a branch without `if` or `unless`, such as `- { to: \(last.target.map { analysis.machine.names[$0.value] } ?? "a-state") }`"
                    )
                ])
        }
    }
}
