/// A machine's reachable configurations and the inputs between them, explored breadth first
/// from its start with the reference runtime: what test paths are planned on.
///
/// A configuration is a state with the retry counters (two visits of a state with different
/// counts behave differently: one more retry, or its `then`) and, inside compound states with
/// timeouts, how long each of those has left. An input is an event (taking no time), a
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
        /// For a timeout, the compound state whose timer fired (`nil`: the state's own).
        var firedCompound: Int? = nil
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
    /// Per node, the time left on the timeout of each compound state around its state, by
    /// depth (`nil` where that state has none).
    private(set) var remaining: [[Duration?]] = []
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
        var remaining: [Duration?]
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
                    items: CoverageItem.entering(program.initial, in: program) + items(of: start.moves)))
        }
        var next = 0
        while next < nodes.count {
            var found: [Edge] = []
            for (input, conditions, outcome, waited, fired) in moves(from: next) {
                let left =
                    input == .relaunch ? fresh(outcome.runtime) : timeLeft(after: outcome.runtime, from: next, waited)
                let target = try add(
                    outcome.runtime, remaining: left, parent: .edge(node: next, edge: found.count),
                    depth: depth[next] + 1, bound: bound)
                var exercised = items(of: outcome.moves)
                if input == .relaunch {
                    let landing = outcome.moves.first?.from ?? outcome.runtime.state
                    exercised =
                        [.relaunch(state: nodes[next].state)] + CoverageItem.entering(landing, in: program) + exercised
                }
                found.append(
                    Edge(
                        input: input, conditions: conditions, target: target, effects: outcome.effects,
                        items: exercised, waited: waited, firedCompound: fired))
            }
            edges[next] = found
            next += 1
        }
    }

    /// The node of a configuration, added (with how it was reached) if it is new.
    private mutating func add(
        _ runtime: FlowRuntime, remaining: [Duration?], parent: Parent, depth: Int, bound: Int
    ) throws(TooLarge) -> Int {
        let configuration = runtime.configuration
        let key = Key(runtime: configuration, remaining: remaining)
        if let known = index[key] { return known }
        guard nodes.count < bound else { throw TooLarge(bound: bound) }
        index[key] = nodes.count
        nodes.append(configuration)
        // The visits themselves are not kept (only whether each compound state was left).
        self.remaining.append(remaining)
        visits.append(runtime.outerVisits)
        edges.append([])
        self.parent.append(parent)
        self.depth.append(depth)
        return nodes.count - 1
    }

    /// Per node, the visits that entered the compound states around its state, in the run that
    /// first reached it: a later input keeps a compound state's timer when it keeps its visit.
    private var visits: [[Int]] = []

    /// The timers of the compound states around a runtime's state, all just armed.
    private func fresh(_ runtime: FlowRuntime) -> [Duration?] {
        let state = program.states[runtime.state]
        var left = [Duration?](repeating: nil, count: state.depth)
        for outer in state.outerTimeouts { left[outer.depth] = outer.timeout.after }
        return left
    }

    /// The time left on each compound state's timer after an input that took `waited` from
    /// `node`: a compound state still entered by the same visit keeps its timer, less the wait;
    /// one entered again starts anew.
    private func timeLeft(after runtime: FlowRuntime, from node: Int, _ waited: Duration) -> [Duration?] {
        var left = fresh(runtime)
        let before = visits[node]
        for depth in left.indices where depth < before.count && before[depth] == runtime.outerVisits[depth] {
            if let kept = remaining[node][depth] { left[depth] = kept - waited }
        }
        return left
    }

    /// The timer due first at a node, as (its wait, the visit it was armed for): of those due
    /// at once, the one armed first (the outermost; the state's own is armed last).
    private func nextTimer(at node: Int, _ runtime: FlowRuntime) -> (waited: Duration, visit: Int)? {
        var first: (waited: Duration, visit: Int)?
        for (depth, left) in remaining[node].enumerated() {
            guard let left, first == nil || left < first!.waited else { continue }
            first = (left, visits[node][depth])
        }
        if let own = program.states[runtime.state].timeout, first == nil || own.after < first!.waited {
            first = (own.after, -1)  // -1: the current visit's
        }
        return first
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
    /// transition, the timeout, each in its steering variants, with the time each waits.
    private func moves(from node: Int) -> [(Input, [Bool], Outcome, Duration, Int?)] {
        var runtime = nodes[node]
        // The node keeps no visits; the run that reached it first had these.
        runtime.restoreVisits(outer: visits[node])
        let state = program.states[runtime.state]
        var found: [(Input, [Bool], Outcome, Duration, Int?)] = []
        let none = [Bool?](repeating: nil, count: program.conditions.count)
        // A relaunch first: taken where the path is, it covers the state's relaunch without a
        // path of its own (a persisted chain stays one path).
        if program.persist != nil {
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
        guard state.kind != .terminal else { return found }
        for transition in state.transitions {
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
            for position in transition.candidates.indices {
                var partial = none
                guard Self.force(position, of: transition.candidates, into: &partial) else { continue }
                for variant in variants(partial, send) where variant.moves.first?.candidate == position {
                    found.append((.event(transition.event), variant.conditions, variant.outcome, .zero, nil))
                }
            }
        }
        if let timer = nextTimer(at: node, runtime) {
            let visit = timer.visit < 0 ? runtime.visit : timer.visit
            let fired = runtime.outerVisits.firstIndex(of: visit).map { state.compound(atDepth: $0) }
            for variant in variants(
                none,
                { conditions in
                    var copy = runtime
                    var moves: [FlowRuntime.Move]? = []
                    guard let effects = copy.fireTimeout(visit: visit, program, conditions: conditions, moves: &moves)
                    else { return nil }
                    return (copy, effects, moves ?? [])
                })
            {
                found.append((.timeout, variant.conditions, variant.outcome, timer.waited, fired))
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
