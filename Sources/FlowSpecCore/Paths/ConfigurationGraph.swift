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

    /// The most variants of one input, steered through different `always` branches.
    private let maxVariants = 16

    init(program: FlowProgram, bound: Int) throws(TooLarge) {
        self.program = program
        let none = [Bool?](repeating: nil, count: program.conditions.count)
        let starts = variants(none) { conditions in
            var moves: [FlowRuntime.Move]? = []
            let (runtime, effects) = FlowRuntime.start(program, conditions: conditions, moves: &moves)
            return (runtime, effects, moves ?? [])
        }
        for start in starts {
            let node = try add(
                start.runtime, remaining: fresh(start.runtime), parent: .root(roots.count), depth: 0, bound: bound)
            roots.append(
                Root(
                    conditions: start.conditions, node: node, effects: start.effects,
                    items: CoverageItem.entering(program.initial, in: program) + items(of: start.moves)
                        + regionItems(start.runtime)))
        }
        var next = 0
        while next < nodes.count {
            var found: [Edge] = []
            for (input, conditions, outcome, waited, fired) in moves(from: next) {
                // A state's own timer other than the first state's is named (`@timeout(STATE)`).
                let firedState = fired.flatMap { $0.compound == nil && $0.state != nodes[next].state ? $0.state : nil }
                let left =
                    input == .relaunch ? fresh(outcome.runtime) : timeLeft(after: outcome.runtime, from: next, waited)
                let target = try add(
                    outcome.runtime, remaining: left, parent: .edge(node: next, edge: found.count),
                    depth: depth[next] + 1, bound: bound)
                var exercised = items(of: outcome.moves) + regionItems(outcome.runtime)
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
            }
            edges[next] = found
            next += 1
        }
    }

    /// The node of a configuration, added (with how it was reached) if it is new.
    private mutating func add(
        _ runtime: FlowRuntime, remaining: [TimerLeft], parent: Parent, depth: Int, bound: Int
    ) throws(TooLarge) -> Int {
        let configuration = runtime.configuration
        let key = Key(runtime: configuration, remaining: remaining)
        if let known = index[key] { return known }
        guard nodes.count < bound else { throw TooLarge(bound: bound) }
        index[key] = nodes.count
        nodes.append(configuration)
        self.remaining.append(remaining)
        reached.append(runtime)
        edges.append([])
        self.parent.append(parent)
        self.depth.append(depth)
        return nodes.count - 1
    }

    /// The timers armed in a runtime, all just armed.
    private func fresh(_ runtime: FlowRuntime) -> [TimerLeft] {
        zip(runtime.armedTimeouts(program), runtime.armedTimeoutOwners(program)).map { armed, owner in
            TimerLeft(owner: owner.state, compound: owner.compound, left: armed.after)
        }
    }

    /// The time left on each timer armed after an input that took `waited` from `node`: a
    /// timer still armed for the same visit keeps its time, less the wait; one armed anew
    /// starts afresh.
    private func timeLeft(after runtime: FlowRuntime, from node: Int, _ waited: Duration) -> [TimerLeft] {
        var left = fresh(runtime)
        let before = reached[node].armedTimeouts(program)
        for (position, armed) in runtime.armedTimeouts(program).enumerated() {
            if let kept = before.firstIndex(where: { $0.visit == armed.visit }) {
                left[position].left = remaining[node][kept].left - waited
            }
        }
        return left
    }

    /// The timer due first at a node, as (its wait, the visit it was armed for, whose it is):
    /// of those due at once, the one armed first.
    private func nextTimer(at node: Int) -> (waited: Duration, visit: Int, owner: TimerLeft)? {
        var first: Int?
        for (position, timer) in remaining[node].enumerated()
        where first == nil || timer.left < remaining[node][first!].left {
            first = position
        }
        guard let first else { return nil }
        let timer = remaining[node][first]
        return (timer.left, reached[node].armedTimeouts(program)[first].visit, timer)
    }

    /// With parallel regions, the states the machine is in and the compound states around them:
    /// the other regions' are entered through their `initial`, which no move names.
    private func regionItems(_ runtime: FlowRuntime) -> [CoverageItem] {
        guard program.hasParallel else { return [] }
        return runtime.states.flatMap { CoverageItem.entering($0, in: program) }
    }

    private func items(of moves: [FlowRuntime.Move]) -> [CoverageItem] {
        var items: [CoverageItem] = []
        for move in moves {
            items += CoverageItem.items(of: move, in: program)
            items += CoverageItem.entering(move.to, in: program)
        }
        return items
    }

    typealias Outcome = (runtime: FlowRuntime, effects: [Int], moves: [FlowRuntime.Move])

    /// Every input worth trying in a configuration: a relaunch, each candidate of each
    /// transition (of each state, with parallel regions), the timer due first, each in its
    /// steering variants, with the time each waits and whose timer fired.
    private func moves(from node: Int) -> [(Input, [Bool], Outcome, Duration, (state: Int, compound: Int?)?)] {
        let runtime = reached[node]
        var found: [(Input, [Bool], Outcome, Duration, (state: Int, compound: Int?)?)] = []
        let none = [Bool?](repeating: nil, count: program.conditions.count)
        let timer = nextTimer(at: node)
        // A timer due now (due when the one before it fired, in another region) fires before
        // anything else can happen.
        let dueNow = timer?.waited == .zero
        // A relaunch first: taken where the path is, it covers the state's relaunch without a
        // path of its own (a persisted chain stays one path).
        if program.persist != nil, !dueNow {
            let stored = runtime.storedText(program)
            for variant in variants(
                none,
                { conditions in
                    var moves: [FlowRuntime.Move]? = []
                    let (restored, effects) = FlowRuntime.restore(
                        program, rawValue: stored, conditions: conditions, moves: &moves)
                    return (restored, effects, moves ?? [])
                })
            {
                found.append((.relaunch, variant.conditions, variant.outcome, .zero, nil))
            }
        }
        let resting = dueNow ? [] : runtime.states.filter { program.states[$0].kind != .terminal }
        var tried = Set<Int>()
        for state in resting {
            for transition in program.states[state].transitions where tried.insert(transition.event).inserted {
                let send = { (conditions: [Bool]) -> Outcome? in
                    var copy = runtime
                    var moves: [FlowRuntime.Move]? = []
                    guard let effects = copy.send(transition.event, program, conditions: conditions, moves: &moves)
                    else { return nil }
                    return (copy, effects, moves ?? [])
                }
                if tryEveryAssignment {
                    for variant in variants(none, send) {
                        found.append((.event(transition.event), variant.conditions, variant.outcome, .zero, nil))
                    }
                    continue
                }
                // Each candidate of each state that handles the event, taken in turn.
                var outcomes: [[FlowRuntime.Move]] = []
                for handler in resting {
                    guard let candidates = program.candidates(in: handler, for: transition.event) else { continue }
                    for position in candidates.indices {
                        var partial = none
                        guard Self.force(position, of: candidates, into: &partial) else { continue }
                        for variant in variants(partial, send)
                        where variant.moves.contains(where: {
                            $0.from == handler && $0.via == .event(transition.event) && $0.candidate == position
                        }) && !outcomes.contains(variant.moves) {
                            outcomes.append(variant.moves)
                            found.append((.event(transition.event), variant.conditions, variant.outcome, .zero, nil))
                        }
                    }
                }
            }
        }
        if let timer {
            for variant in variants(
                none,
                { conditions in
                    var copy = runtime
                    var moves: [FlowRuntime.Move]? = []
                    guard
                        let effects = copy.fireTimeout(
                            visit: timer.visit, program, conditions: conditions, moves: &moves)
                    else { return nil }
                    return (copy, effects, moves ?? [])
                })
            {
                found.append(
                    (
                        .timeout, variant.conditions, variant.outcome, timer.waited,
                        (state: timer.owner.owner, compound: timer.owner.compound)
                    ))
            }
        }
        return found
    }

    private struct Variant {
        var conditions: [Bool]
        var outcome: Outcome
        var moves: [FlowRuntime.Move] { outcome.moves }
        var runtime: FlowRuntime { outcome.runtime }
        var effects: [Int] { outcome.effects }
    }

    /// Whether inputs are tried under every assignment of the conditions (few conditions):
    /// then every outcome is found. With more, the conditions are chosen to take each
    /// candidate and steer each choice state passed, one at a time.
    private var tryEveryAssignment: Bool { program.conditions.count <= Self.maxConditionsTriedExhaustively }

    /// At most 16 assignments an input.
    static let maxConditionsTriedExhaustively = 4

    /// The outcomes of an input under `partial` (unset conditions false) and under the
    /// assignments that take each other branch of the choice states it passes, in turn; or,
    /// with few conditions, under every assignment. Outcomes are distinct (by the transitions
    /// they take), each under the first assignment found for it (all false first).
    private func variants(_ partial: [Bool?], _ simulate: ([Bool]) -> Outcome?) -> [Variant] {
        var found: [Variant] = []
        if tryEveryAssignment {
            for bits in 0..<(1 << program.conditions.count) {
                let conditions = program.conditions.indices.map { bits & (1 << $0) != 0 }
                guard let outcome = simulate(conditions), !found.contains(where: { $0.moves == outcome.moves })
                else { continue }
                found.append(Variant(conditions: conditions, outcome: outcome))
            }
            return found
        }
        var work: [(partial: [Bool?], choice: Int)] = [(partial, 0)]
        while let (partial, choice) = work.popLast(), found.count < maxVariants {
            let conditions = partial.map { $0 ?? false }
            guard let outcome = simulate(conditions) else { continue }
            if !found.contains(where: { $0.moves == outcome.moves }) {
                found.append(Variant(conditions: conditions, outcome: outcome))
            }
            let branches = outcome.moves.filter { $0.via == .always }
            guard choice < branches.count else { continue }
            let taken = branches[choice]
            let always = program.states[taken.from].always
            work.append((partial, choice + 1))
            for branch in always.indices.reversed() where branch != taken.candidate {
                var steered = partial
                if Self.force(branch, of: always, into: &steered) { work.append((steered, choice + 1)) }
            }
        }
        return found
    }

    /// Fixes conditions so that the candidate at `position` is the first that holds: its own
    /// hold, and each earlier one fails on a condition not fixed yet. `false` when no
    /// assignment does it (the candidate is shadowed under what is fixed).
    static func force(_ position: Int, of candidates: [FlowProgram.Candidate], into partial: inout [Bool?]) -> Bool {
        let candidate = candidates[position]
        for condition in candidate.requires {
            if partial[condition] == false { return false }
            partial[condition] = true
        }
        for condition in candidate.forbids {
            if partial[condition] == true { return false }
            partial[condition] = false
        }
        for earlier in candidates[..<position] {
            let fails =
                earlier.requires.contains { partial[$0] == false } || earlier.forbids.contains { partial[$0] == true }
            if fails { continue }
            if let free = earlier.requires.first(where: { partial[$0] == nil }) {
                partial[free] = false
            } else if let free = earlier.forbids.first(where: { partial[$0] == nil }) {
                partial[free] = true
            } else {
                return false
            }
        }
        return true
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
