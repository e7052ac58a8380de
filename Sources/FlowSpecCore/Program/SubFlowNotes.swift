/// The lines `flowspec simulate` writes around a run's steps to say which machine each
/// sub-flow is: before a step, a `#` line for each sub-flow it ends or stops (innermost
/// first), then for each it starts (outermost first):
///
///     # launch runs LaunchAuth
///     signIn -> launch.splash | effects: - | timeout: 2000ms -> launch.onboardingCheck
///     …
///     # launch: LaunchAuth ended at mainApp
///     # story runs Chapters
///     mainAppLoaded -> story.handshake | effects: - | timeout: -
///
/// A trace is the composed machine's (`launch.splash`): these lines name the machine behind
/// each running state. Replay and coverage skip `#` lines, so the output still replays.
extension Simulation {
    /// Runs `steps` as ``run(_:restoring:)`` does, with the sub-flows' lines.
    public func runNamingSubFlows(_ steps: [Step], restoring rawValue: String?? = nil) throws(Failure) -> [String] {
        let leading = steps.prefix { if case .condition = $0 { true } else { false } }
        let (lines, notes) = try runWithSubFlowNotes(
            startingUnder: Array(leading), then: Array(steps.dropFirst(leading.count)), restoring: rawValue)
        return zip(lines, notes).flatMap { line, notes in notes + [line] }
    }

    /// The lines of a run (as ``run(_:restoring:)``), and for each the sub-flows' lines that go
    /// before it (none in a machine that runs no machine).
    func runWithSubFlowNotes(startingUnder start: [Step], then steps: [Step], restoring rawValue: String??)
        throws(Failure) -> (lines: [String], notes: [[String]])
    {
        let runsMachines = program.compounds.contains { $0.runs != nil }
        var exercised: Set<CoverageItem>? = runsMachines ? [] : nil
        var records: [Record]? = runsMachines ? [] : nil
        let lines = try run(
            startingUnder: start, then: steps, restoring: rawValue, exercised: &exercised, records: &records)
        // A record per line, each with the moves its input took.
        guard let records, records.count == lines.count else { return (lines, lines.map { _ in [] }) }
        var notes: [[String]] = []
        var before: [(compound: Int, visit: Int)] = []
        for record in records {
            notes.append(self.notes(from: before, to: record))
            before = record.subFlows
        }
        return (lines, notes)
    }
    /// The lines for the sub-flows a step ends, stops and starts.
    private func notes(from before: [(compound: Int, visit: Int)], to record: Record) -> [String] {
        func isRunning(_ run: (compound: Int, visit: Int), in list: [(compound: Int, visit: Int)]) -> Bool {
            list.contains { $0.compound == run.compound && $0.visit == run.visit }
        }
        var lines: [String] = []
        var ended = Set<Int>()
        for move in record.moves where move.via == .always {
            guard let compound = program.states[move.from].outcomeOf else { continue }
            let outcome = program.states[move.from].name.dropFirst(program.compounds[compound].name.count + 1)
            lines.append("# \(program.compounds[compound].name): \(machine(of: compound)) ended at \(outcome)")
            ended.insert(compound)
        }
        for run in before.reversed() where !isRunning(run, in: record.subFlows) && !ended.contains(run.compound) {
            lines.append("# \(program.compounds[run.compound].name): \(machine(of: run.compound)) stopped")
        }
        for run in record.subFlows where !isRunning(run, in: before) {
            lines.append("# \(program.compounds[run.compound].name) runs \(machine(of: run.compound))")
        }
        // Names may hold line breaks: escaped as in the step lines, so a note stays one line.
        return lines.map(TraceLine.escaped)
    }

    private func machine(of compound: Int) -> String { program.compounds[compound].runs?.machine.name ?? "?" }
}
