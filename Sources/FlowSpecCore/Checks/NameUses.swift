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

    private(set) var events: [Located<String>] = []
    private(set) var conditions: [Located<String>] = []
    private(set) var effects: [Located<String>] = []

    init(_ machine: Machine) {
        // Exactly, as growing would copy the largest list of the analysis several times.
        events.reserveCapacity(machine.states.indices.reduce(machine.machineWide.count) {
            $0 + machine.states[$1].transitions.count
        })
        add(machine.machineWide)
        for index in machine.states.indices {
            add(machine.states[index].transitions)
            for candidate in machine.states[index].always?.value ?? [] { add(candidate) }
            if let timeout = machine.states[index].timeout {
                effects.append(contentsOf: timeout.effects)
            }
        }
    }

    /// Reads the transitions in place: copying each one costs more than the rest of this pass.
    private mutating func add(_ transitions: [EventTransition]) {
        for position in transitions.indices {
            events.append(transitions[position].event)
            guard transitions[position].candidates.contains(where: \.hasExtras) else { continue }
            for candidate in transitions[position].candidates { add(candidate) }
        }
    }

    private mutating func add(_ candidate: Candidate) {
        if let condition = candidate.condition { conditions.append(condition) }
        if let condition = candidate.unlessCondition { conditions.append(condition) }
        effects.append(contentsOf: candidate.effects)
    }

    /// The uses of one category.
    subscript(category: Category) -> [Located<String>] {
        switch category {
        case .event: events
        case .condition: conditions
        case .effect: effects
        }
    }

    /// The events of a machine without an `events:` list: each used name once, at its first
    /// use in the file (machine-wide `on` may come before or after `states`).
    static func derivedEvents(_ machine: Machine) -> [Located<String>] {
        NameUses(machine).derivedEvents
    }

    /// ``derivedEvents(_:)`` from these uses.
    var derivedEvents: [Located<String>] {
        let uses = events.enumerated().sorted {
            ($0.element.location, $0.offset) < ($1.element.location, $1.offset)
        }.map(\.element)
        var seen = Set<String>()
        return uses.filter { seen.insert($0.value).inserted }
    }
}
