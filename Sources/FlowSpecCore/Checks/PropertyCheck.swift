/// The properties of `require` that hold on every run (`never`, `before`, `between`,
/// `everyEntry`, `leadsTo`, `atMost`, `whenever`), proved over the machine's configurations,
/// or refuted with the shortest run that breaks them (`requirement-failed`, part of
/// ``RequirementCheck``).
///
/// The configurations are those test paths are planned on (``ConfigurationGraph``): the
/// states, retry counters, what compound states remember and the time left on each timer,
/// with every combination of the conditions tried at each input. Each property is an
/// observer: a few states (seen or not, inside a scope or not, a count) that read what each
/// step does, and that either go on or find the property broken. The search runs on the
/// product of the configurations and the observer's state, breadth first, so the first run
/// that breaks a safety property is a shortest one. `leadsTo` is broken by a run that never
/// reaches its goal: the product is searched to the end, then for a node where the flow stops,
/// or a loop the flow runs on its own. Each counterexample is written as a trace that
/// `flowspec simulate --replay` accepts.
///
/// A machine whose configurations are more than the bound, or which has more conditions than
/// are tried in every combination, is not searched: its properties are refused
/// (`limit-exceeded` at each), never taken as proved.
struct PropertyCheck {
    /// A state or compound state a property names, by index in the program.
    indirect enum Place: Equatable {
        case state(Int)
        case compound(Int)
        /// Any of these (`never: [a, b]`).
        case any([Place])
    }

    /// What `before` waits for.
    enum Milestone {
        /// The run has been in the place.
        case place(Place)
        /// The run has run the effect (by index), at the latest in the step that enters `then`.
        case effect(Int)
    }

    /// One property.
    enum Property {
        /// No run enters the place; with a condition (by index), no step enters it at an input
        /// where the condition holds.
        case never(Place, while: Int?)
        /// No run enters `then` before the milestone; with `after`, counted afresh from each
        /// entry to it, and nothing is required before the first.
        case before(first: Milestone, then: Place, after: Place?)
        /// From each entry to `after` until the next entry to `until`, no run enters `never`.
        case between(after: Place, until: Place, never: Place)
        /// Every step that enters the place runs the effect (by index).
        case everyEntry(Place, runs: Int)
        /// After each entry to `from`, the run enters `to`, unless it waits on the user.
        case leadsTo(from: Place, to: Place)
        /// No run takes the event (by index) more than `times` times in a row without entering
        /// `before`: a step on any other input starts the count again.
        case atMost(times: Int, of: Int, before: Place)
        /// In every configuration a run reaches, unless every state it is in is terminal, the
        /// event (by index) is handled under every combination of the conditions, and leads
        /// into `to`. Checked on each configuration, not by an observer.
        case whenever(event: Int, to: Place)

        /// How many states its observer has.
        var observerStates: Int {
            switch self {
            case .never, .everyEntry, .whenever: 1
            case .between, .leadsTo: 2
            case .before: 3
            case .atMost(let times, _, _): times + 1
            }
        }

        /// The observer's state at the start: `before` without `after` watches from the start.
        var startState: Int {
            if case .before(_, _, nil) = self { return Observer.watching }
            return 0
        }
    }

    /// The states of the observers.
    enum Observer {
        /// `before`: not watching (until `after` is entered), watching, milestone passed.
        static let idle = 0
        static let watching = 1
        static let passed = 2
        /// `between`: inside the scope; `leadsTo`: waiting for `to`.
        static let inside = 1
    }

    /// What a search found.
    enum Outcome: Equatable {
        /// The property holds on every run.
        case holds
        /// A shortest run that breaks it, as trace lines.
        case broken(Counterexample)
        /// Not searched: the product of the configurations and the observer is too large.
        case refused(String)
    }

    /// A run that breaks a property.
    struct Counterexample: Equatable {
        /// The run, as a root of the graph and edges from it.
        var route: Route
        /// The trace lines, for `flowspec simulate --replay`.
        var lines: [String]
        /// For a run that never reaches `leadsTo`'s goal: how it goes on.
        var ending: Ending?

        /// Whether it is a run that never reaches `leadsTo`'s goal.
        var neverArrives: Bool {
            switch ending {
            case .stops, .repeats: true
            case .ignores, nil: false
            }
        }

        /// The inputs after the start: the lines that are steps (not conditions or notes).
        var steps: Int {
            lines.count { if case .step = TraceLine.read($0[...]) { true } else { false } } - 1
        }
    }

    /// A run in the graph: a root and the edges from it, each by node and position.
    struct Route: Equatable {
        var root: Int
        var edges: [Edge]

        init(root: Int, edges: [(node: Int, edge: Int)]) {
            self.root = root
            self.edges = edges.map { Edge(node: $0.node, edge: $0.edge) }
        }

        struct Edge: Equatable {
            var node: Int
            var edge: Int
        }

        /// The path the route takes, as `flowspec paths` writes paths.
        func path(_ graph: ConfigurationGraph) -> PathCover.Path {
            PathCover.path(root: root, edges: edges.map { ($0.node, $0.edge) }, graph)
        }
    }

    /// How a run that never reaches `leadsTo`'s goal goes on after its last step.
    enum Ending: Equatable {
        /// The flow stops in this state: nothing can happen any more.
        case stops(String)
        /// Its last `count` steps, which the flow takes on its own, repeat forever.
        case repeats(count: Int)
        /// For a `whenever`: the event is ignored in the state the run ends in (its last line,
        /// with a flat machine), under the conditions given (`+name` for each that holds).
        case ignores(event: String, state: String, conditions: String)
    }

    let program: FlowProgram
    let graph: ConfigurationGraph

    /// The most nodes of a product that is searched: configurations times observer states.
    static let maxProductNodes = 4_000_000

    /// The machine's configurations, or why they cannot all be searched: more than `bound`
    /// (by default, as many as `flowspec paths` explores). Each `watched` condition's values
    /// are kept apart on every input.
    static func configurations(
        of program: FlowProgram, bound: Int? = nil, watching watched: [Int] = []
    ) -> Result<ConfigurationGraph, Refusal> {
        if program.conditions.count > ConfigurationGraph.maxConditionsTriedExhaustively {
            return .failure(
                Refusal(
                    message:
                        "the machine has \(program.conditions.count) conditions, and properties are proved with every "
                        + "combination of at most \(ConfigurationGraph.maxConditionsTriedExhaustively)"))
        }
        let bound = bound ?? PathCover.Limits().maxConfigurations(for: program)
        do {
            return .success(try ConfigurationGraph(program: program, bound: bound, watching: watched))
        } catch {
            return .failure(
                Refusal(
                    message: "the machine has \(error.description), the most a property is searched over"))
        }
    }

    /// The configurations `requirements` are searched over: with the values of each condition
    /// a `never … while` reads kept apart.
    static func configurations(of program: FlowProgram, for requirements: [Requirement]) -> Result<
        ConfigurationGraph, Refusal
    > {
        let watched = requirements.compactMap { requirement -> Int? in
            guard case .never(_, _, let condition?) = requirement else { return nil }
            return program.conditions.firstIndex { $0.name == condition.value }
        }
        return configurations(of: program, watching: watched)
    }

    /// Why a machine's properties are not searched.
    struct Refusal: Error {
        let message: String
    }

    /// The place a name stands for.
    func place(_ name: String) -> Place? {
        if let state = program.states.firstIndex(where: { $0.name == name }) { return .state(state) }
        return program.compounds.firstIndex { $0.name == name }.map(Place.compound)
    }

    /// The place any of the names stands for, if each is a state or compound state.
    func place(_ names: [String]) -> Place? {
        let places = names.compactMap(place)
        guard places.count == names.count, let first = places.first else { return nil }
        return places.count == 1 ? first : .any(places)
    }

    /// What a step does, as an observer reads it.
    struct Step {
        /// `nil` at the start.
        var input: ConfigurationGraph.Input?
        var conditions: [Bool]
        var effects: [Int]
        /// The states it enters, in order (the compound states around each are entered too).
        var entered: [Int]
    }

    /// Searches the product for a run that breaks `property`.
    func check(_ property: Property) -> Outcome {
        if case .whenever(let event, let to) = property { return checkWhenever(event, to) }
        let states = property.observerStates
        guard graph.nodes.count <= Self.maxProductNodes / states else {
            return .refused(
                "its search would follow \(graph.nodes.count) configurations times \(states) counts, more than "
                    + "\(Self.maxProductNodes)")
        }
        let (broken, search) = firstStep(property) { step, state in observe(property, step, state) == nil }
        if let broken { return .broken(counterexample(broken)) }
        guard case .leadsTo = property else { return .holds }
        return neverArrives(property, search).map(Outcome.broken) ?? .holds
    }

    /// The shortest run that shows a property holding where it has something to show: its
    /// state entered the way it allows (`then` once `first` is passed, `until` from `after`,
    /// `to` from `from`, `to` of `everyEntry`, `in` of `never` while the condition does not
    /// hold, `before` by the counted event). `nil` for `never` without `while`, or when no run
    /// gets there.
    func witness(_ property: Property) -> Route? {
        guard graph.nodes.count <= Self.maxProductNodes / property.observerStates else { return nil }
        return firstStep(property) { step, state in shows(property, step, state) }.found
    }

    /// Searches the product breadth first, following the steps the observer lets through, for
    /// the first step that `isSought` (taken with the observer in the given state): the
    /// shortest run that ends with it, and the search as it stopped.
    private func firstStep(_ property: Property, where isSought: (Step, Int) -> Bool) -> (
        found: Route?, search: ProductSearch
    ) {
        let states = property.observerStates
        var search = ProductSearch(nodeCount: graph.nodes.count, observerStates: states)
        for (index, root) in graph.roots.enumerated() {
            let step = Step(
                input: nil, conditions: root.conditions, effects: root.effects, entered: entered(root.items))
            if isSought(step, property.startState) { return (Route(root: index, edges: []), search) }
            guard let state = observe(property, step, property.startState) else { continue }
            search.reach(root.node * states + state, from: .root(index))
        }
        while let current = search.next() {
            let node = current / states
            for (position, edge) in graph.edges[node].enumerated() {
                let step = step(edge, from: node)
                if isSought(step, current % states) {
                    let (root, edges) = search.route(to: current, states)
                    return (Route(root: root, edges: edges + [(node, position)]), search)
                }
                guard let state = observe(property, step, current % states) else { continue }
                search.reach(edge.target * states + state, from: .edge(from: current, edge: position))
            }
        }
        return (nil, search)
    }

    /// Whether a step, taken with the observer in `state`, shows the property at work.
    private func shows(_ property: Property, _ step: Step, _ state: Int) -> Bool {
        func enters(_ place: Place) -> Bool { step.entered.contains { isIn($0, place) } }
        switch property {
        case .never(_, nil):
            return false
        case .never(let place, let condition?):
            return !step.conditions[condition] && enters(place)
        case .everyEntry(let place, _):
            return enters(place)
        case .before(_, let then, _):
            return enters(then) && observe(property, step, state) == Observer.passed
        case .between(_, let until, _):
            return state == Observer.inside && enters(until)
        case .leadsTo(let from, let to):
            var waiting = state == Observer.inside
            for entered in step.entered {
                if isIn(entered, from) { waiting = true }
                if waiting, isIn(entered, to) { return true }
            }
            return false
        case .atMost(_, let event, let before), .whenever(let event, let before):
            return step.input == .event(event) && enters(before)
        }
    }

    /// For a `leadsTo`, searched to the end: the shortest run to a node waiting for `to` where
    /// the flow stops, or from which it can loop on its own without entering `to`.
    private func neverArrives(_ property: Property, _ search: ProductSearch) -> Counterexample? {
        let states = 2
        let waiting = search.order.filter { $0 % states == Observer.inside }
        // The waiting nodes with a step the flow takes on its own to another waiting node; a
        // node none of whose such steps stay among them is peeled off, until only nodes on or
        // before a loop remain.
        var successors: [Int: [(target: Int, edge: Int)]] = [:]
        var predecessors: [Int: [Int]] = [:]
        for product in waiting {
            let node = product / states
            for (position, edge) in graph.edges[node].enumerated() where isAutomatic(edge, from: node) {
                guard observe(property, step(edge, from: node), Observer.inside) == Observer.inside else { continue }
                let target = edge.target * states + Observer.inside
                successors[product, default: []].append((target, position))
                predecessors[target, default: []].append(product)
            }
        }
        var outDegree = successors.mapValues(\.count)
        var peel = waiting.filter { outDegree[$0, default: 0] == 0 }
        var removed = Set(peel)
        while let product = peel.popLast() {
            for predecessor in predecessors[product] ?? [] where !removed.contains(predecessor) {
                outDegree[predecessor, default: 0] -= 1
                if outDegree[predecessor] == 0 {
                    removed.insert(predecessor)
                    peel.append(predecessor)
                }
            }
        }
        var found: [Counterexample] = []
        if let stops = waiting.first(where: { graph.edges[$0 / states].isEmpty }) {
            let (root, edges) = search.route(to: stops, states)
            let state = program.states[graph.nodes[stops / states].state].name
            found.append(counterexample(root: root, edges: edges, ending: .stops(state)))
        }
        // Breadth-first order: the first node left is as close to the start as any.
        if let first = waiting.first(where: { !removed.contains($0) }) {
            var (root, edges) = search.route(to: first, states)
            // Walk the steps left until a node comes round again.
            var walked: [Int] = [first]
            var current = first
            while true {
                let (target, position) = successors[current]!.first { !removed.contains($0.target) }!
                edges.append((current / states, position))
                if let start = walked.firstIndex(of: target) {
                    let ending = Ending.repeats(count: walked.count - start)
                    found.append(counterexample(root: root, edges: edges, ending: ending))
                    break
                }
                walked.append(target)
                current = target
            }
        }
        // The run with fewer steps; of two as short, the one that stops.
        return found.min { $0.steps < $1.steps }
    }

    /// `whenever`: each configuration in breadth-first order (so the first found is reached by
    /// a shortest run), unless the flow has ended there, takes the event under every
    /// combination of the conditions into `to`. One that takes it elsewhere is shown by its
    /// edge; one that ignores it, by a note.
    private func checkWhenever(_ event: Int, _ to: Place) -> Outcome {
        let vectors = (0..<(1 << program.conditions.count)).map { bits in
            program.conditions.indices.map { bits & (1 << $0) != 0 }
        }
        for node in graph.nodes.indices
        where !graph.nodes[node].states.allSatisfy({ program.states[$0].kind == .terminal }) {
            for conditions in vectors {
                var runtime = graph.reached[node]
                if runtime.send(event, program, conditions: conditions) != nil {
                    guard !runtime.states.contains(where: { isIn($0, to) }) else { continue }
                    // The edge of an outcome outside `to`, to end the run where it leads.
                    let position = graph.edges[node].firstIndex {
                        $0.input == .event(event) && !graph.nodes[$0.target].states.contains { isIn($0, to) }
                    }
                    let (root, edges) = graph.route(to: node)
                    return .broken(counterexample(root: root, edges: edges + (position.map { [(node, $0)] } ?? [])))
                }
                let (root, edges) = graph.route(to: node)
                let held = program.conditions.indices.filter { conditions[$0] }.map {
                    "+" + program.conditions[$0].name
                }
                let state = program.states[graph.nodes[node].state].name
                let ending = Ending.ignores(
                    event: program.events[event].name, state: state,
                    conditions: held.isEmpty ? "" : " (with " + held.joined(separator: " ") + ")")
                var found = counterexample(root: root, edges: edges, ending: ending)
                if !program.hasParallel { found.lines += ignoredStep(event, conditions, after: found) }
                return .broken(found)
            }
        }
        return .holds
    }

    /// The trace lines of an event ignored at the end of a run, as `flowspec simulate` writes
    /// them: the conditions that change, then the step, which keeps the state and its timer.
    private func ignoredStep(_ event: Int, _ conditions: [Bool], after run: Counterexample) -> [String] {
        let path = run.route.path(graph)
        guard let last = path.steps.last else { return [] }
        var lines: [String] = []
        for (index, value) in conditions.enumerated() where value != last.conditions[index] {
            lines.append(TraceLine.condition(program.conditions[index].name, holds: value))
        }
        lines.append(
            Trace.line(
                input: TraceLine.Input.event(program.events[event].name).text, state: last.state, program: program,
                ignored: true, effects: [], targets: last.timeoutTargets))
        return lines
    }

    /// Whether the flow takes the step on its own: a timer fires, or the work of a task state
    /// it is in ends (an event the task state handles itself). Events in input states, and
    /// relaunches, are the user's. A task's event that stays (a transition without a target)
    /// is its work's end too, but the work is not started again: only once, so no step the
    /// flow keeps taking on its own.
    private func isAutomatic(_ edge: ConfigurationGraph.Edge, from node: Int) -> Bool {
        switch edge.input {
        case .timeout: true
        case .relaunch, .conditionsChanged: false
        case .event(let event):
            !edge.stays
                && graph.nodes[node].states.contains { state in
                    let details = program.states[state]
                    return details.kind == .task
                        && details.transitions.indices.contains {
                            details.transitions[$0].event == event && details.scopes[$0] == .own
                        }
                }
        }
    }

    /// The states an edge's step enters: none again that a relaunch restores.
    private func step(_ edge: ConfigurationGraph.Edge, from node: Int) -> Step {
        var states = entered(edge.items)
        if edge.input == .relaunch {
            let before = graph.nodes[node].states
            states.removeAll { before.contains($0) }
        }
        return Step(input: edge.input, conditions: edge.conditions, effects: edge.effects, entered: states)
    }

    private func entered(_ items: [CoverageItem]) -> [Int] {
        items.compactMap { if case .state(let state) = $0 { state } else { nil } }
    }

    /// The counterexample that takes a route.
    private func counterexample(root: Int, edges: [(node: Int, edge: Int)], ending: Ending? = nil) -> Counterexample {
        counterexample(Route(root: root, edges: edges), ending: ending)
    }

    private func counterexample(_ route: Route, ending: Ending? = nil) -> Counterexample {
        Counterexample(route: route, lines: PathReport.traceLines(route.path(graph), program), ending: ending)
    }

    /// The observer's state after a step, or `nil` when the step breaks the property.
    func observe(_ property: Property, _ step: Step, _ state: Int) -> Int? {
        switch property {
        case .never(let place, let condition):
            let holds = condition.map { step.conditions[$0] } ?? true
            return holds && step.entered.contains { isIn($0, place) } ? nil : state
        case .everyEntry(let place, let effect):
            return !step.effects.contains(effect) && step.entered.contains { isIn($0, place) } ? nil : state
        case .before(let first, let then, let after):
            return observeBefore(first, then, after, step, state)
        case .between(let after, let until, let never):
            var state = state
            for entered in step.entered {
                if state == Observer.inside, isIn(entered, never) { return nil }
                if isIn(entered, until) { state = Observer.idle }
                if isIn(entered, after) { state = Observer.inside }
            }
            return state
        case .leadsTo(let from, let to):
            var state = state
            for entered in step.entered {
                if isIn(entered, from) { state = Observer.inside }
                if isIn(entered, to) { state = Observer.idle }
            }
            return state
        case .atMost(let times, let event, let before):
            guard step.input == .event(event), !step.entered.contains(where: { isIn($0, before) }) else { return 0 }
            return state < times ? state + 1 : nil
        case .whenever:
            return state
        }
    }

    private func observeBefore(_ first: Milestone, _ then: Place, _ after: Place?, _ step: Step, _ state: Int) -> Int? {
        var state = state
        var ranEffect = false
        if case .effect(let effect) = first { ranEffect = step.effects.contains(effect) }
        for entered in step.entered {
            if let after, isIn(entered, after) { state = Observer.watching }
            guard state == Observer.watching else { continue }
            switch first {
            case .effect:
                if isIn(entered, then), !ranEffect { return nil }
            case .place(let first):
                let inFirst = isIn(entered, first)
                // Entering `then` and `first` at once is fine when `first` holds `then` (or is
                // it): the states around a state are entered before it.
                if isIn(entered, then), !(inFirst && holds(first, then)) { return nil }
                if inFirst { state = Observer.passed }
            }
        }
        return ranEffect && state == Observer.watching ? Observer.passed : state
    }

    /// Whether the flow in `state` is in `place`.
    private func isIn(_ state: Int, _ place: Place) -> Bool {
        switch place {
        case .state(let target): state == target
        case .compound(let compound): program.states[state].ancestors.contains(compound)
        case .any(let places): places.contains { isIn(state, $0) }
        }
    }

    /// Whether `outer` is `inner`, or a compound state around it.
    private func holds(_ outer: Place, _ inner: Place) -> Bool {
        guard outer != inner else { return true }
        guard case .compound(let compound) = outer else { return false }
        switch inner {
        case .state(let state): return program.states[state].ancestors.contains(compound)
        case .compound(let other):
            var current = program.compounds[other].parent
            while let parent = current {
                if parent == compound { return true }
                current = program.compounds[parent].parent
            }
            return false
        case .any: return false
        }
    }
}

/// A breadth-first search of the product of the configurations and an observer's states: a
/// product node is `configuration * observerStates + state`.
private struct ProductSearch {
    /// How a node of the product was first reached.
    enum Reached {
        case root(Int)
        case edge(from: Int, edge: Int)
    }

    /// Per product node: how it was reached, if it was.
    private var reached: [Reached?]
    /// Per product node: its position in ``order`` (`-1`: not reached).
    private var ranks: [Int32]
    /// The product nodes in the order reached.
    private(set) var order: [Int] = []
    private var head = 0

    init(nodeCount: Int, observerStates: Int) {
        reached = Array(repeating: nil, count: nodeCount * observerStates)
        ranks = Array(repeating: -1, count: nodeCount * observerStates)
    }

    mutating func reach(_ product: Int, from how: Reached) {
        guard reached[product] == nil else { return }
        reached[product] = how
        ranks[product] = Int32(order.count)
        order.append(product)
    }

    /// The next product node to search from, breadth first.
    mutating func next() -> Int? {
        guard head < order.count else { return nil }
        head += 1
        return order[head - 1]
    }

    func isReached(_ product: Int) -> Bool { reached[product] != nil }

    /// The position of a reached product node in breadth-first order.
    func rank(_ product: Int) -> Int32 { ranks[product] }

    /// The root and the edges from it to a product node.
    func route(to product: Int, _ observerStates: Int) -> (root: Int, edges: [(node: Int, edge: Int)]) {
        var edges: [(node: Int, edge: Int)] = []
        var current = product
        while true {
            switch reached[current] {
            case .edge(let from, let edge):
                edges.append((from / observerStates, edge))
                current = from
            case .root(let root):
                return (root, edges.reversed())
            case nil:
                return (0, edges.reversed())
            }
        }
    }
}
