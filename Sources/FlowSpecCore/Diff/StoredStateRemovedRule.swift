/// `stored-state-removed`: a persisted machine loses a state whose raw value users' devices
/// may hold, and `migrate` does not say where that value goes now.
///
/// Only leaves are stored (a compound state or a history state is never current), so a state
/// that was a leaf and now holds states, or is a history state, is lost to its stored value
/// just as a removed one is. The reverse, a compound state that became a leaf, is a new state
/// to store and breaks nothing. With `rawValue: int`, a position that now holds the state the
/// compound one enters first restores there, as entering it would: nothing breaks either.
enum StoredStateRemovedRule: DiffRule {
    static let definition = RuleDefinition(
        rule: .storedStateRemoved, defaultSeverity: .error,
        summary: "A state users may have stored is gone, and `migrate` does not map its stored value.",
        reportedAt: "the removed state, in the old spec (`flowspec diff`)",
        finding:
            "a persisted state removed (or renamed, given states inside, or made a history state) whose stored name, or position, no `migrate` entry maps and no state keeps"
    )

    static func find(in pair: MachinePair) -> [Diagnostic] {
        guard let old = pair.old.persist, let new = pair.new.persist, old.rawValue == new.rawValue else { return [] }
        let kept = Set(pair.newLeaves)
        let compounds = compoundStates(of: pair)
        let histories = Set(pair.new.states.indices.filter(pair.new.isHistory).map { pair.newStates[$0] })
        let migrated = Set(new.migrate.map(\.from.value))
        var findings: [Diagnostic] = []
        for (position, name) in pair.oldLeaves.enumerated() where !kept.contains(name) {
            let stored: Persist.StoredValue = new.rawValue == .int ? .int(position) : .string(name)
            guard !migrated.contains(stored) else { continue }
            let location = pair.old.states[pair.oldLeafIndices[position]].name.location
            if let compound = compounds[name] {
                // A position that now holds the state entering it leads to restores as well as
                // a `migrate` entry would.
                if case .int = stored, position < pair.newLeafIndices.count,
                    pair.newLeafIndices[position] == pair.enteredLeaf(of: compound)
                {
                    continue
                }
                findings.append(
                    pair.finding(
                        .storedStateRemoved, holdsStates(name, compound, stored, position, pair, new),
                        at: location, inOld: true, subjects: [name]))
                continue
            }
            let now: String
            switch new.rawValue {
            case .string:
                now = "restores `initial`"
            case .int:
                // Past the end, a clamp is the milder `stored-values-clamped`.
                if position >= pair.newLeaves.count {
                    guard new.restore != .clamp else { continue }
                    now = "is out of range and restores `initial`"
                } else {
                    now = "restores '\(pair.newLeaves[position])', the state at that position now"
                }
            }
            // A state that became a history state keeps its name but is never current again.
            let gone =
                histories.contains(name) ? "is a history state now, so it is never current and never stored" : "is gone"
            findings.append(
                pair.finding(
                    .storedStateRemoved,
                    "state '\(name)' of machine '\(pair.new.name.value)' \(gone), but users' devices may have "
                        + "stored it as \(stored); that value now \(now). Map it with `migrate: { \(stored): … }`",
                    at: location, inOld: true, subjects: [name]))
        }
        return findings
    }

    /// The new version's compound states by name (none for a flat machine).
    private static func compoundStates(of pair: MachinePair) -> [String: Int] {
        guard pair.new.nesting.isNested else { return [:] }
        var compounds: [String: Int] = [:]
        for index in pair.new.states.indices where pair.new.isCompound(index) {
            compounds[pair.newStates[index]] = index
        }
        return compounds
    }

    /// The message for a leaf that now holds states: what its stored value restores now, and
    /// the state inside to send it to.
    private static func holdsStates(
        _ name: String, _ compound: Int, _ stored: Persist.StoredValue, _ position: Int, _ pair: MachinePair,
        _ persist: Persist
    ) -> String {
        let inside = pair.newStates[pair.enteredLeaf(of: compound)]
        let now: String
        // A `migrate` key may not be a value a current state stores: a position still in range
        // is fixed by what stands there.
        var fix = "Map it to a state inside with `migrate: { \(stored): \(inside) }`"
        switch stored {
        case .string:
            now = "restores `initial`"
        case .int where position < pair.newLeaves.count:
            now =
                "restores '\(pair.newLeaves[position])', the state at that position now, not '\(inside)', where "
                + "entering it leads"
            fix = "Put the state its users belong in at position \(position)"
        case .int:
            now =
                persist.restore == .clamp
                ? "is out of range and restores '\(pair.newLeaves.last ?? inside)' (clamped)"
                : "is out of range and restores `initial`"
        }
        return "state '\(name)' of machine '\(pair.new.name.value)' now holds states, so it is never current and "
            + "never stored, but users' devices may have stored it as \(stored); that value now \(now). \(fix)"
    }
}
