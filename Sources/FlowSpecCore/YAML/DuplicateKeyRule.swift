/// `duplicate-key`: a mapping repeats a key (found by ``YAMLReader``, which keeps the first),
/// or a list of names repeats one (found by ``NodeReader``).
enum DuplicateKeyRule: RuleHome {
    static let definition = RuleDefinition(
        rule: .duplicateKey, defaultSeverity: .error,
        summary: "A mapping repeats a key, or a list repeats a name.",
        reportedAt: "the second key",
        finding: "a mapping repeats a key, or a list repeats a name")

    /// A mapping's key written a second time.
    static func repeatedKey(_ key: String) -> String {
        "the key '\(key)' appears twice in this mapping"
    }

    /// The note at a repeated key's first place.
    static let firstKeyNote = "first written here; only that one is used"

    /// A name listed twice in a list of names (`events`, a sequence's states, …).
    static func repeatedName(_ name: String, in list: String) -> String {
        "'\(name)' is listed twice in \(list)"
    }

    /// The note at a repeated name's first place.
    static let firstNameNote = "first listed here"
}
