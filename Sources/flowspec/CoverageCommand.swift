import FlowSpecCore

/// `flowspec coverage`: what recorded traces of a machine exercised, and what they did not,
/// by spec line.
struct CoverageCommand: Command {
    /// The output formats: a report, or the machine's diagram with what was missed marked.
    enum Format: String, CaseIterable {
        case text, json, mermaid, dot
    }

    static let specArgument = ArgumentSyntax(name: "spec", help: "The spec file.")
    static let traces = ArgumentSyntax(
        name: "traces", help: "Trace files (a FlowDriver's `trace`, or `flowspec paths` output).", count: .oneOrMore)
    static let machine = OptionSyntax.text(
        "machine", help: "The machine the traces are of (may be left out when the spec has one machine).")
    static let format = OptionSyntax.choice(
        "format", Format.self, default: .text,
        help: "text or json (a report), mermaid or dot (the diagram with what was missed marked).")
    static let minimum = OptionSyntax(
        long: "minimum", arity: .single, value: .integer, valueName: "percent",
        help: "Exit 1 when less than this percentage of the transitions was exercised.")

    static let syntax = CommandSyntax(
        name: "coverage",
        abstract: "Report which states, transitions, timeouts, outcomes and relaunches traces exercised.",
        discussion: """
            Each trace is replayed against the spec, as `flowspec simulate --replay` does; a \
            file may hold several runs, each beginning with `start -> …`. What no run can \
            exercise (unreachable, or always preempted) is left out of the totals. Exit 1 \
            when a trace disagrees with the spec or, with --minimum, when transition coverage \
            (transitions, branches, retries' `then`, timeouts, sub-flows' outcomes) is below \
            it. Example:
              flowspec coverage specs/app.yaml --machine LaunchAuth logs/*.trace --minimum 100
            """,
        arguments: [specArgument, traces],
        options: [machine, format, minimum, PathLimitOptions.maxConfigurations] + LimitOptions.options
    )

    let spec: String
    let traces: [String]
    let machine: String?
    let format: Format
    let minimum: Int?
    let limits: YAMLLimits
    let pathLimits: PathCover.Limits

    init(_ arguments: ParsedArguments) throws {
        spec = arguments.word(Self.specArgument)
        traces = arguments.words(Self.traces)
        machine = arguments.text(Self.machine)
        format = arguments.choice(Self.format, as: Format.self) ?? .text
        minimum = arguments.integer(Self.minimum)
        limits = try LimitOptions(arguments).limits
        pathLimits = try PathLimitOptions(arguments).limits
        if let minimum, !(0...100).contains(minimum) {
            throw UsageError("--minimum is a percentage from 0 to 100; got \(minimum)", command: Self.syntax)
        }
    }

    func run() throws {
        let input = try SpecInput(path: spec, limits: limits, refusal: "nothing was measured")
        let index = try input.machineIndex(named: machine, spec: spec)
        let program = input.programs[index]
        let graph = input.result.graphs[index]
        guard graph.machine.isStandalone else {
            Console.error(SpecInput.runsOnlyAsSubFlow(program.name.name, spec: spec))
            throw ExitStatus.failure
        }
        var coverage = TraceCoverage(program: program)
        for path in traces {
            let file: SourceFile
            do {
                file = try SpecFileReader.read(path, maxSize: limits.maxFileSize)
            } catch {
                Console.error("flowspec: error: \(error)")
                throw ExitStatus.failure
            }
            if let (line, message) = coverage.add(file.withBytes { String(decoding: $0, as: UTF8.self) }) {
                Console.output("\(path):\(line):1: error: \(message)\n")
                throw ExitStatus.findings
            }
        }
        let impossible: Set<CoverageItem>
        do {
            impossible = Set(
                try PathCover(program: program, machine: graph.machine, limits: pathLimits).notCovered.map(\.item))
        } catch {
            Console.error(error.message(file: spec))
            throw ExitStatus.failure
        }
        let report = CoverageReport.Machine(coverage: coverage, machine: graph.machine, impossible: impossible)
        var output = Console.StandardOutput()
        switch format {
        case .text: output.write(CoverageReport.text([report], file: spec))
        case .json: CoverageReport.json([report], file: spec, to: &output)
        case .mermaid, .dot:
            var diagram = FlowDiagram(graph: graph)
            diagram.mark(unexercised: CoverageReport.marks(report))
            (format == .dot ? DiagramFormat.dot : .mermaid).render(diagram, into: &output)
        }
        output.flush()
        if let minimum, report.transitionPercent < Double(minimum) {
            Console.error(
                "flowspec: error: \(CoverageReport.percent(report.transitionPercent)) of the transitions of "
                    + "'\(program.name.name)' were exercised, less than the --minimum of \(minimum)%")
            throw ExitStatus.findings
        }
    }
}
