/// `unused-name`: a declared event, condition or effect that nothing in the machine uses.
struct UnusedNameCheck: MachineCheck {
    func check(_ analysis: MachineAnalysis, _ reporter: inout MachineReporter) {
        let machine = analysis.machine
        let uses = analysis.nameUses
        for category in NameUses.Category.allCases {
            // Built use by use: a machine has few distinct names but may use them a million times.
            var used = Set<String>()
            for use in uses[category] { used.insert(use.value) }
            for name in category.declared(in: machine) ?? [] where !used.contains(name.value) {
                reporter.report(.unusedName,
                                "\(category.rawValue) '\(name.value)' is declared but never used",
                                at: name.location, subjects: [name.value])
            }
        }
    }
}
