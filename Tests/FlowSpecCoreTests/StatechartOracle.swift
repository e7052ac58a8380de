/// The W3C SCXML algorithm (the recommendation's Appendix D, "Algorithm for SCXML
/// Interpretation"), written literally, procedure by procedure, on a small statechart model of
/// its own: the independent oracle the statecharts' kernel will be compared with. It knows
/// nothing of flowspec's model or runtime, on purpose.
///
/// Covered: compound, parallel, final and history (shallow, deep) states; `initial`; events,
/// eventless and `done.state.ID` transitions, guarded by boolean conditions, counters and
/// `In()`;
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
            /// `In('ID')` of node N: "true if and only if that state is in the current state
            /// configuration" (the recommendation's 5.9.1, Conditional Expressions).
            case inState(Int)
            /// `!In('ID')` of node N.
            case notInState(Int)
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
            /// Whether it stands for flowspec's decision that a state ignores the event (a
            /// targetless transition that ends the search), not for a transition of the spec:
            /// the algorithm takes it like any other; the verdicts count it as no step.
            var ignores = false
        }

        var nodes: [Node] = []
        var transitions: [Transition] = []
        /// Where a chart of a spec stands for each candidate's guard by one free condition
        /// (``Guard/condition(_:)``), the guard as the spec writes it: conditions by name and
        /// the value each must have. Read by verdicts that hold conditions to one value.
        var writtenGuards: [Int: [(name: String, holds: Bool)]] = [:]
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

    /// `interpret(doc)`: enters the initial configuration and runs its first macrostep
    /// (with `settle` false, stops before it, for an explorer that looks at each microstep).
    init(_ chart: Chart, conditions: [Bool], counters: Int = 0, settle: Bool = true) throws {
        self.chart = chart
        self.conditions = conditions
        self.counters = [Int](repeating: 0, count: counters)
        tables = Tables(chart)
        enterStates([initialTransition(of: 0)])
        if settle { try macrostep() }
    }

    /// What one microstep did, for an explorer: none of it steers the algorithm.
    struct Microstep {
        /// Each transition taken, the atomic states whose search selected it, the states its
        /// own entry set holds (computed as if it were taken alone) and the compound states
        /// among them entered by their initial transition (`statesForDefaultEntry`).
        var taken: [(transition: Int, selectors: Set<Int>, entered: Set<Int>, defaulted: Set<Int>)] = []
        var exited: Set<Int> = []
        var entered: Set<Int> = []
        /// What it logged, in order.
        var effects: [String] = []
    }

    /// Everything that decides what the chart does next: two oracles with the same snapshot
    /// behave alike for ever.
    struct Snapshot: Hashable {
        var configuration: Set<Int>
        var historyValue: [Int: [Int]]
        var counters: [Int]
        var conditions: [Bool]
        var internalQueue: [String]
        var running: Bool
    }

    /// The snapshot; without `conditions`, the conditions are left out (an explorer that
    /// chooses them afresh at every microstep).
    func snapshot(conditions keep: Bool) -> Snapshot {
        Snapshot(
            configuration: configuration, historyValue: recordsHistory ? historyValue : [:], counters: counters,
            conditions: keep ? conditions : [], internalQueue: internalQueue, running: running)
    }

    /// Whether exiting a compound state records what its history states resume (the
    /// algorithm). An explorer that chooses what they resume, as an input, turns it off and sets
    /// ``resumes(_:to:)`` before each microstep.
    var recordsHistory = true

    /// Sets what a history state resumes (`nil`: its default).
    mutating func resumes(_ history: Int, to states: [Int]?) { historyValue[history] = states }

    /// History states that lead to their default in the next microstep, whatever they recorded
    /// (an explorer's choice, as an input: what a run may do when it cannot tell whether the
    /// compound state was left before).
    private var defaulting: Set<Int> = []

    /// Makes a history state lead to its default in the next microstep.
    mutating func takesDefault(_ history: Int) { defaulting.insert(history) }

    /// The history states that the transitions the active states have on the event (`nil`:
    /// the eventless ones and the next internal event's) lead to.
    func historiesTargeted(event: String?) -> Set<Int> {
        let wanted = eventsSelectedOn(event)
        var targeted: Set<Int> = []
        for state in configuration {
            for transition in transitions(of: state, on: wanted) {
                for target in targets[transition] {
                    if case .history = kinds[target] { targeted.insert(target) }
                }
            }
        }
        return targeted
    }

    /// The events a selection on `event` looks for: it, or (`nil`) the eventless transitions
    /// and the next internal event's.
    private func eventsSelectedOn(_ event: String?) -> [String?] {
        event.map { [$0] } ?? [nil] + internalQueue.prefix(1).map { $0 }
    }

    /// The transitions of a node on any of `wanted`, in document order.
    private func transitions(of node: Int, on wanted: [String?]) -> [Int] {
        nodeTransitions[node].filter { transition in wanted.contains { matches(events[transition], $0) } }
    }

    /// Whether the macrostep is over: no eventless transition is enabled and no internal event
    /// is queued, so the chart waits for an external event.
    var isStable: Bool { !running || (internalQueue.isEmpty && selectTransitions(event: nil).isEmpty) }

    /// With conditions chosen afresh at every microstep: whether the macrostep may be over
    /// (no internal event waits, and some choice of the conditions enables no eventless
    /// transition), and whether it may go on (an internal event waits, or some choice enables
    /// one). A state that waits with guarded eventless transitions may do both.
    var mayRestAndMove: (rest: Bool, move: Bool) {
        guard running else { return (true, false) }
        guard internalQueue.isEmpty else { return (false, true) }
        var (rest, move) = (false, false)
        for choice in conditionChoices(event: nil) {
            var chosen = self
            for (condition, value) in choice { chosen.conditions[condition] = value }
            if chosen.selectTransitions(event: nil).isEmpty { rest = true } else { move = true }
        }
        return (rest, move)
    }

    /// The conditions an explorer must try to see every choice `selectTransitions` can make on
    /// the event (`nil`: the eventless ones and the next internal event's), when each guard
    /// reads a condition of its own: for each atomic state, its search meets guarded
    /// transitions in order, and the first whose condition holds is taken, so setting the
    /// earlier ones false and one true (or all false) gives every outcome. Assignments that
    /// atomic states sharing a transition disagree on are left out.
    func conditionChoices(event: String?) -> [[Int: Bool]] {
        let wanted = eventsSelectedOn(event)
        var choices: [[Int: Bool]] = [[:]]
        for state in configuration.sorted() where isAtomic(state) {
            var read: [Int] = []
            for node in [state] + properAncestors(state, upTo: nil) {
                for transition in transitions(of: node, on: wanted) {
                    for case .condition(let index) in guards[transition] where !read.contains(index) {
                        read.append(index)
                    }
                }
            }
            guard !read.isEmpty else { continue }
            let options: [[Int: Bool]] = (0...read.count).map { first in
                var option: [Int: Bool] = [:]
                for (position, index) in read.enumerated() where position <= first { option[index] = position == first }
                return option
            }
            choices = choices.flatMap { chosen in
                options.compactMap { option in
                    var merged = chosen
                    for (index, value) in option {
                        if let earlier = merged[index], earlier != value { return nil }
                        merged[index] = value
                    }
                    return merged
                }
            }
        }
        return choices
    }

    /// The events the active states have transitions on.
    func eventsHandled() -> Set<String> {
        var events: Set<String> = []
        for state in configuration {
            for transition in nodeTransitions[state] {
                if let event = self.events[transition] { events.insert(event) }
            }
        }
        return events
    }

    /// An external event's microstep alone, without the macrostep it starts.
    mutating func takeExternal(_ event: String) -> Microstep {
        guard running else { return Microstep() }
        let enabled = selectTransitions(event: event)
        return enabled.isEmpty ? Microstep() : recordedMicrostep(enabled, event: event)
    }

    /// One round of the macrostep's loop: the eventless transitions, or else the first internal
    /// event's.
    mutating func takeInternal() -> Microstep {
        guard running else { return Microstep() }
        var enabled = selectTransitions(event: nil)
        var event: String?
        if enabled.isEmpty {
            guard !internalQueue.isEmpty else { return Microstep() }
            event = internalQueue.removeFirst()
            enabled = selectTransitions(event: event)
        }
        return enabled.isEmpty ? Microstep() : recordedMicrostep(enabled, event: event)
    }

    /// `microstep`, recording what it did.
    private mutating func recordedMicrostep(_ enabled: [Int], event: String?) -> Microstep {
        var record = Microstep()
        let before = configuration
        let found = selectors(event: event)
        for transition in enabled { record.taken.append((transition, found[transition] ?? [], [], [])) }
        exitStates(enabled)
        record.exited = before.subtracting(configuration)
        for index in record.taken.indices {
            var statesToEnter: Set<Int> = []
            var defaultEntry: Set<Int> = []
            var content: [Int: [Chart.Action]] = [:]
            computeEntrySet([record.taken[index].transition], &statesToEnter, &defaultEntry, &content)
            record.taken[index].entered = statesToEnter
            record.taken[index].defaulted = defaultEntry
        }
        for transition in enabled { execute(chart.transitions[transition].content) }
        let exited = configuration
        enterStates(enabled)
        defaulting = []
        record.entered = configuration.subtracting(exited)
        record.effects = takeLog()
        return record
    }

    /// For each transition `selectTransitions` finds, the atomic states whose search found it.
    private func selectors(event: String?) -> [Int: Set<Int>] {
        var found: [Int: Set<Int>] = [:]
        for state in configuration where isAtomic(state) {
            search: for node in [state] + properAncestors(state, upTo: nil) {
                for candidate in nodeTransitions[node] {
                    guard matches(events[candidate], event), guards[candidate].allSatisfy(holds) else { continue }
                    found[candidate, default: []].insert(state)
                    break search
                }
            }
        }
        return found
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
                for transition in nodeTransitions[node] {
                    guard matches(events[transition], event), guards[transition].allSatisfy(holds) else { continue }
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
        case .inState(let node): configuration.contains(node)
        case .notInState(let node): !configuration.contains(node)
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
                if isDescendant(sources[t1], of: sources[t2]) {
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
        defaulting = []
    }

    // MARK: Exit

    private mutating func exitStates(_ enabled: [Int]) {
        let statesToExit = computeExitSet(enabled).sorted(by: >)
        for state in statesToExit where recordsHistory {
            for history in chart.nodes[state].children {
                guard case .history(let deep) = kinds[history] else { continue }
                historyValue[history] = configuration.sorted().filter { s in
                    deep ? isAtomic(s) && isDescendant(s, of: state) : parents[s] == state
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
        for transition in transitions where !targets[transition].isEmpty {
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
            guard kinds[state] == .final, let parent = parents[state] else { continue }
            if kinds[parent] == .root {
                running = false
            } else {
                internalQueue.append("done.state." + chart.nodes[parent].id)
                if let grandparent = parents[parent], kinds[grandparent] == .parallel,
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
            for state in targets[transition] {
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
            if !defaulting.contains(state), let remembered = historyValue[state] {
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
            let targets = targets[initialTransition(of: state)]
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
            guard kinds[anc] == .parallel else { continue }
            for child in childStates(anc) where !statesToEnter.contains(where: { isDescendant($0, of: child) }) {
                addDescendantStatesToEnter(child, &statesToEnter, &statesForDefaultEntry, &defaultHistoryContent)
            }
        }
    }

    private func isInFinalState(_ state: Int) -> Bool {
        switch kinds[state] {
        case .compound: childStates(state).contains { kinds[$0] == .final && configuration.contains($0) }
        case .parallel: childStates(state).allSatisfy(isInFinalState)
        default: false
        }
    }

    // MARK: Domains and ancestry

    private func transitionDomain(_ transition: Int) -> Int? {
        let t = chart.transitions[transition]
        let targets = effectiveTargetStates(transition)
        if targets.isEmpty { return nil }
        if t.isInternal, kinds[t.source] == .compound,
            targets.allSatisfy({ isDescendant($0, of: t.source) })
        {
            return t.source
        }
        return findLCCA([t.source] + targets)
    }

    private func effectiveTargetStates(_ transition: Int) -> [Int] {
        var targets: [Int] = []
        for state in self.targets[transition] {
            if case .history = kinds[state] {
                let remembered = defaulting.contains(state) ? nil : historyValue[state]
                let more = remembered ?? effectiveTargetStates(nodeTransitions[state][0])
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
        where kinds[anc] == .compound || kinds[anc] == .root {
            if states.dropFirst().allSatisfy({ isDescendant($0, of: anc) }) { return anc }
        }
        return 0
    }

    /// The ancestors of `state`, nearest first, up to but not including `limit` (`nil`: up to
    /// and including the root).
    private func properAncestors(_ state: Int, upTo limit: Int?) -> [Int] {
        let all = ancestry[state]
        guard let limit, let end = all.firstIndex(of: limit) else { return all }
        return Array(all[..<end])
    }

    private func isDescendant(_ state: Int, of ancestor: Int) -> Bool { ancestry[state].contains(ancestor) }

    /// Each node's proper ancestors, nearest first, and what the algorithm reads of its nodes
    /// and transitions most: the chart's, read once (a `Node` or `Transition` read whole from
    /// the chart is copied, arrays and all).
    private let tables: Tables
    private var ancestry: [[Int]] { tables.ancestry }
    private var kinds: [Chart.Kind] { tables.kinds }
    private var parents: [Int?] { tables.parents }
    private var nodeTransitions: [[Int]] { tables.nodeTransitions }
    private var events: [String?] { tables.events }
    private var targets: [[Int]] { tables.targets }
    private var guards: [[Chart.Guard]] { tables.guards }
    private var sources: [Int] { tables.sources }

    /// One reference, so that copying an oracle (an explorer does for every input) copies it once.
    private final class Tables: Sendable {
        let ancestry: [[Int]]
        let kinds: [Chart.Kind]
        let parents: [Int?]
        let nodeTransitions: [[Int]]
        let events: [String?]
        let targets: [[Int]]
        let guards: [[Chart.Guard]]
        let sources: [Int]

        init(_ chart: Chart) {
            kinds = chart.nodes.map(\.kind)
            let parents = chart.nodes.map(\.parent)
            self.parents = parents
            nodeTransitions = chart.nodes.map(\.transitions)
            events = chart.transitions.map(\.event)
            targets = chart.transitions.map(\.targets)
            guards = chart.transitions.map(\.guards)
            sources = chart.transitions.map(\.source)
            ancestry = chart.nodes.indices.map { node in
                var result: [Int] = []
                var current = parents[node]
                while let parent = current {
                    result.append(parent)
                    current = parents[parent]
                }
                return result
            }
        }
    }

    private func isAtomic(_ state: Int) -> Bool {
        kinds[state] == .atomic || kinds[state] == .final
    }

    /// The child states: every child but history states.
    private func childStates(_ state: Int) -> [Int] {
        chart.nodes[state].children.filter {
            if case .history = kinds[$0] { return false }
            return true
        }
    }

    /// The initial transition of a compound state or the root, as a transition of the chart:
    /// its `initial` targets, or its first child state.
    private func initialTransition(of state: Int) -> Int {
        chart.initialTransitions[state]!
    }
}
