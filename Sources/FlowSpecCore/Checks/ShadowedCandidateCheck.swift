/// `shadowed-candidate`: a candidate listed after an unconditional one can never be taken
/// (in `on`, machine-wide `on` and `always` lists).
struct ShadowedCandidateCheck: MachineCheck {
    static let definition = RuleDefinition(
        rule: .shadowedCandidate, defaultSeverity: .warning,
        summary: "A candidate listed after an unconditional one can never be taken.",
        reportedAt: "the candidate",
        finding: "a candidate after an unconditional one")

    func check(_ analysis: MachineAnalysis, _ reporter: RuleReporter) {
        let machine = analysis.machine
        for transition in machine.machineWide {
            report(
                transition.candidates, what: "machine-wide event '\(machine.names[transition.event.value])'",
                names: machine.names, reporter)
        }
        for index in machine.states.indices {
            // Only lists of two or more can shadow; looking at the count in place keeps this
            // pass from copying every transition of a large machine.
            let transitions = machine.transitions(of: index)
            for position in transitions.indices where transitions[position].candidates.count > 1 {
                let transition = transitions[position]
                report(
                    transition.candidates,
                    what: "event '\(machine.names[transition.event.value])' in state '\(machine.name(of: index))'",
                    names: machine.names, reporter)
            }
            if let always = machine.states[index].always {
                report(
                    always.value, what: "`always` of state '\(machine.name(of: index))'", names: machine.names,
                    reporter)
            }
        }
    }

    private func report(
        _ candidates: Candidates, what: @autoclosure () -> String, names: NameTable,
        _ reporter: RuleReporter
    ) {
        guard candidates.count > 1, let first = candidates.firstIndex(where: \.isUnconditional) else { return }
        let blocker = candidates[first]
        for shadowed in candidates[(first + 1)...] {
            reporter.report(
                "the candidate to '\(names[shadowed.target.value])' for \(what()) can never be taken: an unconditional candidate comes before it",
                at: shadowed.location, subjects: [names[shadowed.target.value]],
                notes: [
                    .init(
                        "the unconditional candidate to '\(names[blocker.target.value])' is always taken first",
                        at: blocker.location)
                ])
        }
    }
}
