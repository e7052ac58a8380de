/// `dead-end`: a non-terminal state with no outgoing transition at all: no `on` (own or
/// inherited from machine-wide `on`), no `always`, no `timeout`.
struct DeadEndCheck: MachineCheck {
    static let definition = RuleDefinition(
        rule: .deadEnd, defaultSeverity: .error,
        summary: "A non-terminal state with no outgoing transition.",
        reportedAt: "the state",
        finding: "a non-terminal state with no transition at all (own or inherited)")

    func check(_ analysis: MachineAnalysis, _ reporter: RuleReporter) {
        let machine = analysis.machine
        for index in machine.states.indices
        where machine.states[index].kind != .terminal && machine.isLeaf(index)
            && !machine.states[index].isMalformed && !declaresExit(index, machine: machine)
        {
            let state = machine.states[index]
            let why =
                machine.transitions(of: index).isEmpty
                ? "no `on`, `always` or `timeout`" : "its transitions have no `to`, so they stay in it"
            let message =
                state.kind == .choice
                ? "choice state '\(machine.name(of: index))' has no `always` branches, so it can never leave"
                : "\(state.kind.rawValue) state '\(machine.name(of: index))' has no way out: \(why)"
            reporter.report(
                message, at: state.name.location, subjects: [machine.name(of: index)],
                notes: [.init("add a transition, or give it `kind: terminal` if the flow ends here")])
        }
    }

    /// Whether the state, the compound states around it or the machine write a way out of it:
    /// a transition with a target (one without stays), an `always` branch (a compound state's
    /// too) or a timeout.
    private func declaresExit(_ index: Int, machine: MachineSpec) -> Bool {
        if machine.transitions(of: index).contains(where: \.leaves) { return true }
        if let always = machine.states[index].always, !always.value.isEmpty { return true }
        if machine.states[index].timeoutLocation != nil { return true }
        guard machine.states[index].kind.inheritsMachineWideTransitions else { return false }
        for ancestor in machine.nesting.ancestors(of: index) {
            if machine.transitions(of: ancestor).contains(where: \.leaves) { return true }
            if machine.states[ancestor].timeoutLocation != nil { return true }
            if let always = machine.states[ancestor].always, !always.value.isEmpty { return true }
        }
        return machine.machineWide.contains(where: \.leaves)
    }
}
