/// A machine's reachable configurations and the inputs between them, explored breadth first
/// from its start with the reference runtime: what test paths are planned on.
///
/// A configuration is a state (with parallel regions, one per region) with the retry counters
/// (two visits of a state with different counts behave differently: one more retry, or its
/// `then`) and, for each timer armed, how long it has left (a compound state's runs on while
/// the flow moves inside it, and with parallel regions each region's while another moves). An input is an event (taking no time), a
/// timeout (time passes until the first armed timer is due, and that one fires: of timers due
/// at once, the one armed first) or, for a persisted machine, a relaunch, each under a vector of conditions chosen to take a
/// given candidate (its own conditions hold, every earlier candidate's fail) and to steer the
/// `always` branches of the choice states it passes. Each edge lists the coverage items it
/// exercises, in order. Exploration is iterative and stops, with the count, at a bound.
///
/// Given the items to find, exploration also stops once it has found them all, at the end of
/// that breadth (every configuration as few inputs from a start as the one whose input found
/// the last is explored): the shortest run to each item is then known, and what lies further
/// (every combination of the time left on the timers of several regions, say) is not needed
/// to cover them. The nodes one input further are kept, without their edges.
struct ConfigurationGraph {
    /// What a step feeds the machine.
    enum Input: Hashable {
        case event(Int)
        case timeout
        case relaunch
    }

    /// One input from a configuration, and what it does.
    struct Edge {
        var input: Input
        var conditions: [Bool]
        var target: Int
        var effects: [Int]
        var items: [CoverageItem]
        /// The time that passes before the input (a timeout's wait; zero otherwise).
        var waited: Duration = .zero
        /// For a timeout, the compound state whose timer fired (`nil`: a state's own).
        var firedCompound: Int? = nil
        /// With parallel regions, for a state's own timeout: that state.
        var firedState: Int? = nil
    }

    /// A timer armed at a node: whose it is (an active state's own, or the compound state's
    /// around it, by index in the program's compounds), and the time it has left.
    struct TimerLeft: Hashable {
        var owner: Int
        var compound: Int?
        var left: Duration
    }

    /// One way to start: the conditions at the start, and where they lead.
    struct Root {
        var conditions: [Bool]
        var node: Int
        var effects: [Int]
        var items: [CoverageItem]
    }

    /// More configurations than the bound.
    struct TooLarge: Error {
        var bound: Int
    }

    let program: FlowProgram
    private(set) var nodes: [FlowRuntime] = []
    /// Per node, the time left on each timer armed, in the order armed.
    private(set) var remaining: [[TimerLeft]] = []
    /// Per node, the visit each timer of ``remaining`` was armed for.
    private var timerVisits: [[Int]] = []
    /// Per node, the machine as the run that first reached it left it, visits included: an
    /// input from it keeps a timer when it keeps the visit the timer was armed for.
    private(set) var reached: [FlowRuntime] = []
    private(set) var edges: [[Edge]] = []
    private(set) var roots: [Root] = []
    /// How each node was first reached: a root's index, or a node and one of its edges.
    private(set) var parent: [Parent] = []
    /// The number of inputs after the start on the way `parent` gives.
    private(set) var depth: [Int] = []
    private var index: [Key: Int] = [:]

    /// What tells configurations apart.
    private struct Key: Hashable {
        var runtime: FlowRuntime
        var remaining: [TimerLeft]
    }

    enum Parent {
        case root(Int)
        case edge(node: Int, edge: Int)
    }

    /// At most 16 assignments an input.
    static let maxConditionsTriedExhaustively = 4

    /// Whether every configuration was explored (not stopped once every item was found).
    private(set) var isComplete = true

    /// Explores `program` from its start, at most `bound` configurations; with `wanted`, only
    /// as far as the breadth that finds the last of them. Each value of a `watched` condition
    /// gets an edge of its own, even where the input takes the same transitions under both.
    init(
        program: FlowProgram, bound: Int, stoppingOnceFound wanted: Set<CoverageItem>? = nil,
        watching watched: [Int] = []
    ) throws(TooLarge) {
        self.program = program
        var missing = wanted
        let none = [Bool?](repeating: nil, count: program.conditions.count)
        let inputs = Inputs(program: program, watched: watched)
        let starts = inputs.variants(none) { conditions in
            var moves: [FlowRuntime.Move]? = []
            let (runtime, effects) = FlowRuntime.start(program, conditions: conditions, moves: &moves)
            return (runtime, effects, moves ?? [])
        }
        for start in starts {
            let node = try add(
                start.runtime, timers: inputs.fresh(start.runtime), parent: .root(roots.count), depth: 0, bound: bound)
            roots.append(
                Root(
                    conditions: start.conditions, node: node, effects: start.effects,
                    items: CoverageItem.entering(program.initial, in: program) + inputs.items(of: start.moves)
                        + inputs.regionItems(start.runtime)))
            missing?.subtract(roots[roots.count - 1].items)
        }
        var next = 0
        var lastBreadth: Int?
        while next < nodes.count {
            if missing?.isEmpty == true, lastBreadth == nil { lastBreadth = depth[next] }
            if let lastBreadth, depth[next] > lastBreadth {
                isComplete = false
                break
            }
            var found: [Edge] = []
            let timers = (visits: timerVisits[next], left: remaining[next])
            for (input, conditions, outcome, waited, fired) in inputs.moves(
                from: reached[next], timer: Self.nextTimer(timers))
            {
                // A state's own timer other than the first state's is named (`@timeout(STATE)`).
                let firedState = fired.flatMap { $0.compound == nil && $0.state != nodes[next].state ? $0.state : nil }
                let armed = inputs.fresh(outcome.runtime)
                let left = input == .relaunch ? armed : Self.timeLeft(armed, before: timers, waited)
                let target = try add(
                    outcome.runtime, timers: left, parent: .edge(node: next, edge: found.count),
                    depth: depth[next] + 1, bound: bound)
                var exercised =
                    inputs.items(of: outcome.moves) + inputs.regionItems(outcome.runtime, after: nodes[next])
                if input == .relaunch {
                    let landing = outcome.moves.first?.from ?? outcome.runtime.state
                    exercised =
                        [.relaunch(state: nodes[next].state)] + CoverageItem.entering(landing, in: program) + exercised
                }
                found.append(
                    Edge(
                        input: input, conditions: conditions, target: target, effects: outcome.effects,
                        items: exercised, waited: waited, firedCompound: fired?.compound,
                        firedState: firedState))
                missing?.subtract(exercised)
            }
            edges[next] = found
            next += 1
        }
    }

    /// The node of a configuration, added (with how it was reached) if it is new.
    private mutating func add(
        _ runtime: FlowRuntime, timers: (visits: [Int], left: [TimerLeft]), parent: Parent, depth: Int, bound: Int
    ) throws(TooLarge) -> Int {
        let configuration = runtime.configuration
        let key = Key(runtime: configuration, remaining: timers.left)
        if let known = index[key] { return known }
        guard nodes.count < bound else { throw TooLarge(bound: bound) }
        index[key] = nodes.count
        nodes.append(configuration)
        remaining.append(timers.left)
        timerVisits.append(timers.visits)
        reached.append(runtime)
        edges.append([])
        self.parent.append(parent)
        self.depth.append(depth)
        return nodes.count - 1
    }

    /// The time left on each timer of `timers` (all just armed) after an input that took
    /// `waited` from a node whose timers were `before`: a timer still armed for the same visit
    /// keeps its time, less the wait; one armed anew starts afresh.
    private static func timeLeft(
        _ timers: (visits: [Int], left: [TimerLeft]), before: (visits: [Int], left: [TimerLeft]), _ waited: Duration
    ) -> (visits: [Int], left: [TimerLeft]) {
        var timers = timers
        for (position, visit) in timers.visits.enumerated() {
            if let kept = before.visits.firstIndex(of: visit) {
                timers.left[position].left = before.left[kept].left - waited
            }
        }
        return timers
    }

    /// The timer due first of a node's `timers`, as (its wait, the visit it was armed for,
    /// whose it is): of those due at once, the one armed first.
    private static func nextTimer(
        _ timers: (visits: [Int], left: [TimerLeft])
    ) -> (waited: Duration, visit: Int, owner: TimerLeft)? {
        var first: Int?
        for (position, timer) in timers.left.enumerated() where first == nil || timer.left < timers.left[first!].left {
            first = position
        }
        guard let first else { return nil }
        let timer = timers.left[first]
        return (timer.left, timers.visits[first], timer)
    }

    /// The edges from the root's start to `node`, in order.
    func route(to node: Int) -> (root: Int, edges: [(node: Int, edge: Int)]) {
        var edges: [(node: Int, edge: Int)] = []
        var current = node
        while true {
            switch parent[current] {
            case .root(let root):
                return (root, edges.reversed())
            case .edge(let from, let edge):
                edges.append((from, edge))
                current = from
            }
        }
    }
}
