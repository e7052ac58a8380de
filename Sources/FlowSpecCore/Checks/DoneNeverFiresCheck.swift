/// `done-never-fires`: a compound state's `done` that can never be taken. `done` is taken when a
/// terminal state directly inside the compound state is entered; with no such terminal state,
/// or none that a path from `initial` reaches, the flow never goes where `done` says.
struct DoneNeverFiresCheck: MachineCheck {
    static let definition = RuleDefinition(
        rule: .doneNeverFires, defaultSeverity: .warning,
        summary: "A compound state's `done` that can never be taken.",
        reportedAt: "the `done` key's value",
        finding: "a `done` on a compound state with no terminal state directly inside, or none reachable")

    func check(_ analysis: MachineAnalysis, _ reporter: RuleReporter) {
        let machine = analysis.machine
        guard machine.nesting.isNested else { return }
        for (index, details) in machine.nesting.details.sorted(by: { $0.key < $1.key }) {
            guard let done = details.done, machine.isCompound(index), !machine.states[index].isMalformed else {
                continue
            }
            let name = machine.name(of: index)
            let terminals = machine.nesting.children(of: index).filter { machine.states[$0].kind == .terminal }
            if terminals.isEmpty {
                reporter.report(
                    "the `done` of '\(name)' can never be taken: no terminal state is directly inside it",
                    at: done.location, subjects: [name],
                    notes: [.init("add a state with `kind: terminal` inside '\(name)', or remove `done`")])
            } else if !analysis.mayLackPaths, analysis.parentsFromInitial != nil,
                analysis.isReachable(index), !terminals.contains(where: analysis.isReachable)
            {
                let names = terminals.map { "'\(machine.name(of: $0))'" }.joined(separator: ", ")
                reporter.report(
                    "the `done` of '\(name)' can never be taken: no path reaches its terminal states (\(names))",
                    at: done.location, subjects: [name] + terminals.map(machine.name(of:)),
                    notes: [.init("lead a transition inside '\(name)' to one of them, or remove `done`")])
            }
        }
    }
}
