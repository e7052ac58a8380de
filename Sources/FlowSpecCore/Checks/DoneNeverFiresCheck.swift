/// `done-never-fires`: a compound state's `done` that can never be taken. `done` is taken when a
/// terminal state directly inside the compound state is entered; with no such terminal state,
/// or none that a path from `initial` reaches, the flow never goes where `done` says.
///
/// A parallel state's `done` is taken once every region has ended in a terminal state directly
/// inside it, so it never fires when some region cannot end: a region that is a single state,
/// a region with no terminal state directly inside (or none reachable), or one whose own
/// `done` leaves its terminal states at once.
struct DoneNeverFiresCheck: MachineCheck {
    static let definition = RuleDefinition(
        rule: .doneNeverFires, defaultSeverity: .warning,
        summary: "A compound state's `done` that can never be taken.",
        reportedAt: "the `done` key's value",
        finding:
            "a `done` on a compound state with no terminal state directly inside, or none reachable; on a parallel state, a region that can never end in a terminal state directly inside it"
    )

    func check(_ analysis: MachineAnalysis, _ reporter: RuleReporter) {
        let machine = analysis.machine
        guard machine.nesting.isNested else { return }
        for (index, details) in machine.nesting.details.sorted(by: { $0.key < $1.key }) {
            guard let done = details.done, machine.isCompound(index), !machine.states[index].isMalformed else {
                continue
            }
            let name = machine.name(of: index)
            if machine.isParallel(index) {
                checkParallel(index, done: done, analysis, reporter)
                continue
            }
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

    /// A parallel state's `done`: one finding, at it, naming each region that can never end.
    private func checkParallel(
        _ index: Int, done: Located<Name>, _ analysis: MachineAnalysis, _ reporter: RuleReporter
    ) {
        let machine = analysis.machine
        let name = machine.name(of: index)
        let judgesPaths = !analysis.mayLackPaths && analysis.parentsFromInitial != nil && analysis.isReachable(index)
        var reasons: [(region: String, why: String)] = []
        for region in machine.nesting.children(of: index) where !machine.states[region].isMalformed {
            let regionName = machine.name(of: region)
            guard machine.isCompound(region) else {
                reasons.append((regionName, "region '\(regionName)' is a single state, which never ends"))
                continue
            }
            let terminals = machine.nesting.children(of: region).filter { machine.states[$0].kind == .terminal }
            if terminals.isEmpty {
                reasons.append((regionName, "no terminal state is directly inside region '\(regionName)'"))
            } else if machine.nesting.details[region]?.done != nil {
                reasons.append(
                    (regionName, "region '\(regionName)' leaves its terminal states at once through its own `done`"))
            } else if judgesPaths, !terminals.contains(where: analysis.isReachable) {
                let names = terminals.map { "'\(machine.name(of: $0))'" }.joined(separator: ", ")
                reasons.append((regionName, "no path reaches the terminal states of region '\(regionName)' (\(names))"))
            }
        }
        guard let first = reasons.first else { return }
        let more = reasons.count > 1 ? " (and \(reasons.count - 1) more region\(reasons.count > 2 ? "s" : ""))" : ""
        reporter.report(
            "the `done` of parallel state '\(name)' can never be taken: \(first.why)\(more)",
            at: done.location, subjects: [name] + reasons.map(\.region),
            notes: reasons.dropFirst().map { .init($0.why) }
                + [
                    .init(
                        "`done` is taken once every region has ended in a terminal state directly inside it; let each region end, or remove `done`"
                    )
                ])
    }
}
