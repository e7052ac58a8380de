/// Puts a spec's machines together. A state that runs a machine (`run: FirstRun`) becomes a
/// compound state holding a copy of that machine's states, each named `STATE.NAME`; the copies
/// of its top-level terminal states (its outcomes) leave where `done` says. Every later stage
/// (the graph, the checks, generation, simulation, paths, coverage, drawing) reads the composed
/// machine, so a sub-flow runs and is checked exactly as the compound state it stands for
/// (`docs/language.md`, "Sub-flows").
///
/// Machines are composed children first; a machine that runs itself, directly or through
/// others, is reported (`invalid-run`) and its running state is left without the machine.
struct SpecComposer {
    /// The spec's machines, then those of the files it imports (composed already).
    private let machines: [MachineSpec]
    /// The names of imported machines that cannot be run (their file has errors, reported at
    /// its import).
    private let unusable: Set<String>
    /// Whether a file the spec imports could not be read: which machines it holds is unknown.
    private let importUnread: Bool
    private let limits: YAMLLimits
    private let diagnostics: DiagnosticCollector
    /// Machine names to their first index.
    private let machineIndex: [String: Int]
    private var composed: [MachineSpec?]
    /// The machines being composed, outermost first: a run of one of them is a cycle.
    private var inProgress: [Int] = []
    /// The states copied into the machines composed so far (``YAMLLimits/maxComposedStates``).
    private var copied = 0

    /// The machines of a spec as every later stage reads them, in the spec's order: composed
    /// where they run others, as written otherwise.
    static func compose(
        _ spec: Spec, imported: [SpecImporter.Imported] = [], limits: YAMLLimits,
        into diagnostics: DiagnosticCollector
    ) -> [MachineSpec] {
        guard spec.machines.contains(where: Self.runsAny) else { return spec.machines }
        var composer = SpecComposer(spec: spec, imported: imported, limits: limits, diagnostics: diagnostics)
        return spec.machines.indices.map { composer.machine($0) }
    }

    /// The source lines each machine of a spec takes: from its name to the next machine's (the
    /// last one's to `last`, past which the lines of the files it imports begin).
    /// A finding about a composed machine on a line of another machine is about the copy of
    /// that machine, which is checked on its own too: such findings are left to it. (Machines
    /// written on one line share it: there a finding is kept, possibly twice, never lost.)
    static func lines(of spec: Spec, through last: Int) -> [Range<Int>] {
        spec.machines.indices.map { index in
            let start = spec.machines[index].name.location.line
            let end = index + 1 < spec.machines.count ? spec.machines[index + 1].name.location.line : last
            return start..<max(start + 1, end)
        }
    }

    /// A machine run that can get stuck leaves the state running it stuck, unless a way out of
    /// that state's (a `timeout`, an `on`, inherited by the machine's input and task states)
    /// takes it out: the first finding of `no-way-out` and of `infinite-loop` on a copy, found
    /// on the composed machine where those ways out are edges, is reported again at the `run`
    /// of the state holding the copy, with the run through both machines.
    /// Only what the flow can get into is reported: a loop (which `infinite-loop` finds among
    /// the states as written, reached or not) when a path from `initial` reaches one of its
    /// states. Returns the running states reported.
    @discardableResult
    static func reportStuckRuns(
        _ copies: [Diagnostic], in analysis: MachineAnalysis, into diagnostics: DiagnosticCollector
    ) -> Set<Int> {
        let machine = analysis.machine
        let index = analysis.graph.stateIndex
        var reported = Set<[Int]>()
        for finding in copies where finding.rule == .noWayOut || finding.rule == .infiniteLoop {
            guard let subject = finding.subjects.first, let run = run(holding: subject, in: machine),
                finding.subjects.contains(where: { index[$0].map(analysis.isReachable) ?? false }),
                reported.insert([run.state, finding.rule == .noWayOut ? 0 : 1]).inserted
            else { continue }
            let state = machine.name(of: run.state)
            diagnostics.report(
                finding.rule,
                "state '\(state)' runs '\(run.machine.value)', which can get stuck there: \(finding.message)",
                at: run.machine.location, machine: machine.name.value, subjects: [state] + finding.subjects,
                notes: finding.notes + [
                    .init(
                        "fix '\(run.machine.value)', or give '\(state)' a `timeout` or an `on` that leaves it (its input and task states inherit them)"
                    )
                ])
        }
        return Set(reported.map { $0[0] })
    }

    /// The run whose copy holds the state named (`STATE.NAME`), if any.
    private static func run(holding state: String, in machine: MachineSpec) -> ComposedRun? {
        machine.runs.first { state.hasPrefix(machine.name(of: $0.state) + ".") }
    }

    /// A machine that runs only as a sub-flow (`standalone: false`) is not held to
    /// `missing-timeout` where it is written: its task states are bounded where it runs, by
    /// the running state's timeout or one around it. A task of its copy that nothing bounds
    /// (the `missing-timeout` found on the composed machine) is reported at the `run`, once per
    /// run, naming every such task.
    static func reportUnboundedTasks(
        _ copies: [Diagnostic], in analysis: MachineAnalysis, subFlowsOnly: Set<String>,
        into diagnostics: DiagnosticCollector
    ) {
        let machine = analysis.machine
        var tasks: [Int: [String]] = [:]
        for finding in copies where finding.rule == .missingTimeout {
            guard let subject = finding.subjects.first, let run = run(holding: subject, in: machine),
                subFlowsOnly.contains(run.machine.value)
            else { continue }
            tasks[run.state, default: []].append(subject)
        }
        for run in machine.runs {
            guard let names = tasks[run.state] else { continue }
            let state = machine.name(of: run.state)
            let written = names.map { String($0.dropFirst(state.count + 1)) }
            let plural = names.count > 1
            diagnostics.report(
                .missingTimeout,
                "state '\(state)' runs '\(run.machine.value)', which runs only as a sub-flow, and nothing bounds its task state\(plural ? "s" : "") \(quotedList(written)) there: no timeout of \(plural ? "theirs" : "its own"), of '\(state)' or of a state around it",
                at: run.machine.location, machine: machine.name.value, subjects: [state] + names,
                notes: [
                    .init(
                        "give '\(state)' a `timeout` (it bounds every task of '\(run.machine.value)' it runs), or each task of '\(run.machine.value)' one of its own"
                    )
                ])
        }
    }

    private init(
        spec: Spec, imported: [SpecImporter.Imported], limits: YAMLLimits, diagnostics: DiagnosticCollector
    ) {
        self.limits = limits
        self.diagnostics = diagnostics
        let usable = imported.filter(\.isUsable).flatMap(\.machines)
        machines = spec.machines + usable
        unusable = Set(imported.filter { !$0.isUsable }.flatMap(\.machines).map(\.name.value))
        importUnread = imported.contains { !$0.isRead }
        var index: [String: Int] = [:]
        for position in machines.indices where index[machines[position].name.value] == nil {
            index[machines[position].name.value] = position
        }
        machineIndex = index
        composed = Array(repeating: nil, count: spec.machines.count) + usable.map { $0 }
    }

    private static func runsAny(_ machine: MachineSpec) -> Bool {
        machine.nesting.details.values.contains { $0.run != nil }
    }

    /// The machine at an index, composed (once).
    private mutating func machine(_ index: Int) -> MachineSpec {
        if let done = composed[index] { return done }
        let written = machines[index]
        guard Self.runsAny(written), !written.exceedsLimits else {
            composed[index] = written
            return written
        }
        inProgress.append(index)
        let reporter = diagnostics.reporter(for: .invalidRun, machine: written.name.value)
        var children: [Int: MachineSpec] = [:]
        var failed: [Int] = []
        for (state, details) in written.nesting.details.sorted(by: { $0.key < $1.key }) {
            guard let run = details.run else { continue }
            if let child = child(run, of: written, state: state, reporter: reporter) {
                children[state] = child
            } else {
                failed.append(state)
            }
        }
        inProgress.removeLast()
        if let crossing = crossingRun(children, of: written) {
            // Reported once, at the machine that crosses the limit; a machine that runs it
            // finds it over the limits and leaves its running state without it, unreported.
            LimitExceededRule.reportTooManyCopies(
                crossing, machine: written.name.value, limit: limits.maxComposedStates, into: diagnostics)
            var refused = written
            refused.exceedsLimits = true
            composed[index] = refused
            return refused
        }
        var expansion = MachineExpansion(
            parent: written, children: children, failed: Set(failed), limits: limits, diagnostics: diagnostics)
        let result = expansion.build()
        composed[index] = result
        return result
    }

    /// The `run:` at which composing `parent` would copy more states than the spec may, before
    /// a state is copied; `nil` (and the copies counted) when it stays within the limit.
    private mutating func crossingRun(_ children: [Int: MachineSpec], of parent: MachineSpec) -> Located<String>? {
        var total = copied
        for (state, child) in children.sorted(by: { $0.key < $1.key }) {
            total += child.states.count
            if total > limits.maxComposedStates { return parent.nesting.details[state]?.run }
        }
        copied = total
        return nil
    }

    /// The composed machine a state runs, or `nil` (reported) when there is none to run.
    private mutating func child(
        _ run: Located<String>, of parent: MachineSpec, state: Int, reporter: RuleReporter
    ) -> MachineSpec? {
        let stateName = parent.name(of: state)
        guard let index = machineIndex[run.value] else {
            // A machine of an imported file with errors, or perhaps of one that could not be read:
            // reported at its import.
            guard !unusable.contains(run.value), !importUnread else { return nil }
            RunRule.reportUnknownMachine(run, state: stateName, machines: machines.map(\.name.value), into: reporter)
            return nil
        }
        if let start = inProgress.firstIndex(of: index) {
            let cycle = inProgress[start...].map { machines[$0].name.value } + [run.value]
            RunRule.reportCycle(run, state: stateName, cycle: cycle, into: reporter)
            return nil
        }
        let child = machine(index)
        // A machine that cannot be checked (reported where it is written) cannot be run either.
        guard !child.exceedsLimits, !child.states.isEmpty else { return nil }
        return child
    }
}
