import CYAML

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns libyaml's positions into the lines and columns an editor shows.
///
/// libyaml follows YAML 1.1 in counting U+0085 (NEL), U+2028 (LINE SEPARATOR) and U+2029
/// (PARAGRAPH SEPARATOR) as line breaks; editors, YAML 1.2 and flowspec's excerpts count only
/// LF, CR and CRLF. A file without those three characters (nearly every file) needs no mapping;
/// otherwise each of libyaml's lines is mapped to the editor line it is part of and the column
/// it starts at.
struct MarkMapper {
    /// For each of libyaml's lines (0-based): the editor line (1-based) and the editor column
    /// (0-based) of its first character. Empty when libyaml's lines are the editor's.
    private var lineStarts: [(line: Int, column: Int)] = []
    /// Where the first NEL, LS or PS is, if the file has one.
    private(set) var firstYAML11Break: SourceLocation?
    /// Added to every line: an imported file's lines are numbered past the importing file's
    /// (see `SpecImporter`), so that nothing found in it is taken for the importer's own.
    private let lineOffset: Int

    /// Prepares the mapping for a file's bytes (UTF-8, with or without a byte-order mark).
    init(_ bytes: UnsafeBufferPointer<UInt8>, lineOffset: Int = 0) {
        self.lineOffset = lineOffset
        guard Self.containsYAML11Break(bytes) else { return }
        var line = 1
        var column = 0
        var starts = [(line: 1, column: 0)]
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                if byte == UInt8(ascii: "\r"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") {
                    index += 1
                }
                line += 1
                column = 0
                starts.append((line, 0))
            } else if Self.yaml11BreakLength(bytes, at: index) > 0 {
                if firstYAML11Break == nil { firstYAML11Break = SourceLocation(line: line, column: column + 1) }
                column += 1
                starts.append((line, column))
                index += Self.yaml11BreakLength(bytes, at: index) - 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        lineStarts = starts
    }

    /// The editor position of a libyaml mark.
    func location(_ mark: yaml_mark_t) -> SourceLocation {
        location(line: Int(mark.line), column: Int(mark.column))
    }

    /// The editor position of libyaml's 0-based line and column.
    func location(line: Int, column: Int) -> SourceLocation {
        guard let last = lineStarts.last else {
            return SourceLocation(line: lineOffset + line + 1, column: column + 1)
        }
        // libyaml puts the end of the stream on a line after the last one.
        guard line < lineStarts.count else {
            return SourceLocation(line: lineOffset + last.line + line - (lineStarts.count - 1), column: column + 1)
        }
        let start = lineStarts[line]
        return SourceLocation(line: lineOffset + start.line, column: start.column + column + 1)
    }

    /// Whether the bytes hold NEL (C2 85), LS (E2 80 A8) or PS (E2 80 A9). Uses `memchr`, so
    /// the scan costs next to nothing beside libyaml's own.
    private static func containsYAML11Break(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        for lead: UInt8 in [0xC2, 0xE2] {
            var offset = 0
            while offset < bytes.count, let found = memchr(base + offset, Int32(lead), bytes.count - offset) {
                let index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if yaml11BreakLength(bytes, at: index) > 0 { return true }
                offset = index + 1
            }
        }
        return false
    }

    /// The byte length of a NEL, LS or PS starting at `index`, or 0.
    private static func yaml11BreakLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let byte = bytes[index]
        if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] == 0x85 { return 2 }
        if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80,
            bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9
        {
            return 3
        }
        return 0
    }
}
