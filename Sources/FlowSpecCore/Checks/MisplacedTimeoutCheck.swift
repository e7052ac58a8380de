/// `misplaced-timeout`: a timeout on a `choice` state (which leaves at once) or a
/// `terminal` state (which never leaves).
struct MisplacedTimeoutCheck: MachineCheck {
    static let definition = RuleDefinition(
        rule: .misplacedTimeout, defaultSeverity: .error,
        summary: "A timeout on a choice or terminal state.",
        reportedAt: "the `timeout` key",
        finding: "a timeout on a `choice` or `terminal` state")

    func check(_ analysis: MachineAnalysis, _ reporter: RuleReporter) {
        let states = analysis.machine.states
        for index in states.indices {
            guard let location = states[index].timeoutLocation,
                states[index].kind == .choice || states[index].kind == .terminal
            else { continue }
            let state = states[index]
            let why = state.kind == .choice ? "leaves at once through `always`" : "never leaves"
            reporter.report(
                "\(state.kind.rawValue) state '\(analysis.machine.name(of: index))' cannot have a timeout: it \(why)",
                at: location, subjects: [analysis.machine.name(of: index)])
        }
    }
}
