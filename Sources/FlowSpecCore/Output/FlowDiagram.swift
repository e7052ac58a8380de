/// A picture of one machine, independent of the diagram format: its states as nodes, its
/// transitions as labelled edges, and the states the checker found fault with.
///
/// It is built from a ``MachineGraph`` (not a ``FlowProgram``), so a machine with errors can be
/// drawn too: a transition whose target is not a state is left out.
///
/// **Machine-wide transitions** are drawn once, grouped: from one extra node, "any input or
/// task state", to their target, instead of once from every state that inherits them. When
/// some input or task states handle the event themselves (and so do not inherit it), the edge
/// names them: `forceReset (except authLoading)`. A machine-wide event no state inherits is
/// not drawn.
///
/// **Retries** give two edges: the bounded transition, labelled `(retry ×3)`, and its `then`,
/// labelled `(after 3 retries)` with the same trigger, conditions and effects, and then the
/// retry's own effects.
///
/// **Compound states** are nodes too, drawn around the states inside them (``Node/parent``).
/// What a compound state writes is drawn once, from the compound state: its `on`, its timeout
/// and its `done` (labelled `done`), not copied onto every state inside that inherits it as
/// the graph does. Transitions into a compound state lead to the compound state; the state it
/// enters first is ``Node/initialChild``. In the machine-wide edges' exceptions, a compound
/// state that handles the event stands for every state inside it.
///
/// **History states** are nodes inside their compound state (``Node/isHistory``), which
/// transitions into them lead to. Each has one edge, labelled `default`, to the state it
/// enters when its compound state was never left (the graph's default edge); the graph's
/// resume edges, to every state it may resume, are not drawn: they would join it to every
/// state inside and say nothing a reader of `H` or `H*` does not know.
public struct FlowDiagram: Sendable {
    /// One end of an edge.
    public enum Endpoint: Sendable, Hashable {
        /// A state, by index in the machine.
        case state(Int)
        /// The node that stands for every state inheriting a machine-wide transition.
        case machineWide
    }

    /// A state.
    public struct Node: Sendable {
        /// The state's name as written in the spec.
        public var name: String
        /// The state's kind.
        public var kind: StateKind
        /// The rules among ``FlowDiagram/highlightedRules`` whose findings name this state,
        /// in rule order (empty unless the diagram was built with findings).
        public var findings: [Rule]
        /// What recorded runs did not exercise at this state (`flowspec coverage`): "not
        /// entered", an event's name, "timeout", … (empty unless marked).
        public var unexercised: [String] = []
        /// Whether the state is new or changed since an older version (`flowspec diff`).
        public var change: ChangeMark? = nil
        /// The compound state directly around this one, if any.
        public var parent: Int? = nil
        /// Whether the state holds other states (its `kind` is then not read).
        public var isCompound = false
        /// For a compound state, the state inside it entered first (`nil` when its `initial`
        /// names no state directly inside it, and for a parallel state, which enters them all).
        public var initialChild: Int? = nil
        /// For a compound state, the effects its `initial` runs (drawn on the arrow to
        /// ``initialChild``: `/ prepare`).
        public var initialEffects: [String] = []
        /// Whether the state is a parallel state: the states directly inside it are its regions,
        /// all active at once (drawn apart: `--` in Mermaid, a cluster each in DOT).
        public var isParallel = false
        /// The effects run on entering the state, in order.
        public var entry: [String] = []
        /// The effects run on leaving the state, in order.
        public var exit: [String] = []
        /// The activities that run while the state is active (drawn `do / …`, as in UML).
        public var activities: [String] = []
        /// Its transitions without a target, which run their effects and stay (drawn inside the
        /// state, as UML draws internal transitions: `resend / sendCode`).
        public var internalTransitions: [TransitionLabel] = []
        /// For a history state, whether it is deep (it resumes the very state left, `H*`)
        /// rather than shallow (the state directly inside its compound state, `H`).
        public var isDeep = false

        /// Whether the node is a history state: a target the flow is never in, drawn as `H`
        /// or `H*` rather than its name. (A compound state's `kind` is not read.)
        public var isHistory: Bool { kind == .history && !isCompound }

        /// What a history state is drawn as, in statechart notation: `H*` when deep, else `H`.
        public var historySymbol: String { isDeep ? "H*" : "H" }
    }

    /// What `flowspec diff` marks on the new version's diagram.
    public enum ChangeMark: String, Sendable {
        case added, changed
    }

    /// A transition.
    public struct Edge: Sendable {
        /// Where it leaves from.
        public var source: Endpoint
        /// The state it leads to.
        public var target: Int
        /// What it says.
        public var label: TransitionLabel
        /// Whether it is a retry's `then`, taken once the bound is used up.
        public var isRetryFallback: Bool
        /// Whether it is part of an `infinite-loop` finding (both ends in the loop's group, and
        /// not bounded by a retry).
        public var isInLoop: Bool
        /// Whether the transition is new or changed since an older version (`flowspec diff`).
        public var change: ChangeMark? = nil
    }

    /// States an older version had and this one does not (`flowspec diff`), drawn dashed.
    public var removedStates: [String] = []
    /// Transitions an older version had and this one does not, as notes on the state they
    /// left (`nil`: the machine-wide node).
    public var removedTransitions: [(state: Int?, text: String)] = []

    /// The findings that mark states when highlighting.
    public static let highlightedRules: [Rule] = [.unreachableState, .infiniteLoop, .deadEnd, .noWayOut]

    /// The machine's name.
    public var machine: String
    /// The states, in source order (node `i` is state `i`).
    public var nodes: [Node]
    /// The initial state, if `initial` names a state.
    public var initial: Int?
    /// Every edge: each state's own transitions in source order (events, `always`, timeout),
    /// then the machine-wide ones.
    public var edges: [Edge]

    /// The machine-wide transitions without a target, drawn inside the machine-wide node.
    public var machineWideInternalTransitions: [TransitionLabel] = []

    /// Whether any edge leaves from the machine-wide node, or it stays with a transition.
    public var hasMachineWideNode: Bool {
        edges.contains { $0.source == .machineWide } || !machineWideInternalTransitions.isEmpty
    }

    /// Whether any state holds others.
    public var isNested: Bool {
        nodes.contains { $0.isCompound }
    }

    /// Visits the states in document order as the diagrams nest them: `visit(state, depth)` for
    /// each (depth 0 at the top level), and `close(compound, depth)` after the last state inside
    /// a compound state. A state whose parent is not open (a spec with nesting errors) is drawn
    /// at the top level.
    func walkNesting(visit: (Int, Int) -> Void, close: (Int, Int) -> Void) {
        var open: [Int] = []
        for index in nodes.indices {
            while let last = open.last, nodes[index].parent != last {
                open.removeLast()
                close(last, open.count)
            }
            visit(index, open.count)
            if nodes[index].isCompound { open.append(index) }
        }
        while let last = open.popLast() { close(last, open.count) }
    }

    /// Whether `state` is `ancestor` or inside it, at any depth.
    public func isWithin(_ state: Int, _ ancestor: Int) -> Bool {
        var current: Int? = state
        // Parents come before their children: a walk up the chain ends.
        while let index = current, index >= ancestor {
            if index == ancestor { return true }
            current = nodes[index].parent
        }
        return false
    }

    /// Marks what changed since an older version: states added or changed, transitions added
    /// or changed (each edge of that state and trigger), and what was removed.
    public mutating func mark(_ changes: [SpecDiff.Change], stateIndex: (String) -> Int?) {
        for change in changes {
            let state = change.state.flatMap(stateIndex)
            if change.subject == "state '\(change.state ?? "")'" {
                if change.kind == .removed, let name = change.state { removedStates.append(name) }
                if change.kind == .added, let state { nodes[state].change = .added }
                continue
            }
            guard let trigger = change.trigger else {
                if let state, change.kind == .changed, nodes[state].change == nil { nodes[state].change = .changed }
                continue
            }
            if change.kind == .removed {
                removedTransitions.append((state, "\(Self.describe(trigger)) \(change.detail ?? "")"))
                continue
            }
            let source: Endpoint = state.map { .state($0) } ?? .machineWide
            for index in edges.indices where edges[index].source == source && Self.matches(edges[index].label, trigger)
            {
                edges[index].change = change.kind == .added ? .added : .changed
            }
            if trigger == .timeout, let state, nodes[state].change == nil { nodes[state].change = .changed }
        }
    }

    private static func matches(_ label: TransitionLabel, _ trigger: SpecDiff.Change.Trigger) -> Bool {
        switch (label.trigger, trigger) {
        case (.event(let name), .event(let changed)): name == changed
        case (.always, .always), (.timeout, .timeout): true
        default: false
        }
    }

    private static func describe(_ trigger: SpecDiff.Change.Trigger) -> String {
        switch trigger {
        case .event(let name): "on '\(name)' ->"
        case .always: "always ->"
        case .timeout: "timeout ->"
        case .done: "done ->"
        }
    }

    /// Marks each state with what recorded runs did not exercise there. History states are
    /// left unmarked: the flow is never in one, so no run can exercise it.
    public mutating func mark(unexercised: [Int: [String]]) {
        for (state, what) in unexercised where nodes.indices.contains(state) && !nodes[state].isHistory {
            nodes[state].unexercised = what
        }
    }

    /// Whether any state is marked by a finding.
    public var hasFindings: Bool {
        nodes.contains { !$0.findings.isEmpty }
    }

    /// Builds the diagram of a machine. Pass the file's findings (after severity settings) to
    /// mark the states that ``highlightedRules`` findings of this machine name; pass none for a
    /// plain picture.
    public init(graph: MachineGraph, findings: [Diagnostic] = []) {
        let marks = FindingMarks(graph: graph, diagnostics: findings)
        machine = graph.machine.name.value
        nodes = graph.machine.states.enumerated().map { index, state in
            Node(name: graph.name(index), kind: state.kind, findings: marks.rules[index])
        }
        if graph.machine.nesting.isNested || !graph.machine.nesting.details.isEmpty {
            Self.addNesting(graph, to: &nodes)
        }
        initial = graph.initial
        var collector = EdgeCollector(graph: graph, loopGroup: marks.loopGroup)
        edges = collector.collect()
        for (source, label) in collector.internalTransitions {
            switch source {
            case .state(let index): nodes[index].internalTransitions.append(label)
            case .machineWide: machineWideInternalTransitions.append(label)
            }
        }
    }

    /// Each state's parent, entry and exit effects, whether a history state is deep, and for a
    /// compound state the state entered first (the target of the graph's `initial` edge).
    private static func addNesting(_ graph: MachineGraph, to nodes: inout [Node]) {
        let nesting = graph.machine.nesting
        for index in nodes.indices {
            nodes[index].parent = nesting.parent(of: index)
            nodes[index].entry = nesting.entry(of: index).map(\.value)
            nodes[index].exit = nesting.exit(of: index).map(\.value)
            nodes[index].activities = nesting.details[index]?.activities.map(\.value) ?? []
            nodes[index].isDeep = nesting.details[index]?.deep?.value == true
            guard nesting.isCompound(index) else { continue }
            nodes[index].isCompound = true
            nodes[index].isParallel = graph.machine.isParallel(index)
            guard !nodes[index].isParallel else { continue }
            nodes[index].initialChild = graph.edges(from: index).first { graph.trigger(of: $0) == .initial }?.target
            nodes[index].initialEffects = nesting.details[index]?.initialEffects.map(\.value) ?? []
        }
    }
}

/// Which states the highlighted findings of one machine name, and which loop group each state
/// belongs to.
struct FindingMarks {
    /// Per state, the rules that name it, in rule order.
    var rules: [[Rule]]
    /// Per state, the index of the `infinite-loop` finding whose group holds it.
    var loopGroup: [Int?]

    init(graph: MachineGraph, diagnostics: [Diagnostic]) {
        rules = Array(repeating: [], count: graph.stateCount)
        loopGroup = Array(repeating: nil, count: graph.stateCount)
        let machine = graph.machine.name.value
        let relevant = diagnostics.filter { $0.machine == machine && FlowDiagram.highlightedRules.contains($0.rule) }
        for (number, diagnostic) in relevant.enumerated() {
            for subject in diagnostic.subjects {
                guard let state = graph.stateIndex[subject] else { continue }
                mark(state, diagnostic.rule, loop: number)
            }
        }
    }

    private mutating func mark(_ state: Int, _ rule: Rule, loop: Int) {
        if !rules[state].contains(rule) {
            rules[state].append(rule)
            rules[state].sort()
        }
        if rule == .infiniteLoop { loopGroup[state] = loop }
    }
}

/// Walks a machine's transitions in source order and turns each into the edges it draws.
struct EdgeCollector {
    let graph: MachineGraph
    let loopGroup: [Int?]
    private var edges: [FlowDiagram.Edge] = []
    /// The transitions without a target, by the state (or machine) that writes them.
    private(set) var internalTransitions: [(FlowDiagram.Endpoint, TransitionLabel)] = []
    /// Per compound state, the loop groups of the states inside it (found when first needed).
    private var groupsInside: [Int: Set<Int>] = [:]

    init(graph: MachineGraph, loopGroup: [Int?]) {
        self.graph = graph
        self.loopGroup = loopGroup
    }

    mutating func collect() -> [FlowDiagram.Edge] {
        edges = []
        for index in graph.machine.states.indices {
            collectOwn(index)
        }
        collectMachineWide()
        return edges
    }

    private mutating func collectOwn(_ index: Int) {
        // Whatever else a history state writes is an error the graph ignores, as the picture does.
        if graph.machine.isHistory(index) && !graph.machine.isCompound(index) {
            collectHistoryDefault(index)
            return
        }
        let state = graph.machine.states[index]
        let source = FlowDiagram.Endpoint.state(index)
        for transition in graph.machine.transitions(of: index) {
            add(transition.candidates, from: source, trigger: .event(graph.machine.names[transition.event.value]))
        }
        if let always = state.always {
            add(always.value, from: source, trigger: .always)
        }
        if let timeout = state.timeout {
            let label = TransitionLabel(
                trigger: .timeout(timeout.after?.value),
                effects: timeout.effects.map(\.value))
            add(label, from: source, target: timeout.target.value, retry: timeout.retry)
        }
        if graph.machine.isCompound(index), let done = graph.machine.nesting.details[index]?.done {
            add(done.value, from: source, trigger: .done)
        }
    }

    /// A history state's `default` edge: the graph's default edge (candidate 0; the resume
    /// edges are left out, see ``FlowDiagram``).
    private mutating func collectHistoryDefault(_ index: Int) {
        guard let edge = graph.edges(from: index).first(where: { $0.triggerKind == .initial && !$0.isResume }) else {
            return
        }
        let effects = graph.machine.historyDefaultEffects(of: index).map(\.value)
        append(
            TransitionLabel(trigger: .historyDefault, effects: effects), from: .state(index), to: edge.target,
            fallback: false)
    }

    /// One grouped edge set per machine-wide event that at least one state inherits.
    private mutating func collectMachineWide() {
        let machine = graph.machine
        let waiting = machine.states.indices.filter {
            machine.states[$0].kind.inheritsMachineWideTransitions && machine.isLeaf($0)
        }
        for transition in machine.machineWide {
            let event = transition.event.value
            let handling = waiting.map { shadowing(event, at: $0) }
            guard handling.contains(nil) else { continue }
            let exceptions = Set(handling.compactMap { $0 }).sorted()
            add(
                transition.candidates, from: .machineWide, trigger: .event(machine.names[event]),
                exceptions: exceptions.map { machine.name(of: $0) })
        }
    }

    /// The state that keeps a waiting state from inheriting a machine-wide event: the outermost
    /// of the state and the compound states around it that handle the event (so that one
    /// compound state stands for all the states inside it); `nil` when it inherits the event.
    private func shadowing(_ event: Name, at state: Int) -> Int? {
        let machine = graph.machine
        let handles = { (state: Int) in machine.transitions(of: state).contains { $0.event.value == event } }
        var outermost = handles(state) ? state : nil
        for ancestor in machine.nesting.ancestors(of: state) where handles(ancestor) { outermost = ancestor }
        return outermost
    }

    private mutating func add(
        _ candidates: Candidates, from source: FlowDiagram.Endpoint,
        trigger: TransitionLabel.Trigger, exceptions: [String] = []
    ) {
        for (position, candidate) in candidates.enumerated() {
            let label = TransitionLabel(
                trigger: trigger, condition: candidate.condition?.value,
                unlessCondition: candidate.unlessCondition?.value,
                inState: candidate.inState.map { graph.machine.names[$0.value] },
                notInState: candidate.notInState.map { graph.machine.names[$0.value] }, isLaterCandidate: position > 0,
                effects: candidate.effects.map(\.value),
                exceptions: exceptions)
            guard let target = candidate.target else {
                internalTransitions.append((source, label))
                continue
            }
            add(label, from: source, target: target.value, retry: candidate.retry)
        }
    }

    /// The transition's edge and, with a retry, its `then` edge; targets that are not states
    /// draw nothing.
    private mutating func add(
        _ label: TransitionLabel, from source: FlowDiagram.Endpoint,
        target: Name, retry: Retry?
    ) {
        let max = retry.map { $0.max?.value }
        if let target = graph.stateIndex[target] {
            var bounded = label
            bounded.retry = max.map { .bounded(max: $0) }
            append(bounded, from: source, to: target, fallback: false)
        }
        if let retry, let fallback = graph.stateIndex[retry.then.value] {
            var exhausted = label
            exhausted.retry = .exhausted(max: retry.max?.value)
            exhausted.effects += retry.effects.map(\.value)
            append(exhausted, from: source, to: fallback, fallback: true)
        }
    }

    private mutating func append(
        _ label: TransitionLabel, from source: FlowDiagram.Endpoint, to target: Int,
        fallback: Bool
    ) {
        let isInLoop = inLoop(source, target, bounded: label.retry?.isBounded ?? false)
        edges.append(
            FlowDiagram.Edge(
                source: source, target: target, label: label, isRetryFallback: fallback, isInLoop: isInLoop))
    }

    /// Whether an edge joins two states of one loop group. A compound state stands for the
    /// states inside it as a source, and for the states its `initial` chain enters as a target.
    private mutating func inLoop(_ source: FlowDiagram.Endpoint, _ target: Int, bounded: Bool) -> Bool {
        guard !bounded, case .state(let from) = source else { return false }
        let entered = enteredGroups(target)
        guard !entered.isEmpty else { return false }
        if let group = loopGroup[from] { return entered.contains(group) }
        guard graph.machine.isCompound(from) else { return false }
        if groupsInside[from] == nil {
            groupsInside[from] = Set(graph.machine.nesting.descendants(of: from).compactMap { loopGroup[$0] })
        }
        return entered.contains { groupsInside[from]?.contains($0) ?? false }
    }

    /// The loop groups of a state and of the states its `initial` chain enters.
    private func enteredGroups(_ state: Int) -> [Int] {
        var groups: [Int] = []
        var current: Int? = state
        while let index = current {
            if let group = loopGroup[index] { groups.append(group) }
            guard graph.machine.isCompound(index) else { break }
            current = graph.edges(from: index).first { graph.trigger(of: $0) == .initial }?.target
        }
        return groups
    }
}

extension TransitionLabel.RetryRole {
    /// Whether this is the bounded transition (not its `then`).
    var isBounded: Bool {
        if case .bounded = self { return true }
        return false
    }
}
