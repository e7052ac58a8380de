/// `invalid-value`: a value of the wrong type or form, or a missing required key. Reported
/// wherever the decoder reads a value: ``NodeReader`` for the shapes every key shares (a
/// mapping, a list, a name, a duration, a choice among words, a missing key), and the section
/// decoders (``StateDecoder``, ``TransitionDecoder``, ``SectionDecoder``, ``SpecDecoder``) for
/// what only their key allows. Each message names the key and what it expected there, so it is
/// written where that context is known.
enum InvalidValueRule: RuleHome {
    static let definition = RuleDefinition(
        rule: .invalidValue, defaultSeverity: .error,
        summary: "A value of the wrong type or form, or a missing required key.",
        reportedAt: "the value (a missing key: its mapping or owner)",
        finding: "a value of the wrong type or form, or a missing required key")
}
