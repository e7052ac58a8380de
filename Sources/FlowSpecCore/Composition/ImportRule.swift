/// `invalid-import`: a file a spec imports (`imports:`) that cannot give its machines to run.
/// ``SpecImporter`` finds these as it reads the imports; the messages live here.
///
/// - The file cannot be read (missing, a directory, too large).
/// - The imports form a cycle, or nest deeper than ``SpecImporter/maximumDepth`` files.
/// - The file has errors: its machines cannot be run until they are fixed, in that file.
/// - The file brings a machine whose name this spec already has (its own, or another import's).
enum ImportRule: RuleHome {
    static let definition = RuleDefinition(
        rule: .invalidImport, defaultSeverity: .error,
        summary: "A file the spec imports cannot give its machines to run.",
        reportedAt: "the `imports` entry",
        finding:
            "a file that cannot be read; imports that form a cycle or nest too deep; an imported file with errors; an imported machine whose name the spec already has"
    )

    static func reportUnreadable(_ entry: Located<String>, reason: String, into reporter: RuleReporter) {
        reporter.report(
            "cannot import '\(entry.value)': \(reason)", at: entry.location, subjects: [entry.value],
            notes: [.init("a path in `imports` is relative to the directory of the file that imports it")])
    }

    static func reportCycle(_ entry: Located<String>, cycle: [String], into reporter: RuleReporter) {
        reporter.report(
            "importing '\(entry.value)' forms a cycle: \(cycle.joined(separator: " → "))", at: entry.location,
            subjects: [entry.value],
            notes: [.init("move the machines both files need into a third file that both import")])
    }

    static func reportTooDeep(_ entry: Located<String>, into reporter: RuleReporter) {
        reporter.report(
            "importing '\(entry.value)' nests imports more than \(SpecImporter.maximumDepth) files deep",
            at: entry.location, subjects: [entry.value],
            notes: [.init("import the machines needed directly, from fewer levels of files")])
    }

    /// An imported file with errors. Only where the first one is and its rule are said, not
    /// its message: an imported file is not one the user named, and a message may quote it
    /// (`imports: [/etc/passwd]` must not print the passwords file in a pull request's
    /// annotations). Its own check says the rest.
    static func reportErrors(
        _ entry: Located<String>, count: Int, first: String, into reporter: RuleReporter
    ) {
        reporter.report(
            "'\(entry.value)' has \(count) error\(count == 1 ? "" : "s"), so its machines cannot be run from here",
            at: entry.location, subjects: [entry.value],
            notes: [.init("the first is at \(first)"), .init("check it on its own: flowspec check \(entry.value)")])
    }

    static func reportNameTaken(_ entry: Located<String>, machine: String, into reporter: RuleReporter) {
        reporter.report(
            "'\(entry.value)' brings machine '\(machine)', a name this spec already has; it is not imported",
            at: entry.location, subjects: [entry.value, machine],
            notes: [.init("rename one of the two machines: a `run` names one machine")])
    }
}
