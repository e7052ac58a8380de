/// `terminal-exit`: a terminal state with its own `on`, `always` or `timeout`. A terminal
/// state ends the flow: it ignores events and never leaves.
struct TerminalExitCheck: MachineCheck {
    static let definition = RuleDefinition(
        rule: .terminalExit, defaultSeverity: .error,
        summary: "A terminal state with its own `on`, `always` or `timeout`.",
        reportedAt: "the `on`/`always`/`timeout` key",
        finding: "a terminal state with its own way out")

    func check(_ analysis: MachineAnalysis, _ reporter: RuleReporter) {
        let states = analysis.machine.states
        for index in states.indices where states[index].kind == .terminal {
            let state = states[index]
            let name = analysis.machine.name(of: index)
            let exits: [(String, SourceLocation?)] = [
                ("on", state.onLocation), ("always", state.always?.location), ("timeout", state.timeoutLocation)
            ]
            for case let (key, location?) in exits {
                reporter.report(
                    "terminal state '\(name)' has its own `\(key)`, but a terminal state never leaves",
                    at: location, subjects: [name],
                    notes: [.init("remove `\(key)`, or make '\(name)' an `input` or `task` state")])
            }
        }
    }
}
