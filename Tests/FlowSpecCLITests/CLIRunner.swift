import FlowSpecTestSupport
import Foundation

/// Runs the built `flowspec` executable as a process from the package root.
enum CLI {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `flowspec` executable beside the test bundle.
    static let executable: URL = {
        var candidates: [URL] = []
        if let main = Bundle.main.executableURL?.deletingLastPathComponent() { candidates.append(main) }
        candidates.append(Bundle.main.bundleURL)
        candidates.append(packageRoot.appendingPathComponent(".build/debug"))
        for directory in candidates {
            let url = directory.appendingPathComponent("flowspec")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return candidates.last!.appendingPathComponent("flowspec")
    }()

    /// Runs `flowspec` with arguments, in `directory` (the package root by default).
    static func run(
        _ arguments: [String], in directory: URL = packageRoot,
        environment: [String: String] = [:]
    ) throws -> Output {
        let result = try ProcessRunner.run(executable, arguments, in: directory, environment: environment)
        return Output(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    /// Writes a spec into a fresh temporary directory and returns the directory.
    static func temporaryDirectory(with files: [String: String]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("flowspec-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, text) in files {
            let url = directory.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return directory
    }
}
