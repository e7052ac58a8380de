/// A machine's states and transitions with every name resolved to an integer index.
///
/// States are numbered in source order. Every way of leaving a state is an ``Edge``: each
/// candidate of each event, each `always` branch, the timeout, each retry's `then`, and each
/// machine-wide transition a state inherits.
public struct MachineGraph: Sendable {
    /// The machine as decoded.
    public let machine: Machine
    /// State names to indices.
    public let stateIndex: [String: Int]
    /// The initial state's index, if `initial` names a state.
    public let initial: Int?
    /// All edges, grouped by source state in source order.
    public let edges: [Edge]
    /// `edges[edgeStart[s]..<edgeStart[s + 1]]` are the edges leaving state `s`.
    let edgeStart: [Int]

    /// The number of states.
    public var stateCount: Int { machine.states.count }

    /// The state at an index.
    public func state(_ index: Int) -> State { machine.states[index] }

    /// The name of the state at an index.
    public func name(_ index: Int) -> String { machine.states[index].name.value }

    /// The edges leaving a state.
    public func edges(from state: Int) -> ArraySlice<Edge> {
        edges[edgeStart[state]..<edgeStart[state + 1]]
    }

    /// `edges` grouped by source state, `edgeStart` as the property says.
    init(machine: Machine, stateIndex: [String: Int], initial: Int?, edges: [Edge], edgeStart: [Int]) {
        self.machine = machine
        self.stateIndex = stateIndex
        self.initial = initial
        self.edges = edges
        self.edgeStart = edgeStart
    }

    /// The adjacency of the edges that satisfy `include`, for the graph algorithms.
    public func digraph(including include: (Edge) -> Bool = { _ in true }) -> Digraph {
        var targets: [Int32] = []
        targets.reserveCapacity(edges.count)
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
public struct Edge: Sendable {
    /// What makes the transition happen.
    public enum Trigger: Sendable, Equatable {
        /// An event (own or machine-wide).
        case event(String)
        /// An `always` branch of a choice state.
        case always
        /// The state's timeout, after the given duration (`nil` if the duration is invalid).
        case timeout(Duration?)
    }

    /// The source state.
    public var source: Int {
        get { Int(storedSource) }
        set { storedSource = Int32(clamping: newValue) }
    }
    /// The target state.
    public var target: Int {
        get { Int(storedTarget) }
        set { storedTarget = Int32(clamping: newValue) }
    }
    // 32 bits each (a spec file cannot hold 2^31 states): a large machine has millions of edges.
    private var storedSource: Int32
    private var storedTarget: Int32
    /// What triggers it.
    public var trigger: Trigger
    /// Whether it has an `if`/`unless` condition.
    public var isConditional: Bool
    /// Whether a bounded `retry` limits how often it is taken in a row.
    public var isBounded: Bool
    /// Whether it is a retry's `then`, taken once the bound is reached.
    public var isRetryFallback: Bool
    /// Whether the state inherits it from machine-wide `on`.
    public var isInherited: Bool
    /// Where the transition is written.
    public var location: SourceLocation

    /// Creates an edge.
    public init(source: Int, target: Int, trigger: Trigger, isConditional: Bool, isBounded: Bool,
                isRetryFallback: Bool, isInherited: Bool, location: SourceLocation) {
        storedSource = Int32(clamping: source)
        storedTarget = Int32(clamping: target)
        self.trigger = trigger
        self.isConditional = isConditional
        self.isBounded = isBounded
        self.isRetryFallback = isRetryFallback
        self.isInherited = isInherited
        self.location = location
    }

    /// Whether it happens without any event (a timeout or an `always` branch).
    public var isAutomatic: Bool {
        if case .event = trigger { return false }
        return true
    }

    /// A short description, such as `on 'submit'`, `always` or `after 2s`.
    public var label: String {
        let base: String
        switch trigger {
        case .event(let name): base = "on '\(name)'"
        case .always: base = "always"
        case .timeout(let after): base = after.map { "after \($0.specDescription)" } ?? "on timeout"
        }
        return isRetryFallback ? base + " (retries used up)" : base
    }
}
