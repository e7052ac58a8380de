/// `missing-timeout`: a `task` state (one that waits for asynchronous work) with no
/// `timeout`, of its own or of a compound state around it. States without a kind and without
/// `defaults.kind` are tasks. A machine that runs only as a sub-flow (`standalone: false`) is
/// judged where it runs instead, with the running state's timeout and those around it.
struct MissingTimeoutCheck: MachineCheck {
    static let definition = RuleDefinition(
        rule: .missingTimeout, defaultSeverity: .error,
        summary: "A task state with no timeout.",
        reportedAt: "the state; the `run` for a machine with `standalone: false`",
        finding:
            "a `task` state with no `timeout`, its own or a compound state's around it; in a machine that runs only as a sub-flow, where it runs, with the running state's and those around it"
    )

    func check(_ analysis: MachineAnalysis, _ reporter: RuleReporter) {
        // A machine that runs only as a sub-flow is bounded where it runs: judged at each `run`
        // (``SpecComposer/reportUnboundedTasks(_:in:subFlowsOnly:into:)``).
        guard analysis.machine.isStandalone else { return }
        let states = analysis.machine.states
        for index in states.indices
        where states[index].kind == .task && states[index].timeoutLocation == nil
            && !states[index].isMalformed && !hasOuterTimeout(index, analysis.machine)
        {
            let state = states[index]
            let name = analysis.machine.name(of: index)
            let why = state.kindLocation == nil ? " (states without a `kind` are tasks)" : ""
            reporter.report(
                "task state '\(name)' has no timeout, so the flow can wait in it forever\(why)",
                at: state.name.location, subjects: [name],
                notes: [
                    .init(
                        "add `timeout: { after: 10s, to: someState }`, or give it `kind: input` if it waits for the user"
                    )
                ],
                fix: Self.timeoutTarget(of: index, analysis).map { .addTimeout(to: analysis.graph.name($0)) })
        }
    }

    /// Where a timeout added to a task would best lead, so that the user can act again: the
    /// first state that waits for the user among those the task's own transitions lead to, in
    /// the order written; else the state the flow enters the task from on a shortest path
    /// from `initial`; else `initial`. `nil` when there is no other state.
    static func timeoutTarget(of task: Int, _ analysis: MachineAnalysis) -> Int? {
        let graph = analysis.graph
        let waiting = graph.edges(from: task).lazy.map(\.target).first {
            $0 != task && graph.state($0).kind == .input && graph.machine.isLeaf($0)
        }
        if let waiting { return waiting }
        let around = graph.machine.nesting.ancestors(of: task)
        if let parent = analysis.parentsFromInitial?[task], parent >= 0, !around.contains(Int(parent)) {
            return Int(parent)
        }
        if let initial = graph.initial, initial != task { return initial }
        return graph.machine.states.indices.first { $0 != task }
    }

    /// Whether a compound state around the state has a timeout (which bounds it too).
    private func hasOuterTimeout(_ state: Int, _ machine: MachineSpec) -> Bool {
        machine.nesting.ancestors(of: state).contains { machine.states[$0].timeoutLocation != nil }
    }
}
