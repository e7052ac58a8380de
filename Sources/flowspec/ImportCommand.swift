import FlowSpecCore

/// `flowspec import`: a machine of another tool as a flowspec spec, checked, with a located
/// line for everything the spec does not hold.
struct ImportCommand: Command {
    static let fileArgument = ArgumentSyntax(
        name: "file", help: "The SCXML document, or the XState machine config as JSON.")
    static let output = OptionSyntax.text(
        "output", short: "o", help: "Write the spec to this file instead of standard output.")
    static let machine = OptionSyntax.text(
        "machine", help: "The machine's name (default: the document's name, else the file's).")
    static let strict = OptionSyntax.flag(
        "strict", help: "Refuse, writing nothing, when anything of the document is not imported.")

    static let syntax = CommandSyntax(
        name: "import",
        abstract:
            "Turn an SCXML document or an XState config into a flowspec spec, checked, with a report of what did not carry over.",
        discussion: """
            The format is read from the content: SCXML 1.0 starts with '<', an XState \
            config (the object given to createMachine, as JSON.stringify writes it, or \
            Stately's JSON export) with '{'. The spec keeps the states, nesting, parallel \
            regions, history, events, conditions (guards, named), effects (<log \
            label="effect">, named actions), timeouts (a delayed <send> the state handles, \
            `after`), XState invocations that end (task states), SCXML machines invoked \
            inline (sub-flows) and bounded retries as `flowspec export` writes them. Everything else (data, context, scripts, other executable \
            content, wildcard events, built-in actions) is \
            listed on standard error, where the input writes it, as \
            "FILE:LINE:COLUMN: warning: not imported: …"; the spec is then checked, and its \
            findings follow. docs/interop.md gives the mapping. \
            Exit status: 0 when everything was imported and the spec checks clean, 1 when \
            something was not imported or the spec has findings (with --strict, nothing is \
            written then), 2 when the document cannot be read or the command line is wrong.
            """,
        arguments: [fileArgument],
        options: [output, machine, strict] + LimitOptions.options
    )

    let file: String
    let output: String?
    let machine: String?
    let strict: Bool
    let limits: YAMLLimits

    init(_ arguments: ParsedArguments) throws {
        file = arguments.word(Self.fileArgument)
        output = arguments.text(Self.output)
        machine = arguments.text(Self.machine)
        strict = arguments.flag(Self.strict)
        limits = try LimitOptions(arguments).limits
    }

    func run() throws {
        let bytes: [UInt8]
        do {
            bytes = try SpecFileReader.read(file, maxSize: limits.maxFileSize).bytes
        } catch {
            Console.error("flowspec: error: \(error)")
            throw ExitStatus.failure
        }
        let result: MachineImporter.Result
        do {
            result = try MachineImporter.importMachine(
                bytes, machine: machine, fallbackName: Self.stem(file), maxDepth: limits.maxDepth)
        } catch {
            Console.error("\(file):\(error.location): error: \(error.message)")
            throw ExitStatus.failure
        }
        for note in result.notImported {
            Console.error("\(file):\(note.location): warning: \(note.message)")
        }
        if strict && !result.notImported.isEmpty {
            Console.error(
                "flowspec: error: \(result.notImported.count) thing\(result.notImported.count == 1 ? "" : "s") of \(file) not imported; with --strict nothing was written"
            )
            throw ExitStatus.findings
        }
        let specPath = output ?? "\(file).flowspec.yaml"
        let source = SourceFile(path: specPath, text: result.spec)
        let checked = SpecChecker(limits: limits).check(source)
        let findings = SeverityPolicy().apply(to: checked.diagnostics, spec: checked.spec.severity)
        if let output {
            do {
                try FileWriter.write(result.spec, to: output)
            } catch {
                Console.error("flowspec: error: \(error)")
                throw ExitStatus.failure
            }
        } else {
            Console.output(result.spec)
        }
        if !findings.isEmpty {
            Console.errorText(
                DiagnosticRenderer.render(findings, files: [source], format: .text, colour: Console.wantsColourOnError))
        }
        if !result.notImported.isEmpty || findings.contains(where: { $0.severity == .error || $0.severity == .warning })
        {
            throw ExitStatus.findings
        }
    }

    /// The file's name without its directory and extension, as a machine name.
    static func stem(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let base = name.split(separator: ".").first.map(String.init) ?? name
        return base.isEmpty ? "Imported" : base
    }
}
