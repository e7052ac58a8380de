/// `infinite-loop`: a cycle among states that are neither `input` nor `terminal`, not broken
/// by a bounded `retry`; or a cycle through an `input` or `terminal` state that leaves it
/// through an `always` branch, which waits for nothing while that branch holds.
///
/// A transition with `retry: { max: N, then: S }` can be taken only N times before the
/// machine reaches an `input` or `terminal` state again, so it does not close a loop; its
/// `then` transition is an ordinary edge. Entering an `input` or `terminal` state resets the
/// retry counters, so a bound does not break a cycle through one. One finding per strongly connected group of task
/// and choice states, listing its states; a cycle made of `choice` states alone is called out
/// as looping without time passing.
struct InfiniteLoopCheck: MachineCheck {
    static let definition = RuleDefinition(
        rule: .infiniteLoop, defaultSeverity: .error,
        summary:
            "A cycle among task and choice states not broken by a bounded retry, or through a state left by its `always` branches.",
        reportedAt: "the group's first state",
        finding:
            "a cycle among `task` and `choice` states not broken by a bounded `retry`, or through an `input` or `terminal` state that its `always` branches leave (a bound does not break that); one finding per strongly connected group, listing its states, with one cycle in a note; a group of `choice` states alone loops \"without time passing\""
    )

    func check(_ analysis: MachineAnalysis, _ reporter: RuleReporter) {
        let found = Self.loops(analysis)
        guard !found.loops.isEmpty else { return }
        let graph = analysis.graph
        var inChoiceCycle = [Bool](repeating: false, count: graph.stateCount)
        for loop in Self.loops(in: found.unbounded, among: { found.transient[$0] }) {
            for state in loop { inChoiceCycle[state] = true }
        }
        for loop in found.loops {
            report(
                loop, graph: graph, cycles: found.cycles, inChoiceCycle: inChoiceCycle,
                transient: found.transient, reporter)
        }
    }

    /// The loops this rule reports in a machine, with the unbounded edges among task and
    /// transient states they are made of and which states are transient. Other checks that
    /// cannot follow a run through such a loop (`require` properties) ask this, not the
    /// findings reported so far.
    static func loops(_ analysis: MachineAnalysis) -> (
        loops: [[Int]], unbounded: Digraph, transient: [Bool], cycles: Digraph
    ) {
        let graph = analysis.graph
        let kinds = graph.machine.states.map(\.kind)
        let transient = graph.machine.states.indices.map(analysis.isTransient)
        // A state that waits leaves at once while one of its `always` branches holds (a machine
        // without any is read edge by edge once, not twice).
        var leavesAtOnce = [Bool](repeating: false, count: graph.stateCount)
        if graph.machine.states.indices.contains(where: {
            graph.machine.states[$0].always != nil && (kinds[$0] != .choice || graph.machine.isCompound($0))
        }) {
            for edge in graph.edges where Self.isEventless(edge, kinds) { leavesAtOnce[edge.source] = true }
        }
        let waits = { (state: Int) in kinds[state] != .task && !transient[state] }
        let canLoop = { (state: Int) in kinds[state] == .task || transient[state] || leavesAtOnce[state] }
        // Loops are among task and choice states, and states that wait only through their
        // `always` branches: the other edges are left out (most of a large machine's, as most
        // states wait for input), and so are transitions without a target, which stay and so
        // restart nothing.
        let follows = { (edge: Edge) in
            !edge.isTargetless && canLoop(edge.target) && analysis.follows(edge)
                && (waits(edge.source) ? Self.isEventless(edge, kinds) : canLoop(edge.source))
        }
        let unbounded = graph.digraph { !$0.isBounded && follows($0) }
        var found = Self.loops(in: unbounded, among: canLoop)
        var cycles = unbounded
        if leavesAtOnce.contains(true) {
            // Through a state that waits, bounds are reset: those cycles are loops all the same.
            let resetting = graph.digraph(including: follows)
            cycles = resetting
            for loop in Self.loops(in: resetting, among: canLoop) where loop.contains(where: waits) {
                if !found.contains(where: { !Set($0).isDisjoint(with: loop) }) { found.append(loop) }
            }
            found.sort { $0[0] < $1[0] }
        }
        // A loop through a state whose transitions could not all be read may be broken by a
        // retry bound or an exit that was lost; it waits until that error is fixed.
        let loops = found.filter { loop in
            !loop.contains { MachineAnalysis.mayLackEdges($0, in: graph.machine) }
                && (!loop.contains(where: waits) || holdsTogether(loop, graph, kinds, waits: waits, follows: follows))
        }
        return (loops, unbounded, transient, cycles)
    }

    /// The most conditions ``holdsTogether(_:_:_:waits:follows:)`` tries every value of.
    static let maximumConditionsTried = 12

    /// Whether, for some value of the conditions, the `always` branches of a loop's states
    /// that wait hold together along a cycle through one of them: the conditions are the same
    /// throughout the steps taken at once, so `connected → offline` (unless `online`) and
    /// `offline → connected` (if `online`) never loop. Every other edge is taken whatever its
    /// condition, as for choice states; with more conditions than can be tried, every value.
    static func holdsTogether(
        _ loop: [Int], _ graph: MachineGraph, _ kinds: [StateKind], waits: (Int) -> Bool, follows: (Edge) -> Bool
    ) -> Bool {
        let members = Set(loop)
        var edges: [(edge: Edge, terms: [(name: String, holds: Bool)])] = []
        var names: [String] = []
        for state in loop {
            for edge in graph.edges(from: state) where members.contains(edge.target) && follows(edge) {
                var terms: [(name: String, holds: Bool)] = []
                if waits(state), let declaring = graph.declaringState(of: edge),
                    let candidate = graph.machine.states[declaring].always?.value[edge.candidateIndex]
                {
                    if let written = candidate.condition { terms.append((written.value, true)) }
                    if let written = candidate.unlessCondition { terms.append((written.value, false)) }
                }
                for term in terms where !names.contains(term.name) { names.append(term.name) }
                edges.append((edge, terms))
            }
        }
        guard names.count <= maximumConditionsTried else { return true }
        // A loop among its states that do not wait stands whatever the conditions.
        var among: [Int: [Int]] = [:]
        for (edge, _) in edges where !waits(edge.source) && !waits(edge.target) {
            among[edge.source, default: []].append(edge.target)
        }
        if among.keys.contains(where: { returns(to: $0, along: among) }) { return true }
        for bits in 0..<(1 << names.count) {
            func holds(_ term: (name: String, holds: Bool)) -> Bool {
                (bits >> names.firstIndex(of: term.name)! & 1 == 1) == term.holds
            }
            var successors: [Int: [Int]] = [:]
            for (edge, terms) in edges where terms.allSatisfy(holds) {
                successors[edge.source, default: []].append(edge.target)
            }
            if loop.contains(where: { waits($0) && returns(to: $0, along: successors) }) { return true }
        }
        return false
    }

    /// Whether a path of one or more steps along `successors` leads from `start` back to it.
    private static func returns(to start: Int, along successors: [Int: [Int]]) -> Bool {
        var seen: Set<Int> = []
        var stack = successors[start] ?? []
        while let state = stack.popLast() {
            if state == start { return true }
            if seen.insert(state).inserted { stack += successors[state] ?? [] }
        }
        return false
    }

    /// Whether an edge is an `always` branch of a state that waits (not a choice state's
    /// branch, nor a `done`, nor a terminal state's own, which `terminal-exit` reports).
    static func isEventless(_ edge: Edge, _ kinds: [StateKind]) -> Bool {
        guard edge.triggerKind == .always, !edge.isDone else { return false }
        switch kinds[edge.source] {
        case .choice: return false
        case .terminal: return edge.isInherited
        default: return true
        }
    }

    /// The strongly connected groups that contain a cycle (more than one state, or a self-loop).
    static func loops(in digraph: Digraph, among include: (Int) -> Bool) -> [[Int]] {
        digraph.stronglyConnectedComponents(including: include, cyclicOnly: true).sorted { $0[0] < $1[0] }
    }

    private func report(
        _ loop: [Int], graph: MachineGraph, cycles: Digraph, inChoiceCycle: [Bool], transient: [Bool],
        _ reporter: RuleReporter
    ) {
        let names = loop.map(graph.name)
        let first = graph.state(loop[0])
        let cycle = Self.cycle(through: loop[0], within: Set(loop), in: cycles).map(graph.name)
        let allChoice = loop.allSatisfy { transient[$0] }
        let leaving = loop.filter { [.input, .terminal].contains(graph.state($0).kind) && !transient[$0] }
        let subject =
            loop.count == 1 ? "state '\(names[0])' loops to itself" : "states \(quotedList(names)) form a loop"
        let message =
            allChoice
            ? "\(subject) \(loop.allSatisfy { graph.state($0).kind == .choice } ? "through `always` branches" : "through `always`, `done` and compound states' `initial`") without time passing"
            : leaving.isEmpty
                ? "\(subject) that never waits for input and no bounded `retry` breaks"
                : "\(subject) through `always` branches: while their conditions hold, the flow never waits"
        var notes: [Diagnostic.Note] = [.init("loop: \(Self.written(cycle))")]
        if !leaving.isEmpty {
            notes.append(
                .init(
                    "entering \(quotedList(leaving.map(graph.name), joinedBy: "or")) starts every retry counter again, so a bounded `retry` does not break the loop"
                ))
        }
        let choiceMembers = loop.filter { inChoiceCycle[$0] }
        if !allChoice, !choiceMembers.isEmpty {
            notes.append(
                .init(
                    "choice states \(quotedList(choiceMembers.map(graph.name))) loop among themselves without time passing"
                ))
        }
        notes.append(
            .init(
                leaving.isEmpty
                    ? "bound one transition with `retry: { max: 3, then: someState }`, or let one state wait for the user (`kind: input`)"
                    : "make one `always` branch of the loop an event the app sends, or let it lead out of the loop"
            ))
        reporter.report(message, at: first.name.location, subjects: names, notes: notes)
    }

    /// A cycle as its note shows it, `a → b → a`: whole up to
    /// ``MachineAnalysis/shortPathLimit`` states; longer, its first six states, how many are
    /// left out, and its last five and the first again, so that a loop of 100,000 states is
    /// a line, not a megabyte.
    static func written(_ cycle: [String]) -> String {
        let states = cycle.count - 1  // the first state closes the cycle again
        guard states > MachineAnalysis.shortPathLimit else { return cycle.joined(separator: " → ") }
        let head = cycle.prefix(6).joined(separator: " → ")
        let tail = cycle.suffix(6).joined(separator: " → ")
        return "\(head) → (\(states - 11) more) → \(tail)"
    }

    /// A shortest cycle from `start` back to itself using only states of `members`.
    static func cycle(through start: Int, within members: Set<Int>, in digraph: Digraph) -> [Int] {
        var parent: [Int: Int] = [:]
        var queue = [start]
        var head = 0
        while head < queue.count {
            let vertex = queue[head]
            head += 1
            for next in digraph.successors(of: vertex).map(Int.init) where members.contains(next) {
                if next == start {
                    var path = [vertex]
                    while path.last! != start { path.append(parent[path.last!]!) }
                    return path.reversed() + [start]
                }
                if parent[next] == nil {
                    parent[next] = vertex
                    queue.append(next)
                }
            }
        }
        return [start]
    }
}
