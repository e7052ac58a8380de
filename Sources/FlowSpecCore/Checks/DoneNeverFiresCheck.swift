/// `done-never-fires`: a compound state's `done` that can never be taken. `done` is taken when a
/// terminal state directly inside the compound state is entered; with no such terminal state,
/// or none that a path from `initial` reaches, the flow never goes where `done` says.
///
/// A state that runs a machine: a `done` entry for an outcome no run of that machine reaches,
/// or any `done` when the machine has no terminal state at its top level.
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
            "a `done` on a compound state with no terminal state directly inside, or none reachable; on a parallel state, a region that can never end in a terminal state directly inside it; on a state that runs a machine, an entry for an outcome no run reaches"
    )

    func check(_ analysis: MachineAnalysis, _ reporter: RuleReporter) {
        let machine = analysis.machine
        guard machine.nesting.isNested else { return }
        for run in machine.runs { checkRun(run, analysis, reporter) }
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

    /// The `done` of a state that runs a machine: each entry whose outcome no run reaches, or a
    /// bare target when the machine never ends.
    private func checkRun(_ run: ComposedRun, _ analysis: MachineAnalysis, _ reporter: RuleReporter) {
        let machine = analysis.machine
        let name = machine.name(of: run.state)
        // A machine parallel at its top ends through its parallel state's `done`, judged as any.
        if run.outcomes.isEmpty, !run.endsWithRegions, let done = run.doneLocation {
            reporter.report(
                "the `done` of '\(name)' can never be taken: '\(run.machine.value)' has no terminal state at its top level, so it never ends",
                at: done, subjects: [name, run.machine.value],
                notes: [.init("give '\(run.machine.value)' a state with `kind: terminal`, or remove `done`")])
            return
        }
        guard !analysis.mayLackPaths, analysis.parentsFromInitial != nil, analysis.isReachable(run.state) else {
            return
        }
        // Outcomes by where `done` maps them: a bare `done` maps them all at one place.
        var byMapping: [SourceLocation: [ComposedRun.Outcome]] = [:]
        for outcome in run.outcomes {
            if let mapping = outcome.mapping { byMapping[mapping, default: []].append(outcome) }
        }
        for (mapping, outcomes) in byMapping.sorted(by: { $0.key < $1.key })
        where !outcomes.contains(where: { analysis.isReachable($0.state) }) {
            let names = quotedList(outcomes.map(\.name))
            reporter.report(
                "the `done` of '\(name)' for \(names) can never be taken: no run of '\(run.machine.value)' from here ends there",
                at: mapping, subjects: [name] + outcomes.map(\.name),
                notes: [.init("lead a transition of '\(run.machine.value)' to it, or remove the entry")])
        }
    }

    /// A parallel state's `done`: one finding, at it, naming each region that can never end.
    private func checkParallel(
        _ index: Int, done: Located<Candidates>, _ analysis: MachineAnalysis, _ reporter: RuleReporter
    ) {
        let machine = analysis.machine
        let name = machine.name(of: index)
        let judgesPaths = !analysis.mayLackPaths && analysis.parentsFromInitial != nil && analysis.isReachable(index)
        var reasons: [(region: String, why: String)] = []
        // A history state beside the regions is none of them.
        for region in machine.nesting.children(of: index)
        where !machine.states[region].isMalformed && !machine.isHistory(region) {
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
