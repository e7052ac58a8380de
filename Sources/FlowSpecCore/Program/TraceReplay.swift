/// Checks a recorded trace against the reference semantics: a log of `FlowDriver` steps
/// (from a test, or a user's device) replayed step by step with ``Simulation``, to the first
/// step where the log and the spec disagree.
///
/// A trace is what `flowspec simulate` prints, one step a line (`INPUT -> STATE | effects: … |
/// timeout: …`), with `+condition` and `-condition` lines where the conditions changed; it
/// begins with `start -> …` or `restore(VALUE) -> …`. A `restore(VALUE) -> …` line after the
/// start is a relaunch: the app stored its state, quit and restored it (the value must be
/// what the state stores). Blank lines and `#` comments are skipped.
public enum TraceReplay {
    /// What the replay found.
    public enum Outcome: Sendable, Equatable {
        /// Every step agrees with the spec.
        case agrees(steps: Int)
        /// The trace disagrees with the spec, or cannot be read, at a line (from 1).
        case disagrees(line: Int, message: String)
    }

    /// Replays `text` on `program`.
    public static func check(_ text: String, program: FlowProgram) -> Outcome {
        var exercised: Set<CoverageItem>? = nil
        return check(text, program: program, exercised: &exercised)
    }

    /// Replays `text` on `program` and, when it agrees, adds what it exercised to `exercised`.
    public static func check(_ text: String, program: FlowProgram, exercised: inout Set<CoverageItem>?) -> Outcome {
        var startConditions: [Simulation.Step] = []
        var steps: [Simulation.Step] = []
        var recorded: [(line: Int, text: String)] = []
        var restoring: String?? = nil
        for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = offset + 1
            switch TraceLine.read(rawLine) {
            case .skipped:
                continue
            case .unreadable:
                return .disagrees(
                    line: line,
                    message: "this is not a line of a trace: expected `INPUT -> STATE | effects: … | timeout: …`, "
                        + "`+condition` or `-condition`")
            case .condition(let name, let holds):
                guard program.conditions.contains(where: { $0.name == name }) else {
                    return .disagrees(
                        line: line, message: unknown("condition", name, program.conditions.map(\.name), program))
                }
                if recorded.isEmpty {
                    startConditions.append(.condition(name, holds))
                } else {
                    steps.append(.condition(name, holds))
                }
            case .step(var input, let content):
                // After the first line, `start` is the event of that name if the machine has one.
                if !recorded.isEmpty, input == .start, program.events.contains(where: { $0.name == "start" }) {
                    input = .event("start")
                }
                if recorded.isEmpty {
                    switch input {
                    case .start: break
                    case .restore(let value): restoring = .some(value == "nil" ? nil : value)
                    default:
                        return .disagrees(
                            line: line,
                            message: "a trace begins with `start -> …` or `restore(VALUE) -> …`, not '\(input.text)'")
                    }
                } else if let message = append(input, to: &steps, program) {
                    return .disagrees(line: line, message: message)
                }
                recorded.append((line, content))
            }
        }
        guard let first = recorded.first else {
            return .disagrees(
                line: 1, message: "the trace has no steps; it begins with `start -> …` or `restore(VALUE) -> …`")
        }
        let expected: [String]
        var found: Set<CoverageItem>? = exercised == nil ? nil : []
        do {
            expected = try Simulation(program: program).run(
                startingUnder: startConditions, then: steps, restoring: restoring, exercised: &found)
        } catch {
            return .disagrees(line: first.line, message: error.description)
        }
        for (step, spec) in zip(recorded, expected) where step.text != spec {
            return .disagrees(
                line: step.line, message: "the log and the spec disagree:\n  log:  \(step.text)\n  spec: \(spec)")
        }
        if let found { exercised?.formUnion(found) }
        return .agrees(steps: recorded.count)
    }

    /// Appends the step an input after the start names; returns why it cannot, if it cannot.
    private static func append(_ input: TraceLine.Input, to steps: inout [Simulation.Step], _ program: FlowProgram)
        -> String?
    {
        switch input {
        case .start:
            return "the flow starts only once in a trace; 'start' comes after its start"
        case .restore:
            steps.append(.relaunch)
        case .timeout:
            steps.append(.timeout)
        case .conditions:
            steps.append(.conditionsChanged)
        case .timeoutOf(let name):
            // With parallel regions, a state's own timeout is named after it too.
            let states = program.hasParallel ? program.states.map(\.name) : []
            guard program.compounds.contains(where: { $0.name == name }) || states.contains(name) else {
                return unknown(
                    states.isEmpty ? "compound state" : "compound state or state", name,
                    program.compounds.map(\.name) + states, program)
            }
            steps.append(.compoundTimeout(name))
        case .event(let name):
            guard program.events.contains(where: { $0.name == name }) else {
                return unknown("event", name, program.events.map(\.name), program)
            }
            steps.append(.event(name))
        }
        return nil
    }

    private static func unknown(_ what: String, _ name: String, _ names: [String], _ program: FlowProgram) -> String {
        "machine '\(program.name.name)' has no \(what) '\(name)'\(Suggestion.hint(for: name, among: names))"
    }
}
