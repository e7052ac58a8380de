import FlowSpecCore

/// `flowspec graph`: prints a Mermaid or Graphviz diagram of each machine of a spec, or of the
/// one chosen. Unlike `gen`, it draws specs with errors too, as long as the YAML could be read
/// and machines decoded; the findings go to standard error.
struct GraphCommand: Command {
    static let specArgument = ArgumentSyntax(name: "spec", help: "The spec file.")
    static let format = OptionSyntax.choice(
        "format", DiagramFormat.self, help: "Diagram format: mermaid or dot.",
        isRequired: true)
    static let machine = OptionSyntax.text("machine", help: "Draw only this machine.")
    static let highlight = OptionSyntax.flag(
        "highlight", help: "Mark the states that findings are about (unreachable, infinite loop, dead end, no way out)."
    )

    static let syntax = CommandSyntax(
        name: "graph",
        abstract: "Print a diagram of each machine: Mermaid or Graphviz DOT (specs with errors too).",
        discussion: """
            Each machine is one diagram (Mermaid: a titled stateDiagram-v2; DOT: a digraph), \
            separated by a blank line. Machine-wide transitions are drawn once, from a node \
            standing for every input and task state that inherits them. A compound state is \
            drawn around the states inside it (a Mermaid composite state, a DOT cluster), with \
            its own transitions (its on, timeout and done) drawn once, from it. --highlight marks the \
            states of unreachable-state, infinite-loop, dead-end and no-way-out findings. \
            Exit status: 0 when the diagram was printed, 1 when the YAML could not be read (or \
            held no machine), 2 when the file cannot be read, the command line is wrong or \
            there is no such machine.
            """,
        arguments: [specArgument],
        options: [format, machine, highlight] + LimitOptions.options
    )

    let spec: String
    let format: DiagramFormat
    let machine: String?
    let highlight: Bool
    let limits: YAMLLimits

    init(_ arguments: ParsedArguments) throws {
        spec = arguments.word(Self.specArgument)
        format = arguments.choice(Self.format, as: DiagramFormat.self) ?? .mermaid
        machine = arguments.text(Self.machine)
        highlight = arguments.flag(Self.highlight)
        limits = try LimitOptions(arguments).limits
    }

    func run() throws {
        let checker = SpecChecker(limits: limits)
        let source: SourceFile
        do {
            source = try SpecFileReader.read(spec, maxSize: checker.limits.maxFileSize)
        } catch {
            Console.error("flowspec: error: \(error)")
            throw ExitStatus.failure
        }
        let result = checker.check(source)
        let findings = SeverityPolicy().apply(to: result.diagnostics, spec: result.spec.severity)
        if !findings.isEmpty {
            Console.errorText(
                DiagnosticRenderer.render(
                    findings, files: [source], format: .text,
                    colour: Console.wantsColourOnError))
        }
        guard !result.graphs.isEmpty else {
            Console.error("flowspec: error: \(spec) has no machine that could be read; nothing was drawn")
            throw ExitStatus.findings
        }
        // One diagram at a time, written as it is drawn; a blank line between two.
        var output = Console.StandardOutput()
        for (position, graph) in try chosen(result.graphs).enumerated() {
            if position > 0 { output.write("\n") }
            format.render(FlowDiagram(graph: graph, findings: highlight ? findings : []), into: &output)
        }
        output.flush()
    }

    /// Every machine, or the one named by `--machine`.
    private func chosen(_ graphs: [MachineGraph]) throws -> [MachineGraph] {
        guard let machine else { return graphs }
        guard let graph = graphs.first(where: { $0.machine.name.value == machine }) else {
            let names = graphs.map(\.machine.name.value).joined(separator: ", ")
            Console.error("flowspec: error: \(spec) has no machine '\(machine)'; it has \(names)")
            throw ExitStatus.failure
        }
        return [graph]
    }
}
