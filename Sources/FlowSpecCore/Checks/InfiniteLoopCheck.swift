/// `infinite-loop`: a cycle among states that are neither `input` nor `terminal`, not broken
/// by a bounded `retry`.
///
/// A transition with `retry: { max: N, then: S }` can be taken only N times before the
/// machine reaches an `input` or `terminal` state again, so it does not close a loop; its
/// `then` transition is an ordinary edge. One finding per strongly connected group of task
/// and choice states, listing its states; a cycle made of `choice` states alone is called out
/// as looping without time passing.
struct InfiniteLoopCheck: MachineCheck {
    static let definition = RuleDefinition(
        rule: .infiniteLoop, defaultSeverity: .error,
        summary: "A cycle among task and choice states not broken by a bounded retry.",
        reportedAt: "the group's first state",
        finding:
            "a cycle among `task` and `choice` states not broken by a bounded `retry`; one finding per strongly connected group, listing its states, with one cycle in a note; a group of `choice` states alone loops \"without time passing\""
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
                loop, graph: graph, unbounded: found.unbounded, inChoiceCycle: inChoiceCycle,
                transient: found.transient, reporter)
        }
    }

    /// The loops this rule reports in a machine, with the unbounded edges among task and
    /// transient states they are made of and which states are transient. Other checks that
    /// cannot follow a run through such a loop (`require` properties) ask this, not the
    /// findings reported so far.
    static func loops(_ analysis: MachineAnalysis) -> (loops: [[Int]], unbounded: Digraph, transient: [Bool]) {
        let graph = analysis.graph
        let kinds = graph.machine.states.map(\.kind)
        let transient = graph.machine.states.indices.map(analysis.isTransient)
        let canLoop = { (state: Int) in kinds[state] == .task || transient[state] }
        // Loops are among task and choice states only: the other edges are left out (most of a
        // large machine's, as most states wait for input), and so are transitions without a
        // target, which stay and so restart nothing.
        let unbounded = graph.digraph {
            !$0.isBounded && !$0.isTargetless && canLoop($0.source) && canLoop($0.target) && analysis.follows($0)
        }
        // A loop through a state whose transitions could not all be read may be broken by a
        // retry bound or an exit that was lost; it waits until that error is fixed.
        let loops = Self.loops(in: unbounded, among: canLoop).filter { loop in
            !loop.contains { MachineAnalysis.mayLackEdges($0, in: graph.machine) }
        }
        return (loops, unbounded, transient)
    }

    /// The strongly connected groups that contain a cycle (more than one state, or a self-loop).
    static func loops(in digraph: Digraph, among include: (Int) -> Bool) -> [[Int]] {
        digraph.stronglyConnectedComponents(including: include, cyclicOnly: true).sorted { $0[0] < $1[0] }
    }

    private func report(
        _ loop: [Int], graph: MachineGraph, unbounded: Digraph, inChoiceCycle: [Bool], transient: [Bool],
        _ reporter: RuleReporter
    ) {
        let names = loop.map(graph.name)
        let first = graph.state(loop[0])
        let cycle = Self.cycle(through: loop[0], within: Set(loop), in: unbounded).map(graph.name)
        let allChoice = loop.allSatisfy { transient[$0] }
        let subject =
            loop.count == 1 ? "state '\(names[0])' loops to itself" : "states \(quotedList(names)) form a loop"
        let message =
            allChoice
            ? "\(subject) \(loop.allSatisfy { graph.state($0).kind == .choice } ? "through `always` branches" : "through `always`, `done` and compound states' `initial`") without time passing"
            : "\(subject) that never waits for input and no bounded `retry` breaks"
        var notes: [Diagnostic.Note] = [.init("loop: \(Self.written(cycle))")]
        let choiceMembers = loop.filter { inChoiceCycle[$0] }
        if !allChoice, !choiceMembers.isEmpty {
            notes.append(
                .init(
                    "choice states \(quotedList(choiceMembers.map(graph.name))) loop among themselves without time passing"
                ))
        }
        notes.append(
            .init(
                "bound one transition with `retry: { max: 3, then: someState }`, or let one state wait for the user (`kind: input`)"
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
