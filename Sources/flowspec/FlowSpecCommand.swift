import FlowSpecCore

/// A command of the tool (`check`, `gen`, …): made from a command line its ``syntax`` accepts,
/// then run.
protocol Command: Sendable {
    /// Its arguments, options and help.
    static var syntax: CommandSyntax { get }
    /// The command with the given arguments; throws a ``UsageError`` for values that are
    /// each valid but not together (or not in meaning, such as `--max-states 0`).
    init(_ arguments: ParsedArguments) throws
    /// Runs the command; throws an ``ExitStatus`` to end with a status other than 0.
    func run() throws
}

/// The status the tool exits with, thrown by a command that does not end with 0. Exit codes
/// are part of the contract: 0 clean, 1 an error finding, 2 flowspec could not do its job.
struct ExitStatus: Error {
    let code: Int32

    /// A finding is an error (or a generated file is out of date).
    static let findings = ExitStatus(code: 1)
    /// flowspec could not do its job: a file that cannot be read, a bad command line.
    static let failure = ExitStatus(code: 2)
}

/// `flowspec`: reads the command line and runs the command it names.
enum FlowSpecCommand {
    static let abstract = "Check app-flow state machines written in the flowspec language."
    static let discussion = """
        Exit status: 0 when no finding is an error, 1 when any is, 2 when flowspec could not \
        do its job (a file that cannot be read, a bad command line).
        """
    static let commands: [any Command.Type] = [
        CheckCommand.self, GenCommand.self, SimulateCommand.self, PathsCommand.self, CoverageCommand.self,
        DiffCommand.self,
        GraphCommand.self, ExportCommand.self, ImportCommand.self, RulesCommand.self
    ]

    /// Runs the command line `words` (without the tool's own name) and returns the exit status.
    static func main(_ words: [String]) -> Int32 {
        do {
            try run(words)
            return 0
        } catch let error as UsageError {
            Console.error("flowspec: error: \(error.message)")
            if let command = error.command {
                Console.error("Usage: \(HelpText.usage(command))")
                Console.error("  See 'flowspec \(command.name) --help' for more information.")
            } else {
                Console.error("Usage: flowspec <command>")
                Console.error("  See 'flowspec --help' for the commands.")
            }
            return ExitStatus.failure.code
        } catch let status as ExitStatus {
            return status.code
        } catch {
            Console.error("flowspec: error: \(error)")
            return ExitStatus.failure.code
        }
    }

    private static func run(_ words: [String]) throws {
        guard let first = words.first, first != "-h", first != "--help" else {
            return Console.output(toolHelp)
        }
        if first == "--version" { return Console.output(version) }
        if first == "help" { return Console.output(try help(words.dropFirst().first)) }
        let command = try named(first)
        let rest = Array(words.dropFirst())
        // Help and version come first, as long as they are not an argument (after `--`).
        let options = rest.prefix { $0 != "--" }
        if options.contains("-h") || options.contains("--help") {
            return Console.output(HelpText.command(command.syntax))
        }
        if options.contains("--version") { return Console.output(version) }
        try command.init(try ParsedArguments(rest, for: command.syntax)).run()
    }

    /// The command named `name`.
    private static func named(_ name: String) throws -> any Command.Type {
        if let command = commands.first(where: { $0.syntax.name == name }) { return command }
        let hint = Suggestion.hint(for: name, among: commands.map { $0.syntax.name })
        let kind = name.hasPrefix("-") ? "option" : "command"
        throw UsageError("unknown \(kind) '\(name)'\(hint)", command: nil)
    }

    /// `flowspec help [command]`.
    private static func help(_ name: String?) throws -> String {
        guard let name, name != "-h", name != "--help" else { return toolHelp }
        return HelpText.command(try named(name).syntax)
    }

    /// What `--version` prints.
    private static var version: String { FlowSpecVersion.current + "\n" }

    private static var toolHelp: String {
        HelpText.tool(abstract: abstract, discussion: discussion, commands: commands.map { $0.syntax })
    }
}
