/// `state-kind-changed`: a state keeps its name but becomes a different kind: what the app
/// shows there, and the work it runs, change meaning (an `input` screen that became a `task`
/// now needs work and a timeout).
///
/// Only leaves have a kind: a compound state's is never read, so a state that is compound in
/// either version has no kind to compare (the change listing says it now holds states, or no
/// longer does).
enum StateKindChangedRule: DiffRule {
    static let definition = RuleDefinition(
        rule: .stateKindChanged, defaultSeverity: .warning,
        summary: "A state kept its name but changed kind.",
        reportedAt: "the state, in the new spec (`flowspec diff`)",
        finding: "a state of the same name whose kind (`input`, `task`, `choice`, `terminal`) changed")

    static func find(in pair: MachinePair) -> [Diagnostic] {
        var oldKind: [String: StateKind] = [:]
        for (position, index) in pair.oldLeafIndices.enumerated() {
            oldKind[pair.oldLeaves[position]] = pair.old.states[index].kind
        }
        var findings: [Diagnostic] = []
        for (position, index) in pair.newLeafIndices.enumerated() {
            let name = pair.newLeaves[position]
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
