/// `unsupported-version`: `flowspec:` is missing or not 1. Reported by ``SpecDecoder``.
enum UnsupportedVersionRule: RuleHome {
    static let definition = RuleDefinition(
        rule: .unsupportedVersion, defaultSeverity: .error,
        summary: "`flowspec:` is missing or not 1.",
        reportedAt: "the `flowspec` value (1:1 if absent)",
        finding: "`flowspec:` is missing or not 1")

    /// An empty file (or one holding only `null`).
    static let emptyFile = "the file is empty; a spec starts with `flowspec: 1`"

    /// A spec with no `flowspec:` key.
    static let missingVersion = "the spec does not say its format version; add `flowspec: 1` at the top"

    /// A `flowspec:` value other than 1, described as the reader describes a node.
    static func unsupported(_ described: String) -> String {
        "this flowspec reads format version 1; the spec says \(described)"
    }
}
