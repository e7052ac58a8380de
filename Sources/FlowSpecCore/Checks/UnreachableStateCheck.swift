/// `unreachable-state`: a state that no path from `initial` reaches. A compound state is
/// reached when a state inside it is; inside an unreachable compound state only the compound
/// state is reported, where the author would fix it.
///
/// Every candidate, timeout, `always` branch, retry `then` and machine-wide transition counts
/// as a path, whatever its condition. A history state leads to its default, but resuming leads
/// only back to a state reached before, so it reaches nothing new.
struct UnreachableStateCheck: MachineCheck {
    static let definition = RuleDefinition(
        rule: .unreachableState, defaultSeverity: .error,
        summary: "A state that no path from `initial` reaches.",
        reportedAt: "the state",
        finding:
            "no path from `initial` reaches it; every candidate, timeout, `always`, retry `then` and inherited machine-wide transition counts, whatever its condition"
    )

    func check(_ analysis: MachineAnalysis, _ reporter: RuleReporter) {
        guard !analysis.mayLackPaths, analysis.parentsFromInitial != nil, let initial = analysis.machine.initial else {
            return
        }
        let graph = analysis.graph
        var hasIncoming = [Bool](repeating: false, count: graph.stateCount)
        var isResumed = [Bool](repeating: false, count: graph.stateCount)
        for edge in graph.edges where edge.source != edge.target {
            if edge.isResume { isResumed[edge.target] = true } else { hasIncoming[edge.target] = true }
        }
        let nesting = graph.machine.nesting
        for index in 0..<graph.stateCount where !analysis.isReachable(index) {
            // Inside an unreachable compound state, or a second state of a name (reported as
            // `invalid-nesting`), which no transition can name.
            if let parent = nesting.parent(of: index), !analysis.isReachable(parent) { continue }
            if graph.stateIndex[graph.state(index).name.value] != index { continue }
            let state = graph.state(index)
            let why =
                hasIncoming[index]
                ? "only states that are themselves unreachable lead to it"
                : isResumed[index]
                    ? "only a history state leads to it, and a history state resumes only a state the flow was in before"
                    : "no transition leads to it"
            reporter.report(
                "state '\(graph.name(index))' can never be reached from the initial state '\(initial.value)'",
                at: state.name.location, subjects: [graph.name(index)], notes: [.init(why)])
        }
    }
}
