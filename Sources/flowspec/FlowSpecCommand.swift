import ArgumentParser
import FlowSpecCore

/// `flowspec`: checks app-flow specs and turns them into Swift.
struct FlowSpecCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flowspec",
        abstract: "Check app-flow state machines written in the flowspec language.",
        discussion: """
            Exit status: 0 when no finding is an error, 1 when any is, 2 when flowspec could not \
            do its job (a file that cannot be read, a bad command line).
            """,
        version: FlowSpecVersion.current,
        subcommands: [CheckCommand.self, GenCommand.self, SimulateCommand.self, GraphCommand.self, RulesCommand.self]
    )
}
