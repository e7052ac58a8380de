/// `invalid-history`: a history state (`kind: history`) written where it has no meaning. The
/// decoder finds these as it reads the states, so the rule's messages live here, beside it.
///
/// A history state is a target that resumes the compound state around it where the flow last
/// left it; the flow is never in it. So:
///
/// - it stands directly inside a compound state (at the top level there is nothing to resume);
/// - it writes nothing but `kind`, `summary`, `deep` and `default` (no `on`, `always`,
///   `timeout`, `entry`, `exit`, `initial`, `done` or `states`);
/// - its `default` names a state inside its compound state, other than a history state;
/// - `deep` and `default` belong to history states;
/// - it is not an `initial` (the machine's or a compound state's), a sequence member, a state
///   of `persist` or `require`: those name states the flow can be in;
/// - a compound state holds some state besides its history states, to enter first.
enum HistoryRule: RuleHome {
    static let definition = RuleDefinition(
        rule: .invalidHistory, defaultSeverity: .error,
        summary: "A history state written where it has no meaning.",
        reportedAt: "the key or name to fix",
        finding:
            "a history state outside a compound state, with transitions, effects or states of its own, or whose `default` is not a state inside its compound state; `deep` or `default` on another state; a history state named as an `initial`, a sequence member, or in `persist` or `require`; a compound state with only history states inside"
    )

    /// The keys a history state may write.
    static let historyKeys = Set(StateKey.allCases.filter(\.isWrittenByHistory).map(\.rawValue))

    /// The keys a history state writes besides its own: reported as it is decoded (streamed
    /// or in place), since the flow is never in it.
    static func checkKeys(of name: String, _ fields: NodeReader.Fields, reader: inout NodeReader) {
        for entry in fields.entries where !historyKeys.contains(entry.key.value) {
            reader.report(
                .invalidHistory,
                "history state '\(name)' cannot have `\(entry.key.value)`: the flow is never in it, it only leads back into its compound state",
                at: entry.key.location, subjects: [name],
                notes: [.init("remove `\(entry.key.value)`; write it on the compound state or on the states inside it")]
            )
        }
    }

    /// What a state with no states inside it says about history: a history state must be
    /// inside a compound state; any other state writes neither `deep` nor `default`.
    static func checkLeaf(_ state: inout StateSpec, details: StateDetails?, hasParent: Bool, reader: inout NodeReader) {
        guard state.kind == .history else {
            guard let details, details.deep != nil || details.historyDefault != nil else { return }
            let name = reader.nameTable[state.name.value]
            for (key, location) in [("deep", details.deep?.location), ("default", details.historyDefault?.location)] {
                guard let location else { continue }
                reader.report(
                    .invalidHistory,
                    "state '\(name)' is not a history state, so it has no `\(key)`",
                    at: location, subjects: [name],
                    notes: [.init("remove `\(key)`, or give '\(name)' `kind: history` to make it a history state")])
                state.isMalformed = true
            }
            return
        }
        guard !hasParent else { return }
        let name = reader.nameTable[state.name.value]
        reader.report(
            .invalidHistory,
            "history state '\(name)' is not inside a compound state: at the top level there is nothing for it to resume",
            at: state.kindLocation ?? state.name.location, subjects: [name],
            notes: [.init("move it into the `states` of the compound state it should resume")])
        state.isMalformed = true
    }

    /// For a compound state whose states are decoded: its `initial` is no history state, it
    /// holds a state besides history states, and each of its history states' `default` names a
    /// state inside it.
    static func checkCompound(_ index: Int, in decoded: inout StateDecoder.Decoded, reader: inout NodeReader) {
        // Most compound states hold no history state: they cost one look at the few there are.
        let histories = decoded.histories.filter { decoded.parents[$0] == Int32(index) }
        guard !histories.isEmpty else { return }
        let end = decoded.subtreeEnd(of: index)
        let children = (index + 1..<end).filter { decoded.parents[$0] == Int32(index) }
        let name = reader.nameTable[decoded.states[index].name.value]
        func stateName(_ state: Int) -> String { reader.nameTable[decoded.states[state].name.value] }
        if let initial = decoded.details[index]?.initial,
            let named = children.first(where: { stateName($0) == initial.value }),
            decoded.states[named].kind == .history
        {
            reader.report(
                .invalidHistory,
                "`initial` of '\(name)' is history state '\(initial.value)': entering '\(name)' needs a state the flow can be in",
                at: initial.location, subjects: [initial.value],
                notes: [
                    .init(
                        "name another state inside '\(name)'; target '\(initial.value)' from the transitions that should resume '\(name)'"
                    )
                ])
            decoded.states[index].isMalformed = true
            decoded.states[index].hasLostTransitions = true
        }
        if histories.count == children.count {
            reader.report(
                .invalidHistory,
                "compound state '\(name)' holds only history states: entering it has no state to enter first",
                at: decoded.details[index]?.statesLocation ?? decoded.states[index].name.location, subjects: [name],
                notes: [.init("add the states the flow can be in inside '\(name)'")])
            decoded.states[index].isMalformed = true
            decoded.states[index].hasLostTransitions = true
        }
        let inside = (index + 1..<end).filter { decoded.states[$0].kind != .history }
        for history in histories {
            guard let target = decoded.details[history]?.historyDefault else { continue }
            let text = reader.nameTable[target.value]
            guard !inside.contains(where: { decoded.states[$0].name.value == target.value }) else { continue }
            let names = inside.map(stateName)
            let meant = Suggestion.closest(to: text, among: names)
            reader.report(
                .invalidHistory,
                "`default` of history state '\(stateName(history))' is '\(text)', which is not a state inside '\(name)'\(Suggestion.didYouMean(meant))",
                at: target.location, subjects: [text],
                notes: [.init("a history state resumes '\(name)': its default is a state inside it")],
                fix: meant.map { .replace(with: $0) })
            decoded.states[history].isMalformed = true
            decoded.states[history].hasLostTransitions = true
        }
    }

    /// The names outside states that must name a state the flow can be in: the machine's
    /// `initial`, sequence members, `persist`'s `resume` and `migrate`, and `require`.
    static func checkReferences(_ machine: MachineSpec, reader: inout NodeReader) {
        let histories = Set(
            machine.states.indices.filter(machine.isHistory).map { reader.nameTable[machine.states[$0].name.value] })
        guard !histories.isEmpty else { return }
        var named: [(Located<String>, String)] = []
        if let initial = machine.initial { named.append((initial, "the machine's `initial`")) }
        for sequence in machine.sequences {
            named += sequence.states.map { ($0, "a member of sequence '\(sequence.name.value)'") }
        }
        for (from, to) in machine.persist?.resume ?? [] {
            named += [(from, "a state of `resume`"), (to, "a state of `resume`")]
        }
        named += (machine.persist?.migrate ?? []).map { ($0.to, "a state of `migrate`") }
        for requirement in machine.requirements {
            named += requirement.states.map { ($0, "a state of a requirement") }
        }
        for (name, role) in named where histories.contains(name.value) {
            reader.report(
                .invalidHistory,
                "history state '\(name.value)' cannot be \(role): the flow is never in a history state",
                at: name.location, subjects: [name.value],
                notes: [.init("name the compound state it resumes, or a state inside it")])
        }
    }

}
