/// What flowspec says about a rule: declared once, in the rule's home (see ``RuleHome``), and
/// read by `flowspec rules`, SARIF's rule list and the rules table of `docs/language.md`
/// (which a test keeps equal to ``Rule/documentationTable``).
public struct RuleDefinition: Sendable {
    /// The rule's stable id.
    public let rule: Rule
    /// The severity a finding of this rule has unless configured otherwise.
    public let defaultSeverity: Severity
    /// A one-line description (`flowspec rules`, SARIF).
    public let summary: String
    /// Where a finding points, for the documentation's rules table.
    public let reportedAt: String
    /// What counts as a finding, for the documentation's rules table (Markdown).
    public let finding: String
}

/// The home of one rule: the check that finds it, or, for the rules the reader and decoder
/// find as they read, the file beside them that declares the rule and its messages.
/// ``Rule/home`` maps each rule to its home, so a new rule does not compile without one.
protocol RuleHome {
    /// The rule this home declares.
    static var definition: RuleDefinition { get }
}
