/// A rule of the language checked on one machine: the rule's home (``RuleHome``), with its
/// definition, its messages and the check itself. Checks only read the analysis and report.
protocol MachineCheck: RuleHome, Sendable {
    /// The check (checks hold nothing: what they share is in ``MachineAnalysis``).
    init()
    /// Reports every violation of the rule in the machine, through a reporter of this rule.
    func check(_ analysis: MachineAnalysis, _ reporter: RuleReporter)
}

/// What several checks need about a machine, computed once.
struct MachineAnalysis {
    /// The resolved graph.
    let graph: MachineGraph
    /// The adjacency of every edge.
    let digraph: Digraph
    /// Per state, where a shortest path from `initial` comes from (`nil` where unreachable);
    /// `nil` when the machine has no valid initial state.
    let parentsFromInitial: BreadthFirstParents?
    /// Every use of an event, condition and effect name.
    let nameUses: NameUses
    /// Every name that becomes a Swift identifier.
    let identifierNames: IdentifierNames
    /// Whether a reachable state may lack an edge the author wrote, because a transition of it
    /// (or a machine-wide one it inherits) could not be read. Findings about paths from
    /// `initial` (unreachable states, no way out, requirements) wait until that is fixed.
    let mayLackPaths: Bool

    /// Per compound state, whether a state inside it is reachable (empty for a flat machine):
    /// a compound state is active whenever one of its states is.
    private let reachableCompounds: [Bool]

    init(graph: MachineGraph) {
        self.graph = graph
        let nameUses = NameUses(graph.machine)
        self.nameUses = nameUses
        self.identifierNames = IdentifierNames(graph.machine, events: nameUses)
        let digraph = graph.digraph()
        self.digraph = digraph
        let machine = graph.machine
        let parents = graph.initial.map { Self.reachableThroughHistory(from: $0, graph, digraph) }
        self.parentsFromInitial = parents
        self.mayLackPaths = machine.states.indices.contains { index in
            parents?[index] != nil && Self.mayLackEdges(index, in: machine)
        }
        var reachableCompounds: [Bool] = []
        if machine.nesting.isNested {
            reachableCompounds = machine.states.indices.map { parents?[$0] != nil }
            // Inner states come later: from the last, each state's answer is final before its parent reads it.
            for index in machine.states.indices.reversed() where reachableCompounds[index] {
                if let parent = machine.nesting.parent(of: index) { reachableCompounds[parent] = true }
            }
        }
        self.reachableCompounds = reachableCompounds
    }

    var machine: MachineSpec { graph.machine }

    /// ``reachable(from:_:_:)`` in a machine with history states. A resume edge leads back to a
    /// state the flow was in before, so it reaches nothing new, but for one: a shallow history
    /// resumes the compound state directly inside its parent that held the flow, through that
    /// state's `initial`, and the flow may only have passed through it (its choice states lead
    /// out at once). So a resume edge into a compound state `C` is followed once a run can
    /// record `C` and then take the history: a state reached inside `C` leaves the history's
    /// parent, and a state reached outside that parent, or inside `C`, goes to the history
    /// (leaving the parent from elsewhere inside it records that instead). Until no more are.
    private static func reachableThroughHistory(
        from initial: Int, _ graph: MachineGraph, _ digraph: Digraph
    ) -> BreadthFirstParents {
        let machine = graph.machine
        let nesting = machine.nesting
        let intoCompounds = graph.edges.filter { $0.isResume && machine.isCompound($0.target) }
        guard !intoCompounds.isEmpty else {
            // A resume edge into any other state reaches nothing new.
            let reaching = machine.states.contains { $0.kind == .history } ? graph.digraph { !$0.isResume } : digraph
            return reachable(from: initial, reaching, machine)
        }
        var intoHistory: [Int: [Edge]] = [:]
        for edge in graph.edges where !edge.isResume && machine.isHistory(edge.target) {
            intoHistory[edge.target, default: []].append(edge)
        }
        var resumable = Set<Int>()
        while true {
            let parents = reachable(
                from: initial, graph.digraph { !$0.isResume || resumable.contains($0.target) }, machine)
            // Per compound state, whether a reached state inside it leaves it and the state
            // around it in one step (what records it in that state's history).
            var recorded = [Bool](repeating: false, count: machine.states.count)
            for edge in graph.edges where !edge.isResume && parents[edge.source] != nil {
                // The states left: those around the source inside the innermost state around the
                // one that writes the transition that holds the target too (a compound state's
                // own transition to a state inside it leaves it and enters it again).
                let declaring = graph.declaringState(of: edge)
                let target = machine.historyOfParallel(edge.target) ?? edge.target
                var inner: Int?
                for ancestor in nesting.ancestors(of: edge.source) {
                    if let declaring, ancestor != declaring, nesting.isWithin(declaring, ancestor),
                        ancestor != target, nesting.isWithin(target, ancestor)
                    {
                        break
                    }
                    if let inner { recorded[inner] = true }
                    inner = ancestor
                }
            }
            let more = intoCompounds.filter { resume in
                let (history, compound) = (resume.source, resume.target)
                guard !resumable.contains(compound), parents[compound] == nil, recorded[compound],
                    let parent = nesting.parent(of: history)
                else { return false }
                return (intoHistory[history] ?? []).contains { edge in
                    parents[edge.source] != nil
                        && (!nesting.isWithin(edge.source, parent) || nesting.isWithin(edge.source, compound))
                }
            }
            guard !more.isEmpty else { return parents }
            resumable.formUnion(more.map(\.target))
        }
    }

    /// Where a shortest path from `initial` to each state comes from. A state inside a region
    /// of a parallel state is entered with the parallel state's other regions, each through its
    /// `initial`, however the flow gets there: a transition from outside to a state of one
    /// region, an `initial` or history default inside one, a sub-flow starting inside one. So
    /// reaching a state reaches the other regions of every parallel state around it (the
    /// region, whose `initial` edge leads in). Each compound state's regions are added once.
    private static func reachable(from initial: Int, _ reaching: Digraph, _ machine: MachineSpec) -> BreadthFirstParents
    {
        guard machine.states.indices.contains(where: machine.isParallel) else {
            return reaching.breadthFirst(from: [initial])
        }
        let nesting = machine.nesting
        var climbed = [Bool](repeating: false, count: machine.states.count)
        return reaching.breadthFirst(from: [initial]) { vertex, reach in
            var current = vertex
            while !climbed[current], let parent = nesting.parent(of: current) {
                climbed[current] = true
                if machine.isParallel(parent) {
                    for region in nesting.children(of: parent) where region != current && !machine.isHistory(region) {
                        reach(region)
                    }
                }
                current = parent
            }
        }
    }

    /// Whether a state may lack an edge the author wrote (see ``StateSpec/hasLostTransitions``).
    /// By index: the state is read in place, not copied, for every reachable state.
    static func mayLackEdges(_ state: Int, in machine: MachineSpec) -> Bool {
        machine.states[state].hasLostTransitions
            || (machine.lostMachineWideTransitions && machine.states[state].kind.inheritsMachineWideTransitions)
    }

    /// Whether the state-level rules (loops, ways out) follow an edge: a history state resumes
    /// only a state the flow was in, so a resume edge to a state no path reaches is not followed.
    func follows(_ edge: Edge) -> Bool {
        !edge.isResume || parentsFromInitial == nil || isReachable(edge.target)
    }

    /// Whether a path from `initial` reaches the state, or for a compound state one of the
    /// states inside it (false when there is no initial state).
    func isReachable(_ state: Int) -> Bool {
        reachableCompounds.isEmpty ? parentsFromInitial?[state] != nil : reachableCompounds[state]
    }

    /// Whether the flow passes through the state without waiting: a choice state, a compound
    /// state (entering it enters its `initial`), a history state (it leads back into its
    /// compound state) or a terminal state its parent's `done` leaves.
    func isTransient(_ state: Int) -> Bool {
        let machine = graph.machine
        if machine.states[state].kind == .choice || !machine.isLeaf(state) { return true }
        return machine.states[state].kind == .terminal && leavesByDone(state)
    }

    /// Whether a terminal state is left at once by the `done` of the compound state around it.
    func leavesByDone(_ state: Int) -> Bool {
        guard let parent = graph.machine.nesting.parent(of: state) else { return false }
        return graph.machine.nesting.details[parent]?.done != nil
    }

    /// The longest path ``shortPathFromInitial(to:depths:)`` writes out whole.
    static let shortPathLimit = 12

    /// A shortest path from `initial` to a reachable state as a note shows it, `a → b → c`: whole
    /// up to ``shortPathLimit`` states; longer, the initial state, how many are left out and
    /// the last five. `depths` are the states' distances from `initial`
    /// (``BreadthFirstParents/depths()``), so that each note costs at most a dozen names: a
    /// check that notes a path for every state (or every goal) of a long chain stays linear.
    func shortPathFromInitial(to state: Int, depths: [Int32]) -> String {
        guard let parents = parentsFromInitial, state < depths.count, depths[state] >= 0 else { return "" }
        let length = Int(depths[state]) + 1
        let shown = length <= Self.shortPathLimit ? length : 5
        var tail = [state]
        while tail.count < shown, let parent = parents[tail.last!], parent >= 0 { tail.append(Int(parent)) }
        let names = tail.reversed().map(graph.name)
        guard shown < length, let initial = graph.initial else { return names.joined(separator: " → ") }
        return "\(graph.name(initial)) → (\(length - shown - 1) more) → " + names.joined(separator: " → ")
    }
}

/// Every check, in the order of the format's rule table: each rule whose ``Rule/home`` is a
/// check, so a rule is added in one place (its case and home) and is checked from then on.
enum CheckRegistry {
    static let all: [any MachineCheck] = Rule.allCases.compactMap { rule in
        (rule.home as? any MachineCheck.Type)?.init()
    }

    /// Runs every check on a machine, each with a reporter of its own rule.
    static func checkAll(_ analysis: MachineAnalysis, into diagnostics: DiagnosticCollector) {
        for check in all {
            check.check(
                analysis,
                diagnostics.reporter(
                    for: type(of: check).definition.rule,
                    machine: analysis.machine.name.value))
        }
    }
}

/// Formats a list of names for messages: `'a'`, `'a' and 'b'`, `'a', 'b' and 'c'` (or another
/// conjunction).
func quotedList(_ names: [String], limit: Int = 8, joinedBy conjunction: String = "and") -> String {
    var quoted = names.prefix(limit).map { "'\($0)'" }
    if names.count > limit { quoted.append("\(names.count - limit) more") }
    guard quoted.count > 1 else { return quoted.first ?? "" }
    return quoted.dropLast().joined(separator: ", ") + " \(conjunction) " + quoted.last!
}
