/// `undefined-state`: a name that should be a state of the machine is not one: a target,
/// `initial`, `then`, `in`, `notIn`, `resume`, `migrate`, a sequence member or a requirement's
/// state. Reported by ``GraphBuilder`` as it resolves names, with a suggestion.
enum UndefinedStateRule: RuleHome {
    static let definition = RuleDefinition(
        rule: .undefinedState, defaultSeverity: .error,
        summary: "A name that should be a state of the machine is not one.",
        reportedAt: "the name",
        finding:
            "a target, `initial`, `then`, `in`, `notIn`, `resume` or `migrate` state, sequence member or requirement that is not a state (with a suggestion)"
    )

    /// A name in `role` (`initial state`, `target`, …) that is no state of the machine.
    static func notAState(_ name: String, as role: String, machine: String, hint: String) -> String {
        "\(role) '\(name)' is not a state of machine '\(machine)'\(hint)"
    }
}
