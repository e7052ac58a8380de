/// `unused-name`: a declared event, condition or effect that nothing in the machine uses.
struct UnusedNameCheck: MachineCheck {
    func check(_ analysis: MachineAnalysis, _ reporter: inout MachineReporter) {
        let machine = analysis.machine
        let uses = analysis.nameUses
        for category in NameUses.Category.allCases {
            for name in category.declared(in: machine) ?? [] where !uses[category].isUsed(name.value) {
                reporter.report(.unusedName,
                                "\(category.rawValue) '\(name.value)' is declared but never used",
                                at: name.location, subjects: [name.value])
            }
        }
    }
}
