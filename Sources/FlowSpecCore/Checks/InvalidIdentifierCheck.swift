/// `invalid-identifier`: a machine, state, event, condition, effect or sequence name that
/// cannot become a Swift identifier (see ``SwiftName``).
struct InvalidIdentifierCheck: MachineCheck {
    static let definition = RuleDefinition(
        rule: .invalidIdentifier, defaultSeverity: .error,
        summary: "A name that cannot become a Swift identifier.",
        reportedAt: "the name",
        finding: "a name that cannot become a Swift identifier (see [generated code](generated-code.md#names))")

    func check(_ analysis: MachineAnalysis, _ reporter: RuleReporter) {
        let machine = analysis.machine
        Self.report(kind: "machine", machine.name, SwiftName.make(machine.name.value, scope: .machine), reporter)
        // Only an irregular name (see ``IdentifierNames``) can be invalid.
        for name in analysis.identifierNames.irregular {
            Self.report(kind: name.kind.word, name.name, name.identifier, reporter)
        }
    }

    static func report(
        kind: String, _ name: Located<String>, _ identifier: Result<SwiftName, SwiftName.ProblemError>,
        _ reporter: RuleReporter
    ) {
        guard case .failure(let error) = identifier else { return }
        reporter.report(
            "\(kind) name '\(name.value)' cannot become a Swift identifier: \(error.explanation)",
            at: name.location, subjects: [name.value])
    }
}
