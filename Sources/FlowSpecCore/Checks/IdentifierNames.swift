/// Every name of a machine that becomes a Swift identifier, with the scope it lands in.
///
/// Most names are their own identifier (`loading` becomes `loading`). Only the others, the
/// irregular names, are kept with their identifier: only they can be invalid, and two names
/// can only collide if at least one of them is irregular (two names that are their own
/// identifiers collide only if they are equal). So a machine of plain names costs no table.
struct IdentifierNames {
    /// What a name names: its word in messages, its scope and its group.
    struct Kind: Sendable {
        /// The word used in messages, such as `state`.
        let word: String
        /// Where the identifier lands in generated code.
        let scope: SwiftName.Scope
        /// Names in the same group must map to different identifiers.
        let group: String

        static let state = Kind(word: "state", scope: .enumCase, group: "State")
        static let event = Kind(word: "event", scope: .enumCase, group: "Event")
        static let effect = Kind(word: "effect", scope: .enumCase, group: "Effect")
        static let condition = Kind(word: "condition", scope: .property, group: "Conditions")
        static let sequence = Kind(word: "sequence", scope: .enumCase, group: "StateSequence")
        static let activity = Kind(word: "activity", scope: .enumCase, group: "Activity")
    }

    /// A name whose identifier is not the name itself, or that cannot become one.
    struct Irregular {
        /// The name's position in the order of ``forEachName(_:)``.
        let position: Int
        let kind: Kind
        let name: Located<String>
        /// The Swift identifier the name becomes, or why it cannot.
        let identifier: Result<SwiftName, SwiftName.ProblemError>
    }

    private let machine: MachineSpec
    /// The events: the machine's list, or the names its transitions use.
    private let events: [Located<String>]
    /// The irregular names, in order.
    let irregular: [Irregular]

    /// The names of a machine; `uses` gives the events when the machine does not list them.
    init(_ machine: MachineSpec, events uses: @autoclosure () -> NameUses) {
        self.machine = machine
        self.events = machine.events ?? uses().derivedEvents
        var irregular: [Irregular] = []
        var position = 0
        Self.forEachName(machine, events: events) { kind, name in
            let identifier = SwiftName.make(name.value, scope: kind.scope)
            if case .success(let swiftName) = identifier, swiftName.bare == name.value {
                // Its own identifier: valid, and no other name of its group can share it.
            } else {
                irregular.append(Irregular(position: position, kind: kind, name: name, identifier: identifier))
            }
            position += 1
        }
        self.irregular = irregular
    }

    /// Calls `body` with every name, group by group (states, events, effects, conditions,
    /// sequences, activities), each group in source order, and the name's identifier without backticks
    /// (``SwiftName/bare``), `nil` for a name that cannot become one.
    func forEachName(_ body: (Kind, Located<String>, _ bareIdentifier: String?) -> Void) {
        var position = 0
        var next = irregular.startIndex
        Self.forEachName(machine, events: events) { kind, name in
            if next < irregular.endIndex, irregular[next].position == position {
                body(kind, name, try? irregular[next].identifier.get().bare)
                next += 1
            } else {
                body(kind, name, name.value)
            }
            position += 1
        }
    }

    private static func forEachName(
        _ machine: MachineSpec, events: [Located<String>],
        _ body: (Kind, Located<String>) -> Void
    ) {
        // States are read in place: binding a whole state copies it.
        for index in machine.states.indices { body(.state, machine.names.text(machine.states[index].name)) }
        for event in events { body(.event, event) }
        for effect in machine.effects ?? [] { body(.effect, effect) }
        for condition in machine.conditions ?? [] { body(.condition, condition) }
        for sequence in machine.sequences { body(.sequence, sequence.name) }
        for activity in machine.activities ?? [] { body(.activity, activity.name) }
    }
}
