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
        /// The app says its conditions changed: `always` branches of the states that wait are
        /// tried.
        case conditionsChanged
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
        /// Whether every transition the input took has no target: the flow stayed where it was.
        var stays = false
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

    /// More configurations than the bound, or more than fit in ``maxEstimatedBytes(bound:)``.
    struct TooLarge: Error {
        /// The most configurations that were to be explored.
        var bound: Int
        /// How many were explored when the exploration stopped.
        var explored: Int
        /// Whether the memory budget stopped it, before `bound` was reached.
        var isOverMemory: Bool
        /// What a configuration of the machine is made of, for messages.
        var parts: String
        /// What the author can change to make the machine smaller, for messages.
        var advice: String

        /// What was too large: `more than 30000 configurations (…)`, or the memory and the
        /// configurations explored within it.
        var description: String {
            isOverMemory
                ? "too many configurations to explore within \(ConfigurationGraph.maxEstimatedBytes(bound: bound) >> 20) MiB "
                    + "(\(explored) were explored, each holding \(parts))"
                : "more than \(bound) configurations (\(parts))"
        }
    }

    /// The most memory an exploration of at most `bound` configurations may take, estimated as
    /// it goes from the size of a configuration: it holds every configuration it found, and
    /// each input it tries makes one more. 4 KiB a configuration of the bound, several times
    /// what a configuration of a small machine takes; a configuration of a machine with many
    /// parallel regions is large and has many inputs, so such a machine is refused after a
    /// few configurations, before it takes gigabytes, rather than at `bound`. Raising the
    /// bound raises both.
    static func maxEstimatedBytes(bound: Int) -> Int {
        bound.multipliedReportingOverflow(by: 4 << 10).overflow ? Int.max : bound * (4 << 10)
    }

    let program: FlowProgram
    private(set) var nodes: [ProgramRun] = []
    /// Per node, the time left on each timer armed, in the order armed.
    private(set) var remaining: [[TimerLeft]] = []
    /// Per node, the visit each timer of ``remaining`` was armed for.
    private var timerVisits: [[Int]] = []
    /// Per node, the machine as the run that first reached it left it, visits included: an
    /// input from it keeps a timer when it keeps the visit the timer was armed for.
    private(set) var reached: [ProgramRun] = []
    private(set) var edges: [[Edge]] = []
    private(set) var roots: [Root] = []
    /// How each node was first reached: a root's index, or a node and one of its edges.
    private(set) var parent: [Parent] = []
    /// The number of inputs after the start on the way `parent` gives.
    private(set) var depth: [Int] = []
    private var index: [Key: Int] = [:]
    /// The memory the exploration has taken so far, estimated (``maxEstimatedBytes(bound:)``).
    private var estimatedBytes = 0
    /// The estimated bytes of one configuration held (three copies of its runtime, and its
    /// timers), and of one input tried (the configuration it makes, and its edge).
    private let bytesPerNode: Int
    private let bytesPerInput: Int

    /// What tells configurations apart.
    private struct Key: Hashable {
        var runtime: ProgramRun
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
        let slots = Self.slotsPerConfiguration(program)
        bytesPerNode = 3 * (Self.bytesPerRuntime + 8 * slots)
        bytesPerInput = Self.bytesPerRuntime + 8 * slots + Self.bytesPerEdge
        var missing = wanted
        let none = [Bool?](repeating: nil, count: program.conditions.count)
        let inputs = Inputs(program: program, watched: watched)
        let starts = inputs.variants(none) { conditions in
            var moves: [ProgramRun.Move]? = []
            let (runtime, effects) = ProgramRun.start(program, conditions: conditions, moves: &moves)
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
            let moves = inputs.moves(from: reached[next], timer: Self.nextTimer(timers))
            estimatedBytes += moves.count * bytesPerInput
            try checkMemory(bound: bound)
            for (input, conditions, outcome, waited, fired) in moves {
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
                        firedState: firedState,
                        stays: !outcome.moves.isEmpty && outcome.moves.allSatisfy(\.stays)))
                missing?.subtract(exercised)
            }
            edges[next] = found
            next += 1
        }
    }

    /// The node of a configuration, added (with how it was reached) if it is new.
    private mutating func add(
        _ runtime: ProgramRun, timers: (visits: [Int], left: [TimerLeft]), parent: Parent, depth: Int, bound: Int
    ) throws(TooLarge) -> Int {
        let configuration = runtime.configuration
        let key = Key(runtime: configuration, remaining: timers.left)
        if let known = index[key] { return known }
        guard nodes.count < bound else { throw tooLarge(bound: bound, overMemory: false) }
        estimatedBytes += bytesPerNode + 24 * timers.left.count
        try checkMemory(bound: bound)
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

    /// Stops the exploration once it has taken more than ``maxEstimatedBytes(bound:)``.
    private func checkMemory(bound: Int) throws(TooLarge) {
        if estimatedBytes > Self.maxEstimatedBytes(bound: bound) { throw tooLarge(bound: bound, overMemory: true) }
    }

    private func tooLarge(bound: Int, overMemory: Bool) -> TooLarge {
        TooLarge(
            bound: bound, explored: nodes.count, isOverMemory: overMemory, parts: Self.parts(of: program),
            advice: Self.advice(for: program))
    }

    /// What a configuration of `program` holds besides its state, as a message lists it: only
    /// what the machine has (no timers where it arms none).
    static func parts(of program: FlowProgram) -> String {
        var parts = [
            program.hasParallel ? "the \(program.steps.maximumLeaves) states it can be in at once" : "its state"
        ]
        if program.retrySlotCount > 0 { parts.append("retry counts") }
        if program.memorySlotCount > 0 { parts.append("what its history states remember") }
        if hasTimers(program) { parts.append("the time left on each timer armed") }
        return parts.count == 1 ? parts[0] : parts.dropLast().joined(separator: ", ") + " and " + parts.last!
    }

    /// What makes `program`'s configurations fewer, as a message advises it.
    static func advice(for program: FlowProgram) -> String {
        var advice: [String] = []
        if program.hasParallel {
            advice.append(hasTimers(program) ? "make fewer regions or timers run at once" : "make fewer regions")
        }
        if program.retrySlotCount > 0 { advice.append("lower its retry bounds") }
        advice.append("split the machine")
        return advice.joined(separator: ", ")
    }

    private static func hasTimers(_ program: FlowProgram) -> Bool {
        program.states.contains { $0.timeout != nil || !$0.outerTimeouts.isEmpty }
    }

    /// The values a configuration holds: per state it is in, the state and its visit; the
    /// retry counters; the memory slots; the visits of the compound states around it.
    private static func slotsPerConfiguration(_ program: FlowProgram) -> Int {
        2 * program.steps.maximumLeaves + program.retrySlotCount + program.memorySlotCount
            + program.maximumDepth + program.compounds.count
    }

    /// What one copy of a runtime takes besides its values (its arrays' headers), and an edge
    /// besides the configuration it leads to: measured with a flat machine of a million
    /// configurations, whose exploration takes about a kilobyte each.
    private static let bytesPerRuntime = 256
    private static let bytesPerEdge = 160

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
    /// whose it is): of those due at once, the first listed, since the kernel lists armed
    /// timers in the order they fire (`FlowArmedTimeout.firesBefore`).
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
