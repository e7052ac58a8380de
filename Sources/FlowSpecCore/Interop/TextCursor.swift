/// A place in a document's bytes, with its line and column (counted in characters): what the
/// XML and JSON readers share, so that every error they report says where it is.
struct TextCursor {
    /// Why a document cannot be read, and where.
    struct Failure: Error, Sendable, Equatable {
        var message: String
        var location: SourceLocation
    }

    let bytes: [UInt8]
    /// The index of the next byte.
    var position = 0
    private(set) var line = 1
    private(set) var column = 1

    /// A cursor at the start of `bytes`, which must be UTF-8, and hold no control character
    /// other than tab, line feed and carriage return when `language` forbids them.
    init(_ bytes: [UInt8], forbiddingControlCharactersOf language: String? = nil) throws(Failure) {
        if let error = Self.encodingError(in: bytes, controlCharacters: language) {
            throw Failure(message: error.message, location: error.location)
        }
        self.bytes = bytes
    }

    var location: SourceLocation { SourceLocation(line: line, column: column) }

    /// A failure here, or at `location`.
    func failure(_ message: String, at location: SourceLocation? = nil) -> Failure {
        Failure(message: message, location: location ?? self.location)
    }

    var atEnd: Bool { position >= bytes.count }

    func peek(_ offset: Int = 0) -> UInt8? {
        position + offset < bytes.count ? bytes[position + offset] : nil
    }

    mutating func advance() {
        let byte = bytes[position]
        position += 1
        if byte == UInt8(ascii: "\n") {
            line += 1
            column = 1
        } else if byte & 0xC0 != 0x80 {
            column += 1
        }
    }

    mutating func advance(by count: Int) {
        for _ in 0..<count where !atEnd { advance() }
    }

    /// Whether the bytes from here are `text`.
    func starts(with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        return text.withUTF8Buffer { prefix in
            for index in 0..<count where bytes[position + index] != prefix[index] { return false }
            return true
        }
    }

    /// Skips white space as XML and JSON both define it: space, tab, line feed, carriage return.
    mutating func skipSpace() {
        while let byte = peek(), Self.isSpace(byte) { advance() }
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The first place where `bytes` are not UTF-8, or hold a control character other than tab,
    /// line feed and carriage return when `controlCharacters` names the language that forbids
    /// them; with what is wrong and what to do. `nil` when there is none.
    private static func encodingError(in bytes: [UInt8], controlCharacters language: String? = nil) -> (
        message: String, location: SourceLocation
    )? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var line = 1
        var column = 1
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if let language, scalar.value < 0x20, scalar != "\n", scalar != "\t", scalar != "\r" {
                    return (
                        "the control character U+\(String(scalar.value, radix: 16, uppercase: true)) is not allowed in \(language); remove it",
                        SourceLocation(line: line, column: column)
                    )
                }
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput: return nil
            case .error:
                return (
                    "the document is not valid UTF-8 here; save it as UTF-8", SourceLocation(line: line, column: column)
                )
            }
        }
    }
}
