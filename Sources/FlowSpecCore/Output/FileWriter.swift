#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes generated files atomically and only when their bytes change.
///
/// The new contents go to a temporary file beside the target, are flushed to disk, then
/// renamed over the target, so a reader (or a crash) sees either the old file or the new one,
/// never half of one. An unchanged file is not touched (its modification time stays, so
/// builds that depend on it do not rerun).
public enum FileWriter {
    /// What writing did.
    public enum Outcome: Sendable, Equatable {
        case unchanged, written
    }

    /// An error writing a file, with the system's reason.
    public struct WriteError: Error, Sendable, CustomStringConvertible {
        /// The path.
        public let path: String
        /// What went wrong.
        public let reason: String

        public var description: String { "cannot write '\(path)': \(reason)" }
    }

    /// The current contents of a file, or `nil` if it does not exist or cannot be read.
    public static func existingContents(_ path: String) -> [UInt8]? {
        try? SpecFileReader.readBytes(path, maxSize: Int.max)
    }

    /// Writes `contents` to `path` unless it already holds exactly those bytes.
    @discardableResult
    public static func write(_ contents: String, to path: String) throws(WriteError) -> Outcome {
        let bytes = Array(contents.utf8)
        if existingContents(path) == bytes { return .unchanged }
        let temporary = temporaryPath(for: path)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else { throw WriteError(path: path, reason: errnoText()) }
        var failure: String?
        var offset = 0
        while offset < bytes.count, failure == nil {
            let written = bytes[offset...].withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno != EINTR { failure = errnoText() }
            } else {
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = errnoText() }
        if close(descriptor) != 0, failure == nil { failure = errnoText() }
        if failure == nil, rename(temporary, path) != 0 { failure = errnoText() }
        if let failure {
            unlink(temporary)
            throw WriteError(path: path, reason: failure)
        }
        return .written
    }

    /// Creates a directory (and its parents) if missing.
    public static func makeDirectory(_ path: String) throws(WriteError) {
        var current = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            current += component + "/"
            if mkdir(current, 0o755) != 0, errno != EEXIST {
                throw WriteError(path: path, reason: errnoText())
            }
        }
    }

    private static func temporaryPath(for path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return "\(directory).\(name).flowspec-\(getpid()).tmp"
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
