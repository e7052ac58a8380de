import FlowSpecTestSupport
import Foundation

/// Compiles Swift with the real `swiftc` in Swift 6 language mode, warnings as errors, and
/// runs the program: how the tests prove generated code compiles and behaves.
enum SwiftCompiler {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// `swiftc` from `PATH`.
    static let swiftc: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/swiftc"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    /// The runtime library that generated code imports, compiled once per test run from
    /// `Sources/FlowSpecKernel` and `Sources/FlowSpecRuntime` (with and without optimisation) as
    /// static libraries and their modules: the directory to pass as `-I` and `-L`.
    static func runtime(optimized: Bool) throws -> URL {
        try (optimized ? optimizedRuntime : debugRuntime).get()
    }

    private static let debugRuntime = Result { try buildRuntime(optimized: false) }
    private static let optimizedRuntime = Result { try buildRuntime(optimized: true) }

    private static func buildRuntime(optimized: Bool) throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("flowspec-runtime-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try buildLibrary("FlowSpecKernel", into: directory, optimized: optimized)
        try buildLibrary("FlowSpecRuntime", into: directory, optimized: optimized)
        return directory
    }

    /// Compiles `Sources/NAME` into `directory` as a static library and its module.
    private static func buildLibrary(_ name: String, into directory: URL, optimized: Bool) throws {
        guard let swiftc else { throw Failure(description: "swiftc is not on PATH") }
        let sources = Fixtures.packageRoot.appendingPathComponent("Sources/\(name)")
        let files = try FileManager.default.contentsOfDirectory(atPath: sources.path)
            .filter { $0.hasSuffix(".swift") }.sorted().map { sources.appendingPathComponent($0).path }
        let arguments =
            [
                "-swift-version", "6", "-warnings-as-errors", "-parse-as-library", optimized ? "-O" : "-Onone",
                "-I", directory.path, "-module-name", name, "-emit-module", "-emit-module-path",
                directory.appendingPathComponent("\(name).swiftmodule").path,
                "-emit-library", "-static", "-o", directory.appendingPathComponent("lib\(name).a").path
            ] + files
        let result = try run(swiftc, arguments)
        guard result.status == 0, result.stderr.isEmpty else {
            throw Failure(
                description: "swiftc failed on \(name) (\(result.status)):\n\(result.stderr)\(result.stdout)")
        }
    }

    /// The runtime and FlowSpecTesting, for generated test suites (`gen --tests`), built once.
    static func testing() throws -> URL { try testingLibraries.get() }

    private static let testingLibraries = Result {
        let directory = try buildRuntime(optimized: false)
        try buildLibrary("FlowSpecTesting", into: directory, optimized: false)
        return directory
    }

    /// Compiles `files` (name → source) into an executable in a fresh temporary directory, with
    /// the runtime library, and returns its path; throws with the compiler's output if it fails
    /// or warns.
    static func compile(_ files: [String: String], optimized: Bool = false, withTesting: Bool = false) throws -> URL {
        guard let swiftc else { throw Failure(description: "swiftc is not on PATH") }
        let runtime = try withTesting ? testing() : runtime(optimized: optimized)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("flowspec-swiftc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var arguments = ["-swift-version", "6", "-warnings-as-errors", "-module-name", "Flows"]
        arguments += ["-I", runtime.path, "-L", runtime.path]
        arguments += (withTesting ? ["-lFlowSpecTesting"] : []) + ["-lFlowSpecRuntime", "-lFlowSpecKernel"]
        arguments.append(optimized ? "-O" : "-Onone")
        for (name, source) in files.sorted(by: { $0.key < $1.key }) {
            let url = directory.appendingPathComponent(name)
            try source.write(to: url, atomically: true, encoding: .utf8)
            arguments.append(url.path)
        }
        let executable = directory.appendingPathComponent("program")
        arguments += ["-o", executable.path]
        let result = try run(swiftc, arguments)
        guard result.status == 0, result.stderr.isEmpty else {
            throw Failure(description: "swiftc failed (\(result.status)):\n\(result.stderr)\(result.stdout)")
        }
        return executable
    }

    /// Runs a program and collects its output.
    static func run(_ executable: String, _ arguments: [String] = []) throws -> Run {
        let result = try ProcessRunner.run(URL(fileURLWithPath: executable), arguments)
        return Run(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    /// Checks a spec's text and generates its Swift (one file, internal), failing on findings
    /// that are errors.
    static func generate(_ specText: String, path: String = "spec.yaml") throws -> String {
        let file = FlowSpecCoreTestsSupport.source(path: path, text: specText)
        let result = FlowSpecCoreTestsSupport.check(file)
        guard let programs = FlowSpecCoreTestsSupport.programs(result) else {
            throw Failure(description: "the spec has errors:\n\(FlowSpecCoreTestsSupport.describe(result))")
        }
        return FlowSpecCoreTestsSupport.swift(programs, path: path)
    }
}
