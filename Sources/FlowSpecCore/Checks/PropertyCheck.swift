/// The properties of `require` that hold on every run (`never`, `before`), proved over the
/// machine's configurations, or refuted with the shortest run that breaks them
/// (`requirement-failed`, part of ``RequirementCheck``).
///
/// The configurations are those test paths are planned on (``ConfigurationGraph``): the
/// states, retry counters, what compound states remember and the time left on each timer,
/// with every combination of the conditions tried at each input. Each property is an
/// observer that reads the states each step enters, in order; the search runs on the product
/// of the configurations and the observer's state, breadth first, so the first run that
/// breaks a property is a shortest one. It is written as a trace that
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

    /// One property.
    enum Property {
        /// No run enters the place.
        case never(Place)
        /// No run enters `then` before it has been in `first`.
        case before(first: Place, then: Place)
        /// Every step that enters the place runs the effect (by index).
        case everyEntry(Place, runs: Int)
    }

    let program: FlowProgram
    let graph: ConfigurationGraph

    /// The machine's configurations, or why they cannot all be searched: more than `bound`
    /// (by default, as many as `flowspec paths` explores).
    static func configurations(of program: FlowProgram, bound: Int? = nil) -> Result<ConfigurationGraph, Refusal> {
        if program.conditions.count > ConfigurationGraph.maxConditionsTriedExhaustively {
            return .failure(
                Refusal(
                    message:
                        "the machine has \(program.conditions.count) conditions, and properties are proved with every "
                        + "combination of at most \(ConfigurationGraph.maxConditionsTriedExhaustively)"))
        }
        let bound = bound ?? PathCover.Limits().maxConfigurations(for: program)
        do {
            return .success(try ConfigurationGraph(program: program, bound: bound))
        } catch {
            return .failure(
                Refusal(
                    message:
                        "the machine has more than \(error.bound) configurations (its states, retry counts and the "
                        + "time left on each timer armed), the most a property is searched over"))
        }
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

    /// How a node of the product (a configuration and the observer's state) was first reached.
    private enum Reached {
        case root(Int)
        case edge(from: Int, edge: Int)
    }

    /// The shortest run that breaks `property`, as trace lines, or `nil` when it holds.
    func counterexample(_ property: Property) -> [String]? {
        // A product node is `configuration * 2 + seen`.
        var reached: [Int: Reached] = [:]
        var queue: [Int] = []
        for (index, root) in graph.roots.enumerated() {
            switch observe(property, root.items, effects: root.effects, seen: false) {
            case .broken: return trace(root: index, edges: [])
            case .holds(let seen):
                let start = root.node * 2 + (seen ? 1 : 0)
                guard reached[start] == nil else { continue }
                reached[start] = .root(index)
                queue.append(start)
            }
        }
        var head = 0
        while head < queue.count {
            let current = queue[head]
            head += 1
            let node = current / 2
            for (position, edge) in graph.edges[node].enumerated() {
                switch observe(property, edge.items, effects: edge.effects, seen: current % 2 == 1) {
                case .broken:
                    let (root, edges) = route(to: current, reached)
                    return trace(root: root, edges: edges + [(node, position)])
                case .holds(let seen):
                    let next = edge.target * 2 + (seen ? 1 : 0)
                    guard reached[next] == nil else { continue }
                    reached[next] = .edge(from: current, edge: position)
                    queue.append(next)
                }
            }
        }
        return nil
    }

    /// The root and the edges from it to a product node.
    private func route(to product: Int, _ reached: [Int: Reached]) -> (root: Int, edges: [(node: Int, edge: Int)]) {
        var edges: [(node: Int, edge: Int)] = []
        var current = product
        while true {
            switch reached[current] {
            case .edge(let from, let edge):
                edges.append((from / 2, edge))
                current = from
            case .root(let root):
                return (root, edges.reversed())
            case nil:
                return (0, edges.reversed())
            }
        }
    }

    private func trace(root: Int, edges: [(node: Int, edge: Int)]) -> [String] {
        PathReport.traceLines(PathCover.path(root: root, edges: edges, graph), program)
    }

    /// What an observer makes of the states a step enters, in order.
    enum Observation {
        case holds(seen: Bool)
        case broken
    }

    /// Reads the states a step enters (each `.state` item, with the compound states around it
    /// active too) and the effects it runs: `seen` is whether the run has been in `before`'s
    /// `first`.
    func observe(_ property: Property, _ items: [CoverageItem], effects: [Int], seen: Bool) -> Observation {
        var seen = seen
        for case .state(let state) in items {
            switch property {
            case .never(let place):
                if isIn(state, place) { return .broken }
            case .everyEntry(let place, let effect):
                if isIn(state, place), !effects.contains(effect) { return .broken }
            case .before(let first, let then):
                let inFirst = isIn(state, first)
                // Entering `then` and `first` at once is fine when `first` holds `then` (or is
                // it): the states around a state are entered before it.
                if isIn(state, then), !seen, !(inFirst && holds(first, then)) { return .broken }
                if inFirst { seen = true }
            }
        }
        return .holds(seen: seen)
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
