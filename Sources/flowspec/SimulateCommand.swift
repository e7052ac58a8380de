import ArgumentParser
import FlowSpecCore

/// `flowspec simulate`: runs one machine on a list of inputs and prints the trace.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run a machine on events and print each step: state, effects, armed timeout.",
        discussion: """
            Each input is an event name, `@timeout` (fire the timeout armed for the current \
            visit), `+condition` (set it) or `-condition` (clear it). Conditions given before the \
            first event apply to the start. Example:
              flowspec simulate specs/app.yaml --machine FirstRun +onboardingCompleted startDemo
            This is the reference semantics of the generated Swift.
            """
    )

    @Argument(help: "The spec file.")
    var spec: String

    @Option(help: "The machine to run (may be left out when the spec has one machine).")
    var machine: String?

    @Option(parsing: .unconditional,
            help: "Start by restoring this stored raw value (see `persist`) instead of from `initial`.")
    var restore: String?

    @OptionGroup(title: "Limits")
    var limitOptions: LimitOptions

    @Argument(parsing: .allUnrecognized, help: "Inputs: events, @timeout, +condition, -condition.")
    var inputs: [String] = []

    func run() throws {
        let input = try SpecInput(path: spec, limits: limitOptions.limits, refusal: "it cannot be simulated")
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
            throw ExitCode(2)
        }
    }

    private func chooseMachine(_ programs: [FlowProgram]) throws -> FlowProgram {
        if let machine {
            guard let program = programs.first(where: { $0.name.name == machine }) else {
                Console.error("flowspec: error: \(spec) has no machine '\(machine)'; it has \(programs.map(\.name.name).joined(separator: ", "))")
                throw ExitCode(2)
            }
            return program
        }
        guard programs.count == 1 else {
            Console.error("flowspec: error: \(spec) has \(programs.count) machines; choose one with --machine (\(programs.map(\.name.name).joined(separator: ", ")))")
            throw ExitCode(2)
        }
        return programs[0]
    }
}
