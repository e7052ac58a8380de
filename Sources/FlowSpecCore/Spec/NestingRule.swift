/// `invalid-nesting`: states nested in a way that has no meaning. The decoder finds these as it
/// reads the states inside a compound state (one that has `states:`), so the rule's messages
/// live here, beside it.
///
/// - A state name is used twice in one machine, at any depth: targets are plain names, so
///   each must name one state.
/// - A compound state writes a `kind`: it waits for nothing itself; the states
///   inside it do.
/// - A compound state's `states` is empty, or its `initial` is not a state directly inside it.
/// - A state with no states inside it writes `initial` or `done` (unless it runs a machine,
///   whose outcomes `done` maps).
/// - A sequence lists a compound state: a sequence gives positions to the states the machine
///   can be in, and it is never in a compound state itself, only in one inside it.
enum NestingRule: RuleHome {
    static let definition = RuleDefinition(
        rule: .invalidNesting, defaultSeverity: .error,
        summary: "States nested in a way that has no meaning.",
        reportedAt: "the key or name to fix",
        finding:
            "a state name used twice in a machine; a compound state with a `kind`, no states or an `initial` that is not inside it; `initial` or `done` on a state with no states inside; a compound state in a sequence"
    )

    static func reportDuplicateName(_ name: Located<String>, first: SourceLocation, reader: inout NodeReader) {
        reader.report(
            .invalidNesting,
            "state name '\(name.value)' is already used at line \(first.line); state names are unique within a machine, at every depth",
            at: name.location, subjects: [name.value],
            notes: [.init("rename one of them: transitions name their targets by name alone")])
    }

    /// A state of a machine parallel at its top named like the machine, whose name names the
    /// parallel state the machine is.
    static func reportNamedLikeItsMachine(_ name: Located<String>, reader: inout NodeReader) {
        reader.report(
            .invalidNesting,
            "state name '\(name.value)' is the machine's: a machine parallel at its top is a parallel state of its name, which a transition targets to enter every region afresh",
            at: name.location, subjects: [name.value], notes: [.init("rename the state")])
    }

    static func reportNoStatesInside(_ name: String, at location: SourceLocation, reader: inout NodeReader) {
        reader.report(
            .invalidNesting, "`states` of '\(name)' is empty; a compound state needs at least one state inside",
            at: location, subjects: [name], notes: [.init("add the states inside it, or remove `states`")])
    }

    /// What a compound state may not write: a `kind` (it waits for nothing itself), or an
    /// `always` branch without a condition.
    static func checkCompound(_ state: inout StateSpec, details: StateDetails?, reader: inout NodeReader) {
        let name = reader.nameTable[state.name.value]
        if let kind = state.kindLocation {
            reader.report(
                .invalidNesting,
                "compound state '\(name)' cannot have a `kind`: the states inside it say what the flow waits for",
                at: kind, subjects: [name],
                notes: [.init("remove `kind`, or give it to the states inside")])
            state.isMalformed = true
        }
        StateDecoder.checkEventless(&state, reader: &reader)
        // The kind of a compound state is never read as a kind: only its leaves wait.
        state.kind = .input
        state.kindLocation = nil
    }

    /// `initial` names a state directly inside the compound state at `index`; `initial` and
    /// `done` appear only on compound states.
    static func checkInitial(of index: Int, in decoded: inout StateDecoder.Decoded, reader: inout NodeReader) {
        guard let initial = decoded.details[index]?.initial else { return }
        let children = (index + 1..<decoded.states.count).filter { decoded.parents[$0] == Int32(index) }
        guard !children.contains(where: { reader.nameTable[decoded.states[$0].name.value] == initial.value }) else {
            return
        }
        let name = reader.nameTable[decoded.states[index].name.value]
        let names = children.map { reader.nameTable[decoded.states[$0].name.value] }
        let meant = Suggestion.closest(to: initial.value, among: names)
        reader.report(
            .invalidNesting,
            "`initial` of '\(name)' is '\(initial.value)', which is not a state directly inside it\(Suggestion.didYouMean(meant))",
            at: initial.location, subjects: [initial.value],
            notes: [.init("states directly inside '\(name)': \(names.joined(separator: ", "))")],
            fix: meant.map { .replace(with: $0) })
        decoded.states[index].isMalformed = true
        // Entering it has nowhere to go until this is fixed: path findings wait.
        decoded.states[index].hasLostTransitions = true
    }

    /// The members of sequences that are compound states.
    static func checkSequenceMembers(_ machine: MachineSpec, reader: inout NodeReader) {
        guard machine.nesting.isNested else { return }
        // While decoding, the names are the reader's (the machine takes them at the end).
        let compounds = Set(
            machine.states.indices.filter(machine.isCompound).map { reader.nameTable[machine.states[$0].name.value] })
        for sequence in machine.sequences {
            for member in sequence.states where compounds.contains(member.value) {
                reader.report(
                    .invalidNesting,
                    "sequence '\(sequence.name.value)' lists compound state '\(member.value)': a sequence orders the states the flow can be in, and it is only ever in a state inside '\(member.value)'",
                    at: member.location, subjects: [member.value],
                    notes: [.init("list the states inside '\(member.value)' instead")])
            }
        }
    }

    /// `initial` or `done` written on a state with no states inside it.
    static func checkLeaf(_ state: inout StateSpec, details: StateDetails?, reader: inout NodeReader) {
        // Most leaves write neither: no list of the two is built for them. A state that runs a
        // machine has a `done` (``RunRule`` reports its `initial`).
        guard let details, details.run == nil, details.initial != nil || details.done != nil else { return }
        let name = reader.nameTable[state.name.value]
        for (key, location) in [("initial", details.initial?.location), ("done", details.done?.location)] {
            guard let location else { continue }
            reader.report(
                .invalidNesting,
                "state '\(name)' has no states inside it, so it has no `\(key)`",
                at: location, subjects: [name],
                notes: [.init("remove `\(key)`, or add `states:` inside '\(name)'")])
            state.isMalformed = true
        }
    }
}
