/// `backward-transition`: in a `forwardOnly` sequence, a transition from a later member to
/// an earlier one. Every kind of transition counts, machine-wide ones included (reported once
/// per machine-wide transition, naming the members that inherit it).
struct BackwardTransitionCheck: MachineCheck {
    static let definition = RuleDefinition(
        rule: .backwardTransition, defaultSeverity: .error,
        summary: "A transition from a later to an earlier member of a forward-only sequence.",
        reportedAt: "the transition",
        finding: "later → earlier member of a `forwardOnly` sequence")

    func check(_ analysis: MachineAnalysis, _ reporter: RuleReporter) {
        for sequence in analysis.graph.machine.sequences where sequence.forwardOnly {
            check(sequence, analysis.graph, reporter)
        }
    }

    private func check(_ sequence: StateSequence, _ graph: MachineGraph, _ reporter: RuleReporter) {
        var position: [Int: Int] = [:]
        for (offset, member) in sequence.states.enumerated() {
            if let index = graph.stateIndex[member.value], position[index] == nil { position[index] = offset }
        }
        // One machine-wide transition is one (place, event) pair: an alias can put two
        // events' transitions at the same place.
        var inheritedSources: [InheritedKey: (edge: Edge, sources: [String])] = [:]
        var inheritedOrder: [InheritedKey] = []
        // Only the members' edges, in the order of `graph.edges` (by source state): a machine
        // of many sequences would otherwise read every edge once per sequence.
        for member in position.keys.sorted() {
            for edge in graph.edges(from: member) {
                guard let from = position[edge.source], let to = position[edge.target], to < from else { continue }
                if edge.isInherited {
                    let key = InheritedKey(location: graph.location(of: edge), label: graph.label(of: edge))
                    if inheritedSources[key] == nil {
                        inheritedOrder.append(key)
                        inheritedSources[key] = (edge, [])
                    }
                    inheritedSources[key]!.sources.append(graph.name(edge.source))
                    continue
                }
                reporter.report(
                    "the transition \(graph.label(of: edge)) from '\(graph.name(edge.source))' goes back to '\(graph.name(edge.target))', an earlier state of forward-only sequence '\(sequence.name.value)'",
                    at: graph.location(of: edge), subjects: [graph.name(edge.source), graph.name(edge.target)],
                    notes: [
                        .init(
                            "sequence '\(sequence.name.value)' is declared forward-only here",
                            at: sequence.name.location)
                    ])
            }
        }
        for key in inheritedOrder {
            let (edge, sources) = inheritedSources[key]!
            let target = graph.name(edge.target)
            reporter.report(
                "the machine-wide transition \(graph.label(of: edge)) leads back to '\(target)' from later states \(quotedList(sources)) of forward-only sequence '\(sequence.name.value)'",
                at: key.location, subjects: sources + [target],
                notes: [
                    .init("sequence '\(sequence.name.value)' is declared forward-only here", at: sequence.name.location)
                ])
        }
    }
}

/// Identifies one machine-wide transition among the edges states inherit from it.
private struct InheritedKey: Hashable {
    var location: SourceLocation
    var label: String
}
