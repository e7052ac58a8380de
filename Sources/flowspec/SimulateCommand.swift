import FlowSpecCore

/// `flowspec simulate`: runs one machine on a list of inputs and prints the trace.
struct SimulateCommand: Command {
    /// The output formats.
    enum Format: String, CaseIterable {
        case text, json
    }

    static let format = OptionSyntax.choice(
        "format", Format.self, default: .text,
        help: "Output format: text (a trace `--replay` reads) or json (with each step's configuration).")
    static let specArgument = ArgumentSyntax(name: "spec", help: "The spec file.")
    static let inputs = ArgumentSyntax(
        name: "inputs", help: "Inputs: events, @timeout, @timeout(COMPOUND), +condition, -condition, @conditions.",
        count: .rest)
    static let machine = OptionSyntax.text(
        "machine", help: "The machine to run (may be left out when the spec has one machine).")
    static let restore = OptionSyntax.text(
        "restore", help: "Start by restoring this stored raw value (see `persist`) instead of from `initial`.")
    static let replay = OptionSyntax.text(
        "replay",
        help: "Check a recorded trace (a FlowDriver's `trace`) against the spec instead of running inputs.")

    static let syntax = CommandSyntax(
        name: "simulate",
        abstract: "Run a machine on events and print each step: state, effects, armed timeout.",
        discussion: """
            Each input is an event name, `@timeout` (fire the timeout armed for the current \
            visit), `@timeout(NAME)` (fire the timeout of compound state NAME, armed while the \
            flow is inside it), `+condition` (set it), `-condition` (clear it) or `@conditions` \
            (the app says its conditions changed: `always` branches that now hold are taken). \
            Conditions given before the first event apply to the start. Each step prints the state, the effects \
            and every armed timeout (a compound state's named before it); `--format json` adds \
            the configuration. Example:
              flowspec simulate specs/app.yaml --machine FirstRun \\
                +onboardingCompleted startDemo
            It runs the semantics the generated Swift runs (one kernel).
            With --replay TRACE, the trace a FlowDriver recorded is replayed step by step and \
            checked: exit 0 when every step agrees with the spec, 1 at the first that does not.
            """,
        arguments: [specArgument, inputs],
        options: [machine, restore, replay, format] + LimitOptions.options
    )

    let spec: String
    let inputs: [String]
    let machine: String?
    let restore: String?
    let replay: String?
    let format: Format
    let limits: YAMLLimits

    init(_ arguments: ParsedArguments) throws {
        spec = arguments.word(Self.specArgument)
        inputs = arguments.words(Self.inputs)
        machine = arguments.text(Self.machine)
        restore = arguments.text(Self.restore)
        replay = arguments.text(Self.replay)
        format = arguments.choice(Self.format, as: Format.self) ?? .text
        limits = try LimitOptions(arguments).limits
        if replay != nil, !inputs.isEmpty || restore != nil {
            throw UsageError(
                "--replay checks a recorded trace, which has its own inputs and start; leave out the inputs and --restore",
                command: Self.syntax)
        }
    }

    func run() throws {
        let input = try SpecInput(path: spec, limits: limits, refusal: "it cannot be simulated")
        let program = input.programs[try input.machineIndex(named: machine, spec: spec)]
        if let replay { return try check(replay, on: program) }
        let steps = inputs.map(Simulation.Step.init(token:))
        do {
            let simulation = Simulation(program: program)
            switch format {
            case .text:
                let lines = try simulation.runNamingSubFlows(steps, restoring: restore.map { .some($0) })
                Console.output(lines.joined(separator: "\n") + "\n")
            case .json:
                Console.output(try simulation.json(steps, restoring: restore.map { .some($0) }))
            }
        } catch {
            Console.error("flowspec: error: \(error)")
            throw ExitStatus.failure
        }
    }

    /// Replays the trace at `path` on `program`: exit 0 when it agrees, 1 at the first line
    /// that does not (`TRACE:LINE: error: …`), 2 when it cannot be read.
    private func check(_ path: String, on program: FlowProgram) throws {
        let file: SourceFile
        do {
            file = try SpecFileReader.read(path, maxSize: limits.maxFileSize)
        } catch {
            Console.error("flowspec: error: \(error)")
            throw ExitStatus.failure
        }
        let text = file.withBytes { String(decoding: $0, as: UTF8.self) }
        switch TraceReplay.check(text, program: program) {
        case .agrees(let steps):
            Console.output("\(path): \(steps) steps agree with machine '\(program.name.name)'\n")
        case .disagrees(let line, let message):
            Console.output("\(path):\(line):1: error: \(message)\n")
            throw ExitStatus.findings
        }
    }
}
