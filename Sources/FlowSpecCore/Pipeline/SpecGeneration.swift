/// The `flowspec gen` pipeline: a checked spec → one Swift file per machine, or one file for
/// all of them. A spec with any error generates nothing.
public enum SpecGeneration {
    /// A generated file: its name (a machine's type name + `.swift`, or the requested file)
    /// and its contents.
    public struct File: Sendable, Equatable {
        /// The file name, relative to the output directory.
        public var name: String
        /// The Swift source.
        public var contents: String
    }

    /// The programs of a checked spec, or `nil` if it has errors.
    public static func programs(_ result: SpecChecker.Checked, diagnostics: [Diagnostic]) -> [FlowProgram]? {
        guard !diagnostics.contains(where: { $0.severity == .error }) else { return nil }
        let programs = result.graphs.compactMap(FlowProgramBuilder.build)
        return programs.count == result.graphs.count ? programs : nil
    }

    /// One file per machine, named after its Swift type.
    public static func filePerMachine(_ programs: [FlowProgram], options: GenerationOptions) -> [File] {
        programs.map { program in
            File(
                name: program.name.swiftName.bare + ".swift",
                contents: SwiftGenerator.header(options) + "\n" + SwiftGenerator.machine(program, options: options))
        }
    }

    /// Findings that keep ``filePerMachine(_:options:)`` from writing its files safely, each
    /// at a machine's name: a file name longer than ``FileWriter/maxNameLength`` bytes
    /// (`limit-exceeded`), and two file names that differ only in case, which are one file on
    /// a case-insensitive file system such as macOS's default (`identifier-collision`, at the
    /// later machine, with a note at the earlier). `gen` checks these before it writes
    /// anything, wherever it runs, since a spec is shared between systems.
    ///
    /// - Parameters:
    ///   - programs: the programs of `result` (from ``programs(_:diagnostics:)``).
    ///   - result: the checked spec, for the machines' names and where they are written.
    ///   - file: the spec's path, for the findings.
    public static func filePerMachineFindings(
        _ programs: [FlowProgram], of result: SpecChecker.Checked,
        file: String
    ) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        var seen: [String: (name: Located<String>, file: String)] = [:]
        for (program, graph) in zip(programs, result.graphs) {
            let name = graph.machine.name
            let fileName = program.name.swiftName.bare + ".swift"
            let shownFile = FileWriter.clipped(program.name.swiftName.bare) + ".swift"
            if fileName.utf8.count > FileWriter.maxNameLength {
                findings.append(
                    Diagnostic(
                        rule: .limitExceeded,
                        message:
                            "machine name '\(FileWriter.clipped(name.value))' is \(name.value.utf8.count) bytes long; "
                            + "as a file name '\(shownFile)' (\(fileName.utf8.count) bytes) it exceeds "
                            + "\(FileWriter.maxNameLength) bytes; shorten it",
                        file: file, location: name.location, machine: name.value, subjects: [name.value]))
            }
            let folded = fileName.lowercased()
            if let first = seen[folded] {
                findings.append(
                    Diagnostic(
                        rule: .identifierCollision,
                        message:
                            "machine names '\(FileWriter.clipped(first.name.value))' and '\(FileWriter.clipped(name.value))' "
                            + "would be written to \(first.file) and \(shownFile), which are the same file on "
                            + "case-insensitive file systems (macOS); rename one",
                        file: file, location: name.location, machine: name.value,
                        subjects: [first.name.value, name.value],
                        notes: [.init("'\(FileWriter.clipped(first.name.value))' is here", at: first.name.location)]))
            } else {
                seen[folded] = (name, shownFile)
            }
        }
        return findings
    }

    /// One file with every machine.
    /// The Swift Testing suites of `gen --tests`: one file of every machine's suite (named
    /// `name`), or one file per machine named `<Machine>PathTests.swift`. Throws when a
    /// machine is too large to cover.
    public static func testSuites(
        _ programs: [FlowProgram], of result: SpecChecker.Checked, singleFileNamed name: String?,
        options: GenerationOptions, limits: PathCover.Limits = PathCover.Limits()
    ) throws(PathCover.Failure) -> [File] {
        var suites: [(name: String, text: String)] = []
        // A machine that runs only as a sub-flow is tested through the machines that run it.
        for (program, graph) in zip(programs, result.graphs) where graph.machine.isStandalone {
            let cover = try PathCover(program: program, machine: graph.machine, limits: limits)
            suites.append((program.name.swiftName.bare + "PathTests.swift", SwiftGenerator.testSuite(cover)))
        }
        let header = SwiftGenerator.testHeader(options)
        if let name {
            return [File(name: name, contents: header + suites.map { "\n" + $0.text }.joined())]
        }
        return suites.map { File(name: $0.name, contents: header + "\n" + $0.text) }
    }

    public static func singleFile(named name: String, _ programs: [FlowProgram], options: GenerationOptions) -> File {
        File(name: name, contents: SwiftGenerator.file(for: programs, options: options))
    }

    /// The path the generated header names: a relative path as given (without `./`); an
    /// absolute path relative to `workingDirectory` when inside it, else its file name alone,
    /// so that output never holds an absolute path.
    public static func displayPath(_ path: String, workingDirectory: String) -> String {
        var path = path
        while path.hasPrefix("./") { path.removeFirst(2) }
        guard path.hasPrefix("/") else { return path }
        let base = workingDirectory.hasSuffix("/") ? workingDirectory : workingDirectory + "/"
        if path.hasPrefix(base) { return String(path.dropFirst(base.count)) }
        return path.split(separator: "/").last.map(String.init) ?? path
    }
}
