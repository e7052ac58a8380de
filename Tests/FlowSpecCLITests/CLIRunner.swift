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
    static func run(_ arguments: [String], in directory: URL = packageRoot,
                    environment: [String: String] = [:]) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes to the end before waiting, so a large output cannot block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Output(status: process.terminationStatus,
                      stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Writes a spec into a fresh temporary directory and returns the directory.
    static func temporaryDirectory(with files: [String: String]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("flowspec-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, text) in files {
            try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return directory
    }
}
