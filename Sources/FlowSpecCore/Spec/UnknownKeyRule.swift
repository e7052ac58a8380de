/// `unknown-key`: a key the language does not have, reported by ``NodeReader`` with a
/// suggestion and the keys allowed there; also a merge key, and a `severity:` entry that
/// names no rule (reported by ``SeverityDecoder``).
enum UnknownKeyRule: RuleHome {
    static let definition = RuleDefinition(
        rule: .unknownKey, defaultSeverity: .error,
        summary: "A key the language does not have.",
        reportedAt: "the key",
        finding: "a key the language does not have, with a suggestion")

    /// A key that `what` does not have, with a "did you mean" hint.
    static func unknownKey(_ key: String, of what: String, hint: String) -> String {
        "\(what) has no key '\(key)'\(hint)"
    }

    /// The note listing the keys allowed where an unknown one was found.
    static func allowedKeysNote(_ allowed: [String]) -> String {
        "allowed keys: \(allowed.joined(separator: ", "))"
    }

    /// A merge key (`<<`), which the language does not read.
    static let mergeKey = "merge keys (`<<`) are not part of the flowspec language; write the keys out"

    /// A `severity:` entry whose key is not a rule id, with a "did you mean" hint.
    static func unknownRule(_ name: String, hint: String) -> String {
        "there is no rule '\(name)'\(hint)"
    }
}
