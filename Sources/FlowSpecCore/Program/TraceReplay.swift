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
            var content = String(rawLine)
            if content.hasSuffix("\r") { content.removeLast() }
            if content.isEmpty || content.hasPrefix("#") { continue }
            guard let arrow = content.firstRange(of: " -> ") else {
                guard let sign = content.first, sign == "+" || sign == "-", content.count > 1 else {
                    return .disagrees(
                        line: line,
                        message: "this is not a line of a trace: expected `INPUT -> STATE | effects: … | timeout: …`, "
                            + "`+condition` or `-condition`")
                }
                let name = String(content.dropFirst())
                guard program.conditions.contains(where: { $0.name == name }) else {
                    return .disagrees(
                        line: line, message: unknown("condition", name, program.conditions.map(\.name), program))
                }
                if recorded.isEmpty {
                    startConditions.append(.condition(name, sign == "+"))
                } else {
                    steps.append(.condition(name, sign == "+"))
                }
                continue
            }
            // Names and restored values are written with their control characters escaped.
            let input = TraceLine.unescaped(String(content[..<arrow.lowerBound]))
            // After the first line, `start` is the event of that name if the machine has one.
            let isEventNamedStart =
                !recorded.isEmpty && input == "start" && program.events.contains { $0.name == "start" }
            let starts =
                !isEventNamedStart && (input == "start" || (input.hasPrefix("restore(") && input.hasSuffix(")")))
            if recorded.isEmpty {
                guard starts else {
                    return .disagrees(
                        line: line, message: "a trace begins with `start -> …` or `restore(VALUE) -> …`, not '\(input)'"
                    )
                }
                if input != "start" {
                    let value = String(input.dropFirst("restore(".count).dropLast())
                    restoring = .some(value == "nil" ? nil : value)
                }
            } else if input == "start" && !isEventNamedStart {
                return .disagrees(
                    line: line, message: "the flow starts only once in a trace; '\(input)' comes after its start")
            } else if starts {
                steps.append(.relaunch)
            } else if input == "@timeout" {
                steps.append(.timeout)
            } else if input.hasPrefix("@timeout("), input.hasSuffix(")") {
                let name = String(input.dropFirst("@timeout(".count).dropLast())
                // With parallel regions, a state's own timeout is named after it too.
                let states = program.hasParallel ? program.states.map(\.name) : []
                guard program.compounds.contains(where: { $0.name == name }) || states.contains(name) else {
                    return .disagrees(
                        line: line,
                        message: unknown(
                            states.isEmpty ? "compound state" : "compound state or state", name,
                            program.compounds.map(\.name) + states, program))
                }
                steps.append(.compoundTimeout(name))
            } else {
                guard program.events.contains(where: { $0.name == input }) else {
                    return .disagrees(line: line, message: unknown("event", input, program.events.map(\.name), program))
                }
                steps.append(.event(input))
            }
            recorded.append((line, content))
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

    private static func unknown(_ what: String, _ name: String, _ names: [String], _ program: FlowProgram) -> String {
        "machine '\(program.name.name)' has no \(what) '\(name)'\(Suggestion.hint(for: name, among: names))"
    }
}
