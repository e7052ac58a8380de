/// The W3C SCXML algorithm (the recommendation's Appendix D, "Algorithm for SCXML
/// Interpretation"), written literally, procedure by procedure, on a small statechart model of
/// its own: the independent oracle the statecharts' kernel will be compared with. It knows
/// nothing of flowspec's model or runtime, on purpose.
///
/// Covered: compound, parallel, final and history (shallow, deep) states; `initial`; events,
/// eventless and `done.state.ID` transitions, guarded by boolean conditions and counters;
/// external and internal transitions; `onentry`, `onexit` and transition content that logs an
/// effect or sets a counter. Not covered (flowspec has no use for them): the rest of the
/// datamodel, `<raise>`, `<send>`, `<invoke>`, `donedata`.
struct StatechartOracle {
    /// A statechart: nodes in document order, node 0 the `<scxml>` element.
    struct Chart {
        /// Executable content.
        enum Action: Equatable {
            /// An effect, appended to the log.
            case log(String)
            /// Counter N plus one.
            case increment(Int)
            /// Counter N back to 0.
            case reset(Int)
        }

        /// A part of a transition's `cond`; a transition is enabled when all of its hold.
        enum Guard: Equatable {
            /// Condition N holds.
            case condition(Int)
            /// Condition N does not hold.
            case not(Int)
            /// Counter N is below the bound.
            case below(Int, Int)
            /// Counter N is at least the bound.
            case atLeast(Int, Int)
        }

        enum Kind: Equatable {
            case root, atomic, compound, parallel, final
            case history(deep: Bool)
        }

        struct Node {
            var id: String
            var kind: Kind
            var parent: Int?
            var children: [Int] = []
            /// The targets of the initial transition (compound states and the root); empty for
            /// the first child in document order.
            var initial: [Int] = []
            var onentry: [Action] = []
            var onexit: [Action] = []
            /// Its transitions, in document order (a history state's default transition first).
            var transitions: [Int] = []
        }

        struct Transition {
            var source: Int
            /// `nil`: eventless.
            var event: String?
            /// What must hold for it to be enabled.
            var guards: [Guard] = []
            /// Empty: targetless.
            var targets: [Int]
            var isInternal = false
            var content: [Action] = []
        }

        var nodes: [Node] = []
        var transitions: [Transition] = []
        /// Each compound state's and the root's initial transition, made by
        /// ``addInitialTransitions()``; not among any node's `transitions`.
        var initialTransitions: [Int: Int] = [:]

        /// Adds the initial transitions: to `initial`, or else to the first child state in
        /// document order.
        mutating func addInitialTransitions() {
            for index in nodes.indices where nodes[index].kind == .root || nodes[index].kind == .compound {
                let first = nodes[index].children.first {
                    if case .history = nodes[$0].kind { return false }
                    return true
                }
                let targets = nodes[index].initial.isEmpty ? (first.map { [$0] } ?? []) : nodes[index].initial
                transitions.append(Transition(source: index, event: nil, targets: targets))
                initialTransitions[index] = transitions.count - 1
            }
        }
    }

    let chart: Chart
    /// The configuration: every active state, as node indices.
    private(set) var configuration: Set<Int> = []
    private(set) var log: [String] = []
    private(set) var running = true
    var conditions: [Bool]
    /// The counters that guards read and content sets.
    private(set) var counters: [Int]
    private var historyValue: [Int: [Int]] = [:]
    private var internalQueue: [String] = []
    /// Microsteps of one macrostep before giving up: a chart whose eventless or done
    /// transitions loop would never settle.
    static let microstepLimit = 1_000

    struct NoEnd: Error {}

    /// `interpret(doc)`: enters the initial configuration and runs its first macrostep.
    init(_ chart: Chart, conditions: [Bool], counters: Int = 0) throws {
        self.chart = chart
        self.conditions = conditions
        self.counters = [Int](repeating: 0, count: counters)
        enterStates([initialTransition(of: 0)])
        try macrostep()
    }

    /// The ids of the active states, sorted.
    var activeIDs: [String] { configuration.map { chart.nodes[$0].id }.sorted() }

    /// The effects run since the last call, in order.
    mutating func takeLog() -> [String] {
        defer { log = [] }
        return log
    }

    /// One external event: its transitions, then the macrostep it starts.
    mutating func send(_ event: String) throws {
        guard running else { return }
        let enabled = selectTransitions(event: event)
        if !enabled.isEmpty { microstep(enabled) }
        try macrostep()
    }

    // MARK: The main loop

    /// The inner loop of `mainEventLoop`: eventless transitions, then internal events, until
    /// neither is left.
    private mutating func macrostep() throws {
        var steps = 0
        while running {
            var enabled = selectTransitions(event: nil)
            if enabled.isEmpty {
                guard !internalQueue.isEmpty else { return }
                enabled = selectTransitions(event: internalQueue.removeFirst())
            }
            if !enabled.isEmpty { microstep(enabled) }
            steps += 1
            if steps > Self.microstepLimit { throw NoEnd() }
        }
    }

    /// `selectTransitions` and `selectEventlessTransitions`: for each atomic state in document
    /// order, the first transition of it or its ancestors that matches and whose condition holds.
    private func selectTransitions(event: String?) -> [Int] {
        var enabled: [Int] = []
        for state in configuration.sorted() where isAtomic(state) {
            search: for node in [state] + properAncestors(state, upTo: nil) {
                for transition in chart.nodes[node].transitions {
                    let t = chart.transitions[transition]
                    guard matches(t.event, event), t.guards.allSatisfy(holds) else { continue }
                    if !enabled.contains(transition) { enabled.append(transition) }
                    break search
                }
            }
        }
        return removeConflictingTransitions(enabled)
    }

    /// An event descriptor matches an event of the same name or a descendant (`a` matches `a.b`).
    private func matches(_ descriptor: String?, _ event: String?) -> Bool {
        guard let descriptor, let event else { return descriptor == nil && event == nil }
        return event == descriptor || event.hasPrefix(descriptor + ".")
    }

    private func holds(_ guardTerm: Chart.Guard) -> Bool {
        switch guardTerm {
        case .condition(let index): conditions[index]
        case .not(let index): !conditions[index]
        case .below(let counter, let bound): counters[counter] < bound
        case .atLeast(let counter, let bound): counters[counter] >= bound
        }
    }

    /// `executeContent`.
    private mutating func execute(_ actions: [Chart.Action]) {
        for action in actions {
            switch action {
            case .log(let effect): log.append(effect)
            case .increment(let counter): counters[counter] += 1
            case .reset(let counter): counters[counter] = 0
            }
        }
    }

    private func removeConflictingTransitions(_ enabled: [Int]) -> [Int] {
        var filtered: [Int] = []
        for t1 in enabled {
            var preempted = false
            var toRemove: Set<Int> = []
            for t2 in filtered where !computeExitSet([t1]).isDisjoint(with: computeExitSet([t2])) {
                if isDescendant(chart.transitions[t1].source, of: chart.transitions[t2].source) {
                    toRemove.insert(t2)
                } else {
                    preempted = true
                    break
                }
            }
            if !preempted {
                filtered.removeAll { toRemove.contains($0) }
                filtered.append(t1)
            }
        }
        return filtered
    }

    private mutating func microstep(_ enabled: [Int]) {
        exitStates(enabled)
        for transition in enabled { execute(chart.transitions[transition].content) }
        enterStates(enabled)
    }

    // MARK: Exit

    private mutating func exitStates(_ enabled: [Int]) {
        let statesToExit = computeExitSet(enabled).sorted(by: >)
        for state in statesToExit {
            for history in chart.nodes[state].children {
                guard case .history(let deep) = chart.nodes[history].kind else { continue }
                historyValue[history] = configuration.sorted().filter { s in
                    deep ? isAtomic(s) && isDescendant(s, of: state) : chart.nodes[s].parent == state
                }
            }
        }
        for state in statesToExit {
            execute(chart.nodes[state].onexit)
            configuration.remove(state)
        }
    }

    private func computeExitSet(_ transitions: [Int]) -> Set<Int> {
        var statesToExit: Set<Int> = []
        for transition in transitions where !chart.transitions[transition].targets.isEmpty {
            guard let domain = transitionDomain(transition) else { continue }
            for state in configuration where isDescendant(state, of: domain) { statesToExit.insert(state) }
        }
        return statesToExit
    }

    // MARK: Entry

    private mutating func enterStates(_ enabled: [Int]) {
        var statesToEnter: Set<Int> = []
        var statesForDefaultEntry: Set<Int> = []
        var defaultHistoryContent: [Int: [Chart.Action]] = [:]
        computeEntrySet(enabled, &statesToEnter, &statesForDefaultEntry, &defaultHistoryContent)
        for state in statesToEnter.sorted() {
            configuration.insert(state)
            execute(chart.nodes[state].onentry)
            if statesForDefaultEntry.contains(state) {
                execute(chart.transitions[initialTransition(of: state)].content)
            }
            if let content = defaultHistoryContent[state] { execute(content) }
            guard chart.nodes[state].kind == .final, let parent = chart.nodes[state].parent else { continue }
            if chart.nodes[parent].kind == .root {
                running = false
            } else {
                internalQueue.append("done.state." + chart.nodes[parent].id)
                if let grandparent = chart.nodes[parent].parent, chart.nodes[grandparent].kind == .parallel,
                    childStates(grandparent).allSatisfy(isInFinalState)
                {
                    internalQueue.append("done.state." + chart.nodes[grandparent].id)
                }
            }
        }
    }

    private func computeEntrySet(
        _ transitions: [Int], _ statesToEnter: inout Set<Int>, _ statesForDefaultEntry: inout Set<Int>,
        _ defaultHistoryContent: inout [Int: [Chart.Action]]
    ) {
        for transition in transitions {
            for state in chart.transitions[transition].targets {
                addDescendantStatesToEnter(state, &statesToEnter, &statesForDefaultEntry, &defaultHistoryContent)
            }
            let ancestor = transitionDomain(transition)
            for state in effectiveTargetStates(transition) {
                addAncestorStatesToEnter(
                    state, ancestor, &statesToEnter, &statesForDefaultEntry, &defaultHistoryContent)
            }
        }
    }

    private func addDescendantStatesToEnter(
        _ state: Int, _ statesToEnter: inout Set<Int>, _ statesForDefaultEntry: inout Set<Int>,
        _ defaultHistoryContent: inout [Int: [Chart.Action]]
    ) {
        let node = chart.nodes[state]
        if case .history = node.kind {
            let parent = node.parent!
            let targets: [Int]
            if let remembered = historyValue[state] {
                targets = remembered
            } else {
                let transition = chart.transitions[node.transitions[0]]
                defaultHistoryContent[parent] = transition.content
                targets = transition.targets
            }
            for s in targets {
                addDescendantStatesToEnter(s, &statesToEnter, &statesForDefaultEntry, &defaultHistoryContent)
            }
            for s in targets {
                addAncestorStatesToEnter(s, parent, &statesToEnter, &statesForDefaultEntry, &defaultHistoryContent)
            }
            return
        }
        statesToEnter.insert(state)
        if node.kind == .compound {
            statesForDefaultEntry.insert(state)
            let targets = chart.transitions[initialTransition(of: state)].targets
            for s in targets {
                addDescendantStatesToEnter(s, &statesToEnter, &statesForDefaultEntry, &defaultHistoryContent)
            }
            for s in targets {
                addAncestorStatesToEnter(s, state, &statesToEnter, &statesForDefaultEntry, &defaultHistoryContent)
            }
        } else if node.kind == .parallel {
            for child in childStates(state) where !statesToEnter.contains(where: { isDescendant($0, of: child) }) {
                addDescendantStatesToEnter(child, &statesToEnter, &statesForDefaultEntry, &defaultHistoryContent)
            }
        }
    }

    private func addAncestorStatesToEnter(
        _ state: Int, _ ancestor: Int?, _ statesToEnter: inout Set<Int>, _ statesForDefaultEntry: inout Set<Int>,
        _ defaultHistoryContent: inout [Int: [Chart.Action]]
    ) {
        for anc in properAncestors(state, upTo: ancestor) {
            statesToEnter.insert(anc)
            guard chart.nodes[anc].kind == .parallel else { continue }
            for child in childStates(anc) where !statesToEnter.contains(where: { isDescendant($0, of: child) }) {
                addDescendantStatesToEnter(child, &statesToEnter, &statesForDefaultEntry, &defaultHistoryContent)
            }
        }
    }

    private func isInFinalState(_ state: Int) -> Bool {
        switch chart.nodes[state].kind {
        case .compound: childStates(state).contains { chart.nodes[$0].kind == .final && configuration.contains($0) }
        case .parallel: childStates(state).allSatisfy(isInFinalState)
        default: false
        }
    }

    // MARK: Domains and ancestry

    private func transitionDomain(_ transition: Int) -> Int? {
        let t = chart.transitions[transition]
        let targets = effectiveTargetStates(transition)
        if targets.isEmpty { return nil }
        if t.isInternal, chart.nodes[t.source].kind == .compound,
            targets.allSatisfy({ isDescendant($0, of: t.source) })
        {
            return t.source
        }
        return findLCCA([t.source] + targets)
    }

    private func effectiveTargetStates(_ transition: Int) -> [Int] {
        var targets: [Int] = []
        for state in chart.transitions[transition].targets {
            if case .history = chart.nodes[state].kind {
                let more = historyValue[state] ?? effectiveTargetStates(chart.nodes[state].transitions[0])
                for s in more where !targets.contains(s) { targets.append(s) }
            } else if !targets.contains(state) {
                targets.append(state)
            }
        }
        return targets
    }

    /// The least common ancestor that is compound (or the root) of every state of the list.
    private func findLCCA(_ states: [Int]) -> Int {
        for anc in properAncestors(states[0], upTo: nil)
        where chart.nodes[anc].kind == .compound || chart.nodes[anc].kind == .root {
            if states.dropFirst().allSatisfy({ isDescendant($0, of: anc) }) { return anc }
        }
        return 0
    }

    /// The ancestors of `state`, nearest first, up to but not including `limit` (`nil`: up to
    /// and including the root).
    private func properAncestors(_ state: Int, upTo limit: Int?) -> [Int] {
        var result: [Int] = []
        var current = chart.nodes[state].parent
        while let node = current, node != limit {
            result.append(node)
            current = chart.nodes[node].parent
        }
        return result
    }

    private func isDescendant(_ state: Int, of ancestor: Int) -> Bool {
        var current = chart.nodes[state].parent
        while let node = current {
            if node == ancestor { return true }
            current = chart.nodes[node].parent
        }
        return false
    }

    private func isAtomic(_ state: Int) -> Bool {
        chart.nodes[state].kind == .atomic || chart.nodes[state].kind == .final
    }

    /// The child states: every child but history states.
    private func childStates(_ state: Int) -> [Int] {
        chart.nodes[state].children.filter {
            if case .history = chart.nodes[$0].kind { return false }
            return true
        }
    }

    /// The initial transition of a compound state or the root, as a transition of the chart:
    /// its `initial` targets, or its first child state.
    private func initialTransition(of state: Int) -> Int {
        chart.initialTransitions[state]!
    }
}
