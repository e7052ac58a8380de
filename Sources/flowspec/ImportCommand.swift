import FlowSpecCore

/// `flowspec import`: a machine of another tool as a flowspec spec, checked, with a located
/// line for everything the spec does not hold.
struct ImportCommand: Command {
    static let filesArgument = ArgumentSyntax(
        name: "files",
        help:
            "The SCXML document, or the XState machine config (JSON, or the JavaScript or TypeScript that calls createMachine); then the configs of the machines it invokes, if any.",
        count: .oneOrMore)
    static let output = OptionSyntax.text(
        "output", short: "o", help: "Write the spec to this file instead of standard output.")
    static let machine = OptionSyntax.text(
        "machine", help: "The machine's name (default: the document's name, else the file's).")
    static let strict = OptionSyntax.flag(
        "strict", help: "Refuse, writing nothing, when anything of the document is not imported.")
    static let delay = OptionSyntax(
        long: "delay", arity: .repeated, valueName: "NAME=DURATION",
        help:
            "The duration of an XState delay the config names (`after: { NAME: … }`), such as IDLE_TIMEOUT=30s; repeatable."
    )

    static let syntax = CommandSyntax(
        name: "import",
        abstract:
            "Turn an SCXML document or an XState config into a flowspec spec, checked, with a report of what did not carry over.",
        discussion: """
            The format is read from the content: SCXML 1.0 starts with '<', an XState \
            config (the object given to createMachine, as JSON.stringify writes it, or \
            Stately's JSON export) with '{', or the JavaScript or TypeScript file that \
            calls createMachine({ … }) (or v4's Machine({ … })), read as data and never run: \
            code in it (functions, assign(…), variables) is reported where it is written. \
            The spec keeps the states, nesting, parallel \
            regions, history, events, conditions (guards, named), effects (<log \
            label="effect">, named actions), timeouts (a delayed <send> the state handles, \
            `after`), XState invocations that end (task states), SCXML machines invoked \
            inline or by `src` (sub-flows), XState machines it invokes whose configs follow it \
            on the command line (sub-flows, found by their `id`) and bounded retries as \
            `flowspec export` writes them. Everything else (data, context, scripts, other executable \
            content, wildcard events, built-in actions) is \
            listed on standard error, where the input writes it, as \
            "FILE:LINE:COLUMN: warning: not imported: …"; the spec is then checked, and its \
            findings follow. docs/interop.md gives the mapping. \
            Exit status: 0 when everything was imported and the spec checks clean, 1 when \
            something was not imported or the spec has findings (with --strict, nothing is \
            written then), 2 when the document cannot be read or the command line is wrong.
            """,
        arguments: [filesArgument],
        options: [output, machine, strict, delay] + LimitOptions.options
    )

    let file: String
    /// The machines `file` invokes by reference.
    let invoked: [String]
    let output: String?
    let machine: String?
    let strict: Bool
    /// The durations of named delays, by name.
    let delays: [String: Duration]
    let limits: YAMLLimits

    init(_ arguments: ParsedArguments) throws {
        let files = arguments.words(Self.filesArgument)
        file = files.first ?? ""
        invoked = Array(files.dropFirst())
        output = arguments.text(Self.output)
        machine = arguments.text(Self.machine)
        strict = arguments.flag(Self.strict)
        delays = try Self.delays(arguments.texts(Self.delay))
        limits = try LimitOptions(arguments).limits
    }

    /// `NAME=DURATION` settings, each name once, each duration a spec duration.
    static func delays(_ settings: [String]) throws -> [String: Duration] {
        var delays: [String: Duration] = [:]
        for setting in settings {
            let parts = setting.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw UsageError(
                    "--delay takes NAME=DURATION, such as IDLE_TIMEOUT=30s; got '\(setting)'", command: syntax)
            }
            guard let duration = Duration.parseSpec(parts[1]) else {
                throw UsageError(
                    "the duration of delay '\(parts[0])' must be a whole number with a unit (ms, s, m or h), such as 30s; got '\(parts[1])'",
                    command: syntax)
            }
            guard delays.updateValue(duration, forKey: parts[0]) == nil else {
                throw UsageError("--delay gives delay '\(parts[0])' twice; give each once", command: syntax)
            }
        }
        return delays
    }

    func run() throws {
        let inputs = try readInputs()
        let result: MachineImporter.Imported
        do {
            result = try MachineImporter.importMachine(
                inputs[0].bytes, machine: machine, fallbackName: Self.stem(file), maxDepth: limits.maxDepth,
                maxScalarLength: limits.maxScalarLength, links: links(Array(inputs.dropFirst())), delays: delays)
        } catch {
            Console.error("\(error.file ?? file):\(error.location): error: \(error.message)")
            throw ExitStatus.failure
        }
        for note in result.notImported {
            Console.error("\(note.file ?? file):\(note.location): warning: \(note.message)")
        }
        for name in result.unusedDelays {
            Console.error("flowspec: warning: --delay \(name): no delay of \(file) is named '\(name)'")
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

    /// The file to import, then those of the machines it invokes.
    private func readInputs() throws -> [MachineImporter.Input] {
        try ([file] + invoked).map { path in
            let source: SourceFile
            do {
                source = try SpecFileReader.read(path, maxSize: limits.maxFileSize)
            } catch {
                Console.error("flowspec: error: \(error)")
                throw ExitStatus.failure
            }
            if let cut = Self.cutShort(source) {
                Console.error("\(path):\(cut.location): error: \(cut.message)")
                throw ExitStatus.failure
            }
            return .init(path: path, bytes: source.bytes)
        }
    }

    /// Where and why a file read is UTF-16 cut short (an odd number of bytes), or `nil`: the
    /// readers would call its last, half character invalid UTF-8, which does not say what to do.
    static func cutShort(_ source: SourceFile) -> (location: SourceLocation, message: String)? {
        guard source.isCutShortUTF16 else { return nil }
        // The half character is the last one of the transcoded text: count lines and
        // characters up to it, as the readers count them.
        var line = 1
        var column = 1
        let bytes = source.bytes
        for byte in bytes.dropFirst(3).dropLast(3) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (
            SourceLocation(line: line, column: column),
            "the document is UTF-16 (it starts with a UTF-16 byte-order mark) with an odd number of bytes: it is cut short, its last byte half a character; save it whole, or as UTF-8"
        )
    }

    /// Where the machines the file invokes are found: among `others`, and on disk for an
    /// SCXML `src`, within the same size limit.
    private func links(_ others: [MachineImporter.Input]) -> MachineImporter.Links {
        let maxSize = limits.maxFileSize
        return MachineImporter.Links(path: Self.path(file, relativeTo: ""), others: others) { source, from in
            // `src="."` names the directory of the document itself: "" once joined.
            let joined = Self.path(source, relativeTo: from)
            let path = joined.isEmpty ? "." : joined
            let read: SourceFile
            do throws(FileReadError) {
                read = try SpecFileReader.read(path, maxSize: maxSize)
            } catch {
                let message =
                    error.reason.hasPrefix("it is a directory")
                    ? "'\(source)' names the directory '\(path)', not a document; give `src` the path of an SCXML file"
                    : "\(error)"
                return .failure(.init(message: message, location: .start, file: path))
            }
            if let cut = Self.cutShort(read) {
                return .failure(.init(message: "\(path):\(cut.location): \(cut.message)", location: .start, file: path))
            }
            return .success(.init(path: path, bytes: read.bytes))
        }
    }

    /// The path a document's `src` names: relative to the directory of the document that
    /// names it, with `.` and `..` taken out, so that a document is known by one path.
    static func path(_ source: String, relativeTo document: String) -> String {
        let directory = document.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        let joined =
            source.hasPrefix("/")
            ? source.split(separator: "/", omittingEmptySubsequences: false)
            : directory + source.split(separator: "/", omittingEmptySubsequences: false)
        var parts: [Substring] = []
        for part in joined {
            switch part {
            case ".": continue
            case "..":
                if let last = parts.last, last != "..", !last.isEmpty { parts.removeLast() } else { parts.append(part) }
            default: parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }

    /// The file's name without its directory and extension, as a machine name.
    static func stem(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let base = name.split(separator: ".").first.map(String.init) ?? name
        return base.isEmpty ? "Imported" : base
    }
}
