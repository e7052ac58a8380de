#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a spec file could not be read at all (`flowspec` exits with status 2 for these).
public struct FileReadError: Error, Sendable, CustomStringConvertible {
    /// The path as given.
    public let path: String
    /// What went wrong, such as `No such file or directory`.
    public let reason: String

    public var description: String { "cannot read '\(path)': \(reason)" }
}

/// Reads a spec file's bytes, refusing what is not a regular file (a directory, a FIFO, a
/// device, a socket) and files over a size limit before reading them.
public enum SpecFileReader {
    /// Regular UTF-8 files of at least this many bytes are mapped rather than copied into
    /// memory, so that ``SourceFile/releaseMemory()`` can give their pages back once read.
    /// Smaller files, every hand-written spec, are read: a mapping saves them nothing.
    public static let mappingThreshold = 1 << 20

    /// Reads the file at `path` (relative paths are taken from the current directory). A
    /// UTF-16 file is transcoded to UTF-8 (see ``SourceFile``); the size limit applies to the
    /// bytes on disk.
    public static func read(_ path: String, maxSize: Int) throws(FileReadError) -> SourceFile {
        let (descriptor, info) = try openFile(path)
        defer { close(descriptor) }
        if Int(info.st_size) > maxSize {
            throw FileReadError(path: path, reason: "it is \(info.st_size) bytes, over the limit of \(maxSize) bytes")
        }
        if Int(info.st_size) >= mappingThreshold,
            let mapping = mapUTF8(descriptor, size: Int(info.st_size))
        {
            return SourceFile(path: path, mapping: mapping)
        }
        return SourceFile(
            path: path,
            bytes: try readBytes(
                descriptor, path: path, size: Int(info.st_size),
                maxSize: maxSize))
    }

    /// The bytes of the file at `path`, exactly as they are on disk.
    static func readBytes(_ path: String, maxSize: Int) throws(FileReadError) -> [UInt8] {
        let (descriptor, info) = try openFile(path)
        defer { close(descriptor) }
        return try readBytes(descriptor, path: path, size: Int(info.st_size), maxSize: maxSize)
    }

    /// The regular file at `path`, opened for reading, and what `fstat` says of it; the caller
    /// closes it. Anything else is refused before a byte is read: a spec, an import, a document
    /// or a trace may name a FIFO (whose reader waits for a writer forever) or a device
    /// (`/dev/zero` never ends). Opening does not wait: `O_NONBLOCK` makes a FIFO open at once,
    /// to be refused, and changes nothing for a regular file.
    private static func openFile(_ path: String) throws(FileReadError) -> (descriptor: Int32, info: stat) {
        // Asked first of the path, so that a device is never opened (opening one may act, as
        // a watchdog's does), then of what was opened, which is what is read.
        var before = stat()
        if stat(path, &before) == 0 { try refuseUnlessRegular(before, path: path) }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileReadError(path: path, reason: errnoText()) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let error = FileReadError(path: path, reason: errnoText())
            close(descriptor)
            throw error
        }
        do {
            try refuseUnlessRegular(info, path: path)
        } catch {
            close(descriptor)
            throw error
        }
        return (descriptor, info)
    }

    /// Throws unless `info` is that of a regular file.
    private static func refuseUnlessRegular(_ info: stat, path: String) throws(FileReadError) {
        let type = info.st_mode & S_IFMT
        guard type != S_IFREG else { return }
        throw FileReadError(
            path: path,
            reason: type == S_IFDIR
                ? "it is a directory; name the spec files in it"
                : "it is not a regular file (a FIFO, a device or a socket); name a file")
    }

    /// A read-only private mapping of a whole file, unless it starts with a UTF-16 byte-order
    /// mark (which is transcoded into memory instead) or cannot be mapped (then it is read).
    /// As with compilers that map their sources, a file another program truncates while it is
    /// being read raises SIGBUS when a page past its new end is read; the `flowspec` command
    /// turns that into an error (exit 2). Only specs of a MiB or more, generated ones, are mapped.
    private static func mapUTF8(_ descriptor: Int32, size: Int) -> UnsafeRawBufferPointer? {
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), base != MAP_FAILED else {
            return nil
        }
        let mapping = UnsafeRawBufferPointer(start: base, count: size)
        if (mapping[0] == 0xFF && mapping[1] == 0xFE) || (mapping[0] == 0xFE && mapping[1] == 0xFF) {
            munmap(base, size)
            return nil
        }
        return mapping
    }

    /// The bytes of an open file of about `size` bytes, exactly as they are on disk.
    private static func readBytes(
        _ descriptor: Int32, path: String, size: Int,
        maxSize: Int
    ) throws(FileReadError) -> [UInt8] {
        // Straight into the array, to the size `fstat` gave and one byte more (which sees the
        // end of a file that did not grow); then, for a file that grew, in chunks.
        var failure: Int32 = 0
        let first = min(max(size, 0), maxSize) + 1
        var bytes = [UInt8](unsafeUninitializedCapacity: first) { buffer, count in
            while count < buffer.count {
                let read = systemRead(descriptor, buffer.baseAddress! + count, buffer.count - count)
                if read < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if read == 0 { return }
                count += read
            }
        }
        if failure != 0 {
            errno = failure
            throw FileReadError(path: path, reason: errnoText())
        }
        if bytes.count > maxSize { throw FileReadError(path: path, reason: "it is over the limit of \(maxSize) bytes") }
        guard bytes.count == first else { return bytes }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileReadError(path: path, reason: errnoText())
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > maxSize {
                throw FileReadError(path: path, reason: "it is over the limit of \(maxSize) bytes")
            }
        }
        return bytes
    }

    private static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}

private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
