/// `invalid-identifier`: a machine, state, event, condition, effect or sequence name that
/// cannot become a Swift identifier (see ``SwiftName``).
struct InvalidIdentifierCheck: MachineCheck {
    func check(_ analysis: MachineAnalysis, _ reporter: inout MachineReporter) {
        let machine = analysis.machine
        Self.report(kind: "machine", machine.name, SwiftName.make(machine.name.value, scope: .machine), &reporter)
        // In place: only the rare invalid name is looked at whole.
        let entries = analysis.identifierNames.entries
        for index in entries.indices {
            guard case .failure = entries[index].identifier else { continue }
            Self.report(kind: entries[index].kind, entries[index].name, entries[index].identifier, &reporter)
        }
    }

    static func report(kind: String, _ name: Located<String>, _ identifier: Result<SwiftName, SwiftName.ProblemError>,
                       _ reporter: inout MachineReporter) {
        guard case .failure(let error) = identifier else { return }
        reporter.report(.invalidIdentifier,
                        "\(kind) name '\(name.value)' cannot become a Swift identifier: \(error.explanation)",
                        at: name.location, subjects: [name.value])
    }
}
