/// `requirement-failed`: a `require` entry that does not hold, with a counterexample path.
///
/// - `reachable`: each listed state is reached by some path from `initial`.
/// - `alwaysReachable`: from every reachable non-terminal state, each listed state can still
///   be reached (the counterexample is a path to a state from which it cannot).
/// - `within`: see ``WorstCaseTime``.
/// - `never`, `before`, `between`, `everyEntry`, `leadsTo`, `atMost`, `whenever`: proved on
///   every run, or refuted with the shortest run that breaks them (see ``PropertyCheck``).
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
            case .never, .before, .between, .everyEntry, .leadsTo, .atMost, .whenever:
                properties.append(requirement)
            }
        }
        if !properties.isEmpty { checkProperties(properties, analysis, reporter) }
    }

    /// Searches the machine's configurations once for every property.
    private func checkProperties(_ properties: [Requirement], _ analysis: MachineAnalysis, _ reporter: RuleReporter) {
        guard let program = FlowProgramBuilder.build(analysis.graph) else { return }
        reportUndeclaredNames(properties, program, reporter)
        // A loop of automatic transitions never ends a step: no run can be followed until it is
        // fixed (`infinite-loop` reports it).
        guard InfiniteLoopCheck.loops(analysis).loops.isEmpty else { return }
        let limits = RuleReporter(rule: .limitExceeded, machine: reporter.machine, collector: reporter.collector)
        let graph: ConfigurationGraph
        switch PropertyCheck.configurations(of: program, for: properties) {
        case .success(let explored):
            graph = explored
        case .failure(let refusal):
            for requirement in properties { refuse(requirement, refusal.message, limits) }
            return
        }
        let search = PropertyCheck(program: program, graph: graph)
        for requirement in properties {
            guard let (property, refutation) = Self.property(requirement, search) else { continue }
            switch search.check(property) {
            case .holds:
                continue
            case .refused(let why):
                refuse(requirement, why, limits)
            case .broken(let counterexample):
                reporter.report(
                    Self.failed(refutation), at: requirement.location, subjects: requirement.states.map(\.value),
                    counterexample: Self.counterexample(counterexample))
            }
        }
    }

    private func refuse(_ requirement: Requirement, _ why: String, _ limits: RuleReporter) {
        limits.report(
            "requirement not proved: \(why); split the machine, or state it with fewer conditions",
            at: requirement.location)
    }

    /// The message of a requirement a run breaks, from what that run does.
    static func failed(_ refutation: String) -> String { "requirement failed: \(refutation)" }

    /// A run that breaks a property, as the finding carries it: what it is, its trace, and how
    /// a run that never arrives goes on.
    static func counterexample(_ counterexample: PropertyCheck.Counterexample) -> Diagnostic.Counterexample {
        let introduction =
            counterexample.neverArrives
            ? "a run that never gets there (a shortest way to where it stops or loops), a trace "
                + "`flowspec simulate --replay` accepts:"
            : "the shortest run that breaks it, a trace `flowspec simulate --replay` accepts:"
        var afterwards: [String] = []
        switch counterexample.ending {
        case nil: break
        case .stops(let state): afterwards.append("then the flow stops in '\(state)': nothing more can happen")
        case .repeats(1): afterwards.append("then the last step repeats forever, with no input from the user")
        case .repeats(let count):
            afterwards.append("then the last \(count) steps repeat forever, with no input from the user")
        case .ignores(let event, let state, let conditions):
            afterwards.append("there '\(event)' is ignored in '\(state)'\(conditions)")
        }
        return Diagnostic.Counterexample(
            introduction: introduction, trace: counterexample.lines, afterwards: afterwards)
    }

    /// Reports each event, condition or effect a property names that the machine lacks.
    private func reportUndeclaredNames(_ properties: [Requirement], _ program: FlowProgram, _ reporter: RuleReporter) {
        let undeclared = RuleReporter(rule: .undeclaredName, machine: reporter.machine, collector: reporter.collector)
        for requirement in properties {
            for (category, name) in requirement.names {
                let known: [String]
                switch category {
                case .event: known = program.events.map(\.name)
                case .condition: known = program.conditions.map(\.name)
                case .effect: known = program.effects.map(\.name)
                }
                guard !known.contains(name.value) else { continue }
                undeclared.report(
                    "\(category.rawValue) '\(name.value)' in `\(requirement.key)` is not declared in `\(category.key)`"
                        + Suggestion.hint(for: name.value, among: known),
                    at: name.location, subjects: [name.value], fix: .declare(category, name: name.value))
            }
        }
    }

    /// The property a requirement states, and what a run that breaks it does (the finding's
    /// message is ``failed(_:)`` of it; a test path's purpose says it as it is).
    static func property(_ requirement: Requirement, _ search: PropertyCheck)
        -> (PropertyCheck.Property, String)?
    {
        let program = search.program
        func place(_ names: [Located<String>]) -> PropertyCheck.Place? { search.place(names.map(\.value)) }
        func index(_ name: Located<String>, in names: [FlowProgram.Name]) -> Int? {
            names.firstIndex { $0.name == name.value }
        }
        switch requirement {
        case .never(_, let states, nil):
            guard let place = place(states) else { return nil }
            return (
                .never(place, while: nil), "a run enters \(list(states)), which `never` rules out"
            )
        case .never(_, let states, let condition?):
            guard let place = place(states), let index = index(condition, in: program.conditions) else { return nil }
            return (
                .never(place, while: index),
                "a run enters \(list(states)) at an input where '\(condition.value)' holds"
            )
        case .before(_, let first, let then, let after):
            let milestone: PropertyCheck.Milestone
            let waited: String
            switch first {
            case .state(let state):
                guard let place = place([state]) else { return nil }
                (milestone, waited) = (.place(place), "it has been in '\(state.value)'")
            case .effect(let effect):
                guard let index = index(effect, in: program.effects) else { return nil }
                (milestone, waited) = (.effect(index), "it has run '\(effect.value)'")
            }
            guard let thenPlace = place([then]) else { return nil }
            var afterPlace: PropertyCheck.Place?
            if let after {
                guard let found = place([after]) else { return nil }
                afterPlace = found
            }
            let since = after.map { " since it last entered '\($0.value)'" } ?? ""
            return (
                .before(first: milestone, then: thenPlace, after: afterPlace),
                "a run enters '\(then.value)' before \(waited)\(since)"
            )
        case .between(_, let after, let until, let never):
            guard let afterPlace = place([after]), let untilPlace = place([until]), let neverPlace = place(never)
            else { return nil }
            return (
                .between(after: afterPlace, until: untilPlace, never: neverPlace),
                "a run enters \(list(never)) after '\(after.value)' and before '\(until.value)'"
            )
        case .everyEntry(_, let to, let runs):
            guard let place = place(to), let effect = index(runs, in: program.effects) else { return nil }
            return (
                .everyEntry(place, runs: effect),
                "a run enters \(list(to)) in a step that does not run '\(runs.value)'"
            )
        case .leadsTo(_, let from, let to):
            guard let fromPlace = place(from), let toPlace = place(to) else { return nil }
            return (
                .leadsTo(from: fromPlace, to: toPlace),
                "a run enters \(list(from)) and never reaches \(list(to)), though it does not "
                    + "wait on the user"
            )
        case .atMost(_, let times, let event, let before):
            guard let index = index(event, in: program.events), let place = place([before]) else { return nil }
            return (
                .atMost(times: times.value, of: index, before: place),
                "a run takes '\(event.value)' more than \(times.value) "
                    + (times.value == 1 ? "time" : "times") + " in a row without entering '\(before.value)'"
            )
        case .whenever(_, let event, let to):
            guard let index = index(event, in: program.events), let place = place(to) else { return nil }
            return (
                .whenever(event: index, to: place),
                "a run gets where '\(event.value)' does not take the flow to \(list(to))"
            )
        case .reachable, .alwaysReachable, .within:
            return nil
        }
    }

    /// Quoted names, one, or any of several.
    private static func list(_ names: [Located<String>]) -> String {
        quotedList(names.map(\.value), limit: .max, joinedBy: "or")
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
