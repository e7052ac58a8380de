/// Writes the Swift Testing suite of one machine (`flowspec gen --tests`): its test paths as
/// typed data, and a parameterised test that runs each through `FlowPathRunner` with the
/// app's `<Machine>PathHarness`.
///
/// The paths name the machine's states, events and effects as Swift cases, so a spec change
/// that removes one makes the suite fail to compile until it is generated again.
struct PathSuiteEmitter {
    let cover: PathCover
    var program: FlowProgram { cover.program }

    func emit(into w: inout SwiftWriter) {
        let type = program.name.swiftName.code
        let bare = program.name.swiftName.bare
        w.line("/// Runs every test path of `\(program.name.name)` through its driver on a test clock: after each")
        w.line("/// step the state, the effects in order and the armed timer must be the spec's, then")
        w.line("/// `\(bare)PathHarness.verify(state:driver:)` runs the app's own checks.")
        w.line("@MainActor")
        w.line("@Suite(\"\(bare): paths from the spec\")")
        w.block("struct \(bare)PathTests") { w in
            emitRunnerTest("path", over: "all", type: type, bare: bare, into: &w) { _ in }
            if !counterexamples.isEmpty { emitCounterexampleTest(type: type, bare: bare, into: &w) }
        }
        w.line("")
        for (item, reason) in cover.notCovered {
            w.line("// Not covered: \(Self.comment(item.description(in: program))): \(Self.comment(reason)).")
        }
        for (_, reason) in cover.skippedRequirements { w.line("// Requirement not tested: \(Self.comment(reason)).") }
        w.line("/// The test paths of `\(program.name.name)`, as `flowspec paths` prints them.")
        w.block("enum \(bare)Paths") { w in
            w.line("static let all: [FlowSpecTesting.FlowPath<\(type)>] = [")
            w.indented { w in
                for (index, path) in cover.paths.enumerated() where !Self.isCounterexample(path) {
                    emit(path, number: index + 1, into: &w)
                }
            }
            w.line("]")
            guard !counterexamples.isEmpty else { return }
            w.line("")
            w.line("/// The runs that break the properties `flowspec check` refutes (its `requirement-failed`")
            w.line("/// lowered below an error).")
            w.line("static let counterexamples: [FlowSpecTesting.FlowPath<\(type)>] = [")
            w.indented { w in
                for (index, path) in cover.paths.enumerated() where Self.isCounterexample(path) {
                    emit(path, number: index + 1, into: &w)
                }
            }
            w.line("]")
        }
    }

    /// The paths that break a property.
    private var counterexamples: [PathCover.Path] { cover.paths.filter(Self.isCounterexample) }

    private static func isCounterexample(_ path: PathCover.Path) -> Bool {
        if case .counterexample = path.purpose { return true }
        return false
    }

    /// A test per refuted property: the generated code takes the run that breaks it, and the
    /// property's failure on that run is a known issue until the spec is fixed.
    private func emitCounterexampleTest(type: String, bare: String, into w: inout SwiftWriter) {
        w.line("")
        w.line("/// A property `flowspec check` refutes: the generated code takes the run that breaks it, step")
        w.line("/// by step, and that run breaking it is a known issue until the spec is fixed.")
        emitRunnerTest("counterexample", over: "counterexamples", type: type, bare: bare, into: &w) { w in
            w.block("withKnownIssue(Testing.Comment(rawValue: path.name))") { w in
                w.line("// The run the spec says breaks it is the one the generated code took.")
                w.line("if problems.isEmpty { Issue.record(Testing.Comment(rawValue: path.name)) }")
            }
        }
    }

    /// A test over the paths of `<Machine>Paths.<list>` that runs each through
    /// `FlowPathRunner` and expects no disagreement, then what `more` writes.
    private func emitRunnerTest(
        _ name: String, over list: String, type: String, bare: String, into w: inout SwiftWriter,
        _ more: (inout SwiftWriter) -> Void
    ) {
        w.line("@Test(arguments: \(bare)Paths.\(list))")
        // Swift Testing reports a test unavailable on the running system as skipped, with the
        // reason: FlowDriver runs where Observation does.
        w.line(SwiftGenerator.driverAvailability)
        w.block("func \(name)(_ path: FlowSpecTesting.FlowPath<\(type)>) async") { w in
            w.line("let problems = await FlowSpecTesting.FlowPathRunner.run(path, harness: \(bare)PathHarness.self)")
            w.line("#expect(problems.isEmpty, Testing.Comment(rawValue: problems.joined(separator: \"\\n\")))")
            more(&w)
        }
    }

    private func emit(_ path: PathCover.Path, number: Int, into w: inout SwiftWriter) {
        let name = Self.literal("path \(number): \(PathReport.purpose(path, program))")
        var budget = ""
        if case .within(_, let from, _, let max) = path.purpose {
            budget = ", budget: .init(fromStep: \(from), max: \(Self.duration(max)))"
        }
        w.line(".init(")
        w.indented { w in
            w.line("\(name)\(budget),")
            w.line("[")
            w.indented { w in
                for step in path.steps { w.line(self.step(step) + ",") }
            }
            w.line("]),")
        }
    }

    private func step(_ step: PathCover.Step) -> String {
        var arguments: [String] = []
        switch step.input {
        case .start: arguments.append(".start")
        case .event(let event): arguments.append(".event(.\(program.events[event].swiftName.code))")
        // With compound states' timers, the timer that fires is the one due first: the wait says
        // which.
        case .timeout where program.compounds.contains { $0.timeout != nil }:
            arguments.append(".wait(\(Self.duration(step.waited)), timeoutOf: nil)")
        case .compoundTimeout(let compound):
            arguments.append(
                ".wait(\(Self.duration(step.waited)), timeoutOf: .\(program.compounds[compound].swiftName.code))")
        case .stateTimeout(let state):
            arguments.append(
                ".regionWait(\(Self.duration(step.waited)), timeoutOf: .\(program.states[state].swiftName.code))")
        case .timeout: arguments.append(".timeout")
        case .relaunch: arguments.append(".relaunch")
        case .conditionsChanged: arguments.append(".conditionsChanged")
        }
        let conditions = step.conditions.indices.filter { step.conditions[$0] }
        if !conditions.isEmpty {
            arguments.append(
                "when: [" + conditions.map { Self.literal(program.conditions[$0].name) }.joined(separator: ", ") + "]")
        }
        arguments.append(".\(program.states[step.state].swiftName.code)")
        if program.hasParallel {
            arguments.append(
                "states: [" + step.states.map { ".\(program.states[$0].swiftName.code)" }.joined(separator: ", ") + "]")
        }
        if !step.effects.isEmpty {
            arguments.append(
                "effects: [" + step.effects.map { ".\(program.effects[$0].swiftName.code)" }.joined(separator: ", ")
                    + "]")
        }
        if program.hasParallel {
            // Every timer armed, in the order armed, each named after its state or compound state.
            let timers = PathReport.timeouts(step, program).map { timeout in
                let owner = timeout.compound.map { program.compounds[$0].name } ?? program.states[timeout.state].name
                return ".after(\(Self.duration(timeout.after)), .\(program.states[timeout.target].swiftName.code), of: "
                    + Self.literal(owner) + ")"
            }
            if !timers.isEmpty { arguments.append("timers: [" + timers.joined(separator: ", ") + "]") }
            return ".init(" + arguments.joined(separator: ", ") + ")"
        }
        if let timeout = program.states[step.state].timeout, let last = step.timeoutTargets.last {
            let target = program.states[last].swiftName.code
            arguments.append("timer: .after(\(Self.duration(timeout.after)), .\(target))")
        }
        let outer = program.states[step.state].outerTimeouts.enumerated().map { position, scoped in
            ".after(\(Self.duration(scoped.timeout.after)), .\(program.states[step.timeoutTargets[position]].swiftName.code))"
        }
        if !outer.isEmpty { arguments.append("compoundTimers: [\(outer.joined(separator: ", "))]") }
        return ".init(" + arguments.joined(separator: ", ") + ")"
    }

    /// Text safe in a line comment: on one line.
    private static func comment(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }

    private static func duration(_ duration: Duration) -> String {
        ".milliseconds(\(duration.wholeMilliseconds))"
    }

    private static func literal(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return "\"\(escaped)\""
    }
}

extension SwiftGenerator {
    /// The header of a test-suite file: the imports of the runtime, the testing library and
    /// Swift Testing, and `@testable import` of the module holding the machines, if given.
    static func testHeader(_ options: GenerationOptions) -> String {
        var text = """
            // Generated by flowspec from \(sanitisedPath(options.sourcePath)) (`flowspec gen --tests`). DO NOT EDIT.
            // Edit the spec and run `flowspec gen --tests` again to change this file.

            import FlowSpecRuntime
            import FlowSpecTesting
            import Testing

            """
        if let module = options.testableImport { text += "@testable import \(module)\n" }
        return text
    }

    /// The test suite of one machine (without the file header).
    public static func testSuite(_ cover: PathCover) -> String {
        var writer = SwiftWriter()
        PathSuiteEmitter(cover: cover).emit(into: &writer)
        return writer.text
    }
}
