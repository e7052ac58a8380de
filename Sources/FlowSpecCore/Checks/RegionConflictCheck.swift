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
struct RegionConflictCheck: MachineCheck {
    static let definition = RuleDefinition(
        rule: .regionConflict, defaultSeverity: .warning,
        summary: "Two regions of a parallel state handle one event, and one of them by leaving it.",
        reportedAt: "the later region's transition",
        finding:
            "states in two regions of one parallel state handle the same event, at least one by leaving the parallel state: the first region's transition is taken, the later one never is"
    )

    /// One candidate (or its retry's `then`) of a transition written inside a region.
    private struct Handler {
        var declaring: Int
        var transition: Int
        var edge: Edge
        var leaves: Bool
    }

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
        for edge in graph.edges where edge.triggerKind == .event && !edge.isTargetless {
            guard let declaring = graph.declaringState(of: edge), !machine.states[declaring].isMalformed,
                !machine.states[edge.source].isMalformed, !judgesPaths || analysis.isReachable(edge.source)
            else { continue }
            let key = [declaring, edge.transitionIndex, edge.candidateIndex, edge.isRetryFallback ? 1 : 0]
            guard seen.insert(key).inserted else { continue }
            let event = machine.transitions(of: declaring)[edge.transitionIndex].event.value
            for (parallel, region) in nesting.regions(around: declaring) {
                let target = edge.target
                let inside = nesting.descendants(of: parallel).contains(target) && target != parallel
                // Into another region: `invalid-parallel` says so.
                if inside && !nesting.isWithin(target, region) { continue }
                handlers[parallel, default: [:]][event, default: [:]][region, default: []].append(
                    Handler(declaring: declaring, transition: edge.transitionIndex, edge: edge, leaves: !inside))
            }
        }
        for parallel in handlers.keys.sorted() {
            let regions = nesting.children(of: parallel)
            for (_, byRegion) in handlers[parallel]!.sorted(by: { machine.names[$0.key] < machine.names[$1.key] }) {
                guard byRegion.count > 1 else { continue }
                var earlier: [Handler] = []
                var reported = Set<[Int]>()
                for region in regions {
                    let later = byRegion[region] ?? []
                    for handler in later {
                        guard !reported.contains([handler.declaring, handler.transition]),
                            let winner = earlier.first(where: { $0.leaves || handler.leaves })
                        else { continue }
                        reported.insert([handler.declaring, handler.transition])
                        report(handler, winner: winner, parallel: parallel, graph: graph, reporter)
                    }
                    earlier += later
                }
            }
        }
    }

    private func report(
        _ handler: Handler, winner: Handler, parallel: Int, graph: MachineGraph, _ reporter: RuleReporter
    ) {
        let machine = graph.machine
        let nesting = machine.nesting
        func regionName(_ state: Int) -> String {
            machine.name(of: nesting.children(of: parallel).first { nesting.isWithin(state, $0) } ?? state)
        }
        // "region 'audio'" for a region's own transition, "'loud' in region 'audio'" inside it.
        func who(_ state: Int) -> String {
            let region = regionName(state)
            return machine.name(of: state) == region
                ? "region '\(region)'" : "'\(machine.name(of: state))' in region '\(region)'"
        }
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
