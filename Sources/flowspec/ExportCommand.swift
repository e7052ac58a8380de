import FlowSpecCore

/// `flowspec export`: one machine of a checked spec in another tool's format, printed.
struct ExportCommand: Command {
    /// The formats a machine can be exported to.
    enum Format: String, CaseIterable {
        case scxml
        case xstate
    }

    static let specArgument = ArgumentSyntax(name: "spec", help: "The spec file.")
    static let format = OptionSyntax.choice(
        "format", Format.self, help: "The format: scxml (W3C SCXML 1.0) or xstate (an XState v5 machine config, JSON).",
        isRequired: true)
    static let machine = OptionSyntax.text(
        "machine", help: "The machine to export (may be left out when the spec has one machine).")
    static let datamodel = OptionSyntax.choice(
        "datamodel", SCXMLExporter.Datamodel.self, default: .ecmascript,
        help: "The SCXML datamodel, the language of conditions and counters: ecmascript or python (scxml only).")

    static let syntax = CommandSyntax(
        name: "export",
        abstract: "Print a machine as SCXML or an XState config, for an engine or another tool.",
        discussion: """
            The output keeps the spec's states, nesting, parallel regions and history, and \
            behaves as `flowspec simulate` does. In SCXML, effects are <log label="effect"> \
            elements, timeouts delayed <send> events, bounded retries counters in the \
            datamodel, conditions datamodel variables (false at the start); a comment at the \
            top lists what the format cannot hold (sequences, persist, require, activities). \
            In XState, effects are named actions, conditions named guards, timeouts `after`, \
            activities invoked actors, and bounded retries the guard "flowspec.when" and the \
            actions "flowspec.retry.count" and "flowspec.retry.reset", which the app \
            implements; the machine's meta lists what the format cannot hold. \
            docs/interop.md gives the mapping. A spec with errors is not exported. \
            Exit status: 0 when the machine was printed, 1 when the spec has errors, 2 when the \
            file cannot be read, the command line is wrong or there is no such machine.
            """,
        arguments: [specArgument],
        options: [format, machine, datamodel] + LimitOptions.options
    )

    let spec: String
    let format: Format
    let machine: String?
    let datamodel: SCXMLExporter.Datamodel
    let limits: YAMLLimits

    init(_ arguments: ParsedArguments) throws {
        spec = arguments.word(Self.specArgument)
        format = arguments.choice(Self.format, as: Format.self) ?? .scxml
        machine = arguments.text(Self.machine)
        datamodel = arguments.choice(Self.datamodel, as: SCXMLExporter.Datamodel.self) ?? .ecmascript
        if format == .xstate, arguments.text(Self.datamodel) != nil {
            // An XState config has no datamodel: the app implements its guards and actions.
            throw UsageError(
                "--datamodel is for --format scxml; an XState config has no datamodel (the app implements its guards and actions)",
                command: Self.syntax)
        }
        limits = try LimitOptions(arguments).limits
    }

    func run() throws {
        let input = try SpecInput(path: spec, limits: limits, refusal: "nothing was exported")
        let graph = input.result.graphs[try input.machineIndex(named: machine, spec: spec)]
        switch format {
        case .scxml: Console.output(SCXMLExporter.document(graph, datamodel: datamodel))
        case .xstate: Console.output(XStateExporter.config(graph))
        }
    }
}
