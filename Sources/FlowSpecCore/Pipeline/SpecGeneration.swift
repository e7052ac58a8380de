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
    public static func programs(_ result: SpecChecker.Result, diagnostics: [Diagnostic]) -> [FlowProgram]? {
        guard !diagnostics.contains(where: { $0.severity == .error }) else { return nil }
        let programs = result.graphs.compactMap(FlowProgramBuilder.build)
        return programs.count == result.graphs.count ? programs : nil
    }

    /// One file per machine, named after its Swift type.
    public static func filePerMachine(_ programs: [FlowProgram], options: GenerationOptions) -> [File] {
        programs.map { program in
            File(name: program.name.swiftName.bare + ".swift",
                 contents: SwiftGenerator.header(options) + "\n" + SwiftGenerator.machine(program, options: options))
        }
    }

    /// One file with every machine.
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
