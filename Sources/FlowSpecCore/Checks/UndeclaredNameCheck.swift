/// `undeclared-name`: an event, condition or effect that is not on its machine's declared
/// list. Conditions and effects must always be declared; events only when the machine gives
/// an `events:` list (otherwise they are derived from use).
struct UndeclaredNameCheck: MachineCheck {
    func check(_ analysis: MachineAnalysis, _ reporter: inout MachineReporter) {
        let machine = analysis.machine
        let uses = analysis.nameUses
        for category in NameUses.Category.allCases {
            let declared = category.declared(in: machine)
            for use in uses[category].undeclared {
                let message: String
                if declared == nil {
                    message = "\(category.rawValue) '\(use.value)' is used, but machine '\(machine.name.value)' declares no `\(category.key)`; add `\(category.key): [\(use.value)]`"
                } else {
                    let hint = Suggestion.hint(for: use.value, among: (declared ?? []).map(\.value))
                    message = "\(category.rawValue) '\(use.value)' is not declared in `\(category.key)` of machine '\(machine.name.value)'\(hint)"
                }
                reporter.report(.undeclaredName, message, at: use.location, subjects: [use.value])
            }
        }
    }
}
