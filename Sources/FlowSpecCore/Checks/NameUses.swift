/// The event, condition, effect and activity names a machine uses: each distinct name with its
/// first use, and every use the machine's declared lists do not cover. An event an activity
/// `sends` is used by it.
///
/// A large machine uses a handful of names hundreds of thousands of times, so the uses are
/// summarised as they are met (one hash per use) rather than kept.
struct NameUses {
    /// The three lists a machine may declare.
    typealias Category = NameCategory

    /// The uses of one category.
    struct Uses {
        /// Each name used, with where it is first used in the file and whether the declared
        /// list has it.
        fileprivate(set) var names: [String: (first: SourceLocation, declared: Bool)] = [:]
        /// Every use the declared list does not cover, in the order met: uses of names it lacks,
        /// or all uses when conditions or effects have no list (events need none).
        fileprivate(set) var undeclared: [Located<String>] = []
        /// The declared names, when the machine gives a list.
        fileprivate let declared: Set<String>?
        fileprivate let listRequired: Bool
        /// Uses recorded by their interned name (events), summarised by the name's index until
        /// ``mergeInterned(_:)`` moves them into `names`: an array read per use, not a hash.
        private var interned: [(first: SourceLocation, declared: Bool)?] = []

        fileprivate init(_ category: Category, in machine: MachineSpec) {
            declared = category.declared(in: machine).map { Set($0.map(\.value)) }
            listRequired = category != .event
        }

        /// The uses of the activities `declared`, which must be declared to be run.
        fileprivate init(activities declared: [Activity]?) {
            self.declared = declared.map { Set($0.map(\.name.value)) }
            listRequired = true
        }

        /// Whether the name is used anywhere.
        func isUsed(_ name: String) -> Bool { names[name] != nil }

        fileprivate mutating func record(_ use: Located<String>) {
            let covered: Bool
            if let known = names[use.value] {
                covered = known.declared
                if use.location < known.first { names[use.value] = (use.location, known.declared) }
            } else {
                covered = declared.map { $0.contains(use.value) } ?? !listRequired
                names[use.value] = (use.location, covered)
            }
            if !covered { undeclared.append(use) }
        }

        fileprivate mutating func record(_ use: Located<Name>, in table: NameTable) {
            if interned.count < table.count {
                interned.append(contentsOf: repeatElement(nil, count: table.count - interned.count))
            }
            let index = Int(use.value.index)
            let covered: Bool
            if let known = interned[index] {
                covered = known.declared
                if use.location < known.first { interned[index] = (use.location, known.declared) }
            } else {
                covered = declared.map { $0.contains(table[use.value]) } ?? !listRequired
                interned[index] = (use.location, covered)
            }
            if !covered { undeclared.append(table.text(use)) }
        }

        /// Moves the uses recorded by interned name into `names`.
        fileprivate mutating func mergeInterned(_ table: NameTable) {
            for index in interned.indices {
                guard let use = interned[index] else { continue }
                let text = table.texts[index]
                if let known = names[text], known.first < use.first { continue }
                names[text] = use
            }
            interned = []
        }
    }

    private(set) var events: Uses
    private(set) var conditions: Uses
    private(set) var effects: Uses
    /// The activities the states run.
    private(set) var activities: Uses
    /// Whether some guard reads where the flow is (`in:`, `notIn:`).
    private(set) var readsStates = false

    init(_ machine: MachineSpec) {
        events = Uses(.event, in: machine)
        conditions = Uses(.condition, in: machine)
        effects = Uses(.effect, in: machine)
        activities = Uses(activities: machine.activities)
        add(machine.machineWide, names: machine.names)
        for activity in machine.activities ?? [] {
            for event in activity.sends { events.record(event) }
        }
        for index in machine.states.indices {
            add(machine.transitions(of: index), names: machine.names)
            for candidate in machine.states[index].always?.value ?? [] { add(candidate) }
            if let timeout = machine.states[index].timeout {
                for effect in timeout.effects { effects.record(effect) }
                for effect in timeout.retry?.effects ?? [] { effects.record(effect) }
            }
            if !machine.nesting.details.isEmpty, let details = machine.nesting.details[index] {
                for effect in details.entry { effects.record(effect) }
                for effect in details.exit { effects.record(effect) }
                for effect in details.initialEffects { effects.record(effect) }
                for effect in details.defaultEffects { effects.record(effect) }
                for activity in details.activities { activities.record(activity) }
                for candidate in details.done?.value ?? [] { add(candidate) }
                for outcome in details.outcomes { for candidate in outcome.candidates { add(candidate) } }
            }
        }
        events.mergeInterned(machine.names)
    }

    /// Reads the transitions in place: copying each one costs more than the rest of this pass.
    private mutating func add<Transitions: RandomAccessCollection<EventTransition>>(
        _ transitions: Transitions,
        names: NameTable
    ) {
        for position in transitions.indices {
            events.record(transitions[position].event, in: names)
            guard transitions[position].candidates.anyHasExtras else { continue }
            for candidate in transitions[position].candidates { add(candidate) }
        }
    }

    private mutating func add(_ candidate: Candidate) {
        if !readsStates, candidate.edgeFacts.readsStates { readsStates = true }
        if let condition = candidate.condition { conditions.record(condition) }
        if let condition = candidate.unlessCondition { conditions.record(condition) }
        for effect in candidate.effects { effects.record(effect) }
        for effect in candidate.retry?.effects ?? [] { effects.record(effect) }
    }

    /// The uses of one category.
    subscript(category: Category) -> Uses {
        switch category {
        case .event: events
        case .condition: conditions
        case .effect: effects
        }
    }

    /// The events of a machine without an `events:` list: each used name once, at its first
    /// use in the file (machine-wide `on` may come before or after `states`).
    static func derivedEvents(_ machine: MachineSpec) -> [Located<String>] {
        NameUses(machine).derivedEvents
    }

    /// ``derivedEvents(_:)`` from these uses, in the order of their first uses (no two names
    /// are first used at one place; the name breaks a tie all the same, for determinism).
    var derivedEvents: [Located<String>] {
        events.names.map { Located($0.key, at: $0.value.first) }
            .sorted { ($0.location, $0.value) < ($1.location, $1.value) }
    }
}
