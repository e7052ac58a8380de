/// A spec file's path (as the user gave it) and its bytes.
public struct SourceFile: Sendable {
    /// The path as given on the command line; printed in findings as is.
    public let path: String
    /// The file's contents.
    public let bytes: [UInt8]

    /// Creates a source file from bytes.
    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }

    /// Creates a source file from text.
    public init(path: String, text: String) {
        self.init(path: path, bytes: Array(text.utf8))
    }
}

/// Finds the text of a line of a ``SourceFile``, for printing it under a finding.
///
/// Line breaks are `\n`, `\r\n` and a lone `\r`, as in YAML; a byte-order mark at the start of
/// the file is not part of line 1.
public struct LineIndex: Sendable {
    private let bytes: [UInt8]
    private let starts: [Int]

    /// Indexes the lines of a file.
    public init(_ file: SourceFile) {
        bytes = file.bytes
        var starts = [file.bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0]
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
        self.starts = starts
    }

    /// The text of a 1-based line without its line break, or `nil` past the end.
    public func line(_ number: Int) -> String? {
        guard number >= 1, number <= starts.count else { return nil }
        let start = starts[number - 1]
        guard start < bytes.count || number == 1 else { return nil }
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n"), bytes[end] != UInt8(ascii: "\r") { end += 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
