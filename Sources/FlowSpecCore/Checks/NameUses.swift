/// Every use of an event, condition and effect name in a machine, in source order.
struct NameUses {
    /// The three lists a machine may declare.
    enum Category: String, CaseIterable {
        case event, condition, effect

        /// The machine key that declares names of this category.
        var key: String { rawValue + "s" }

        /// The machine's declared list of this category, if given.
        func declared(in machine: Machine) -> [Located<String>]? {
            switch self {
            case .event: machine.events
            case .condition: machine.conditions
            case .effect: machine.effects
            }
        }
    }

    private(set) var uses: [Category: [Located<String>]] = [:]

    init(_ machine: Machine) {
        for transition in machine.machineWide { add(transition) }
        for state in machine.states {
            for transition in state.transitions { add(transition) }
            for candidate in state.always?.value ?? [] { add(candidate) }
            if let timeout = state.timeout {
                uses[.effect, default: []].append(contentsOf: timeout.effects)
            }
        }
    }

    private mutating func add(_ transition: EventTransition) {
        uses[.event, default: []].append(transition.event)
        for candidate in transition.candidates { add(candidate) }
    }

    private mutating func add(_ candidate: Candidate) {
        if let condition = candidate.condition { uses[.condition, default: []].append(condition) }
        if let condition = candidate.unlessCondition { uses[.condition, default: []].append(condition) }
        uses[.effect, default: []].append(contentsOf: candidate.effects)
    }

    /// The uses of one category.
    subscript(category: Category) -> [Located<String>] { uses[category] ?? [] }

    /// The events of a machine without an `events:` list: each used name once, at its first
    /// use in the file (machine-wide `on` may come before or after `states`).
    static func derivedEvents(_ machine: Machine) -> [Located<String>] {
        let uses = NameUses(machine)[.event].enumerated().sorted {
            ($0.element.location, $0.offset) < ($1.element.location, $1.offset)
        }.map(\.element)
        var seen = Set<String>()
        return uses.filter { seen.insert($0.value).inserted }
    }
}
