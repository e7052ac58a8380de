/// `invalid-run`: a state that runs a machine in a way that has no meaning. The decoder finds
/// what a running state may not write as it reads the state; ``SpecComposer`` finds the rest
/// when it puts the machines together. The messages live here, beside the rule.
///
/// - A running state writes `kind`, `always`, `initial`, `states` or `parallel`: the machine it
///   runs says what the flow waits for, and its states are the running state's.
/// - `done` written as a mapping on a state that runs nothing.
/// - `run` names no machine of the spec.
/// - A machine runs itself, directly or through others.
/// - A key of `done` that is no outcome (terminal state at the top level) of the machine run.
/// - A state of the composed machine would take a name the machine already has.
/// - A name is an event, condition or effect in one machine and another kind in one it runs.
/// - An activity both machines declare sends other events in each.
enum RunRule: RuleHome {
    static let definition = RuleDefinition(
        rule: .invalidRun, defaultSeverity: .error,
        summary: "A state that runs another machine in a way that has no meaning.",
        reportedAt: "the key or name to fix",
        finding:
            "`run` naming no machine of the spec, or a machine that runs itself (directly or through others); a running state with `kind`, `always`, `initial` or states of its own; a `done` key that is no terminal state of the machine run; `done` as a mapping on a state that runs nothing; a composed state name already taken; a name of one kind (event, condition, effect) in one machine and of another in a machine it runs; an activity both declare with different `sends`"
    )

    /// The entries of a `done:` mapping: an outcome and its target each.
    static func outcomes(_ done: YAMLDocument.NodeID, of state: Located<String>, reader: inout NodeReader)
        -> [OutcomeTarget]
    {
        guard let entries = reader.namedEntries(done, of: "`done` of '\(state.value)'") else { return [] }
        if entries.isEmpty, reader.document.children(of: done).isEmpty {
            reader.report(
                .invalidValue, "`done` of '\(state.value)' is empty; map each outcome to a state, or give one target",
                at: reader.location(done), subjects: [state.value])
            reader.lostTransitions = true
        }
        var outcomes: [OutcomeTarget] = []
        for entry in entries {
            let candidates = TransitionDecoder.candidates(entry.value, reader: &reader, mayStay: false)
            guard !candidates.isEmpty else { continue }
            outcomes.append(OutcomeTarget(outcome: entry.key, candidates: candidates))
        }
        return outcomes
    }

    /// Whether a `done` value maps outcomes (`{ signedIn: home }`) rather than giving the
    /// candidates every outcome takes. A mapping on a state that runs a machine maps outcomes:
    /// one candidate for them all is written in a list (`[{ to: home, effects: [...] }]`).
    /// Elsewhere a mapping with `to` is one candidate; any other maps outcomes, reported as
    /// such (only a machine run has them).
    static func mapsOutcomes(_ done: YAMLDocument.NodeID, runs: Bool, reader: NodeReader) -> Bool {
        guard reader.document[done].kind == .mapping else { return false }
        if runs { return true }
        return !reader.document.children(of: done).enumerated().contains { position, key in
            position.isMultiple(of: 2) && reader.document[key].scalarValue == .string("to")
        }
    }

    /// What a state that runs a machine, or writes `done` as a mapping, may not write.
    /// (`writesRun`: the state writes `run`, readable or not; one that could not be read is
    /// reported already.)
    static func checkRunningState(
        _ state: inout StateSpec, details: StateDetails, writesRun: Bool, reader: inout NodeReader
    ) {
        let name = reader.nameTable[state.name.value]
        guard writesRun else {
            // `done` as a mapping names outcomes, and only a machine run has them.
            guard let first = details.outcomes.first else { return }
            reader.report(
                .invalidRun, "`done` of '\(name)' maps outcomes, but '\(name)' runs no machine",
                at: first.outcome.location, subjects: [name],
                notes: [.init("add `run: MACHINE`, or give a compound state one target: `done: STATE`")])
            state.isMalformed = true
            return
        }
        let refused: [(key: String, location: SourceLocation?, why: String)] = [
            ("kind", state.kindLocation, "the machine it runs says what the flow waits for"),
            ("always", state.always?.location, "entering it starts the machine it runs"),
            ("initial", details.initial?.location, "the machine it runs starts at its own `initial`"),
            ("states", details.statesLocation, "the states of the machine it runs are its states"),
            ("parallel", details.parallelLocation, "the states of the machine it runs are its states")
        ]
        for (key, location, why) in refused {
            guard let location else { continue }
            reader.report(
                .invalidRun, "state '\(name)' runs a machine, so it has no `\(key)`: \(why)",
                at: location, subjects: [name],
                notes: [.init("remove `\(key)`, or remove `run` and write the states here")])
            state.isMalformed = true
        }
        // It waits for the machine it runs, as a compound state waits for the states inside it.
        state.kind = .input
        state.kindLocation = nil
    }

    static func reportUnknownMachine(
        _ run: Located<String>, state: String, machines: [String], into reporter: RuleReporter
    ) {
        let meant = Suggestion.closest(to: run.value, among: machines)
        reporter.report(
            "state '\(state)' runs '\(run.value)', which is no machine of this spec\(Suggestion.didYouMean(meant))",
            at: run.location, subjects: [run.value],
            notes: [.init("machines of this spec: \(machines.joined(separator: ", "))")],
            fix: meant.map { .replace(with: $0) })
    }

    static func reportCycle(_ run: Located<String>, state: String, cycle: [String], into reporter: RuleReporter) {
        reporter.report(
            "state '\(state)' runs '\(run.value)', which runs this machine again: \(cycle.joined(separator: " → "))",
            at: run.location, subjects: cycle,
            notes: [.init("a machine cannot run itself, directly or through others: break the cycle")])
    }

    static func reportNotAnOutcome(
        _ outcome: Located<String>, state: String, machine: String, outcomes: [String], into reporter: RuleReporter
    ) {
        let meant = Suggestion.closest(to: outcome.value, among: outcomes)
        let listed =
            outcomes.isEmpty
            ? "'\(machine)' has no terminal state at its top level, so it never ends"
            : "outcomes of '\(machine)': \(outcomes.joined(separator: ", "))"
        var notes: [Diagnostic.Note] = [
            .init("an outcome is a terminal state at the top level of the machine run; \(listed)")
        ]
        // `done: { to: home, effects: [thank] }` meant as one candidate for every outcome.
        if ["to", "if", "unless", "effects", "retry"].contains(outcome.value), !outcomes.contains(outcome.value) {
            notes.append(
                .init(
                    "on a state that runs a machine, a mapping maps outcomes; one candidate for every outcome is written in a list: `done: [{ to: STATE, effects: [...] }]`"
                ))
        }
        reporter.report(
            "`done` of '\(state)' maps '\(outcome.value)', which is no outcome of '\(machine)'\(Suggestion.didYouMean(meant))",
            at: outcome.location, subjects: [outcome.value], notes: notes, fix: meant.map { .replace(with: $0) })
    }

    static func reportKindClash(
        _ name: String, parentKind: NameCategory, childKind: NameCategory, machine run: Located<String>,
        into reporter: RuleReporter
    ) {
        reporter.report(
            "'\(name)' is \(parentKind.article) \(parentKind.rawValue) here and \(childKind.article) \(childKind.rawValue) of '\(run.value)', which this machine runs: the two machines share their names, so one name has one kind",
            at: run.location, subjects: [name],
            notes: [.init("rename '\(name)' in one of the two machines")])
    }

    static func reportActivityClash(
        _ mine: Activity, theirs: Activity, machine run: Located<String>, into reporter: RuleReporter
    ) {
        func sends(_ activity: Activity) -> String { activity.sends.map(\.value).joined(separator: ", ") }
        reporter.report(
            "activity '\(mine.name.value)' sends [\(sends(mine))] here and [\(sends(theirs))] in '\(run.value)', which this machine runs: the two machines share their activities, so one activity sends one list of events",
            at: run.location, subjects: [mine.name.value],
            notes: [
                .init("declared here", at: mine.name.location),
                .init("give both declarations the same `sends`, or rename one of the two activities")
            ])
    }

    static func reportNameTaken(_ name: String, at location: SourceLocation, into reporter: RuleReporter) {
        reporter.report(
            "two states of the composed machine are named '\(name)': a state that runs a machine names the copy of each of its states 'STATE.NAME'",
            at: location, subjects: [name],
            notes: [.init("rename the state written '\(name)', or the running state")])
    }
}
