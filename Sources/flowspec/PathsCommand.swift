import FlowSpecCore

/// `flowspec paths`: test paths that cover every transition of each machine, with what the
/// spec expects after each step.
struct PathsCommand: Command {
    /// The output formats.
    enum Format: String, CaseIterable {
        case text, json
    }

    static let specArgument = ArgumentSyntax(name: "spec", help: "The spec file.")
    static let format = OptionSyntax.choice(
        "format", Format.self, default: .text, help: "Output format: text (replayable traces) or json.")
    static let machine = OptionSyntax.text("machine", help: "Only this machine (default: every machine).")
    static let syntax = CommandSyntax(
        name: "paths",
        abstract: "Print test paths that cover every state, transition, timeout and retry of each machine.",
        discussion: """
            Each path runs from the start and gives, for every step, the input (an event, a \
            timeout after its whole duration, a relaunch that restores the stored state, or \
            conditions set before it) and what the spec expects after it: the state, the \
            effects in order and the armed timeout. Together the paths take every transition \
            the machine can take (each candidate, `always` branch, timeout, retry's `then` once \
            used up, machine-wide transition and relaunch); each `within` requirement gets a \
            path at its worst case and each `alwaysReachable` target paths that reach it. \
            In text, each path is a trace that `flowspec simulate --replay` accepts. Example:
              flowspec paths specs/app.yaml --machine LaunchAuth --format json
            """,
        arguments: [specArgument],
        options: [format, machine] + PathLimitOptions.options + LimitOptions.options
    )

    let spec: String
    let format: Format
    let machine: String?
    let pathLimits: PathCover.Limits
    let limits: YAMLLimits

    init(_ arguments: ParsedArguments) throws {
        spec = arguments.word(Self.specArgument)
        format = arguments.choice(Self.format, as: Format.self) ?? .text
        machine = arguments.text(Self.machine)
        pathLimits = try PathLimitOptions(arguments).limits
        limits = try LimitOptions(arguments).limits
    }

    func run() throws {
        let input = try SpecInput(path: spec, limits: limits, refusal: "no paths were generated")
        var chosen = Array(zip(input.programs, input.result.graphs.map(\.machine)))
        if let machine {
            chosen = chosen.filter { $0.0.name.name == machine }
            guard !chosen.isEmpty else {
                Console.error(
                    "flowspec: error: \(spec) has no machine '\(machine)'; it has "
                        + input.programs.map(\.name.name).joined(separator: ", "))
                throw ExitStatus.failure
            }
            guard chosen[0].1.isStandalone else {
                Console.error(SpecInput.runsOnlyAsSubFlow(machine, spec: spec))
                throw ExitStatus.failure
            }
        }
        // A machine that runs only as a sub-flow is covered by the paths of the machines that run it.
        chosen.removeAll { !$0.1.isStandalone }
        var reports: [PathReport.Machine] = []
        for (program, machine) in chosen {
            do {
                reports.append(
                    PathReport.Machine(
                        cover: try PathCover(program: program, machine: machine, limits: pathLimits),
                        machine: machine))
            } catch {
                Console.error(error.message(file: spec))
                throw ExitStatus.failure
            }
        }
        var output = Console.StandardOutput()
        switch format {
        case .text: output.write(PathReport.text(reports, file: spec))
        case .json: PathReport.json(reports, file: spec, to: &output)
        }
        output.flush()
    }
}
