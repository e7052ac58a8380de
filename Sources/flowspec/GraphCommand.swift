import ArgumentParser
import FlowSpecCore

extension DiagramFormat: ExpressibleByArgument {}

/// `flowspec graph`: prints a Mermaid or Graphviz diagram of each machine of a spec, or of the
/// one chosen. Unlike `gen`, it draws specs with errors too, as long as the YAML could be read
/// and machines decoded; the findings go to standard error.
struct GraphCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Print a diagram of each machine: Mermaid or Graphviz DOT (specs with errors too).",
        discussion: """
            Each machine is one diagram (Mermaid: a titled stateDiagram-v2; DOT: a digraph), \
            separated by a blank line. Machine-wide transitions are drawn once, from a node \
            standing for every input and task state that inherits them. --highlight marks the \
            states of unreachable-state, infinite-loop, dead-end and no-way-out findings. \
            Exit status: 0 when the diagram was printed, 1 when the YAML could not be read (or \
            held no machine), 2 when the file cannot be read, the command line is wrong or \
            there is no such machine.
            """
    )

    @Argument(help: "The spec file.")
    var spec: String

    @Option(help: "Diagram format: mermaid or dot.")
    var format: DiagramFormat

    @Option(help: "Draw only this machine.")
    var machine: String?

    @OptionGroup(title: "Limits")
    var limitOptions: LimitOptions

    @Flag(help: "Mark the states that findings are about (unreachable, infinite loop, dead end, no way out).")
    var highlight = false

    func run() throws {
        let checker = SpecChecker(limits: limitOptions.limits)
        let source: SourceFile
        do {
            source = try SpecFileReader.read(spec, maxSize: checker.limits.maxFileSize)
        } catch {
            Console.error("flowspec: error: \(error)")
            throw ExitCode(2)
        }
        let result = checker.check(source)
        let findings = SeverityPolicy().apply(to: result.diagnostics, spec: result.spec.severity)
        if !findings.isEmpty {
            Console.errorText(DiagnosticRenderer.render(findings, files: [source], format: .text,
                                                        colour: Console.wantsColourOnError))
        }
        guard !result.graphs.isEmpty else {
            Console.error("flowspec: error: \(spec) has no machine that could be read; nothing was drawn")
            throw ExitCode(1)
        }
        let diagrams = try chosen(result.graphs).map { FlowDiagram(graph: $0, findings: highlight ? findings : []) }
        Console.output(diagrams.map(format.render).joined(separator: "\n"))
    }

    /// Every machine, or the one named by `--machine`.
    private func chosen(_ graphs: [MachineGraph]) throws -> [MachineGraph] {
        guard let machine else { return graphs }
        guard let graph = graphs.first(where: { $0.machine.name.value == machine }) else {
            let names = graphs.map(\.machine.name.value).joined(separator: ", ")
            Console.error("flowspec: error: \(spec) has no machine '\(machine)'; it has \(names)")
            throw ExitCode(2)
        }
        return [graph]
    }
}
