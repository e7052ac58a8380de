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
    public static func run(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil,
        environment: [String: String] = [:]
    ) throws -> Output {
        let run = try capture(executable, arguments, in: directory, environment: environment)
        return Output(
            status: run.status, stdout: String(decoding: run.stdout, as: UTF8.self),
            stderr: String(decoding: run.stderr, as: UTF8.self))
    }

    /// How a run ended, with its raw output.
    public struct Capture: Sendable {
        /// The exit status, or the signal number when `signalled`.
        public var status: Int32
        /// Whether a signal ended the process (a crash, a trap, or the time limit).
        public var signalled: Bool
        /// Whether the time limit ran out and the process was killed.
        public var timedOut: Bool
        /// Standard output.
        public var stdout: Data
        /// Standard error.
        public var stderr: Data
    }

    /// Runs `executable` like ``run(_:_:in:environment:)``, with standard input empty, and
    /// kills it after `timeLimit` seconds if given.
    public static func capture(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil,
        environment: [String: String] = [:], timeLimit: Double? = nil
    ) throws -> Capture {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let killed = KilledFlag()
        let timer = DispatchWorkItem {
            if process.isRunning {
                killed.set()
                process.terminate()
            }
        }
        if let timeLimit { DispatchQueue.global().asyncAfter(deadline: .now() + timeLimit, execute: timer) }
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
        timer.cancel()
        return Capture(
            status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
            timedOut: killed.value, stdout: outData, stderr: errData)
    }
}

/// Set once by the time-limit timer when it kills the process.
private final class KilledFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var killed = false

    func set() {
        lock.lock()
        killed = true
        lock.unlock()
    }
    var value: Bool {
        lock.lock()
        defer { lock.unlock() }
        return killed
    }
}
