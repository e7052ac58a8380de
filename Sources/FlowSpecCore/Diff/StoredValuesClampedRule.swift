/// `stored-values-clamped`: a machine persisted as integers with `restore: clamp` loses
/// states at its end: the positions users stored there now clamp to the last state.
///
/// Positions and the last state count the leaves only, the states `persist` stores.
enum StoredValuesClampedRule: DiffRule {
    static let definition = RuleDefinition(
        rule: .storedValuesClamped, defaultSeverity: .warning,
        summary: "States at the end of a clamped integer-persisted machine are gone; their stored values clamp.",
        reportedAt: "the removed state, in the old spec (`flowspec diff`)",
        finding:
            "with `rawValue: int` and `restore: clamp`, a state past the new end removed with no `migrate` entry: its users land on the last state"
    )

    static func find(in pair: MachinePair) -> [Diagnostic] {
        guard let new = pair.new.persist, pair.old.persist?.rawValue == .int, new.rawValue == .int,
            new.restore == .clamp, let last = pair.newLeaves.last
        else { return [] }
        // A state kept as a compound one is not gone: `stored-state-removed` says it holds states
        // now. One that became a history state is: it is never current, so it is never restored.
        let histories = Set(pair.new.states.indices.filter(pair.new.isHistory).map { pair.newStates[$0] })
        let kept = Set(pair.newStates).subtracting(histories)
        let migrated = Set(new.migrate.map(\.from.value))
        var findings: [Diagnostic] = []
        for (position, name) in pair.oldLeaves.enumerated()
        where position >= pair.newLeaves.count && !kept.contains(name) && !migrated.contains(.int(position)) {
            findings.append(
                pair.finding(
                    .storedValuesClamped,
                    "state '\(name)' of machine '\(pair.new.name.value)' "
                        + (histories.contains(name) ? "is a history state now, never current" : "is gone")
                        + "; users who stored its position "
                        + "\(position) now restore '\(last)' (clamped). Say where they go with "
                        + "`migrate: { \(position): … }`",
                    at: pair.old.states[pair.oldLeafIndices[position]].name.location, inOld: true,
                    subjects: [name, last]))
        }
        return findings
    }
}
