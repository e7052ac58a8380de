/// Test paths of a checked machine: runs from the start that together take every transition
/// the machine can take, with what the reference semantics expects after each step, plus a
/// path per `within` requirement at its worst case and paths that show each `alwaysReachable`
/// target reached from every state the cover visits.
///
/// Planning is greedy on the ``ConfigurationGraph``: a path starts with the shortest run to
/// the first configuration (in breadth-first order) that has an input exercising something
/// not covered yet, then keeps taking such inputs, with a short detour (a bounded search) to
/// the nearest configuration that has some where it has none. Each step of a path covers
/// something new, or is part of a bounded detour or of the run to its start, and the
/// breadth-first scan only moves forward, so the work is linear in the size of the paths
/// produced. A chain or a loop is one path.
public struct PathCover: Sendable {
    /// One input of a path and what the spec expects after it.
    public struct Step: Sendable, Equatable {
        /// What is fed to the machine.
        public enum Input: Sendable, Equatable {
            /// The flow starts at `initial`.
            case start
            /// An event, by index.
            case event(Int)
            /// The current visit's timeout fires (after waiting its whole duration).
            case timeout
            /// The timeout of a compound state around the current state fires (by index in the
            /// program's compounds), after waiting what it had left.
            case compoundTimeout(Int)
            /// With parallel regions: the timeout of one of the states the flow is in fires, after
            /// waiting what it had left.
            case stateTimeout(Int)
            /// The app is relaunched: the stored value (given) is restored.
            case relaunch(stored: String)
            /// The app says its conditions changed (`@conditions`).
            case conditionsChanged
        }

        /// The input.
        public var input: Input
        /// The conditions it is taken under (set before it).
        public var conditions: [Bool]
        /// The state after it.
        public var state: Int
        /// The effects it runs, in order.
        public var effects: [Int]
        /// The time waited before the input (a timeout's duration; zero otherwise).
        public var waited: Duration
        /// Where the timeouts armed after it lead, as ``ProgramRun/armedTimeouts(_:)`` lists them
        /// (the compound states' outermost first, then the state's own): a timeout into a
        /// history state leads where that history resumes.
        public var timeoutTargets: [Int] = []
        /// The states after it, in document order: ``state`` alone, unless parallel regions run.
        public var states: [Int] = []
        /// Whose each timeout of ``timeoutTargets`` is: an active state's own (`compound` `nil`)
        /// or the compound state's around it.
        public var timeoutOwners: [Owner] = []

        /// Whose a timer is.
        public struct Owner: Sendable, Equatable {
            /// The state.
            public var state: Int
            /// The compound state around it whose timer it is, or `nil` for its own.
            public var compound: Int?
        }
    }

    /// Why a path exists.
    public enum Purpose: Sendable, Equatable {
        /// It covers states and transitions (how many items it exercises).
        case cover(items: Int)
        /// It runs a `within` requirement's worst case: from the step at `from` to the last,
        /// the time waited is `worst`, at most `max`.
        case within(requirement: Int, from: Int, worst: Duration, max: Duration)
        /// It reaches an `alwaysReachable` target (by index) at its last step, and shows it
        /// reachable from the states before it.
        case reach(requirement: Int, target: Int)
        /// It shows a property that holds at work at its last step (``PropertyCheck/witness(_:)``);
        /// `text` is the requirement in one line.
        case witness(requirement: Int, text: String)
        /// It breaks a property (refuted, with `requirement-failed` lowered below an error):
        /// the shortest run that does, and what that run does (the finding's message is
        /// `RequirementCheck.failed` of it).
        case counterexample(requirement: Int, text: String, refutation: String)
    }

    /// One path: a run from the start.
    public struct Path: Sendable {
        /// Why it exists.
        public var purpose: Purpose
        /// Its steps; the first is the start.
        public var steps: [Step]
    }

    /// A limit on the paths of one machine.
    public struct Limits: Sendable {
        /// The most paths.
        public var maxPaths = 10_000
        /// The most steps in all paths.
        public var maxSteps = 2_000_000
        /// The most configurations explored (``ConfigurationGraph``), or `nil` for the default:
        /// ``defaultMaxConfigurations``, or ``defaultMaxParallelConfigurations`` for a machine
        /// with parallel regions.
        public var maxConfigurations: Int?

        /// The most configurations explored by default.
        public static let defaultMaxConfigurations = 1_000_000
        /// The most configurations explored by default for a machine with parallel regions:
        /// fewer, since several timers run at once there, every combination of the time they
        /// have left is a configuration, and each costs more to explore. A machine over it is
        /// refused in about a second rather than after minutes.
        public static let defaultMaxParallelConfigurations = 30_000

        /// The default limits.
        public init() {}

        /// The most configurations explored for `program`.
        public func maxConfigurations(for program: FlowProgram) -> Int {
            maxConfigurations
                ?? (program.hasParallel ? Self.defaultMaxParallelConfigurations : Self.defaultMaxConfigurations)
        }
    }

    /// Why a machine could not be covered: a limit it exceeds (`limit-exceeded`).
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What is wrong, for the user.
        public let description: String
        /// Where: the machine's name.
        public let location: SourceLocation?

        /// The failure's text as a command prints it, with `consequence` (what was not done)
        /// after the description: `FILE:LINE:COL: error: … [limit-exceeded]` when located,
        /// `flowspec: error: …` otherwise.
        public func message(file: String, consequence: String = "") -> String {
            guard let location else { return "flowspec: error: \(description)\(consequence)" }
            return "\(file):\(location.line):\(location.column): error: \(description)\(consequence) "
                + "[\(Rule.limitExceeded.rawValue)]"
        }
    }

    /// The machine.
    public let program: FlowProgram
    /// The paths, in a stable order: cover, then `within`, then `alwaysReachable`.
    public private(set) var paths: [Path] = []
    /// Every item of the machine (``CoverageItem/all(in:)``).
    public let items: [CoverageItem]
    /// What no path covers, with the reason (unreachable, or no conditions take it).
    public private(set) var notCovered: [(item: CoverageItem, reason: String)] = []
    /// Requirements that could not be turned into paths, with the reason.
    public private(set) var skippedRequirements: [(requirement: Int, reason: String)] = []

    /// Plans and writes the paths of a checked machine.
    public init(program: FlowProgram, machine: MachineSpec, limits: Limits = Limits()) throws(Failure) {
        self.program = program
        self.items = CoverageItem.all(in: program)
        let graph: ConfigurationGraph
        do {
            let needsEvery = machine.requirements.contains { $0.kind.needsEveryConfiguration }
            graph = try ConfigurationGraph(
                program: program, bound: limits.maxConfigurations(for: program),
                stoppingOnceFound: needsEvery ? nil : Set(items))
        } catch {
            throw Failure(
                description: "machine '\(program.name.name)' has \(error.description); its paths are not generated: "
                    + error.advice + ", or raise --max-configurations",
                location: machine.name.location)
        }
        var planner = Planner(graph: graph)
        try planner.planCover(limits: limits, machine: machine.name)
        paths = planner.plans.map { materialize($0, graph) }
        for (position, requirement) in machine.requirements.enumerated() {
            switch requirement {
            case .within(_, let from, let to, let max):
                withinPath(position, from: from.value, to: to.map(\.value), max: max.value, graph)
            case .alwaysReachable(_, let states):
                for target in states { reachPaths(position, target: target.value, graph) }
            case .reachable, .never, .before, .between, .everyEntry, .leadsTo, .atMost, .whenever:
                break
            }
        }
        propertyPaths(machine.requirements)
        try planner.checkLimits(paths.count, paths.reduce(0) { $0 + $1.steps.count }, limits, machine.name)
        let reasons = unreachableReasons(graph)
        notCovered = items.filter { !planner.found.contains($0) }.map { ($0, reasons($0)) }
    }

    /// Where the planner is: what is covered, and the paths so far as routes in the graph.
    private struct Planner {
        let graph: ConfigurationGraph
        var found = Set<CoverageItem>()
        var uncovered = Set<CoverageItem>()
        var plans: [Plan] = []

        /// A path: a root's start, the inputs that lead to a node, then more inputs.
        struct Plan {
            var root: Int
            var route: [(node: Int, edge: Int)]
            var extension_: [(node: Int, edge: Int)]
            var purpose: Purpose

            /// The shortest run to `node`, then `extension_`.
            init(to node: Int, then extension_: [(node: Int, edge: Int)], purpose: Purpose, _ graph: ConfigurationGraph)
            {
                (root, route) = graph.route(to: node)
                self.extension_ = extension_
                self.purpose = purpose
            }

            /// A root's start, then `extension_`.
            init(root: Int, then extension_: [(node: Int, edge: Int)]) {
                self.root = root
                self.route = []
                self.extension_ = extension_
                self.purpose = .cover(items: 0)
            }
        }

        /// Per node, the first of its edges that may still exercise something new: those before
        /// it exercise nothing new, and never will again (`uncovered` only shrinks). Each edge
        /// is passed over once in all, so a configuration with thousands of inputs is not
        /// scanned again at every step.
        private var firstUseful: [Int]

        init(graph: ConfigurationGraph) {
            self.graph = graph
            for root in graph.roots { found.formUnion(root.items) }
            for edges in graph.edges { for edge in edges { found.formUnion(edge.items) } }
            uncovered = found
            firstUseful = Array(repeating: 0, count: graph.nodes.count)
        }

        /// The first edge from `node` that exercises something new.
        mutating func usefulEdge(_ node: Int) -> Int? {
            let edges = graph.edges[node]
            var edge = firstUseful[node]
            while edge < edges.count, !edges[edge].items.contains(where: uncovered.contains) { edge += 1 }
            firstUseful[node] = edge
            return edge < edges.count ? edge : nil
        }

        mutating func isUseful(_ node: Int) -> Bool { usefulEdge(node) != nil }

        /// Takes inputs that exercise something new from `node` while there are any.
        /// Where there is nothing new, it walks on to the nearest configuration that has
        /// something, if one is within ``detourSearch`` configurations: a detour of a few steps
        /// costs less than a new path from the start.
        mutating func extend(from node: Int) -> [(node: Int, edge: Int)] {
            var node = node
            var extension_: [(node: Int, edge: Int)] = []
            while true {
                if let edge = usefulEdge(node) {
                    extension_.append((node, edge))
                    uncovered.subtract(graph.edges[node][edge].items)
                    node = graph.edges[node][edge].target
                } else if let detour = detour(from: node) {
                    for (from, edge) in detour { uncovered.subtract(graph.edges[from][edge].items) }
                    extension_ += detour
                    node = detour.last.map { graph.edges[$0.node][$0.edge].target } ?? node
                } else {
                    return extension_
                }
            }
        }

        /// How many configurations a detour search looks at: a bound, so that planning stays
        /// linear in the paths it writes.
        static let detourSearch = 64

        /// The shortest walk from `start` to a configuration with an input that exercises
        /// something new, searched breadth first among ``detourSearch`` configurations.
        mutating func detour(from start: Int) -> [(node: Int, edge: Int)]? {
            var parent: [Int: (node: Int, edge: Int)] = [start: (start, -1)]
            var queue = [start]
            var head = 0
            while head < queue.count, head < Self.detourSearch {
                let node = queue[head]
                head += 1
                for (position, edge) in graph.edges[node].enumerated() where parent[edge.target] == nil {
                    parent[edge.target] = (node, position)
                    guard isUseful(edge.target) else {
                        queue.append(edge.target)
                        continue
                    }
                    var walk: [(node: Int, edge: Int)] = []
                    var current = edge.target
                    while current != start, let step = parent[current] {
                        walk.append(step)
                        current = step.node
                    }
                    return walk.reversed()
                }
            }
            return nil
        }

        mutating func planCover(limits: Limits, machine: Located<String>) throws(Failure) {
            var steps = 0
            // Past the limits, planning goes on (without the paths) to say how many it takes,
            // up to ten times the limits.
            var counted = 0
            func count(_ plan: Plan) throws(Failure) {
                steps += 1 + plan.route.count + plan.extension_.count
                counted += 1
                guard counted > limits.maxPaths || steps > limits.maxSteps else { return }
                plans.removeAll()
                if counted > 10 * limits.maxPaths || steps > 10 * limits.maxSteps {
                    try checkLimits(counted, steps, limits, machine, counting: true)
                }
            }
            // Each way to start that exercises something new (an initial choice's branches).
            for (root, start) in graph.roots.enumerated() where start.items.contains(where: uncovered.contains) {
                uncovered.subtract(start.items)
                let plan = Plan(root: root, then: extend(from: start.node))
                plans.append(plan)
                try count(plan)
            }
            var scan = 0
            while !uncovered.isEmpty {
                while scan < graph.nodes.count && !isUseful(scan) { scan += 1 }
                guard scan < graph.nodes.count else { break }
                var plan = Plan(to: scan, then: [], purpose: .cover(items: 0), graph)
                uncovered.subtract(graph.roots[plan.root].items)
                for (node, edge) in plan.route { uncovered.subtract(graph.edges[node][edge].items) }
                plan.extension_ = extend(from: scan)
                plans.append(plan)
                try count(plan)
            }
            try checkLimits(counted, steps, limits, machine)
        }

        /// Throws when the paths exceed the limits, with how many it would take (counting on
        /// to at most ten times the limit).
        func checkLimits(
            _ paths: Int, _ steps: Int, _ limits: Limits, _ machine: Located<String>, counting: Bool = false
        ) throws(Failure) {
            guard paths > limits.maxPaths || steps > limits.maxSteps else { return }
            throw Failure(
                description: "machine '\(machine.value)' needs \(counting ? "more than " : "")\(paths) paths of "
                    + "\(steps) steps in all to cover its transitions and show its requirements; the limit is \(limits.maxPaths) paths and "
                    + "\(limits.maxSteps) steps (--max-paths, --max-steps)",
                location: machine.location)
        }
    }

    /// The steps of a plan: the start, the route to its first node, then its extension.
    private func materialize(_ plan: Planner.Plan, _ graph: ConfigurationGraph) -> Path {
        let edges = plan.route + plan.extension_
        var path = Self.path(root: plan.root, edges: edges, graph)
        var last = edges.last.map { graph.edges[$0.node][$0.edge].target } ?? graph.roots[plan.root].node
        // Timers due when the last one fired fire at that instant too (another region's): a
        // path does not end before them.
        while let forced = graph.edges[last].firstIndex(where: { $0.input == .timeout && $0.waited == .zero }) {
            path.steps.append(Self.step(graph.edges[last][forced], from: last, graph))
            last = graph.edges[last][forced].target
        }
        path.purpose = plan.purpose
        if case .cover = plan.purpose {
            var seen = Set<CoverageItem>()
            seen.formUnion(graph.roots[plan.root].items)
            for (node, edge) in edges { seen.formUnion(graph.edges[node][edge].items) }
            path.purpose = .cover(items: seen.count)
        }
        return path
    }

    /// The path of a run through the configuration graph: from a root, along edges.
    static func path(root index: Int, edges: [(node: Int, edge: Int)], _ graph: ConfigurationGraph) -> Path {
        let root = graph.roots[index]
        var steps = [
            described(
                Step(
                    input: .start, conditions: root.conditions, state: graph.nodes[root.node].state,
                    effects: root.effects, waited: .zero), after: root.node, graph)
        ]
        for (node, edge) in edges { steps.append(step(graph.edges[node][edge], from: node, graph)) }
        return Path(purpose: .cover(items: 0), steps: steps)
    }

    private static func step(_ edge: ConfigurationGraph.Edge, from node: Int, _ graph: ConfigurationGraph) -> Step {
        let program = graph.program
        let input: Step.Input
        var waited = Duration.zero
        switch edge.input {
        case .event(let event): input = .event(event)
        case .timeout:
            input =
                edge.firedCompound.map(Step.Input.compoundTimeout) ?? edge.firedState.map(Step.Input.stateTimeout)
                ?? .timeout
            waited = edge.waited
        case .relaunch: input = .relaunch(stored: graph.nodes[node].storedText(program))
        case .conditionsChanged: input = .conditionsChanged
        }
        return described(
            Step(
                input: input, conditions: edge.conditions, state: graph.nodes[edge.target].state, effects: edge.effects,
                waited: waited), after: edge.target, graph)
    }

    /// A step with what the node it leads to says: its states and its timers.
    private static func described(_ step: Step, after node: Int, _ graph: ConfigurationGraph) -> Step {
        let program = graph.program
        var step = step
        let runtime = graph.reached[node]
        step.states = runtime.states
        step.timeoutTargets = runtime.armedTimeouts(program).map(\.target)
        step.timeoutOwners = runtime.armedTimeoutOwners(program).map {
            Step.Owner(state: $0.state, compound: $0.compound)
        }
        return step
    }

    private func stateIndex(_ name: String) -> Int? { program.states.firstIndex { $0.name == name } }

    /// The path of a `within` requirement: the shortest run to its `from` state, then the
    /// timeouts and branches that take longest to reach a goal or an input state.
    private mutating func withinPath(
        _ requirement: Int, from: String, to: [String], max: Duration, _ graph: ConfigurationGraph
    ) {
        guard let start = stateIndex(from) else { return }
        let goals = Set(to.compactMap(stateIndex))
        guard let node = graph.nodes.indices.first(where: { graph.nodes[$0].states.contains(start) }) else {
            let reason =
                program.states[start].kind == .choice
                ? "'\(from)' is a choice state, which a run never stays in" : "'\(from)' is not reachable"
            skippedRequirements.append((requirement, "within from '\(from)': \(reason)"))
            return
        }
        guard let worst = WorstRoute(graph: graph, goals: goals).longest(from: node) else {
            skippedRequirements.append(
                (requirement, "within from '\(from)': timeouts and branches from it can loop, so it has no worst case"))
            return
        }
        var path = materialize(.init(to: node, then: worst.edges, purpose: .cover(items: 0), graph), graph)
        path.purpose = .within(
            requirement: requirement, from: path.steps.count - 1 - worst.edges.count, worst: worst.time, max: max)
        paths.append(path)
    }

    /// A path per property: the shortest run that shows it at work, or, for one refuted, the
    /// shortest run that breaks it. They are searched on a graph of their own, every
    /// configuration explored, so that the cover paths stay as they are.
    private mutating func propertyPaths(_ requirements: [Requirement]) {
        let properties = requirements.enumerated().filter(\.element.isProperty)
        guard !properties.isEmpty else { return }
        let graph: ConfigurationGraph
        switch PropertyCheck.configurations(of: program, for: properties.map(\.element)) {
        case .success(let explored): graph = explored
        case .failure(let refusal):
            for (index, requirement) in properties {
                skippedRequirements.append((index, "\(requirement.text): \(refusal.message)"))
            }
            return
        }
        let search = PropertyCheck(program: program, graph: graph)
        for (index, requirement) in properties {
            guard let (property, refutation) = RequirementCheck.property(requirement, search) else { continue }
            switch search.check(property) {
            case .holds:
                guard let route = search.witness(property) else {
                    skippedRequirements.append((index, "\(requirement.text): proved, and no run has it to show"))
                    continue
                }
                var path = route.path(graph)
                path.purpose = .witness(requirement: index, text: requirement.text)
                paths.append(path)
            case .broken(let counterexample):
                var path = counterexample.route.path(graph)
                path.purpose = .counterexample(requirement: index, text: requirement.text, refutation: refutation)
                paths.append(path)
            case .refused(let why):
                skippedRequirements.append((index, "\(requirement.text): \(why)"))
            }
        }
    }

    /// Paths that reach an `alwaysReachable` target from each state the paths so far visit
    /// without reaching it afterwards: the shortest run to the state, then the shortest run on.
    private mutating func reachPaths(
        _ requirement: Int, target name: String, _ graph: ConfigurationGraph
    ) {
        guard let target = stateIndex(name) else { return }
        var shown = Set<Int>()
        for path in paths {
            guard let last = path.steps.lastIndex(where: { $0.states.contains(target) }) else { continue }
            for step in path.steps[...last] { shown.formUnion(step.states) }
        }
        let toward = graph.routesToward(target)
        var visited: [Int] = []
        var seen = Set<Int>()
        for path in paths {
            for step in path.steps {
                for state in step.states where seen.insert(state).inserted { visited.append(state) }
            }
        }
        for state in visited where !shown.contains(state) {
            guard
                let node = graph.nodes.indices.first(where: {
                    graph.nodes[$0].states.contains(state) && toward[$0] != nil
                })
            else { continue }
            var extension_: [(node: Int, edge: Int)] = []
            var current = node
            while !graph.nodes[current].states.contains(target), let edge = toward[current] {
                extension_.append((current, edge))
                current = graph.edges[current][edge].target
            }
            var path = materialize(.init(to: node, then: extension_, purpose: .cover(items: 0), graph), graph)
            path.purpose = .reach(requirement: requirement, target: target)
            for step in path.steps { shown.formUnion(step.states) }
            paths.append(path)
        }
    }

    /// Why an item is not covered.
    private func unreachableReasons(_ graph: ConfigurationGraph) -> (CoverageItem) -> String {
        var reachedStates = Set<Int>()
        for node in graph.nodes { reachedStates.formUnion(node.states) }
        for edges in graph.edges {
            for edge in edges { for case .state(let state) in edge.items { reachedStates.insert(state) } }
        }
        return { item in
            let from: Int? =
                switch item {
                case .state(let state): state
                case .transition(let state, _, _, _), .always(let state, _, _), .timeout(let state, _),
                    .relaunch(let state), .outcome(let state, _, _):
                    state
                case .machineWide, .compound, .outer, .outerAlways, .outerTimeout, .done, .history: nil
                }
            if let from, !reachedStates.contains(from) {
                return "'\(self.program.states[from].name)' is not reachable"
            }
            if case .always(_, _, true) = item { return "its retry is never used up on a reachable run" }
            if case .outerAlways(_, _, true) = item { return "its retry is never used up on a reachable run" }
            if case .transition(_, _, _, true) = item { return "its retry is never used up on a reachable run" }
            if case .timeout(_, true) = item { return "its retry is never used up on a reachable run" }
            if case .outer(_, _, _, true) = item { return "its retry is never used up on a reachable run" }
            if case .outerTimeout(_, true) = item { return "its retry is never used up on a reachable run" }
            if case .history(let history, let resumed) = item {
                let compound = self.program.compounds[self.program.histories[history].compound].name
                return resumed
                    ? "no reachable run goes to it after leaving '\(compound)'"
                    : "no reachable run goes to it before '\(compound)' is first left"
            }
            if self.program.conditions.count > ConfigurationGraph.maxConditionsTriedExhaustively {
                return "no run found takes it (with more than \(ConfigurationGraph.maxConditionsTriedExhaustively) "
                    + "conditions, each is chosen to take one candidate or branch at a time, not in every combination)"
            }
            return "no reachable run takes it: earlier candidates or conditions always take precedence"
        }
    }
}

extension ConfigurationGraph {
    /// For each node, the first edge of a shortest run to a node in `target` (`nil`: none, or
    /// the node is in `target`).
    func routesToward(_ target: Int) -> [Int?] {
        var incoming = [[(node: Int, edge: Int)]](repeating: [], count: nodes.count)
        for (node, list) in edges.enumerated() {
            for (position, edge) in list.enumerated() { incoming[edge.target].append((node, position)) }
        }
        var next = [Int?](repeating: nil, count: nodes.count)
        var reached = [Bool](repeating: false, count: nodes.count)
        var queue = nodes.indices.filter { nodes[$0].states.contains(target) }
        for node in queue { reached[node] = true }
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            for (from, edge) in incoming[node] where !reached[from] {
                reached[from] = true
                next[from] = edge
                queue.append(from)
            }
        }
        return next
    }
}

/// The run from a configuration that waits longest before reaching a goal or an input state
/// through timeouts alone (the worst case of `within`: no event comes), on the configurations
/// the kernel reaches. `require: within` is judged by the cheaper ``WorstCaseTime`` on the
/// machine's graph; `WorstCaseBoundTests` holds that bound to never being below this.
struct WorstRoute {
    let graph: ConfigurationGraph
    let goals: Set<Int>

    /// The longest run, or `nil` if timeouts can loop.
    func longest(from start: Int) -> (time: Duration, edges: [(node: Int, edge: Int)])? {
        var best: [Int: (time: Duration, edge: Int?)] = [:]
        var onPath = Set<Int>()
        var stack: [(node: Int, next: Int)] = [(start, 0)]
        onPath.insert(start)
        while let (node, next) = stack.last {
            if isEnd(node) {
                best[node] = (.zero, nil)
                stack.removeLast()
                onPath.remove(node)
                continue
            }
            let timeouts = graph.edges[node].indices.filter { graph.edges[node][$0].input == .timeout }
            if next < timeouts.count {
                stack[stack.count - 1].next += 1
                let target = graph.edges[node][timeouts[next]].target
                if onPath.contains(target) { return nil }
                if best[target] == nil {
                    stack.append((target, 0))
                    onPath.insert(target)
                }
                continue
            }
            var choice: (time: Duration, edge: Int?) = (.zero, nil)
            for edge in timeouts {
                let time = graph.edges[node][edge].waited + (best[graph.edges[node][edge].target]?.time ?? .zero)
                if choice.edge == nil || time > choice.time { choice = (time, edge) }
            }
            best[node] = choice
            stack.removeLast()
            onPath.remove(node)
        }
        var edges: [(node: Int, edge: Int)] = []
        var node = start
        while let edge = best[node]?.edge {
            edges.append((node, edge))
            node = graph.edges[node][edge].target
        }
        return (best[start]?.time ?? .zero, edges)
    }

    /// A goal is reached, or nothing happens without an event: every state the flow is in
    /// waits for the user (or has ended, with parallel regions, beside one that waits).
    private func isEnd(_ node: Int) -> Bool {
        let states = graph.nodes[node].states
        return states.contains(where: goals.contains)
            || states.allSatisfy { [.input, .terminal].contains(graph.program.states[$0].kind) }
                && states.contains { graph.program.states[$0].kind == .input }
    }
}
