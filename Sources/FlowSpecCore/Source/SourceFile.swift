#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A spec file's path (as the user gave it) and its bytes, as UTF-8.
///
/// A file that starts with a UTF-16 byte-order mark (`FF FE` little-endian, `FE FF`
/// big-endian) is transcoded to UTF-8 when the `SourceFile` is made, keeping the mark (as the
/// UTF-8 mark `EF BB BF`), so that the YAML reader, its positions and the excerpts under
/// findings all see the same UTF-8 text. See ``UTF16Transcoder`` for what happens to invalid
/// UTF-16.
///
/// The bytes are in memory, or, for a large file read by ``SpecFileReader``, mapped from
/// the file: then ``releaseMemory()`` gives back the memory of the pages read so far, and the
/// system reads them again from its cache if they are needed (for an excerpt under a finding).
public struct SourceFile: Sendable {
    /// How a file's bytes were encoded before they were read.
    public enum Encoding: Sendable, Equatable {
        /// UTF-8, with or without a byte-order mark (also any file that does not start with a
        /// UTF-16 byte-order mark; invalid UTF-8 is left for the YAML reader to report).
        case utf8
        /// UTF-16 little-endian, with a byte-order mark.
        case utf16LittleEndian
        /// UTF-16 big-endian, with a byte-order mark.
        case utf16BigEndian
    }

    /// The path as given on the command line; printed in findings as is.
    public let path: String
    /// How the file was encoded.
    public let encoding: Encoding
    /// Whether the file is UTF-16 with an odd number of bytes: cut short, its last byte half a
    /// code unit (which the transcoding writes as invalid UTF-8, see ``UTF16Transcoder``), so
    /// that a reader can say so rather than call the file invalid UTF-8.
    public private(set) var isCutShortUTF16 = false
    private let storage: Storage

    /// The file's contents, as UTF-8 (a UTF-16 file transcoded). For a mapped file this is a
    /// copy; ``withBytes(_:)`` reads the bytes in place.
    public var bytes: [UInt8] {
        switch storage {
        case .array(let bytes): bytes
        case .mapping(let mapping): Array(mapping.bytes)
        }
    }

    /// How many bytes the file has, as UTF-8 (read without copying them).
    public var byteCount: Int {
        withBytes { $0.count }
    }

    /// Creates a source file from a file's bytes, transcoding UTF-16 to UTF-8.
    public init(path: String, bytes: [UInt8]) {
        self.path = path
        if let transcoded = UTF16Transcoder.transcode(bytes) {
            self.encoding = transcoded.encoding
            self.storage = .array(transcoded.utf8)
            self.isCutShortUTF16 = bytes.count % 2 == 1
        } else {
            self.encoding = .utf8
            self.storage = .array(bytes)
        }
    }

    /// Creates a source file from text.
    public init(path: String, text: String) {
        self.init(path: path, bytes: Array(text.utf8))
    }

    /// A source file over a mapping of UTF-8 bytes, which it unmaps when it is gone.
    init(path: String, mapping: UnsafeRawBufferPointer) {
        self.path = path
        self.encoding = .utf8
        self.storage = .mapping(Mapping(mapping))
    }

    /// Whether the bytes are mapped from the file rather than held in memory.
    var isMapped: Bool {
        if case .mapping = storage { return true }
        return false
    }

    /// Calls `body` with the bytes in place.
    public func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        switch storage {
        case .array(let bytes): try bytes.withUnsafeBufferPointer(body)
        case .mapping(let mapping): try body(mapping.bytes)
        }
    }

    /// Gives back the memory of a mapped file's pages (nothing for bytes held in memory), of
    /// the whole file or of the pages wholly within its first `byteCount` bytes: the bytes stay
    /// readable, and are read again from the system's cache when they are.
    public func releaseMemory(ofFirst byteCount: Int = .max) {
        guard case .mapping(let mapping) = storage, let base = mapping.bytes.baseAddress else { return }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let length = byteCount >= mapping.bytes.count ? mapping.bytes.count : byteCount / pageSize * pageSize
        guard length > 0 else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base), length, Int32(MADV_DONTNEED))
    }

    /// The bytes: an array, or a read-only private mapping of the file.
    private enum Storage: Sendable {
        case array([UInt8])
        case mapping(Mapping)
    }

    /// A read-only mapping of a whole file, unmapped when the last source file using it goes.
    private final class Mapping: @unchecked Sendable {
        // Immutable: the mapping is only read, and unmapped once, in deinit.
        let bytes: UnsafeBufferPointer<UInt8>

        init(_ mapping: UnsafeRawBufferPointer) {
            bytes = mapping.bindMemory(to: UInt8.self)
        }

        deinit {
            if let base = bytes.baseAddress {
                munmap(UnsafeMutableRawPointer(mutating: base), bytes.count)
            }
        }
    }
}

/// Turns a UTF-16 file (one that starts with a byte-order mark) into UTF-8.
///
/// Valid UTF-16 becomes the same text in UTF-8, after the UTF-8 byte-order mark. Invalid
/// UTF-16 is never repaired silently: an unpaired surrogate is written as the three bytes its
/// code point would take in UTF-8 (`ED A0 80` for U+D800, as WTF-8 does), and a last, odd
/// byte as those of U+DFFF. Neither is valid UTF-8, so the YAML reader reports "invalid
/// Unicode character" at that line and column, as it does for the same bytes in a UTF-8 file.
enum UTF16Transcoder {
    /// The encoding and the UTF-8 bytes of a file that starts with a UTF-16 byte-order mark;
    /// `nil` for any other file.
    static func transcode(_ bytes: [UInt8]) -> (encoding: SourceFile.Encoding, utf8: [UInt8])? {
        guard bytes.count >= 2 else { return nil }
        let bigEndian: Bool
        switch (bytes[0], bytes[1]) {
        case (0xFF, 0xFE): bigEndian = false
        case (0xFE, 0xFF): bigEndian = true
        default: return nil
        }
        return (bigEndian ? .utf16BigEndian : .utf16LittleEndian, utf8(bytes, bigEndian: bigEndian))
    }

    private static func utf8(_ bytes: [UInt8], bigEndian: Bool) -> [UInt8] {
        var output: [UInt8] = []
        // Two UTF-16 bytes become at most three UTF-8 bytes (a pair of four bytes, four).
        output.reserveCapacity(bytes.count / 2 * 3 + 3)
        output.append(contentsOf: [0xEF, 0xBB, 0xBF])
        let unitCount = bytes.count / 2
        func unit(_ index: Int) -> UInt32 {
            let first = UInt32(bytes[2 * index])
            let second = UInt32(bytes[2 * index + 1])
            return bigEndian ? first << 8 | second : second << 8 | first
        }
        var index = 1  // after the byte-order mark
        while index < unitCount {
            let value = unit(index)
            index += 1
            if (0xD800...0xDBFF).contains(value), index < unitCount, (0xDC00...0xDFFF).contains(unit(index)) {
                let low = unit(index)
                index += 1
                append(0x10000 + ((value - 0xD800) << 10 | (low - 0xDC00)), to: &output)
            } else {
                // A scalar, or an unpaired surrogate written as if it were one.
                append(value, to: &output)
            }
        }
        if bytes.count % 2 == 1 {
            append(0xDFFF, to: &output)
        }
        return output
    }

    /// Appends the UTF-8 form of a code point (surrogates included, as WTF-8 writes them).
    private static func append(_ value: UInt32, to output: inout [UInt8]) {
        switch value {
        case 0..<0x80:
            output.append(UInt8(value))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | value >> 6))
            output.append(UInt8(0x80 | value & 0x3F))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | value >> 12))
            output.append(UInt8(0x80 | value >> 6 & 0x3F))
            output.append(UInt8(0x80 | value & 0x3F))
        default:
            output.append(UInt8(0xF0 | value >> 18))
            output.append(UInt8(0x80 | value >> 12 & 0x3F))
            output.append(UInt8(0x80 | value >> 6 & 0x3F))
            output.append(UInt8(0x80 | value & 0x3F))
        }
    }
}

/// Finds the text of a line of a ``SourceFile``, for printing it under a finding.
///
/// Line breaks are `\n`, `\r\n` and a lone `\r`, as in YAML; a byte-order mark at the start of
/// the file is not part of line 1.
public struct LineIndex: Sendable {
    private let file: SourceFile
    private let starts: [Int]

    /// Indexes the lines of a file.
    public init(_ file: SourceFile) {
        self.file = file
        starts = file.withBytes(Self.lineStarts)
    }

    /// The text of a 1-based line without its line break, or `nil` past the end.
    public func line(_ number: Int) -> String? {
        file.withBytes { Self.line(number, starts: starts, in: $0) }
    }

    /// The text of a 1-based line of `bytes`, without an index kept for another line.
    static func line(_ number: Int, in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        line(number, starts: lineStarts(bytes), in: bytes)
    }

    private static func lineStarts(_ bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
        var starts = [bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0]
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                if byte == UInt8(ascii: "\r"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") {
                    index += 1
                }
                starts.append(index + 1)
            }
            index += 1
        }
        return starts
    }

    private static func line(_ number: Int, starts: [Int], in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard number >= 1, number <= starts.count else { return nil }
        let start = starts[number - 1]
        guard start < bytes.count || number == 1 else { return nil }
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n"), bytes[end] != UInt8(ascii: "\r") { end += 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }
}
