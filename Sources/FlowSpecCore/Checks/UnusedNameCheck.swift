/// `unused-name`: a declared event, condition or effect that nothing in the machine uses, or a
/// declared activity that no state runs.
struct UnusedNameCheck: MachineCheck {
    static let definition = RuleDefinition(
        rule: .unusedName, defaultSeverity: .warning,
        summary: "A declared event, condition, effect or activity that nothing uses.",
        reportedAt: "the declaration",
        finding: "a declared name nothing uses; an activity no state runs")

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
        for activity in machine.activities ?? [] where !uses.activities.isUsed(activity.name.value) {
            reporter.report(
                "activity '\(activity.name.value)' is declared but no state runs it",
                at: activity.name.location, subjects: [activity.name.value])
        }
    }
}
