/// A machine's states and transitions with every name resolved to an integer index.
///
/// States are numbered in source order. Every way of leaving a state is an ``Edge``: each
/// candidate of each event, each `always` branch, the timeout, each retry's `then`, and each
/// machine-wide transition a state inherits.
public struct MachineGraph: Sendable {
    /// The machine as decoded.
    public let machine: MachineSpec
    /// State names to indices.
    public let stateIndex: StateIndex
    /// The initial state's index, if `initial` names a state.
    public let initial: Int?
    /// All edges, grouped by source state in source order.
    public let edges: [Edge]
    /// `edges[edgeStart[s]..<edgeStart[s + 1]]` are the edges leaving state `s`.
    let edgeStart: [Int32]

    /// The number of states.
    public var stateCount: Int { machine.states.count }

    /// The state at an index.
    public func state(_ index: Int) -> StateSpec { machine.states[index] }

    /// The name of the state at an index.
    public func name(_ index: Int) -> String { machine.name(of: index) }

    /// The edges leaving a state.
    public func edges(from state: Int) -> ArraySlice<Edge> {
        edges[Int(edgeStart[state])..<Int(edgeStart[state + 1])]
    }

    /// `edges` grouped by source state, `edgeStart` as the property says.
    init(machine: MachineSpec, stateIndex: StateIndex, initial: Int?, edges: [Edge], edgeStart: [Int32]) {
        self.machine = machine
        self.stateIndex = stateIndex
        self.initial = initial
        self.edges = edges
        self.edgeStart = edgeStart
    }

    /// The state whose transition an edge stands for: its source, or for an inherited edge the
    /// compound state around the source that writes it; `nil` for the machine's own `on`.
    public func declaringState(of edge: Edge) -> Int? {
        guard edge.isInherited else { return edge.source }
        var state = edge.source
        for _ in 0..<edge.levelsUp {
            guard let parent = machine.nesting.parent(of: state) else { return nil }
            state = parent
        }
        return state
    }

    /// What makes an edge happen.
    public func trigger(of edge: Edge) -> Edge.Trigger {
        switch edge.triggerKind {
        case .event:
            let index = Int(edge.transitionIndex)
            guard let declaring = declaringState(of: edge) else {
                return .event(machine.names[machine.machineWide[index].event.value])
            }
            return .event(machine.names[machine.transitions(of: declaring)[index].event.value])
        case .always:
            return edge.isDone || machine.isOutcome(edge.source) ? .done : .always
        case .timeout:
            return .timeout(declaringState(of: edge).flatMap { machine.states[$0].timeout?.after?.value })
        case .initial:
            return .initial
        }
    }

    /// Where the transition an edge stands for is written: its candidate, or its retry for the
    /// retry's `then`, or the timeout, `done` or `initial`.
    public func location(of edge: Edge) -> SourceLocation {
        let state = edge.source
        let declaring = declaringState(of: edge)
        let candidate: Candidate?
        switch edge.triggerKind {
        case .timeout:
            let timeout = declaring.flatMap { machine.states[$0].timeout }
            return (edge.isRetryFallback ? timeout?.retry?.location : timeout?.location)
                ?? machine.states[state].name.location
        case .always, .event:
            candidate = self.candidate(of: edge)
        case .initial:
            if machine.isHistory(state) {
                return machine.nesting.details[state]?.historyDefault?.location ?? machine.states[state].name.location
            }
            return machine.nesting.details[state]?.initial?.location
                ?? machine.nesting.details[state]?.statesLocation
                ?? machine.nesting.details[state]?.parallelLocation ?? machine.states[state].name.location
        }
        return (edge.isRetryFallback ? candidate?.retry?.location : candidate?.location)
            ?? machine.states[state].name.location
    }

    /// The candidate as written that an event's, `always` or `done` edge stands for; `nil` for
    /// other edges.
    public func candidate(of edge: Edge) -> Candidate? {
        let declaring = declaringState(of: edge)
        switch edge.triggerKind {
        case .always:
            let list = declaring.flatMap { edge.isDone ? machine.nesting.details[$0]?.done : machine.states[$0].always }
            return list?.value[edge.candidateIndex]
        case .event:
            guard let declaring else {
                return machine.machineWide[edge.transitionIndex].candidates[edge.candidateIndex]
            }
            return machine.transitions(of: declaring)[edge.transitionIndex].candidates[edge.candidateIndex]
        case .timeout, .initial:
            return nil
        }
    }

    /// A short description of an edge, such as `on 'submit'`, `always` or `after 2s`.
    public func label(of edge: Edge) -> String {
        let base: String
        switch trigger(of: edge) {
        case .event(let name): base = "on '\(name)'"
        case .always: base = "always"
        case .done: base = "done"
        case .initial: base = "initial"
        case .timeout(let after): base = after.map { "after \($0.specDescription)" } ?? "on timeout"
        }
        return edge.isRetryFallback ? base + " (retries used up)" : base
    }

    /// The adjacency of every edge, for the graph algorithms.
    public func digraph() -> Digraph {
        // Edges are grouped by source already: their starts are the adjacency's offsets.
        var targets: [Int32] = []
        targets.reserveCapacity(edges.count)
        for index in edges.indices { targets.append(Int32(edges[index].target)) }
        return Digraph(offsets: edgeStart, targets: targets)
    }

    /// The adjacency of the edges that satisfy `include`, each reversed (from its target to its
    /// source), for searches that go backwards.
    public func reversedDigraph(including include: (Edge) -> Bool) -> Digraph {
        Digraph.reversing(count: stateCount) { edge in
            for index in edges.indices where include(edges[index]) { edge(edges[index].source, edges[index].target) }
        }
    }

    /// The adjacency of the edges that satisfy `include`, for the graph algorithms.
    public func digraph(including include: (Edge) -> Bool) -> Digraph {
        // Counted first: often few edges are included, and room for all of them would be most
        // of the memory this takes.
        var count = 0
        for index in edges.indices where include(edges[index]) { count += 1 }
        var targets: [Int32] = []
        targets.reserveCapacity(count)
        var offsets: [Int32] = [0]
        offsets.reserveCapacity(stateCount + 1)
        for state in 0..<stateCount {
            for edge in edges(from: state) where include(edge) {
                targets.append(Int32(edge.target))
            }
            offsets.append(Int32(targets.count))
        }
        return Digraph(offsets: offsets, targets: targets)
    }
}

/// One way of leaving a state.
///
/// 16 bytes, with no reference to count: a large machine has millions of edges. What the
/// model already says is not stored but found through the edge's candidate: the event's name
/// (``MachineGraph/trigger(of:)``) and where the transition is written
/// (``MachineGraph/location(of:)``).
public struct Edge: Sendable {
    /// What makes the transition happen.
    public enum Trigger: Sendable, Equatable {
        /// An event (own or machine-wide).
        case event(String)
        /// An `always` branch: a choice state's, or one a state that waits takes once its
        /// condition holds (its own or a compound state's around it).
        case always
        /// The state's timeout, or that of a compound state around it, after the given duration
        /// (`nil` if the duration is invalid).
        case timeout(Duration?)
        /// The `done` of the compound state around a terminal state.
        case done
        /// Entering a compound state enters its `initial` state.
        case initial
    }

    /// What makes the transition happen, short of the event's name. (An `always` edge whose
    /// transition index is ``doneIndex`` is a `done`.)
    enum TriggerKind: UInt64, Sendable {
        case event, always, timeout, initial
    }

    /// The largest transition index an edge holds; a machine has at most this many transitions
    /// (``YAMLLimits/maxTransitions`` cannot be raised past it).
    public static let maximumIndex = (1 << 29) - 1
    /// The largest candidate index an edge holds: a transition has at most this many candidates.
    public static let maximumCandidateIndex = (1 << 21) - 1
    /// The transition index of an `always` edge that is a compound state's `done` (taken on
    /// entering a terminal state inside it), not an `always` branch.
    static let doneIndex = 1
    /// The most levels an inherited edge's transition can be written above its source (the
    /// nesting the YAML depth limit allows fits).
    public static let maximumLevelsUp = (1 << 7) - 1

    // 32 bits each (a spec file cannot hold 2^31 states).
    private let storedSource: Int32
    private let storedTarget: Int32
    /// From the low bits: the transition's index (29 bits), the candidate's index (21 bits),
    /// whether the candidate has no target (1 bit), how many levels up an inherited transition
    /// is written (7 bits), the trigger kind (2 bits) and the four flags.
    private let origin: UInt64

    private static let conditional: UInt64 = 1 << 60, bounded: UInt64 = 1 << 61
    private static let retryFallback: UInt64 = 1 << 62, inherited: UInt64 = 1 << 63
    private static let targetless: UInt64 = 1 << 50

    /// The source state.
    public var source: Int { Int(storedSource) }
    /// The target state.
    public var target: Int { Int(storedTarget) }
    /// Whether it has an `if`/`unless` condition.
    public var isConditional: Bool { origin & Self.conditional != 0 }
    /// Whether a bounded `retry` limits how often it is taken in a row.
    public var isBounded: Bool { origin & Self.bounded != 0 }
    /// Whether it is a retry's `then`, taken once the bound is reached.
    public var isRetryFallback: Bool { origin & Self.retryFallback != 0 }
    /// Whether the state inherits it from a compound state around it or from the machine's `on`.
    public var isInherited: Bool { origin & Self.inherited != 0 }
    /// Whether its candidate has no target: the flow stays where it is, leaving and entering
    /// nothing. Its edge is a loop on its source, so that the state still handles the event
    /// (and inherits it), and every rule about moving between states passes it by.
    public var isTargetless: Bool { origin & Self.targetless != 0 }
    /// Whether it leads from a history state to a state that history may resume (not its
    /// default): it is taken only back into a state the flow was in before, so it never makes
    /// a state reachable.
    public var isResume: Bool { triggerKind == .initial && candidateIndex == 1 }
    /// Whether it is the `done` of a compound state around its source, a terminal state.
    public var isDone: Bool { triggerKind == .always && transitionIndex == Self.doneIndex }
    /// Whether it happens without any event (a timeout, an `always` branch, a `done` or entering
    /// a compound state's `initial`).
    public var isAutomatic: Bool { triggerKind != .event }

    /// What kind of thing triggers it.
    var triggerKind: TriggerKind { TriggerKind(rawValue: origin >> 58 & 3) ?? .event }
    /// For an event's edge: the index of its transition in `MachineSpec.transitions(of:)` of the state
    /// that declares it, or in the machine's `machineWide` (0 for other edges).
    var transitionIndex: Int { Int(origin & UInt64(Self.maximumIndex)) }
    /// The index of its candidate among the transition's (or the `always` branches); 0 for a
    /// timeout.
    var candidateIndex: Int { Int(origin >> 29 & UInt64(Self.maximumCandidateIndex)) }
    /// For an inherited edge, how many levels above its source its transition is written (one
    /// more than the source's depth: the machine's `on`); 0 for its own.
    var levelsUp: Int { Int(origin >> 51 & UInt64(Self.maximumLevelsUp)) }

    /// Creates an edge; the indices as the properties say, at most ``maximumIndex``.
    init(
        source: Int, target: Int, trigger: TriggerKind, transitionIndex: Int = 0, candidateIndex: Int = 0,
        levelsUp: Int = 0, isConditional: Bool, isBounded: Bool, isRetryFallback: Bool, isInherited: Bool,
        isTargetless: Bool = false
    ) {
        precondition(
            transitionIndex <= Self.maximumIndex && candidateIndex <= Self.maximumCandidateIndex
                && levelsUp <= Self.maximumLevelsUp,
            "a machine's transitions are limited to Edge.maximumIndex")
        storedSource = Int32(clamping: source)
        storedTarget = Int32(clamping: target)
        origin =
            UInt64(transitionIndex) | UInt64(candidateIndex) << 29 | UInt64(levelsUp) << 51 | trigger.rawValue << 58
            | (isConditional ? Self.conditional : 0) | (isBounded ? Self.bounded : 0)
            | (isRetryFallback ? Self.retryFallback : 0) | (isInherited ? Self.inherited : 0)
            | (isTargetless ? Self.targetless : 0)
    }
}
