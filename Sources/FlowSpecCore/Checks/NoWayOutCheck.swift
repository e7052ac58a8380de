/// `no-way-out`: in a machine that has terminal states, a reachable state from which no
/// terminal and no `input` state can be reached, so the flow can neither end nor hand
/// control back to the user. (At a `run:`, a sub-flow that never ends: ``StuckRunCheck``.)
struct NoWayOutCheck: MachineCheck {
    static let definition = RuleDefinition(
        rule: .noWayOut, defaultSeverity: .warning,
        summary: "A reachable state from which no terminal and no input state can be reached.",
        reportedAt: "the state",
        finding:
            "in a machine with a terminal state, a reachable state from which no terminal and no `input` state can be reached; at a `run:`, a sub-flow that can reach a state from which none of its terminal states is reached, when nothing of the running state's leads out"
    )

    func check(_ analysis: MachineAnalysis, _ reporter: RuleReporter) {
        let graph = analysis.graph
        let states = graph.machine.states
        guard !analysis.mayLackPaths, analysis.parentsFromInitial != nil,
            states.indices.contains(where: { states[$0].kind == .terminal })
        else { return }
        // Lazily: most states of a large machine are exits, and their list would be large.
        let machine = graph.machine
        let isExit = { (state: Int) in
            !machine.isCompound(state)
                && (states[state].kind == .input || (states[state].kind == .terminal && !analysis.leavesByDone(state)))
        }
        let exits = states.indices.lazy.filter(isExit)
        // Searched backwards from the exits. An exit is reached from the start, so the edges
        // that leave one are never followed: left out, they leave little to reverse on a large
        // machine (most of its states wait for input).
        let canExit = graph.reversedDigraph { !isExit($0.source) && analysis.follows($0) }.breadthFirst(from: exits)
        var depths: [Int32] = []  // measured once, for the first state reported
        for index in states.indices
        where analysis.isReachable(index) && canExit[index] == nil && !states[index].isMalformed
            && !machine.isCompound(index) && states[index].kind != .history
        {
            if depths.isEmpty { depths = analysis.parentsFromInitial?.depths() ?? [] }
            let name = graph.name(index)
            reporter.report(
                "from state '\(name)' no terminal and no input state can be reached: the flow can get stuck here",
                at: states[index].name.location, subjects: [name],
                notes: [.init("reached by: \(analysis.shortPathFromInitial(to: index, depths: depths))")])
        }
    }
}
