/// `stored-state-removed`: a persisted machine loses a state whose raw value users' devices
/// may hold, and `migrate` does not say where that value goes now.
enum StoredStateRemovedRule: DiffRule {
    static let definition = RuleDefinition(
        rule: .storedStateRemoved, defaultSeverity: .error,
        summary: "A state users may have stored is gone, and `migrate` does not map its stored value.",
        reportedAt: "the removed state, in the old spec (`flowspec diff`)",
        finding:
            "a persisted state removed (or renamed) whose stored name, or position, no `migrate` entry maps and no state keeps"
    )

    static func find(in pair: MachinePair) -> [Diagnostic] {
        guard let old = pair.old.persist, let new = pair.new.persist, old.rawValue == new.rawValue else { return [] }
        let newStates = pair.newStates
        let kept = Set(newStates)
        let migrated = Set(new.migrate.map(\.from.value))
        var findings: [Diagnostic] = []
        for (position, name) in pair.oldStates.enumerated() where !kept.contains(name) {
            let stored: Persist.StoredValue = new.rawValue == .int ? .int(position) : .string(name)
            guard !migrated.contains(stored) else { continue }
            let now: String
            switch new.rawValue {
            case .string:
                now = "restores `initial`"
            case .int:
                // Past the end, a clamp is the milder `stored-values-clamped`.
                if position >= newStates.count {
                    guard new.restore != .clamp else { continue }
                    now = "is out of range and restores `initial`"
                } else {
                    now = "restores '\(newStates[position])', the state at that position now"
                }
            }
            findings.append(
                pair.finding(
                    .storedStateRemoved,
                    "state '\(name)' of machine '\(pair.new.name.value)' is gone, but users' devices may have "
                        + "stored it as \(stored); that value now \(now). Map it with `migrate: { \(stored): … }`",
                    at: pair.old.states[position].name.location, inOld: true, subjects: [name]))
        }
        return findings
    }
}
