/// `unreachable-state`: a state that no path from `initial` reaches.
///
/// Every candidate, timeout, `always` branch, retry `then` and machine-wide transition counts
/// as a path, whatever its condition.
struct UnreachableStateCheck: MachineCheck {
    func check(_ analysis: MachineAnalysis, _ reporter: inout MachineReporter) {
        guard !analysis.mayLackPaths, analysis.parentsFromInitial != nil, let initial = analysis.machine.initial else { return }
        let graph = analysis.graph
        var hasIncoming = [Bool](repeating: false, count: graph.stateCount)
        for edge in graph.edges where edge.source != edge.target { hasIncoming[edge.target] = true }
        for index in 0..<graph.stateCount where !analysis.isReachable(index) {
            let state = graph.state(index)
            let why = hasIncoming[index]
                ? "only states that are themselves unreachable lead to it"
                : "no transition leads to it"
            reporter.report(.unreachableState,
                            "state '\(graph.name(index))' can never be reached from the initial state '\(initial.value)'",
                            at: state.name.location, subjects: [graph.name(index)], notes: [.init(why)])
        }
    }
}
