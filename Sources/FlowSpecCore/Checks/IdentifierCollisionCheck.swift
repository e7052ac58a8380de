/// `identifier-collision`: two names of one kind in a machine (two states, two events, …)
/// that become the same Swift identifier, such as `sign-in` and `signIn`. Reported at the
/// later name, with a note at the earlier one. Machines of one file are checked by
/// ``SpecChecker`` the same way, since they share the top level.
struct IdentifierCollisionCheck: MachineCheck {
    func check(_ analysis: MachineAnalysis, _ reporter: inout MachineReporter) {
        // Entries come group by group, so one table of identifiers at a time is enough.
        var seen: [String: Located<String>] = [:]
        var group = ""
        let entries = analysis.identifierNames.entries
        for index in entries.indices {  // entries are read in place, not copied
            if entries[index].group != group {
                group = entries[index].group
                seen = [:]
                seen.reserveCapacity(entries[index...].prefix { $0.group == group }.count)
            }
            guard case .success(let swiftName) = entries[index].identifier else { continue }
            if let first = seen[swiftName.bare] {
                if first.value != entries[index].name.value {
                    Self.report(kind: entries[index].kind, entries[index].name, first: first,
                                identifier: swiftName.bare, &reporter)
                }
            } else {
                seen[swiftName.bare] = entries[index].name
            }
        }
    }

    static func report(kind: String, _ name: Located<String>, first: Located<String>, identifier: String,
                       _ reporter: inout MachineReporter) {
        reporter.report(.identifierCollision,
                        "\(kind) names '\(first.value)' and '\(name.value)' both become the Swift identifier '\(identifier)'",
                        at: name.location, subjects: [first.value, name.value],
                        notes: [.init("'\(first.value)' is here; rename one of them", at: first.location)])
    }
}
