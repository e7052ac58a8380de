import FlowSpecCore

/// `flowspec simulate`: runs one machine on a list of inputs and prints the trace.
struct SimulateCommand: Command {
    static let specArgument = ArgumentSyntax(name: "spec", help: "The spec file.")
    static let inputs = ArgumentSyntax(
        name: "inputs", help: "Inputs: events, @timeout, +condition, -condition.",
        count: .rest)
    static let machine = OptionSyntax.text(
        "machine", help: "The machine to run (may be left out when the spec has one machine).")
    static let restore = OptionSyntax.text(
        "restore", help: "Start by restoring this stored raw value (see `persist`) instead of from `initial`.")

    static let syntax = CommandSyntax(
        name: "simulate",
        abstract: "Run a machine on events and print each step: state, effects, armed timeout.",
        discussion: """
            Each input is an event name, `@timeout` (fire the timeout armed for the current \
            visit), `+condition` (set it) or `-condition` (clear it). Conditions given before the \
            first event apply to the start. Example:
              flowspec simulate specs/app.yaml --machine FirstRun \\
                +onboardingCompleted startDemo
            This is the reference semantics of the generated Swift.
            """,
        arguments: [specArgument, inputs],
        options: [machine, restore] + LimitOptions.options
    )

    let spec: String
    let inputs: [String]
    let machine: String?
    let restore: String?
    let limits: YAMLLimits

    init(_ arguments: ParsedArguments) throws {
        spec = arguments.word(Self.specArgument)
        inputs = arguments.words(Self.inputs)
        machine = arguments.text(Self.machine)
        restore = arguments.text(Self.restore)
        limits = try LimitOptions(arguments).limits
    }

    func run() throws {
        let input = try SpecInput(path: spec, limits: limits, refusal: "it cannot be simulated")
        let program = try chooseMachine(input.programs)
        let steps = inputs.map { token -> Simulation.Step in
            if token == "@timeout" { return .timeout }
            if token.hasPrefix("+") { return .condition(String(token.dropFirst()), true) }
            if token.hasPrefix("-") { return .condition(String(token.dropFirst()), false) }
            return .event(token)
        }
        do {
            let lines = try Simulation(program: program).run(steps, restoring: restore.map { .some($0) })
            Console.output(lines.joined(separator: "\n") + "\n")
        } catch {
            Console.error("flowspec: error: \(error)")
            throw ExitStatus.failure
        }
    }

    private func chooseMachine(_ programs: [FlowProgram]) throws -> FlowProgram {
        if let machine {
            guard let program = programs.first(where: { $0.name.name == machine }) else {
                Console.error(
                    "flowspec: error: \(spec) has no machine '\(machine)'; it has \(programs.map(\.name.name).joined(separator: ", "))"
                )
                throw ExitStatus.failure
            }
            return program
        }
        guard programs.count == 1 else {
            Console.error(
                "flowspec: error: \(spec) has \(programs.count) machines; choose one with --machine (\(programs.map(\.name.name).joined(separator: ", ")))"
            )
            throw ExitStatus.failure
        }
        return programs[0]
    }
}
