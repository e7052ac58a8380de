/// `yaml-syntax`: the file is not YAML that flowspec reads: libyaml's own errors (at
/// libyaml's position, with its context as a note), a second document, an alias that
/// contains itself, invalid UTF-8 or UTF-16. After one, nothing else in the file is checked.
///
/// Reported by ``YAMLReader`` as it reads libyaml's events; the message is libyaml's problem
/// or the reader's own explanation of what it met there.
enum YAMLSyntaxRule: RuleHome {
    static let definition = RuleDefinition(
        rule: .yamlSyntax, defaultSeverity: .error,
        summary: "The YAML is malformed.",
        reportedAt: "libyaml's position",
        finding: "the YAML is malformed")
}
