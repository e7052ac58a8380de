/// `requirement-failed`: a `require` entry that does not hold, with a counterexample path.
///
/// - `reachable`: each listed state is reached by some path from `initial`.
/// - `alwaysReachable`: from every reachable non-terminal state, each listed state can still
///   be reached (the counterexample is a path to a state from which it cannot).
/// - `within`: see ``WorstCaseTime``.
/// - `never`, `before`: proved on every run, or refuted with the shortest run that breaks
///   them (see ``PropertyCheck``).
struct RequirementCheck: MachineCheck {
    static let definition = RuleDefinition(
        rule: .requirementFailed, defaultSeverity: .error,
        summary: "A `require` entry does not hold.",
        reportedAt: "the requirement's key",
        finding: "a `require` entry does not hold, with a counterexample")

    func check(_ analysis: MachineAnalysis, _ reporter: RuleReporter) {
        guard !analysis.mayLackPaths, let initial = analysis.graph.initial else { return }
        // Made once, for the first `alwaysReachable` goal: a spec may list thousands.
        var goalSearch: (reversed: Digraph, depths: [Int32])?
        var properties: [Requirement] = []
        for requirement in analysis.machine.requirements {
            switch requirement {
            case .reachable(let location, let states):
                checkReachable(states, at: location, initial: initial, analysis, reporter)
            case .alwaysReachable(let location, let states):
                for state in states {
                    if goalSearch == nil {
                        goalSearch = (analysis.digraph.reversed(), analysis.parentsFromInitial?.depths() ?? [])
                    }
                    checkAlwaysReachable(
                        state, at: location, reversed: goalSearch!.reversed, depths: goalSearch!.depths,
                        analysis, reporter)
                }
            case .within(let location, let from, let to, let max):
                checkWithin(from: from, to: to, max: max, at: location, analysis, reporter)
            case .never, .before, .everyEntry:
                properties.append(requirement)
            }
        }
        if !properties.isEmpty { checkProperties(properties, analysis, reporter) }
    }

    /// Searches the machine's configurations once for every `never` and `before`.
    private func checkProperties(_ properties: [Requirement], _ analysis: MachineAnalysis, _ reporter: RuleReporter) {
        let declared = (analysis.machine.effects ?? []).map(\.value)
        for case .everyEntry(_, _, let runs) in properties where !declared.contains(runs.value) {
            RuleReporter(rule: .undeclaredName, machine: reporter.machine, collector: reporter.collector).report(
                "effect '\(runs.value)' in `everyEntry` is not declared in `effects`"
                    + Suggestion.hint(for: runs.value, among: declared),
                at: runs.location, subjects: [runs.value], fix: .declare(.effect, name: runs.value))
        }
        // A loop of automatic transitions never ends a step: no run can be followed until it is
        // fixed (`infinite-loop`, checked before).
        let loops = reporter.collector.diagnostics.contains {
            $0.rule == .infiniteLoop && $0.machine == analysis.machine.name.value
        }
        guard !loops, let program = FlowProgramBuilder.build(analysis.graph) else { return }
        let graph: ConfigurationGraph
        switch PropertyCheck.configurations(of: program) {
        case .success(let explored):
            graph = explored
        case .failure(let refusal):
            let limits = RuleReporter(rule: .limitExceeded, machine: reporter.machine, collector: reporter.collector)
            for requirement in properties {
                limits.report(
                    "requirement not proved: \(refusal.message); split the machine, or state it with fewer conditions",
                    at: requirement.location)
            }
            return
        }
        let search = PropertyCheck(program: program, graph: graph)
        for requirement in properties {
            guard let (property, message) = Self.property(requirement, search) else { continue }
            guard let lines = search.counterexample(property) else { continue }
            reporter.report(
                message, at: requirement.location, subjects: requirement.states.map(\.value),
                notes: [.init("the shortest run that breaks it, a trace `flowspec simulate --replay` accepts:")]
                    + lines.map { .init("  " + $0) })
        }
    }

    /// The property a requirement states, and the message when it is broken.
    private static func property(_ requirement: Requirement, _ search: PropertyCheck)
        -> (PropertyCheck.Property, String)?
    {
        switch requirement {
        case .never(_, let states):
            // One search, for whichever of the states a run reaches first.
            let places = states.compactMap { search.place($0.value) }
            guard places.count == states.count, let first = places.first else { return nil }
            let names = quotedList(states.map(\.value))
            return (
                .never(places.count == 1 ? first : .any(places)),
                "requirement failed: a run enters \(names), which `never` rules out"
            )
        case .before(_, let first, let then):
            guard let firstPlace = search.place(first.value), let thenPlace = search.place(then.value) else {
                return nil
            }
            return (
                .before(first: firstPlace, then: thenPlace),
                "requirement failed: a run enters '\(then.value)' before it has been in '\(first.value)'"
            )
        case .everyEntry(_, let to, let runs):
            guard let place = search.place(to.value),
                let effect = search.program.effects.firstIndex(where: { $0.name == runs.value })
            else { return nil }
            return (
                .everyEntry(place, runs: effect),
                "requirement failed: a run enters '\(to.value)' in a step that does not run '\(runs.value)'"
            )
        default:
            return nil
        }
    }

    private func checkReachable(
        _ states: [Located<String>], at location: SourceLocation, initial: Int,
        _ analysis: MachineAnalysis, _ reporter: RuleReporter
    ) {
        let graph = analysis.graph
        for state in states {
            guard let index = graph.stateIndex[state.value], !analysis.isReachable(index) else { continue }
            reporter.report(
                "requirement failed: '\(state.value)' is not reachable from the initial state '\(graph.name(initial))'",
                at: location, subjects: [state.value],
                notes: [
                    .init(
                        "no path of transitions leads from '\(graph.name(initial))' to '\(state.value)'",
                        at: state.location)
                ])
        }
    }

    /// `reversed` is the machine's graph reversed; `depths`, each state's distance from
    /// `initial` (``BreadthFirstParents/depths()``).
    private func checkAlwaysReachable(
        _ goal: Located<String>, at location: SourceLocation, reversed: Digraph,
        depths: [Int32], _ analysis: MachineAnalysis, _ reporter: RuleReporter
    ) {
        let graph = analysis.graph
        guard let target = graph.stateIndex[goal.value] else { return }
        // A compound goal is reached when a state inside it is.
        let goals = [target] + graph.machine.nesting.descendants(of: target)
        let canReach = reversed.breadthFirst(from: goals)
        let stuck = (0..<graph.stateCount).filter {
            analysis.isReachable($0) && graph.state($0).kind != .terminal && canReach[$0] == nil
                && graph.machine.isLeaf($0)
        }
        guard let closest = stuck.min(by: { depths[$0] < depths[$1] }) else { return }
        let path = analysis.shortPathFromInitial(to: closest, depths: depths)
        var notes: [Diagnostic.Note] = [
            .init(
                "counterexample: \(path), and from '\(graph.name(closest))' no path leads to '\(goal.value)'",
                at: graph.state(closest).name.location)
        ]
        if stuck.count > 1 {
            notes.append(.init("every state that cannot reach it: \(quotedList(stuck.map(graph.name), limit: 20))"))
        }
        reporter.report(
            "requirement failed: '\(goal.value)' is not always reachable: no path leads to it from \(quotedList(stuck.map(graph.name), limit: 3))",
            at: location, subjects: [goal.value] + stuck.map(graph.name), notes: notes)
    }

    private func checkWithin(
        from: Located<String>, to: [Located<String>], max: Located<Duration>,
        at location: SourceLocation, _ analysis: MachineAnalysis,
        _ reporter: RuleReporter
    ) {
        let graph = analysis.graph
        guard let start = graph.stateIndex[from.value] else { return }
        let named = to.compactMap { graph.stateIndex[$0.value] }
        guard named.count == to.count else { return }
        // A compound goal is reached when a state inside it is.
        let goals = Set(named.flatMap { [$0] + graph.machine.nesting.descendants(of: $0) })
        let limit = max.value.specDescription
        let destinations = quotedList(to.map(\.value)) + " or an input state"
        switch WorstCaseTime(graph: graph, goals: goals).compute(from: start) {
        case .bounded(let time, let path):
            guard time > max.value else { return }
            reporter.report(
                "requirement failed: from '\(from.value)' the flow can take \(time.specDescription) to reach \(destinations), more than \(limit)",
                at: location, subjects: [from.value] + to.map(\.value),
                notes: [.init("worst case: \(WorstCaseTime.describe(path, graph: graph))")])
        case .unbounded(let path):
            reporter.report(
                "requirement failed: from '\(from.value)' the flow can loop forever through timeouts and automatic transitions without reaching \(destinations)",
                at: location, subjects: [from.value] + to.map(\.value),
                notes: [.init("loop: \(WorstCaseTime.describe(path, graph: graph))")])
        case .stuck(let path, let reason):
            reporter.report(
                "requirement failed: from '\(from.value)' the flow can stop in '\(graph.name(path.last!.state))' without reaching \(destinations) (\(reason))",
                at: location, subjects: [from.value] + to.map(\.value),
                notes: [.init("counterexample: \(WorstCaseTime.describe(path, graph: graph))")])
        case .undetermined:
            return
        case .tooComplex:
            reporter.report(
                "requirement could not be verified: too many combinations of retry counts between '\(from.value)' and \(destinations)",
                at: location, subjects: [from.value] + to.map(\.value))
        }
    }
}
