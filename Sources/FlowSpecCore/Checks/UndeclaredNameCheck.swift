/// `undeclared-name`: an event, condition, effect or activity that is not on its machine's
/// declared list. Conditions, effects and activities must always be declared; events only when
/// the machine gives an `events:` list (otherwise they are derived from use).
struct UndeclaredNameCheck: MachineCheck {
    static let definition = RuleDefinition(
        rule: .undeclaredName, defaultSeverity: .error,
        summary: "An event, condition, effect or activity that is not on its machine's declared list.",
        reportedAt: "the use",
        finding: "an event, condition, effect or activity not on the machine's list")

    func check(_ analysis: MachineAnalysis, _ reporter: RuleReporter) {
        let machine = analysis.machine
        let uses = analysis.nameUses
        var suggestions = SuggestionBudget()
        for category in NameUses.Category.allCases {
            let declared = category.declared(in: machine)
            for use in uses[category].undeclared {
                let message: String
                if let declared {
                    let meant = suggestions.closest(to: use.value, count: declared.count) { declared.map(\.value) }
                    message =
                        "\(category.rawValue) '\(use.value)' is not declared in `\(category.key)` of machine '\(machine.name.value)'\(Suggestion.didYouMean(meant))"
                } else {
                    message =
                        "\(category.rawValue) '\(use.value)' is used, but machine '\(machine.name.value)' declares no `\(category.key)`; add `\(category.key): [\(use.value)]`"
                }
                reporter.report(
                    message, at: use.location, subjects: [use.value], fix: .declare(category, name: use.value))
            }
        }
        checkActivities(machine, uses.activities, reporter, &suggestions)
    }

    /// An activity a state runs must be declared, with the events it sends, in the machine's
    /// `activities` (a mapping, so no quick fix adds it).
    private func checkActivities(
        _ machine: MachineSpec, _ uses: NameUses.Uses, _ reporter: RuleReporter, _ suggestions: inout SuggestionBudget
    ) {
        let declared = (machine.activities ?? []).map(\.name.value)
        for use in uses.undeclared {
            let meant = suggestions.closest(to: use.value, count: declared.count) { declared }
            let message =
                machine.activities == nil
                ? "activity '\(use.value)' is run, but machine '\(machine.name.value)' declares no `activities`; add `activities: { \(use.value): { sends: [EVENT] } }`"
                : "activity '\(use.value)' is not declared in `activities` of machine '\(machine.name.value)'\(Suggestion.didYouMean(meant))"
            reporter.report(message, at: use.location, subjects: [use.value])
        }
    }
}
