/// `limit-exceeded`: the input exceeds one of flowspec's resource limits (``YAMLLimits``):
/// file size, nesting depth, expanded aliases and scalar size (found by ``YAMLReader``), states
/// and transitions of a machine (``MachineDecoder``), states copied by composition
/// (``SpecComposer``), and, for `gen`, a machine name too
/// long for a file name (``SpecGeneration``). Each message names the limit and its value.
/// After one found while reading, nothing else in the file is checked.
enum LimitExceededRule: RuleHome {
    static let definition = RuleDefinition(
        rule: .limitExceeded, defaultSeverity: .error,
        summary: "The input exceeds one of flowspec's resource limits.",
        reportedAt: "where the limit is crossed",
        finding: "see [Limits](#limits) (an extension)")

    /// Composing `machine` would copy more states than a spec may (``YAMLLimits/maxComposedStates``).
    static func reportTooManyCopies(
        _ run: Located<String>, machine: String, limit: Int, into diagnostics: DiagnosticCollector
    ) {
        diagnostics.report(
            .limitExceeded,
            "machine '\(machine)' runs '\(run.value)' here, and the machines of this spec would copy over \(limit) states of the machines they run, the limit (raise it with --max-composed-states)",
            at: run.location, machine: machine, subjects: [machine, run.value],
            notes: [
                .init(
                    "each `run:` copies the machine it runs, with every machine that one runs: machines that run one another from several states multiply"
                )
            ])
    }
}
