/// Every name of a machine that becomes a Swift identifier, with the scope it lands in.
struct IdentifierNames {
    /// One named thing of the machine.
    struct Entry {
        var kind: String
        var name: Located<String>
        var scope: SwiftName.Scope
        /// Names in the same group must map to different identifiers.
        var group: String
        /// The Swift identifier the name becomes, or why it cannot.
        var identifier: Result<SwiftName, SwiftName.ProblemError>

        init(kind: String, name: Located<String>, scope: SwiftName.Scope, group: String) {
            self.kind = kind
            self.name = name
            self.scope = scope
            self.group = group
            self.identifier = SwiftName.make(name.value, scope: scope)
        }
    }

    /// The entries, group by group: states, events, effects, conditions, sequences.
    let entries: [Entry]

    /// The names of a machine; `uses` gives the events when the machine does not list them.
    init(_ machine: Machine, events uses: @autoclosure () -> NameUses) {
        let events = machine.events ?? uses().derivedEvents
        var entries: [Entry] = []
        // Exactly: growing past a guess would double the largest array of the analysis.
        entries.reserveCapacity(machine.states.count + events.count + (machine.effects?.count ?? 0)
                                + (machine.conditions?.count ?? 0) + machine.sequences.count)
        for index in machine.states.indices {
            entries.append(Entry(kind: "state", name: machine.states[index].name, scope: .enumCase, group: "State"))
        }
        for event in events { entries.append(Entry(kind: "event", name: event, scope: .enumCase, group: "Event")) }
        for effect in machine.effects ?? [] {
            entries.append(Entry(kind: "effect", name: effect, scope: .enumCase, group: "Effect"))
        }
        for condition in machine.conditions ?? [] {
            entries.append(Entry(kind: "condition", name: condition, scope: .property, group: "Conditions"))
        }
        for sequence in machine.sequences {
            entries.append(Entry(kind: "sequence", name: sequence.name, scope: .enumCase, group: "Sequence"))
        }
        self.entries = entries
    }
}
