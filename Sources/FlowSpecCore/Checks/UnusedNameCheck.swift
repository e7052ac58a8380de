/// `unused-name`: a declared event, condition or effect that nothing in the machine uses.
struct UnusedNameCheck: MachineCheck {
    static let definition = RuleDefinition(
        rule: .unusedName, defaultSeverity: .warning,
        summary: "A declared event, condition or effect that nothing uses.",
        reportedAt: "the declaration",
        finding: "a declared name nothing uses")

    func check(_ analysis: MachineAnalysis, _ reporter: RuleReporter) {
        let machine = analysis.machine
        let uses = analysis.nameUses
        for category in NameUses.Category.allCases {
            for name in category.declared(in: machine) ?? [] where !uses[category].isUsed(name.value) {
                reporter.report(
                    "\(category.rawValue) '\(name.value)' is declared but never used",
                    at: name.location, subjects: [name.value])
            }
        }
    }
}
