/// A machine's reachable configurations and the inputs between them, explored breadth first
/// from its start with the reference runtime: what test paths are planned on.
///
/// A configuration is a state with the retry counters (two visits of a state with different
/// counts behave differently: one more retry, or its `then`). An input is an event, a timeout
/// or, for a persisted machine, a relaunch, each under a vector of conditions chosen to take a
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
    private(set) var edges: [[Edge]] = []
    private(set) var roots: [Root] = []
    /// How each node was first reached: a root's index, or a node and one of its edges.
    private(set) var parent: [Parent] = []
    /// The number of inputs after the start on the way `parent` gives.
    private(set) var depth: [Int] = []
    private var index: [FlowRuntime: Int] = [:]

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
            let node = try add(start.runtime, parent: .root(roots.count), depth: 0, bound: bound)
            roots.append(
                Root(
                    conditions: start.conditions, node: node, effects: start.effects,
                    items: [.state(program.initial)] + items(of: start.moves)))
        }
        var next = 0
        while next < nodes.count {
            var found: [Edge] = []
            for (input, conditions, outcome) in moves(from: nodes[next]) {
                let target = try add(
                    outcome.runtime, parent: .edge(node: next, edge: found.count), depth: depth[next] + 1, bound: bound)
                var exercised = items(of: outcome.moves)
                if input == .relaunch {
                    let landing = outcome.moves.first?.from ?? outcome.runtime.state
                    exercised = [.relaunch(state: nodes[next].state), .state(landing)] + exercised
                }
                found.append(
                    Edge(
                        input: input, conditions: conditions, target: target, effects: outcome.effects,
                        items: exercised))
            }
            edges[next] = found
            next += 1
        }
    }

    /// The node of a configuration, added (with how it was reached) if it is new.
    private mutating func add(_ runtime: FlowRuntime, parent: Parent, depth: Int, bound: Int) throws(TooLarge) -> Int {
        let configuration = runtime.configuration
        if let known = index[configuration] { return known }
        guard nodes.count < bound else { throw TooLarge(bound: bound) }
        index[configuration] = nodes.count
        nodes.append(configuration)
        edges.append([])
        self.parent.append(parent)
        self.depth.append(depth)
        return nodes.count - 1
    }

    private func items(of moves: [FlowRuntime.Move]) -> [CoverageItem] {
        var items: [CoverageItem] = []
        for move in moves {
            items.append(CoverageItem(move, in: program))
            items.append(.state(move.to))
        }
        return items
    }

    typealias Outcome = (runtime: FlowRuntime, effects: [Int], moves: [FlowRuntime.Move])

    /// Every input worth trying in a configuration: a relaunch, each candidate of each
    /// transition, the timeout, each in its steering variants.
    private func moves(from runtime: FlowRuntime) -> [(Input, [Bool], Outcome)] {
        let state = program.states[runtime.state]
        var found: [(Input, [Bool], Outcome)] = []
        let none = [Bool?](repeating: nil, count: program.conditions.count)
        // A relaunch first: taken where the path is, it covers the state's relaunch without a
        // path of its own (a persisted chain stays one path).
        if program.persist != nil {
            let stored = FlowRuntime.storedValue(of: runtime.state, program)
            for variant in variants(
                none,
                { conditions in
                    var moves: [FlowRuntime.Move]? = []
                    let (restored, effects) = FlowRuntime.restore(
                        program, rawValue: stored, conditions: conditions, moves: &moves)
                    return (restored, effects, moves ?? [])
                })
            {
                found.append((.relaunch, variant.conditions, variant.outcome))
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
                    found.append((.event(transition.event), variant.conditions, variant.outcome))
                }
                continue
            }
            for position in transition.candidates.indices {
                var partial = none
                guard Self.force(position, of: transition.candidates, into: &partial) else { continue }
                for variant in variants(partial, send) where variant.moves.first?.candidate == position {
                    found.append((.event(transition.event), variant.conditions, variant.outcome))
                }
            }
        }
        if state.timeout != nil {
            for variant in variants(
                none,
                { conditions in
                    var copy = runtime
                    var moves: [FlowRuntime.Move]? = []
                    guard
                        let effects = copy.fireTimeout(
                            visit: copy.visit, program, conditions: conditions, moves: &moves)
                    else { return nil }
                    return (copy, effects, moves ?? [])
                })
            {
                found.append((.timeout, variant.conditions, variant.outcome))
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
