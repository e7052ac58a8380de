@testable import FlowSpecCore

/// Every configuration the W3C algorithm (``StatechartOracle``) can reach on a chart, microstep
/// by microstep, with events, timeouts and condition values as inputs: what the verdict oracle
/// derives `check`'s verdicts from, knowing nothing of flowspec's graph.
///
/// A node is a snapshot of the oracle between two microsteps. From a node where the macrostep
/// is over (stable), every input is tried; from one where it is not, the next round of the
/// macrostep. Conditions are either chosen afresh at every microstep (`freeConditions`: what
/// `check`'s graph rules assume, "whatever its condition") or held through a macrostep and
/// changed only between inputs (what the runtime does, and what requirements are proved on).
struct ChartExploration {
    typealias Oracle = StatechartOracle

    enum Input: Hashable {
        case event(String)
        case automatic
        case conditions
    }

    struct Edge {
        var from: Int
        var to: Int
        var input: Input
        var step: Oracle.Microstep
    }

    struct TooLarge: Error {}

    private(set) var nodes: [Oracle] = []
    private(set) var stable: [Bool] = []
    /// Whether the macrostep may go on from a node: not stable, or (with free conditions) a
    /// state that waits whose guarded eventless transitions some choice of conditions enables.
    private(set) var moving: [Bool] = []
    private(set) var edges: [Edge] = []
    private(set) var outgoing: [[Int]] = []
    /// The nodes the chart starts in (one per valuation of the conditions, some alike), and
    /// what entering each logged.
    private(set) var starts: Set<Int> = []
    private(set) var startEffects: [Int: [String]] = [:]
    private var index: [Oracle.Snapshot: Int] = [:]
    let freeConditions: Bool

    /// What each history state may resume, when that is an input too: per history node, its
    /// choices (`nil` its default). `nil`: what the algorithm records.
    let resumable: [Int: [[Int]?]]?
    /// With ``resumable`` `nil`: whether a history state may also lead to its default, whatever
    /// it recorded, as an input chooses.
    let historyMayDefault: Bool

    /// Explores from the start, refusing charts with more than `limit` nodes.
    init(
        _ chart: Oracle.Chart, conditionCount: Int, counters: Int, inputs: [String], freeConditions: Bool,
        resumable: [Int: [[Int]?]]? = nil, historyMayDefault: Bool = false, limit: Int
    ) throws {
        self.freeConditions = freeConditions
        self.resumable = resumable
        self.historyMayDefault = historyMayDefault
        // Free conditions are chosen at each microstep; the start's entry reads none.
        let valuations = Self.valuations(freeConditions ? 0 : conditionCount)
        var queue: [Int] = []
        for valuation in valuations.map({ $0.isEmpty ? [Bool](repeating: false, count: conditionCount) : $0 }) {
            var oracle = try Oracle(chart, conditions: valuation, counters: counters, settle: false)
            oracle.recordsHistory = resumable == nil
            let (node, isNew) = add(oracle)
            starts.insert(node)
            startEffects[node] = oracle.log
            if isNew { queue.append(node) }
        }
        var head = 0
        while head < queue.count {
            let from = queue[head]
            head += 1
            // One edge per input, node reached and transitions taken.
            var seen: Set<[Int]> = []
            func follow(_ next: Oracle, _ input: Input, _ position: Int, _ step: Oracle.Microstep) throws {
                let (to, isNew) = add(next)
                if isNew {
                    guard nodes.count <= limit else { throw TooLarge() }
                    queue.append(to)
                }
                guard seen.insert([position, to] + step.taken.map(\.transition)).inserted else { return }
                edges.append(Edge(from: from, to: to, input: input, step: step))
                outgoing[from].append(edges.count - 1)
            }
            let here = nodes[from]
            if stable[from] {
                let handled = here.eventsHandled()
                for (position, input) in inputs.enumerated() where handled.contains(input) {
                    for choice in try choices(here, reading: input) {
                        var oracle = here
                        choice(&oracle)
                        let step = oracle.takeExternal(input)
                        guard !step.taken.isEmpty else { continue }
                        try follow(oracle, .event(input), position, step)
                    }
                }
            }
            if moving[from] {
                for choice in try choices(here, reading: nil) {
                    var oracle = here
                    choice(&oracle)
                    let step = oracle.takeInternal()
                    // A choice under which nothing is enabled leaves the node as it rests.
                    if stable[from] && step.taken.isEmpty { continue }
                    try follow(oracle, .automatic, -1, step)
                }
            }
            // Between inputs the conditions may change.
            if !freeConditions && stable[from] {
                for valuation in valuations where valuation != here.conditions {
                    var next = here
                    next.conditions = valuation
                    try follow(next, .conditions, -2, Oracle.Microstep())
                }
            }
        }
    }

    /// The inputs to try before a microstep, as changes to the oracle: the conditions the
    /// node holds; with free conditions, a valuation for each choice the selection can make
    /// (``StatechartOracle/conditionChoices(event:)``); with free history, every choice of what the history states the
    /// transitions lead to resume.
    private func choices(_ oracle: Oracle, reading input: String?) throws -> [(inout Oracle) -> Void] {
        var valuations = [oracle.conditions]
        if freeConditions {
            valuations = oracle.conditionChoices(event: input).map { choice in
                var valuation = [Bool](repeating: false, count: oracle.conditions.count)
                for (condition, value) in choice { valuation[condition] = value }
                return valuation
            }
        }
        var resumptions: [[(Int, [Int]?)]] = [[]]
        var defaultings: [[Int]] = [[]]
        if let resumable {
            for history in oracle.historiesTargeted(event: input).sorted() {
                resumptions = resumptions.flatMap { chosen in
                    (resumable[history] ?? [nil]).map { chosen + [(history, $0)] }
                }
            }
        } else if historyMayDefault {
            // What it recorded (nothing chosen), or its default.
            for history in oracle.historiesTargeted(event: input).sorted() {
                defaultings = defaultings.flatMap { chosen in [chosen, chosen + [history]] }
            }
        }
        guard valuations.count * resumptions.count * defaultings.count <= 4_096 else { throw TooLarge() }
        return valuations.flatMap { valuation in
            resumptions.flatMap { resumption in
                defaultings.map { defaulting in
                    { (oracle: inout Oracle) in
                        oracle.conditions = valuation
                        for (history, states) in resumption { oracle.resumes(history, to: states) }
                        for history in defaulting { oracle.takesDefault(history) }
                    }
                }
            }
        }
    }

    private mutating func add(_ oracle: Oracle) -> (Int, Bool) {
        let key = oracle.snapshot(conditions: !freeConditions)
        if let known = index[key] { return (known, false) }
        index[key] = nodes.count
        var kept = oracle
        _ = kept.takeLog()  // each microstep's are on its edge
        nodes.append(kept)
        let (rest, move) = freeConditions ? oracle.mayRestAndMove : (oracle.isStable, !oracle.isStable)
        stable.append(rest)
        moving.append(move)
        outgoing.append([])
        return (nodes.count - 1, true)
    }

    /// Every valuation of `count` conditions, all false first.
    static func valuations(_ count: Int) -> [[Bool]] {
        (0..<(1 << count)).map { bits in (0..<count).map { bits & (1 << $0) != 0 } }
    }

    /// The nodes from which some node of `goal` can be reached.
    func canReach(_ goal: (Int) -> Bool) -> [Bool] {
        var incoming = [[Int]](repeating: [], count: nodes.count)
        for edge in edges { incoming[edge.to].append(edge.from) }
        var reached = nodes.indices.map(goal)
        var queue = nodes.indices.filter { reached[$0] }
        while let node = queue.popLast() {
            for previous in incoming[node] where !reached[previous] {
                reached[previous] = true
                queue.append(previous)
            }
        }
        return reached
    }
}

/// What `check` says of a machine, derived from an exploration of its chart alone: the verdicts
/// of `unreachable-state`, `missing-timeout`, `infinite-loop`, `no-way-out` (of a state and at a
/// `run:`) and `done-never-fires`, each as the set of state names it is about.
///
/// The state-level rules (`infinite-loop`, `no-way-out`) are about steps from one state to
/// another; the exploration gives them as the steps it saw: a transition selected on behalf of
/// atomic state X that entered atomic state Y, in some reachable configuration, is a step X → Y.
struct OracleVerdicts: Equatable, CustomStringConvertible {
    var unreachable: Set<String> = []
    var unboundedTasks: Set<String> = []
    var loops: Set<String> = []
    var noWayOut: Set<String> = []
    var stuckRuns: Set<String> = []
    var doneNeverFires: Set<String> = []
    /// Running states whose machine runs only as a sub-flow (`standalone: false`) and has a task
    /// that nothing bounds there.
    var unboundedRuns: Set<String> = []
    /// The states the flow reaches (not a verdict: what the others are compared on).
    var reached: Set<String> = []

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.unreachable == rhs.unreachable && lhs.unboundedTasks == rhs.unboundedTasks && lhs.loops == rhs.loops
            && lhs.noWayOut == rhs.noWayOut && lhs.stuckRuns == rhs.stuckRuns
            && lhs.doneNeverFires == rhs.doneNeverFires
    }

    var description: String {
        func list(_ set: Set<String>) -> String { "[" + set.sorted().joined(separator: ", ") + "]" }
        return
            "unreachable \(list(unreachable)), unbounded tasks \(list(unboundedTasks)), loops \(list(loops)), no way out \(list(noWayOut)), stuck runs \(list(stuckRuns)), done never fires \(list(doneNeverFires)), unbounded runs \(list(unboundedRuns))"
    }
}

extension OracleVerdicts {
    /// The verdicts on `machine` (as checked: composed), from its chart's exploration with
    /// conditions free at every microstep. `nil` when the exploration is over `limit` nodes.
    /// `subFlowsOnly`: the machines of the spec that run only as sub-flows.
    static func derive(_ machine: MachineSpec, subFlowsOnly: Set<String> = [], limit: Int) throws -> OracleVerdicts? {
        guard let (chart, reaching, exploration) = try explorations(machine, limit: limit) else { return nil }
        return VerdictDerivation(
            machine: machine, chart: chart, reaching: reaching, exploration: exploration, subFlowsOnly: subFlowsOnly
        ).verdicts()
    }

    /// The machine's chart, with conditions unknown, and its two explorations (see
    /// ``derive(_:limit:)``); `nil` when one is over `limit` nodes.
    static func explorations(_ machine: MachineSpec, limit: Int) throws -> (
        chart: StatechartOracle.Chart, reaching: ChartExploration, exploration: ChartExploration
    )? {
        let conditions = (machine.conditions ?? []).map(\.value)
        let (chart, slots, conditionCount) = try NestedChart.chart(
            machine, conditions: conditions, unknownConditions: true)
        // First with every history state resuming what the algorithm recorded, or its default,
        // as an input chooses: what the flow reaches, as `check` judges it, not knowing whether
        // a run left the compound state before (a shallow history may resume a compound state
        // the flow only passed through, and enter states inside it it never was in). Then with
        // each resuming any state it could hold that the flow reaches, or its default, as an
        // input chooses: what the state-level rules follow, which do not track what a history
        // state holds.
        let reaching: ChartExploration
        let exploration: ChartExploration
        do {
            let histories = chart.nodes.indices.filter {
                if case .history = chart.nodes[$0].kind { true } else { false }
            }
            reaching = try ChartExploration(
                chart, conditionCount: conditionCount, counters: slots, inputs: inputs(of: chart),
                freeConditions: true, historyMayDefault: true, limit: limit)
            // Without history states the two are one.
            guard !histories.isEmpty else { return (chart, reaching, reaching) }
            var reached: Set<Int> = []
            for node in reaching.nodes { reached.formUnion(node.configuration) }
            var resumable: [Int: [[Int]?]] = [:]
            for history in histories {
                resumable[history] = [nil] + resumed(by: history, chart).filter(reached.contains).map { [$0] }
            }
            exploration = try ChartExploration(
                chart, conditionCount: conditionCount, counters: slots, inputs: inputs(of: chart),
                freeConditions: true, resumable: resumable, limit: limit)
        } catch is ChartExploration.TooLarge {
            return nil
        }
        return (chart, reaching, exploration)
    }

    /// The states a history state can hold: a deep one, the atomic states inside its compound
    /// state; a shallow one, the states directly inside it.
    static func resumed(by history: Int, _ chart: StatechartOracle.Chart) -> [Int] {
        guard let parent = chart.nodes[history].parent, case .history(let deep) = chart.nodes[history].kind else {
            return []
        }
        func isState(_ node: Int) -> Bool {
            if case .history = chart.nodes[node].kind { false } else { true }
        }
        guard deep else { return chart.nodes[parent].children.filter(isState) }
        var atomic: [Int] = []
        var stack = chart.nodes[parent].children
        while let node = stack.popLast() {
            guard isState(node) else { continue }
            if chart.nodes[node].children.isEmpty { atomic.append(node) } else { stack += chart.nodes[node].children }
        }
        return atomic.sorted()
    }

    /// Every event a transition of the chart waits for (timeouts included), but `done.state`
    /// events, which only the chart raises.
    static func inputs(of chart: StatechartOracle.Chart) -> [String] {
        var events: Set<String> = []
        for transition in chart.transitions {
            guard let event = transition.event, !event.hasPrefix("done.state.") else { continue }
            events.insert(event)
        }
        return events.sorted()
    }
}

/// The derivation of ``OracleVerdicts`` from one exploration.
private struct VerdictDerivation {
    let machine: MachineSpec
    let chart: StatechartOracle.Chart
    /// Every history state leading to its default: what the flow reaches.
    let reaching: ChartExploration
    /// Every history state resuming what it could hold: what the state-level rules follow.
    let exploration: ChartExploration
    /// Chart node → spec state (nodes 0 and 1 are the root and the machine; routers have none).
    let specState: [Int?]

    /// The machines of the spec that run only as sub-flows.
    let subFlowsOnly: Set<String>

    init(
        machine: MachineSpec, chart: StatechartOracle.Chart, reaching: ChartExploration, exploration: ChartExploration,
        subFlowsOnly: Set<String>
    ) {
        self.machine = machine
        self.subFlowsOnly = subFlowsOnly
        self.chart = chart
        self.reaching = reaching
        self.exploration = exploration
        specState = chart.nodes.indices.map { node in
            let state = node - 2
            guard node >= 2, state < machine.states.count else { return nil }
            return state
        }
    }

    private func name(_ state: Int) -> String { machine.name(of: state) }

    /// Whether a transition taken in the copy of the machine that `run` runs leads out of the
    /// copy: to a state outside it (a history state outside it too, whatever it resumes), or
    /// to the running state, which starts the machine run afresh (`StuckRunCheck`). The machine
    /// run's own transitions, to its states, do not, though they may leave and enter the
    /// running state again.
    private func leavesCopy(_ transition: Int, of run: Int) -> Bool {
        let inside = machine.nesting.descendants(of: run)
        return chart.transitions[transition].targets.contains { target in
            // A router stands directly inside the compound state of its history state.
            guard let state = specState[target] ?? chart.nodes[target].parent.flatMap({ specState[$0] }) else {
                return true
            }
            return !inside.contains(state)
        }
    }

    private func isAtomic(_ node: Int) -> Bool {
        chart.nodes[node].kind == .atomic || chart.nodes[node].kind == .final
    }

    func verdicts() -> OracleVerdicts {
        var verdicts = OracleVerdicts()
        let nodes = exploration.nodes
        var active: Set<Int> = []
        for oracle in nodes { active.formUnion(oracle.configuration) }
        // States the flow rests in: active where the macrostep is over.
        var resting: Set<Int> = []
        for node in nodes.indices where exploration.stable[node] { resting.formUnion(nodes[node].configuration) }

        var reached: Set<Int> = []
        for oracle in reaching.nodes { reached.formUnion(oracle.configuration) }
        verdicts.reached = Set(reached.compactMap { specState[$0] }.map(name))
        // A history state is reached when a transition taken leads to it (no configuration
        // holds it).
        var resumed: Set<Int> = []
        for edge in reaching.edges {
            for taken in edge.step.taken { resumed.formUnion(chart.transitions[taken.transition].targets) }
        }
        for state in machine.states.indices
        where !(machine.isHistory(state) ? resumed : reached).contains(state + 2) {
            verdicts.unreachable.insert(name(state))
        }
        // Inside an unreachable compound state only the compound state is reported, where the
        // author would fix it (`UnreachableStateCheck`).
        verdicts.unreachable = verdicts.unreachable.filter { unreached in
            let state = machine.states.indices.first { name($0) == unreached }!
            return machine.nesting.parent(of: state).map { !verdicts.unreachable.contains(name($0)) } ?? true
        }
        verdicts.unboundedTasks = unboundedTasks()
        let steps = stateSteps()
        // A state the flow rests in that its `always` branches leave without an event (as
        // conditions choose) loops through those alone, and a retry's bound does not break a
        // loop through it: entering it starts every counter again (`docs/language.md`).
        let leavesAtOnce = Set(
            steps.compactMap { from, list -> Int? in
                guard let state = specState[from], [.input, .terminal].contains(machine.states[state].kind) else {
                    return nil
                }
                return resting.contains(from) && list.contains(where: \.automatic) ? from : nil
            })
        let canLoop = { (node: Int) in
            guard let state = specState[node] else { return false }
            return machine.states[state].kind == .task || (active.contains(node) && !resting.contains(node))
                || leavesAtOnce.contains(node)
        }
        // What happens in the copy of a machine a state runs is that machine's, reported at the
        // `run` when it can keep the flow there.
        let copies = Dictionary(
            machine.runs.flatMap { run in machine.nesting.descendants(of: run.state).map { ($0, run.state) } },
            uniquingKeysWith: { inner, _ in inner })
        func copyOf(_ node: Int) -> Int? { specState[node].flatMap { copies[$0] } }
        var stuck: Set<Int> = []
        for group in loopGroups(steps, among: canLoop, leavingAtOnce: leavesAtOnce) {
            // A loop is reported at its first state in document order, among those it goes
            // through too (`InfiniteLoopCheck`): at the `run` when that is in the copy.
            var states = Set(group.compactMap { specState[$0] })
            for from in group {
                // The steps the loop follows: from a state that leaves at once, its automatic ones.
                for step in steps[from] ?? []
                where group.contains(step.to) && !step.bounded && (step.automatic || !leavesAtOnce.contains(from)) {
                    states.formUnion(step.via)
                }
            }
            if let run = states.min().flatMap({ copies[$0] }) {
                stuck.insert(run)
            } else {
                verdicts.loops.formUnion(group.compactMap { specState[$0] }.map(name))
            }
        }
        if machine.states.contains(where: { $0.kind == .terminal }) {
            for node in noWayOut(steps, active: reached, resting: resting) {
                if let run = copyOf(node) {
                    stuck.insert(run)
                } else {
                    verdicts.noWayOut.insert(name(specState[node]!))
                }
            }
        }
        // Found on the exploration where a history may resume anything, a loop may pass through
        // states no run reaches: judged, as `check`'s, on the states the runs reach.
        verdicts.loops.formIntersection(verdicts.reached)
        stuck.formUnion(trappedRuns(in: reaching))
        verdicts.stuckRuns = Set(stuck.map(name))
        verdicts.doneNeverFires = doneNeverFires(active: reached)
        let copyNames = Set(copies.keys.map(name))
        verdicts.unreachable.subtract(copyNames)
        // A machine that runs only as a sub-flow is bounded where it runs: its own tasks are not
        // judged alone, and those of its copies are the running state's to bound.
        for run in machine.runs where subFlowsOnly.contains(run.machine.value) {
            let inside = Set(machine.nesting.descendants(of: run.state).map(name))
            if !verdicts.unboundedTasks.isDisjoint(with: inside) { verdicts.unboundedRuns.insert(name(run.state)) }
        }
        if !machine.isStandalone { verdicts.unboundedTasks = [] }
        verdicts.unboundedTasks.subtract(copyNames)
        verdicts.doneNeverFires.subtract(copyNames)
        return verdicts
    }

    /// Task states active, in some configuration the flow rests in, where no timeout of theirs
    /// or of a state around them leaves them. **Decision:** a timeout of a state of another
    /// region does not bound a task: that region may move on, and its timer with it, while the
    /// task still waits.
    private func unboundedTasks() -> Set<String> {
        var unbounded: Set<String> = []
        for node in reaching.nodes.indices where reaching.stable[node] {
            for active in reaching.nodes[node].configuration {
                guard let state = specState[active], machine.states[state].kind == .task, isAtomic(active) else {
                    continue
                }
                let timers = Set(([state] + machine.nesting.ancestors(of: state)).map { "timeout_" + name($0) })
                let bounded = reaching.outgoing[node].contains { index in
                    let edge = reaching.edges[index]
                    guard case .event(let event) = edge.input, timers.contains(event) else { return false }
                    return edge.step.exited.contains(active)
                }
                if !bounded { unbounded.insert(name(state)) }
            }
        }
        return unbounded
    }

    /// A step from one atomic state to another, as the exploration saw one taken.
    struct StateStep {
        var to: Int
        /// The transition counts a retry.
        var bounded: Bool
        /// Taken without an input: an eventless transition, an internal event's.
        var automatic: Bool
        /// The history and compound states the transition goes through (spec states).
        var via: [Int]
        /// The chart transition taken from the step's source (the first, when it goes through a
        /// router).
        var transition: Int
    }

    /// The steps between atomic states seen in the exploration. Steps into a router (a
    /// pseudo-state on the way to a history state) are followed through it.
    private func stateSteps() -> [Int: [StateStep]] {
        var raw: [Int: Set<[Int]>] = [:]
        for edge in exploration.edges {
            let automatic = edge.input == .automatic ? 1 : 0
            for taken in edge.step.taken {
                let transition = chart.transitions[taken.transition]
                let bounded = transition.content.contains { if case .increment = $0 { true } else { false } }
                // What the transition goes through on its way: the history states it leads to,
                // and the compound states it enters by their `initial`.
                let via = (transition.targets.filter { !isAtomic($0) } + taken.defaulted).compactMap { specState[$0] }
                for from in taken.selectors {
                    for to in taken.entered where isAtomic(to) {
                        raw[from, default: []].insert([to, bounded ? 1 : 0, automatic, taken.transition] + via)
                    }
                }
            }
        }
        var steps: [Int: [StateStep]] = [:]
        for (from, targets) in raw where specState[from] != nil {
            var seen: Set<Int> = []
            var queue = targets.map {
                StateStep(
                    to: $0[0], bounded: $0[1] == 1, automatic: $0[2] == 1, via: Array($0.dropFirst(4)),
                    transition: $0[3])
            }
            while let step = queue.popLast() {
                if specState[step.to] != nil {
                    steps[from, default: []].append(step)
                } else if seen.insert(step.to).inserted {
                    queue += (raw[step.to] ?? []).map {
                        StateStep(
                            to: $0[0], bounded: step.bounded || $0[1] == 1, automatic: step.automatic,
                            via: step.via + $0.dropFirst(4), transition: step.transition)
                    }
                }
            }
        }
        return steps
    }

    /// The groups of nodes that reach each other through unbounded steps among `include`d
    /// nodes, each with a cycle; each sorted. From a node of `leavingAtOnce` only its
    /// automatic steps are followed; a group through one counts its bounded steps too.
    private func loopGroups(
        _ steps: [Int: [StateStep]], among include: (Int) -> Bool, leavingAtOnce: Set<Int> = []
    ) -> [[Int]] {
        let groups = loopGroups(steps, among: include, leavingAtOnce: leavingAtOnce, bounded: false)
        guard !leavingAtOnce.isEmpty else { return groups }
        let resetting = loopGroups(steps, among: include, leavingAtOnce: leavingAtOnce, bounded: true).filter {
            group in !leavingAtOnce.isDisjoint(with: group) && groups.allSatisfy { Set($0).isDisjoint(with: group) }
        }
        return (groups + resetting).filter { holdsTogether($0, steps, leavingAtOnce: leavingAtOnce) }
            .sorted { $0[0] < $1[0] }
    }

    /// Whether a group through states that leave at once without an event loops with the
    /// conditions held to one value (`docs/language.md`: nothing changes them between steps
    /// taken at once): for some value of the conditions their written guards hold together
    /// along a cycle. Other steps are taken whatever their guards; with more than 12
    /// conditions, every value.
    private func holdsTogether(_ group: [Int], _ steps: [Int: [StateStep]], leavingAtOnce: Set<Int>) -> Bool {
        guard !leavingAtOnce.isDisjoint(with: group) else { return true }
        let members = Set(group)
        var edges: [(from: Int, to: Int, terms: [(name: String, holds: Bool)])] = []
        var names: [String] = []
        for from in group {
            for step in steps[from] ?? [] where members.contains(step.to) {
                guard leavingAtOnce.contains(from) else {
                    edges.append((from, step.to, []))
                    continue
                }
                guard step.automatic else { continue }
                let terms = chart.transitions[step.transition].guards.flatMap { part -> [(name: String, holds: Bool)] in
                    if case .condition(let free) = part { chart.writtenGuards[free] ?? [] } else { [] }
                }
                for term in terms where !names.contains(term.name) { names.append(term.name) }
                edges.append((from, step.to, terms))
            }
        }
        guard names.count <= 12 else { return true }
        for bits in 0..<(1 << names.count) {
            var successors: [Int: [Int]] = [:]
            for edge in edges
            where edge.terms.allSatisfy({ (bits >> names.firstIndex(of: $0.name)! & 1 == 1) == $0.holds }) {
                successors[edge.from, default: []].append(edge.to)
            }
            for start in group {
                var seen: Set<Int> = []
                var stack = successors[start] ?? []
                while let node = stack.popLast() {
                    if node == start { return true }
                    if seen.insert(node).inserted { stack += successors[node] ?? [] }
                }
            }
        }
        return false
    }

    private func loopGroups(
        _ steps: [Int: [StateStep]], among include: (Int) -> Bool, leavingAtOnce: Set<Int>, bounded: Bool
    ) -> [[Int]] {
        let members = steps.keys.filter(include).sorted()
        var successors: [Int: [Int]] = [:]
        for from in members {
            successors[from] = (steps[from] ?? []).filter {
                (bounded || !$0.bounded) && include($0.to) && (!leavingAtOnce.contains(from) || $0.automatic)
            }.map(\.to)
        }
        func reached(from start: Int) -> Set<Int> {
            var seen: Set<Int> = []
            var stack = successors[start] ?? []
            while let node = stack.popLast() {
                if seen.insert(node).inserted { stack += successors[node] ?? [] }
            }
            return seen
        }
        let reach = Dictionary(uniqueKeysWithValues: members.map { ($0, reached(from: $0)) })
        var grouped: Set<Int> = []
        var groups: [[Int]] = []
        for node in members where reach[node]!.contains(node) && !grouped.contains(node) {
            let group = members.filter { reach[node]!.contains($0) && reach[$0]!.contains(node) }
            grouped.formUnion(group)
            groups.append(group)
        }
        return groups
    }

    /// Reachable atomic states from which no step leads to an input state or a terminal state
    /// the flow rests in (a state reaches itself).
    private func noWayOut(_ steps: [Int: [StateStep]], active: Set<Int>, resting: Set<Int>) -> Set<Int> {
        func isExit(_ node: Int) -> Bool {
            guard let state = specState[node] else { return false }
            return machine.states[state].kind == .input
                || (machine.states[state].kind == .terminal && resting.contains(node))
        }
        var found: Set<Int> = []
        for node in active where isAtomic(node) {
            guard let state = specState[node], !machine.isHistory(state) else { continue }
            var seen: Set<Int> = [node]
            var stack = [node]
            var exits = false
            while let current = stack.popLast() {
                if isExit(current) {
                    exits = true
                    break
                }
                for step in steps[current] ?? [] where seen.insert(step.to).inserted { stack.append(step.to) }
            }
            if !exits { found.insert(node) }
        }
        return found
    }

    /// Running states the flow can be in and never leave, the sub-flow never ending: from some
    /// configuration it rests in inside the running state, no configuration is reached where
    /// the running state is not active, or where the flow rests in a terminal state inside it.
    private func trappedRuns(in exploration: ChartExploration) -> Set<Int> {
        var stuck: Set<Int> = []
        let nodes = exploration.nodes
        for run in machine.runs {
            let running = run.state + 2
            let inside = machine.nesting.descendants(of: run.state)
            let out = exploration.canReach { node in
                let configuration = nodes[node].configuration
                return !configuration.contains(running)
                    || exploration.outgoing[node].contains {
                        exploration.edges[$0].step.taken.contains { leavesCopy($0.transition, of: run.state) }
                    }
                    || (exploration.stable[node]
                        && inside.contains {
                            machine.states[$0].kind == .terminal && configuration.contains($0 + 2)
                                && !machine.isCompound($0)
                        })
            }
            // A configuration the flow passes through counts too: one whose macrostep never
            // ends keeps it there.
            let trapped = nodes.indices.contains { node in nodes[node].configuration.contains(running) && !out[node] }
            if trapped { stuck.insert(run.state) }
        }
        return stuck
    }

    /// Compound states with `done`, active in some configuration, whose `done` transition is
    /// never taken; running states with an outcome `done` maps that no run reaches.
    private func doneNeverFires(active: Set<Int>) -> Set<String> {
        var taken: Set<Int> = []
        for edge in reaching.edges { for step in edge.step.taken { taken.insert(step.transition) } }
        var never: Set<String> = []
        for (state, details) in machine.nesting.details where details.done != nil && active.contains(state + 2) {
            let fires = chart.nodes[state + 2].transitions.contains {
                chart.transitions[$0].event == "done.state." + name(state) && taken.contains($0)
            }
            if !fires { never.insert(name(state)) }
        }
        for run in machine.runs where active.contains(run.state + 2) && run.doneLocation != nil {
            // No outcome at all: the machine run never ends.
            // An entry (a bare `done` is one entry for every outcome) that no run takes.
            let entries = Dictionary(grouping: run.outcomes.filter { $0.mapping != nil }, by: { $0.mapping! })
            if run.outcomes.isEmpty
                || entries.values.contains(where: { $0.allSatisfy { !active.contains($0.state + 2) } })
            {
                never.insert(name(run.state))
            }
        }
        return never
    }
}

/// Whether each requirement of a machine holds, from an exploration of its chart with the
/// runtime's semantics: conditions held through each step and changed between inputs, retries
/// counted, history states resuming what they recorded. Timers are inputs that fire at any
/// time, so the machines compared arm at most one timer at a time (timers never race).
///
/// `never`, `before` (a state first), `between`, `everyEntry`, `atMost` and `whenever` are derived, each from the
/// steps of runs as `docs/language.md` defines them: a step is an input (or the start) and the
/// microsteps it sets off until the flow rests, entering the atomic states each microstep
/// enters, in document order, and running what they log.
enum RequirementOracle {
    struct Step {
        var entered: [Int]
        var effects: [String]
        var to: Int
        /// The event or timeout the step takes (`nil`: the start, or a change of conditions).
        var input: String? = nil
        /// Whether a transition of the spec's takes the input (not one that stands for an
        /// event the state ignores, ``StatechartOracle/Chart/Transition/ignores``).
        var handled = false
    }

    /// Per requirement, whether it holds (`nil` for a kind not derived here); `nil` when the
    /// exploration is over `limit` nodes, or a step never ends.
    static func verdicts(_ machine: MachineSpec, limit: Int) throws -> [Bool?]? {
        let conditions = (machine.conditions ?? []).map(\.value)
        let (chart, slots, _) = try NestedChart.chart(machine, conditions: conditions)
        let exploration: ChartExploration
        do {
            exploration = try ChartExploration(
                chart, conditionCount: conditions.count, counters: slots, inputs: OracleVerdicts.inputs(of: chart),
                freeConditions: false, limit: limit)
        } catch is ChartExploration.TooLarge {
            return nil
        }
        guard let (starts, steps) = macrosteps(exploration, chart) else { return nil }
        let leaves = { (name: String) -> Set<Int> in
            guard let state = machine.states.indices.first(where: { machine.name(of: $0) == name }) else { return [] }
            return Set(([state] + machine.nesting.descendants(of: state)).map { $0 + 2 })
        }
        return machine.requirements.map { requirement in
            switch requirement {
            case .never(_, let states, nil):
                let place = states.reduce(into: Set<Int>()) { $0.formUnion(leaves($1.value)) }
                return holds(starts, steps) { _, step in step.entered.contains(where: place.contains) ? nil : 0 }
            case .everyEntry(_, let to, let runs):
                let place = to.reduce(into: Set<Int>()) { $0.formUnion(leaves($1.value)) }
                return holds(starts, steps) { _, step in
                    step.entered.contains(where: place.contains) && !step.effects.contains(runs.value) ? nil : 0
                }
            case .before(_, .state(let first), let then, nil):
                let (first, then) = (leaves(first.value), leaves(then.value))
                return holds(starts, steps) { passed, step in
                    var passed = passed
                    for state in step.entered {
                        if then.contains(state), passed == 0, !(first.contains(state) && first.isSuperset(of: then)) {
                            return nil
                        }
                        if first.contains(state) { passed = 1 }
                    }
                    return passed
                }
            case .atMost(_, let times, let event, let before):
                // A step on the event that does not enter `before` counts; any other input starts
                // the count again (a change of conditions, or an event ignored, is no step).
                let before = leaves(before.value)
                return holds(starts, steps) { count, step in
                    guard let input = step.input, step.handled else { return count }
                    guard input == event.value, !step.entered.contains(where: before.contains) else { return 0 }
                    return count < times.value ? count + 1 : nil
                }
            case .whenever(_, let event, let to):
                // In every resting configuration but an ended one, under every valuation of the
                // conditions, the event is handled and the step rests in one of `to`.
                let goal = to.reduce(into: Set<Int>()) { $0.formUnion(leaves($1.value)) }
                let terminals = Set(
                    machine.states.indices.filter { machine.states[$0].kind == .terminal }.map { $0 + 2 })
                return whenever(event.value, goal, terminals, exploration, steps, chart)
            case .between(_, let after, let until, let never):
                let (after, until) = (leaves(after.value), leaves(until.value))
                let never = never.reduce(into: Set<Int>()) { $0.formUnion(leaves($1.value)) }
                return holds(starts, steps) { inside, step in
                    var inside = inside
                    for state in step.entered {
                        if inside == 1, never.contains(state) { return nil }
                        if until.contains(state) { inside = 0 }
                        if after.contains(state) { inside = 1 }
                    }
                    return inside
                }
            default:
                return nil
            }
        }
    }

    /// `whenever`: every resting node a run reaches (conditions are part of a node, and every
    /// valuation is reached from each through changes of conditions) takes the event to a
    /// configuration in `goal`, unless every state it is in is a terminal state (`terminals`).
    private static func whenever(
        _ event: String, _ goal: Set<Int>, _ terminals: Set<Int>, _ exploration: ChartExploration, _ steps: [[Step]],
        _ chart: StatechartOracle.Chart
    ) -> Bool {
        for node in exploration.nodes.indices where exploration.stable[node] {
            let atomic = exploration.nodes[node].configuration.filter {
                chart.nodes[$0].kind == .atomic || chart.nodes[$0].kind == .final
            }
            guard !atomic.isSubset(of: terminals) else { continue }
            // Held conditions make the step on an input the only one.
            guard let step = steps[node].first(where: { $0.input == event }), step.handled,
                !exploration.nodes[step.to].configuration.isDisjoint(with: goal)
            else { return false }
        }
        return true
    }

    /// Whether no run breaks a property watched by `observe` (the observer's state after a
    /// step, from 0 at the start, `nil` when the step breaks it): a search over the resting
    /// configurations and the observer's states.
    private static func holds(_ starts: [Step], _ steps: [[Step]], _ observe: (Int, Step) -> Int?) -> Bool {
        var seen: Set<[Int]> = []
        var queue: [[Int]] = []
        for start in starts {
            guard let state = observe(0, start) else { return false }
            if seen.insert([start.to, state]).inserted { queue.append([start.to, state]) }
        }
        while let current = queue.popLast() {
            for step in steps[current[0]] {
                guard let state = observe(current[1], step) else { return false }
                if seen.insert([step.to, state]).inserted { queue.append([step.to, state]) }
            }
        }
        return true
    }

    /// The steps from the start and from each resting node (a change of conditions is a step
    /// that enters nothing); `nil` when a step never ends.
    private static func macrosteps(_ exploration: ChartExploration, _ chart: StatechartOracle.Chart) -> (
        starts: [Step], steps: [[Step]]
    )? {
        func atomic(_ entered: Set<Int>) -> [Int] {
            entered.filter { chart.nodes[$0].kind == .atomic || chart.nodes[$0].kind == .final }.sorted()
        }
        // Follows the automatic microsteps (one at most from each node, conditions being held)
        // to where the flow rests.
        func settle(_ step: Step) -> Step? {
            var step = step
            var visited: Set<Int> = []
            while !exploration.stable[step.to] {
                guard visited.insert(step.to).inserted,
                    let next = exploration.outgoing[step.to].first.map({ exploration.edges[$0] })
                else { return nil }
                step.entered += atomic(next.step.entered)
                step.effects += next.step.effects
                step.to = next.to
            }
            return step
        }
        var starts: [Step] = []
        for start in exploration.starts.sorted() {
            let oracle = exploration.nodes[start]
            let step = Step(
                entered: atomic(oracle.configuration), effects: exploration.startEffects[start] ?? [], to: start)
            guard let step = settle(step) else {
                return nil
            }
            starts.append(step)
        }
        var steps = [[Step]](repeating: [], count: exploration.nodes.count)
        for node in exploration.nodes.indices where exploration.stable[node] {
            for index in exploration.outgoing[node] {
                let edge = exploration.edges[index]
                var input: String?
                if case .event(let event) = edge.input { input = event }
                let handled = edge.step.taken.contains { !chart.transitions[$0.transition].ignores }
                guard
                    let step = settle(
                        Step(
                            entered: atomic(edge.step.entered), effects: edge.step.effects, to: edge.to, input: input,
                            handled: handled))
                else { return nil }
                steps[node].append(step)
            }
        }
        return (starts, steps)
    }
}
