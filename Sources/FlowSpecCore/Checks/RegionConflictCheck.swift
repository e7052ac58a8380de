/// `region-conflict`: two regions of one parallel state handle the same event, and at least one
/// of them by leaving the parallel state. Both regions are active at once, so both transitions
/// are selected; leaving the parallel state leaves the other region too, so only one can be
/// taken. As in SCXML, the first region's transition (in document order) is taken and the
/// other's is dropped: the finding is at the later one, naming the one taken instead.
///
/// Only transitions written inside a region count (by a state in it, or the region itself): a
/// transition written by the parallel state or around it is one transition, whichever region
/// selects it, and a region that handles the event itself overrides it, as any state overrides
/// the states around it. A transition into another region of the same parallel state is
/// `invalid-parallel`, not a conflict.
///
/// Eventless branches (`always`) conflict alike: the states that wait in every region try
/// theirs at every input, with the same conditions, so two regions' branches may be selected
/// together. Those of choice states are not judged (a region passes through one only after the
/// inputs' branches were tried), nor two branches whose conditions cannot hold at once (one
/// says `if: x`, the other `unless: x`).
struct RegionConflictCheck: MachineCheck {
    static let definition = RuleDefinition(
        rule: .regionConflict, defaultSeverity: .warning,
        summary: "Two regions of a parallel state handle one event, and one of them by leaving it.",
        reportedAt: "the later region's transition",
        finding:
            "states in two regions of one parallel state handle the same event, or have `always` branches that may hold together, at least one by leaving the parallel state: the first region's transition is taken, the later one never is"
    )

    /// One candidate (or its retry's `then`) of a transition written inside a region.
    private struct Handler {
        var declaring: Int
        var transition: Int
        var edge: Edge
        var leaves: Bool
    }

    /// The key of the eventless branches among the events (no event has it).
    private static let eventless = Name.none

    func check(_ analysis: MachineAnalysis, _ reporter: RuleReporter) {
        let graph = analysis.graph
        let machine = analysis.machine
        guard machine.nesting.hasParallel else { return }
        let nesting = machine.nesting
        let judgesPaths = !analysis.mayLackPaths && analysis.parentsFromInitial != nil
        // Per parallel state and event, per region (by index), the handlers written inside it.
        var handlers: [Int: [Name: [Int: [Handler]]]] = [:]
        var seen = Set<[Int]>()
        // A transition without a target exits nothing, so it conflicts with none (SCXML: its
        // exit set is empty); it is taken beside whatever the other regions take.
        for edge in graph.edges where !edge.isTargetless {
            let isEventless: Bool
            switch edge.triggerKind {
            case .event: isEventless = false
            case .always where !edge.isDone && [.input, .task].contains(machine.states[edge.source].kind):
                isEventless = true
            default: continue
            }
            guard let declaring = graph.declaringState(of: edge), !machine.states[declaring].isMalformed,
                !machine.states[edge.source].isMalformed, !judgesPaths || analysis.isReachable(edge.source)
            else { continue }
            let key = [
                declaring, isEventless ? -1 : edge.transitionIndex, edge.candidateIndex, edge.isRetryFallback ? 1 : 0
            ]
            guard seen.insert(key).inserted else { continue }
            let trigger =
                isEventless ? Self.eventless : machine.transitions(of: declaring)[edge.transitionIndex].event.value
            for (parallel, region) in nesting.regions(around: declaring) {
                let target = edge.target
                let inside = nesting.descendants(of: parallel).contains(target) && target != parallel
                // Into another region: `invalid-parallel` says so.
                if inside && !nesting.isWithin(target, region) { continue }
                handlers[parallel, default: [:]][trigger, default: [:]][region, default: []].append(
                    Handler(declaring: declaring, transition: edge.transitionIndex, edge: edge, leaves: !inside))
            }
        }
        for parallel in handlers.keys.sorted() {
            let regions = nesting.children(of: parallel)
            for (trigger, byRegion) in handlers[parallel]!.sorted(by: { order($0.key, $1.key, machine) }) {
                guard byRegion.count > 1 else { continue }
                var earlier: [Handler] = []
                var reported = Set<[Int]>()
                for region in regions {
                    let later = byRegion[region] ?? []
                    for handler in later {
                        guard !reported.contains([handler.declaring, handler.transition]),
                            let winner = earlier.first(where: {
                                ($0.leaves || handler.leaves)
                                    && (trigger != Self.eventless || Self.mayHoldTogether($0, handler, machine))
                            })
                        else { continue }
                        reported.insert([handler.declaring, handler.transition])
                        if trigger == Self.eventless {
                            reportEventless(handler, winner: winner, parallel: parallel, graph: graph, reporter)
                        } else {
                            report(handler, winner: winner, parallel: parallel, graph: graph, reporter)
                        }
                    }
                    earlier += later
                }
            }
        }
    }

    /// Events by name, the eventless branches last: findings come out in the same order every run.
    private func order(_ first: Name, _ second: Name, _ machine: MachineSpec) -> Bool {
        guard first != Self.eventless, second != Self.eventless else {
            return second == Self.eventless && first != second
        }
        return machine.names[first] < machine.names[second]
    }

    /// Whether two eventless branches' guards may hold at once: not when one requires a
    /// condition the other forbids, or one must be in a state the other must not.
    private static func mayHoldTogether(_ first: Handler, _ second: Handler, _ machine: MachineSpec) -> Bool {
        func guardOf(_ handler: Handler) -> [(term: String, holds: Bool)] {
            guard let candidate = machine.states[handler.declaring].always?.value[handler.edge.candidateIndex] else {
                return []
            }
            var terms = candidate.stateTerms.map { ("in " + machine.names[$0.state.value], $0.holds) }
            if let condition = candidate.condition { terms.append((condition.value, true)) }
            if let condition = candidate.unlessCondition { terms.append((condition.value, false)) }
            return terms
        }
        let a = guardOf(first)
        return !guardOf(second).contains { term in a.contains { $0.term == term.term && $0.holds != term.holds } }
    }

    private func reportEventless(
        _ handler: Handler, winner: Handler, parallel: Int, graph: MachineGraph, _ reporter: RuleReporter
    ) {
        let machine = graph.machine
        let name = machine.name(of: parallel)
        let here = machine.name(of: handler.declaring)
        let other = machine.name(of: winner.declaring)
        let winnerLocation = graph.location(of: winner.edge)
        let who = { (state: Int) in Self.who(state, in: parallel, machine) }
        let how =
            switch (winner.leaves, handler.leaves) {
            case (true, true):
                "\(who(handler.declaring)) and \(who(winner.declaring)) both have an `always` branch that leaves parallel state '\(name)'"
            case (true, false):
                "\(who(handler.declaring)) has an `always` branch inside its region, but \(who(winner.declaring)) has one that leaves parallel state '\(name)'"
            default:
                "\(who(handler.declaring)) has an `always` branch that leaves parallel state '\(name)', but \(who(winner.declaring)) has one inside its region"
            }
        reporter.report(
            "\(how): when both hold while both wait, the branch of '\(other)' (line \(winnerLocation.line)) is taken, as the first region's, and this one never is",
            at: graph.location(of: handler.edge), subjects: [here, other],
            notes: [
                .init("the branch taken instead", at: winnerLocation),
                .init(
                    "give the two branches conditions that cannot hold together, or write the branch once on '\(name)' so that every region leaves together"
                )
            ])
    }

    /// "region 'audio'" for a region's own transition, "'loud' in region 'audio'" inside it.
    private static func who(_ state: Int, in parallel: Int, _ machine: MachineSpec) -> String {
        let nesting = machine.nesting
        let region = machine.name(of: nesting.children(of: parallel).first { nesting.isWithin(state, $0) } ?? state)
        return machine.name(of: state) == region
            ? "region '\(region)'" : "'\(machine.name(of: state))' in region '\(region)'"
    }

    private func report(
        _ handler: Handler, winner: Handler, parallel: Int, graph: MachineGraph, _ reporter: RuleReporter
    ) {
        let machine = graph.machine
        let who = { (state: Int) in Self.who(state, in: parallel, machine) }
        let event = machine.names[machine.transitions(of: handler.declaring)[handler.transition].event.value]
        let name = machine.name(of: parallel)
        let here = machine.name(of: handler.declaring)
        let other = machine.name(of: winner.declaring)
        let winnerLocation = graph.location(of: winner.edge)
        let how: String
        switch (winner.leaves, handler.leaves) {
        case (true, true):
            how =
                "\(who(handler.declaring)) and \(who(winner.declaring)) both handle '\(event)' by leaving parallel state '\(name)'"
        case (true, false):
            how =
                "\(who(handler.declaring)) handles '\(event)' inside its region, but \(who(winner.declaring)) handles it by leaving parallel state '\(name)'"
        default:
            how =
                "\(who(handler.declaring)) handles '\(event)' by leaving parallel state '\(name)', but \(who(winner.declaring)) handles it inside its region"
        }
        reporter.report(
            "\(how): when both are active, the transition of '\(other)' (line \(winnerLocation.line)) is taken, as the first region's, and this one never is",
            at: graph.location(of: handler.edge), subjects: [event, here, other],
            notes: [
                .init("the transition taken instead", at: winnerLocation),
                .init(
                    "handle '\(event)' once, on '\(name)' or a state around it, so that every region leaves together; or give the two regions different events"
                )
            ])
    }
}
