/// `unhandled-outcome`: a machine run by a state can end in an outcome that the state's `done`
/// does not map. The flow would end there, in the middle of the parent, with nothing on
/// screen to leave it: the run path through both machines shows how.
///
/// An outcome no run reaches is not reported here (it cannot happen); a `done` entry for such
/// an outcome is `done-never-fires`.
struct UnhandledOutcomeCheck: MachineCheck {
    static let definition = RuleDefinition(
        rule: .unhandledOutcome, defaultSeverity: .error,
        summary: "A machine run by a state can end in an outcome that the state's `done` does not map.",
        reportedAt: "the `run` value",
        finding:
            "a terminal state at the top level of the machine run that a path from `initial`, through both machines, reaches, with no entry of its own in `done` and no bare `done` target"
    )

    func check(_ analysis: MachineAnalysis, _ reporter: RuleReporter) {
        let machine = analysis.machine
        guard !machine.runs.isEmpty, !analysis.mayLackPaths, let parents = analysis.parentsFromInitial else { return }
        let depths = parents.depths()
        for run in machine.runs {
            let state = machine.name(of: run.state)
            for outcome in run.outcomes where outcome.mapping == nil && analysis.isReachable(outcome.state) {
                reporter.report(
                    "state '\(state)' runs '\(run.machine.value)', which can end in '\(outcome.name)', but `done` of '\(state)' does not say where the flow goes then",
                    at: run.machine.location, subjects: [state, outcome.name],
                    notes: [
                        .init(
                            "a run that ends there: \(analysis.shortPathFromInitial(to: outcome.state, depths: depths))"
                        ),
                        .init(
                            "add `\(outcome.name): STATE` to `done` of '\(state)' (or a bare `done: STATE` for every outcome); as it is, the whole flow would end there"
                        )
                    ])
            }
        }
    }
}
