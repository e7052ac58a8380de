import FlowSpecCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `flowspec gen`: writes the Swift for every machine of a spec.
struct GenCommand: Command {
    static let specArgument = ArgumentSyntax(name: "spec", help: "The spec file.")
    static let output = OptionSyntax.text(
        "output", short: "o", help: "A .swift file, or a directory for one file per machine.",
        isRequired: true)
    static let accessLevel = OptionSyntax.choice(
        "access-level", GenerationOptions.AccessLevel.self, default: .internal,
        help: "Access level of the generated declarations: public or internal.")
    static let shape = OptionSyntax.choice(
        "shape", GenerationOptions.Shape.self, default: .automatic,
        help: "Code form: auto (switch statements, tables above 128 states or events), switch or table.")
    static let check = OptionSyntax.flag(
        "check", help: "Check that the files on disk are current instead of writing them (a CI drift gate).")
    static let tests = OptionSyntax.flag(
        "tests", help: "Write each machine's Swift Testing suite of test paths instead of the machine.")
    static let testableImport = OptionSyntax.text(
        "testable-import", valueName: "module",
        help: "With --tests: the module that holds the generated machines, imported @testable.")

    static let syntax = CommandSyntax(
        name: "gen",
        abstract: "Generate Swift from a spec (refuses a spec with errors).",
        discussion: """
            --output names a file ending in .swift (every machine in one file) or a directory \
            (one file per machine, named after its type; a name that would make a file name \
            over 255 bytes, or one that differs from another only in case, is an error). Files \
            are written atomically and only when their bytes change; if one cannot be written, \
            none is. With --check nothing is written: exit 1 if the files on disk are missing or \
            out of date, 0 if they are current.
            With --tests, the files are test suites (`<Machine>PathTests.swift` in a directory): \
            every path of `flowspec paths`, run through the machine's FlowDriver on a test clock \
            by FlowSpecTesting's FlowPathRunner, with the app's `<Machine>PathHarness`.
            """,
        arguments: [specArgument],
        options: [output, accessLevel, shape, check, tests, testableImport] + PathLimitOptions.options
            + LimitOptions.options
    )

    let spec: String
    let output: String
    let accessLevel: GenerationOptions.AccessLevel
    let shape: GenerationOptions.Shape
    let limits: YAMLLimits
    let pathLimits: PathCover.Limits
    let check: Bool
    let tests: Bool
    let testableImport: String?

    init(_ arguments: ParsedArguments) throws {
        spec = arguments.word(Self.specArgument)
        output = arguments.text(Self.output) ?? ""
        accessLevel = arguments.choice(Self.accessLevel, as: GenerationOptions.AccessLevel.self) ?? .internal
        shape = arguments.choice(Self.shape, as: GenerationOptions.Shape.self) ?? .automatic
        limits = try LimitOptions(arguments).limits
        check = arguments.flag(Self.check)
        tests = arguments.flag(Self.tests)
        testableImport = arguments.text(Self.testableImport)
        pathLimits = try PathLimitOptions(arguments).limits
        if let option = PathLimitOptions.options.first(where: { arguments.integer($0) != nil }), !tests {
            throw UsageError(
                "--\(option.long) limits the paths a test suite takes; use it with --tests", command: Self.syntax)
        }
        if testableImport != nil, !tests {
            throw UsageError(
                "--testable-import names the module a test suite imports; use it with --tests", command: Self.syntax)
        }
    }

    func run() throws {
        let input = try SpecInput(path: spec, limits: limits)
        var options = GenerationOptions(
            sourcePath: SpecGeneration.displayPath(spec, workingDirectory: currentDirectory()),
            accessLevel: accessLevel, shape: shape)
        options.testableImport = testableImport
        let singleFile = output.hasSuffix(".swift")
        let files: [SpecGeneration.File]
        if tests {
            do {
                files = try SpecGeneration.testSuites(
                    input.programs, of: input.result, singleFileNamed: singleFile ? "" : nil, options: options,
                    limits: pathLimits)
            } catch {
                Console.error(error.message(file: spec, consequence: "; nothing was generated"))
                throw ExitStatus.failure
            }
        } else {
            files =
                singleFile
                ? [SpecGeneration.singleFile(named: "", input.programs, options: options)]
                : SpecGeneration.filePerMachine(input.programs, options: options)
        }
        let paths = files.map { singleFile ? output : join(output, $0.name) }
        if !singleFile {
            try refuseUnwritableFileNames(input)
        }
        if check {
            try checkCurrent(files, paths: paths)
            return
        }
        // Nothing is created before every path is known to be writable as far as lengths go.
        for path in paths {
            if let problem = FileWriter.lengthProblem(writing: path) {
                Console.error("flowspec: error: cannot write '\(path)': \(problem); nothing was generated")
                throw ExitStatus.failure
            }
        }
        let directory = singleFile ? parentDirectory(of: output) : output
        var created: [String] = []
        if !directory.isEmpty {
            do { created = try FileWriter.makeDirectory(directory) } catch {
                Console.error("flowspec: error: \(error); nothing was generated")
                throw ExitStatus.failure
            }
        }
        do {
            try FileWriter.writeAll(zip(paths, files).map { (path: $0, contents: $1.contents) })
        } catch {
            FileWriter.removeDirectories(created)
            Console.error("flowspec: error: \(error); nothing was generated")
            throw ExitStatus.failure
        }
    }

    /// Exit 1, with a located finding at each machine whose file (one per machine in a
    /// directory) could not be written: a name too long for a file, or one that is another's
    /// on a case-insensitive file system.
    private func refuseUnwritableFileNames(_ input: SpecInput) throws {
        let findings = SpecGeneration.filePerMachineFindings(input.programs, of: input.result, file: input.source.path)
        guard !findings.isEmpty else { return }
        Console.errorText(
            DiagnosticRenderer.render(
                findings, files: [input.source], format: .text,
                colour: Console.wantsColourOnError))
        let count = Set(findings.map(\.location)).count
        Console.error(
            "flowspec: error: \(spec) has \(count) machine name\(count == 1 ? "" : "s") that cannot be "
                + "\(count == 1 ? "a file name" : "file names") in \(output); nothing was generated")
        throw ExitStatus.findings
    }

    /// Exit 1, naming each missing or stale file and its first differing line.
    private func checkCurrent(_ files: [SpecGeneration.File], paths: [String]) throws {
        var stale = false
        for (file, path) in zip(files, paths) {
            let contents: [UInt8]?
            do {
                contents = try FileWriter.currentContents(path)
            } catch {
                Console.error("flowspec: error: \(error)")
                throw ExitStatus.failure
            }
            guard let existing = contents else {
                Console.error("flowspec: error: \(path) does not exist; run `flowspec gen \(spec) --output \(output)`")
                stale = true
                continue
            }
            let current = String(decoding: existing, as: UTF8.self)
            guard current != file.contents else { continue }
            stale = true
            Console.error(
                "flowspec: error: \(path) is out of date with \(spec); run `flowspec gen \(spec) --output \(output)`")
            Console.error(firstDifference(current, file.contents, path: path))
        }
        if stale { throw ExitStatus.findings }
    }

    private func firstDifference(_ old: String, _ new: String, path: String) -> String {
        let oldLines = old.split(separator: "\n", omittingEmptySubsequences: false)
        let newLines = new.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(oldLines.count, newLines.count) {
            let a = index < oldLines.count ? String(oldLines[index]) : "<end of file>"
            let b = index < newLines.count ? String(newLines[index]) : "<end of file>"
            if a != b { return "\(path):\(index + 1): on disk:   \(a)\n\(path):\(index + 1): generated: \(b)" }
        }
        return ""
    }

    private func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    private func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    private func currentDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
