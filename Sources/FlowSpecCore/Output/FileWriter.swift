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
/// builds that depend on it do not rerun). Several files are written together: all of them to
/// their temporary siblings first, then renamed (see ``writeAll(_:)``).
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

    /// The current contents of a file, `nil` if there is none, or why it cannot be read (it
    /// is not a regular file, say): what `gen --check` compares with.
    public static func currentContents(_ path: String) throws(FileReadError) -> [UInt8]? {
        do {
            return try SpecFileReader.readBytes(path, maxSize: Int.max)
        } catch {
            if access(path, F_OK) != 0, errno == ENOENT { return nil }
            throw error
        }
    }

    /// Writes `contents` to `path` unless it already holds exactly those bytes.
    @discardableResult
    public static func write(_ contents: String, to path: String) throws(WriteError) -> Outcome {
        try writeAll([(path: path, contents: contents)])[0]
    }

    /// Writes several files, each unless it already holds exactly its bytes, all or nothing as
    /// far as the file system allows: every changed file is first written in full to its
    /// temporary sibling, and only when all of them are written are they renamed over their
    /// targets. If writing any of them fails, every temporary file is removed and no target
    /// is touched. (A rename failing after others succeeded, which takes a file system error
    /// between two renames in one directory, leaves the earlier files renamed.)
    @discardableResult
    public static func writeAll(_ files: [(path: String, contents: String)]) throws(WriteError) -> [Outcome] {
        var outcomes: [Outcome] = []
        var pending: [(temporary: String, path: String)] = []
        func discard(_ temporaries: ArraySlice<(temporary: String, path: String)>) {
            for entry in temporaries { unlink(entry.temporary) }
        }
        for (serial, file) in files.enumerated() {
            let bytes = Array(file.contents.utf8)
            if existingContents(file.path) == bytes {
                outcomes.append(.unchanged)
                continue
            }
            // A directory in the way would only fail the rename, after others were renamed.
            var info = stat()
            if stat(file.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                discard(pending[...])
                throw WriteError(path: file.path, reason: "it is a directory")
            }
            let temporary = temporaryPath(for: file.path, serial: serial)
            if let failure = writeNew(bytes, to: temporary) {
                discard(pending[...])
                throw WriteError(path: file.path, reason: failure)
            }
            pending.append((temporary, file.path))
            outcomes.append(.written)
        }
        for (index, entry) in pending.enumerated() where rename(entry.temporary, entry.path) != 0 {
            let failure = errnoText()
            discard(pending[index...])
            throw WriteError(path: entry.path, reason: failure)
        }
        return outcomes
    }

    /// Creates `path` (which must not exist), writes `bytes` to it and flushes them to disk;
    /// the system's reason on failure, after removing what was created.
    private static func writeNew(_ bytes: [UInt8], to path: String) -> String? {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else { return errnoText() }
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
        if failure != nil { unlink(path) }
        return failure
    }

    /// Creates a directory (and its parents) if missing; returns the directories it created,
    /// outermost first.
    @discardableResult
    public static func makeDirectory(_ path: String) throws(WriteError) -> [String] {
        var created: [String] = []
        var current = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            current += component + "/"
            if mkdir(current, 0o755) == 0 {
                created.append(current)
            } else if errno != EEXIST {
                let failure = errnoText()
                removeDirectories(created)
                throw WriteError(path: path, reason: failure)
            }
        }
        return created
    }

    /// Removes directories that ``makeDirectory(_:)`` created, innermost first, as long as
    /// they are empty (a directory holding anything is left as it is).
    public static func removeDirectories(_ created: [String]) {
        for directory in created.reversed() { rmdir(directory) }
    }

    /// The longest file name, in bytes, that common file systems accept (`NAME_MAX` of ext4,
    /// APFS, XFS and others).
    public static let maxNameLength = 255

    /// The longest path, in bytes, that the system accepts in one call (`PATH_MAX` less its
    /// terminating NUL: 4095 on Linux, 1023 on macOS).
    public static let maxPathLength = Int(PATH_MAX) - 1

    /// Why `path` cannot be written whatever the file system holds (a name of more than
    /// ``maxNameLength`` bytes, a path of more than ``maxPathLength``, counting the temporary
    /// sibling written first), or `nil`.
    public static func lengthProblem(writing path: String) -> String? {
        for component in path.split(separator: "/") where component.utf8.count > maxNameLength {
            return
                "the name '\(clipped(String(component)))' is \(component.utf8.count) bytes long, over the limit of \(maxNameLength) bytes of file names"
        }
        let longest = max(path.utf8.count, temporaryPath(for: path).utf8.count)
        if longest > maxPathLength {
            return
                "the path is \(longest) bytes long (with its temporary sibling), over the system's limit of \(maxPathLength) bytes"
        }
        return nil
    }

    /// A long name cut to its first 40 characters and `…`, for messages.
    static func clipped(_ name: String) -> String {
        name.count > 48 ? name.prefix(40) + "…" : name
    }

    /// The temporary sibling of `path`: `.NAME.flowspec-PID.tmp` in the same directory. When
    /// that would be longer than ``maxNameLength`` bytes, `NAME` is cut short (at a character
    /// boundary) and `serial` (the file's place in one ``writeAll(_:)``) added after the PID,
    /// so that any file name the file system accepts can be written, and two long names with
    /// the same beginning do not share a temporary file.
    static func temporaryPath(for path: String, serial: Int = 0) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        var name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var suffix = ".flowspec-\(getpid()).tmp"
        if 1 + name.utf8.count + suffix.utf8.count > maxNameLength {
            suffix = ".flowspec-\(getpid())-\(serial).tmp"
            let room = maxNameLength - 1 - suffix.utf8.count
            var kept = String.UnicodeScalarView()
            var length = 0
            for scalar in name.unicodeScalars {
                length += UTF8.width(scalar)
                if length > room { break }
                kept.append(scalar)
            }
            name = String(kept)
        }
        return "\(directory).\(name)\(suffix)"
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
