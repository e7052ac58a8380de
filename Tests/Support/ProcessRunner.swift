import Foundation

/// Runs a program and collects its exit status and output, reading both pipes to the end
/// before waiting so that a large output cannot block the child. Shared by the test targets.
public enum ProcessRunner {
    /// What a run produced.
    public struct Output: Sendable {
        /// The exit status.
        public var status: Int32
        /// Standard output, as text.
        public var stdout: String
        /// Standard error, as text.
        public var stderr: String
    }

    /// Runs `executable` with `arguments`, in `directory` if given, with `environment` added to
    /// the current environment.
    public static func run(_ executable: URL, _ arguments: [String], in directory: URL? = nil,
                           environment: [String: String] = [:]) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
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
        return Output(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}
