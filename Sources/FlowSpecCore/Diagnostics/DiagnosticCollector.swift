/// Collects the findings of one file. One collector is made per file and handed to every stage
/// of the pipeline (the YAML reader, the spec decoder, the graph builder, the checks), each of
/// which reports into it; nothing is copied back from a stage by hand.
public final class DiagnosticCollector {
    /// The file every finding in this collector is about.
    public let file: String
    /// The findings so far, in the order reported.
    public private(set) var diagnostics: [Diagnostic] = []

    /// Creates an empty collector for a file.
    public init(file: String) {
        self.file = file
    }

    /// Records a finding.
    public func report(
        _ rule: Rule, _ message: String, at location: SourceLocation,
        machine: String? = nil, subjects: [String] = [], notes: [Diagnostic.Note] = [], fix: Diagnostic.Fix? = nil,
        counterexample: Diagnostic.Counterexample? = nil
    ) {
        diagnostics.append(
            Diagnostic(
                rule: rule, message: message, file: file, location: location,
                machine: machine, subjects: subjects, notes: notes, fix: fix, counterexample: counterexample))
    }

    /// Records findings made earlier for the same file (a state decoded ahead of its turn).
    func append(contentsOf findings: [Diagnostic]) {
        diagnostics.append(contentsOf: findings)
    }

    /// Takes out the findings reported after the first `count` that satisfy `shouldRemove`,
    /// and returns them.
    @discardableResult
    func removeFindings(after count: Int, where shouldRemove: (Diagnostic) -> Bool) -> [Diagnostic] {
        var kept: [Diagnostic] = []
        var removed: [Diagnostic] = []
        for finding in diagnostics[count...] {
            if shouldRemove(finding) { removed.append(finding) } else { kept.append(finding) }
        }
        diagnostics.replaceSubrange(count..., with: kept)
        return removed
    }

    /// Hands over the findings so far and starts again empty.
    func takeAll() -> [Diagnostic] {
        defer { diagnostics = [] }
        return diagnostics
    }

    /// Whether any finding so far has the given rule.
    public func contains(_ rule: Rule) -> Bool {
        diagnostics.contains { $0.rule == rule }
    }

    /// A reporter of one rule's findings about one machine (or the file, when `machine` is nil).
    public func reporter(for rule: Rule, machine: String?) -> RuleReporter {
        RuleReporter(rule: rule, machine: machine, collector: self)
    }
}

/// Reports the findings of one rule about one machine into a file's ``DiagnosticCollector``.
/// Each check is handed one for the rule it declares, so it cannot report another rule.
public struct RuleReporter {
    /// The rule of every finding reported here.
    public let rule: Rule
    /// The machine's name, attached to every finding.
    public let machine: String?
    let collector: DiagnosticCollector

    /// Records a finding.
    public func report(
        _ message: String, at location: SourceLocation,
        subjects: [String] = [], notes: [Diagnostic.Note] = [], fix: Diagnostic.Fix? = nil,
        counterexample: Diagnostic.Counterexample? = nil
    ) {
        collector.report(
            rule, message, at: location, machine: machine, subjects: subjects, notes: notes, fix: fix,
            counterexample: counterexample)
    }
}
