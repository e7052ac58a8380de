/// `state-kind-changed`: a state keeps its name but becomes a different kind: what the app
/// shows there, and the work it runs, change meaning (an `input` screen that became a `task`
/// now needs work and a timeout).
enum StateKindChangedRule: DiffRule {
    static let definition = RuleDefinition(
        rule: .stateKindChanged, defaultSeverity: .warning,
        summary: "A state kept its name but changed kind.",
        reportedAt: "the state, in the new spec (`flowspec diff`)",
        finding: "a state of the same name whose kind (`input`, `task`, `choice`, `terminal`) changed")

    static func find(in pair: MachinePair) -> [Diagnostic] {
        var oldKind: [String: StateKind] = [:]
        for index in pair.old.states.indices { oldKind[pair.old.name(of: index)] = pair.old.states[index].kind }
        var findings: [Diagnostic] = []
        for index in pair.new.states.indices {
            let name = pair.new.name(of: index)
            let kind = pair.new.states[index].kind
            guard let was = oldKind[name], was != kind else { continue }
            let meaning =
                was == .input && kind == .task
                ? "the screen that waited for the user now runs work: register it, and check its timeout"
                : "check the app's screen and work for it"
            findings.append(
                pair.finding(
                    .stateKindChanged,
                    "state '\(name)' of machine '\(pair.new.name.value)' was \(was.rawValue) and is \(kind.rawValue) "
                        + "now; \(meaning)",
                    at: pair.new.states[index].kindLocation ?? pair.new.states[index].name.location, subjects: [name]))
        }
        return findings
    }
}
