/// `identifier-collision`: two names of one kind in a machine (two states, two events, …)
/// that become the same Swift identifier, such as `sign-in` and `signIn`. Reported at the
/// later name, with a note at the earlier one. Machines of one file are checked by
/// ``SpecChecker`` the same way, since they share the top level.
struct IdentifierCollisionCheck: MachineCheck {
    static let definition = RuleDefinition(
        rule: .identifierCollision, defaultSeverity: .error,
        summary: "Two names that become the same Swift identifier.",
        reportedAt: "the later name, with a note at the first",
        finding:
            "two names that become one Swift identifier; with `gen --output DIR`, also two machines whose files differ only in case"
    )

    func check(_ analysis: MachineAnalysis, _ reporter: RuleReporter) {
        let names = analysis.identifierNames
        // Two names collide only if one of them is irregular (see ``IdentifierNames``): only
        // the identifiers of irregular names are looked at, in a table keyed by group.
        var contested = Set<Key>()
        for index in names.irregular.indices {
            guard case .success(let swiftName) = names.irregular[index].identifier else { continue }
            contested.insert(Key(group: names.irregular[index].kind.group, identifier: swiftName.bare))
        }
        guard !contested.isEmpty else { return }
        var seen: [Key: Located<String>] = [:]
        names.forEachName { kind, name, bareIdentifier in
            guard let identifier = bareIdentifier else { return }
            let key = Key(group: kind.group, identifier: identifier)
            guard contested.contains(key) else { return }
            if let first = seen[key] {
                if first.value != name.value {
                    Self.report(kind: kind.word, name, first: first, identifier: identifier, reporter)
                }
            } else {
                seen[key] = name
            }
        }
    }

    /// Identifiers of different groups never collide: the group is part of the key.
    private struct Key: Hashable {
        var group: String
        var identifier: String
    }

    static func report(
        kind: String, _ name: Located<String>, first: Located<String>, identifier: String,
        _ reporter: RuleReporter
    ) {
        reporter.report(
            "\(kind) names '\(first.value)' and '\(name.value)' both become the Swift identifier '\(identifier)'",
            at: name.location, subjects: [first.value, name.value],
            notes: [.init("'\(first.value)' is here; rename one of them", at: first.location)])
    }
}
