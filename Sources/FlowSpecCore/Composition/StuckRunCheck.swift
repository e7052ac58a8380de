/// `no-way-out` at a `run:`: a sub-flow that can reach a state from which none of its terminal
/// states is reached (two screens that only lead to each other, say) leaves the state running
/// it waiting for ever when nothing of the running state's leads out: no `on`, no timeout of
/// its own or of a state around it, no machine-wide transition. Each state of the sub-flow is
/// an `input` state, so `no-way-out` on the states themselves is silent: the user can still act,
/// but only within the sub-flow, which never ends.
///
/// Found on the composed machine, where the running state's `on` and timeouts, and those
/// around it, are edges of every state of its copy: a state of the copy is stuck when no path
/// from it leaves the copy (an edge to a state outside it, or to the running state, which
/// starts the sub-flow again) or ends the flow (a terminal state no `done` leaves). Each run is
/// searched over the edges of its own states, so nested runs cost their depth, not their count.
/// A state inside a parallel state of the sub-flow is not judged: another region may lead out.
enum StuckRunCheck {
    /// Reports each run of `analysis`'s machine that can get stuck, once, at its `run:`, with
    /// a shortest run to the first state of the copy that cannot leave it; `skipping` the
    /// running states already reported (their copy has a `no-way-out` or `infinite-loop`).
    static func check(_ analysis: MachineAnalysis, skipping reported: Set<Int>, into diagnostics: DiagnosticCollector) {
        let machine = analysis.machine
        guard !analysis.mayLackPaths, analysis.parentsFromInitial != nil else { return }
        var depths: [Int32] = []
        for run in machine.runs where !reported.contains(run.state) && analysis.isReachable(run.state) {
            guard let stuck = firstStuckState(in: run.state, analysis) else { continue }
            if depths.isEmpty { depths = analysis.parentsFromInitial?.depths() ?? [] }
            let state = machine.name(of: run.state)
            let inner = machine.name(of: stuck)
            let written = inner.hasPrefix(state + ".") ? String(inner.dropFirst(state.count + 1)) : inner
            diagnostics.report(
                .noWayOut,
                "state '\(state)' runs '\(run.machine.value)', which can get stuck there: from '\(written)' no terminal state of '\(run.machine.value)' can be reached, and nothing of '\(state)' leads out",
                at: run.machine.location, machine: machine.name.value, subjects: [state, inner],
                notes: [
                    .init("reached by: \(analysis.shortPathFromInitial(to: stuck, depths: depths))"),
                    .init(
                        "lead '\(written)' of '\(run.machine.value)' to one of its terminal states, or give '\(state)' a `timeout` or an `on` that leaves it (its input and task states inherit them)"
                    )
                ])
        }
    }

    /// The first state (in document order) inside the running state `running` that the flow
    /// reaches and from which no path leaves the running state or ends the flow.
    private static func firstStuckState(in running: Int, _ analysis: MachineAnalysis) -> Int? {
        let graph = analysis.graph
        let machine = analysis.machine
        let inside = machine.nesting.descendants(of: running)
        guard !inside.isEmpty else { return nil }
        // Reversed edges inside the copy, and the states that leave it or end the flow.
        var reversed = [[Int]](repeating: [], count: inside.count)
        var canLeave = [Bool](repeating: false, count: inside.count)
        var queue: [Int] = []
        for state in inside {
            let local = state - inside.lowerBound
            if machine.states[state].kind == .terminal && !analysis.leavesByDone(state) && !machine.isCompound(state) {
                canLeave[local] = true
            }
            for edge in graph.edges(from: state) where !edge.isResume {
                if inside.contains(edge.target) {
                    reversed[edge.target - inside.lowerBound].append(local)
                } else {
                    canLeave[local] = true
                }
            }
            if canLeave[local] { queue.append(local) }
        }
        var head = 0
        while head < queue.count {
            let local = queue[head]
            head += 1
            for source in reversed[local] where !canLeave[source] {
                canLeave[source] = true
                queue.append(source)
            }
        }
        return inside.first { state in
            !canLeave[state - inside.lowerBound] && analysis.isReachable(state) && machine.isLeaf(state)
                && !machine.states[state].isMalformed && !isInRegion(state, below: running, machine)
        }
    }

    /// Whether a parallel state stands between `state` and the running state.
    private static func isInRegion(_ state: Int, below running: Int, _ machine: MachineSpec) -> Bool {
        var ancestor = machine.nesting.parent(of: state)
        while let current = ancestor, current != running {
            if machine.isParallel(current) { return true }
            ancestor = machine.nesting.parent(of: current)
        }
        return false
    }
}
