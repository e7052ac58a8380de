/// `misplaced-timeout`: a timeout on a `choice` state (which leaves at once) or a
/// `terminal` state (which never leaves).
struct MisplacedTimeoutCheck: MachineCheck {
    func check(_ analysis: MachineAnalysis, _ reporter: inout MachineReporter) {
        for state in analysis.machine.states {
            guard let location = state.timeoutLocation, state.kind == .choice || state.kind == .terminal else { continue }
            let why = state.kind == .choice ? "leaves at once through `always`" : "never leaves"
            reporter.report(.misplacedTimeout,
                            "\(state.kind.rawValue) state '\(state.name.value)' cannot have a timeout: it \(why)",
                            at: location, subjects: [state.name.value])
        }
    }
}
