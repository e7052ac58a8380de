/// `limit-exceeded`: the input exceeds one of flowspec's resource limits (``YAMLLimits``):
/// file size, nesting depth, expanded aliases and scalar size (found by ``YAMLReader``), states
/// and transitions of a machine (``MachineDecoder``), and, for `gen`, a machine name too
/// long for a file name (``SpecGeneration``). Each message names the limit and its value.
/// After one found while reading, nothing else in the file is checked.
enum LimitExceededRule: RuleHome {
    static let definition = RuleDefinition(
        rule: .limitExceeded, defaultSeverity: .error,
        summary: "The input exceeds one of flowspec's resource limits.",
        reportedAt: "where the limit is crossed",
        finding: "see [Limits](#limits) (an extension)")
}
