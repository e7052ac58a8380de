/// A JSON value as read, with where it starts: what ``JSONReader`` gives the importers, so that
/// each line of their reports can say where the document wrote what it reports.
struct JSONValue {
    enum Kind {
        case null
        case bool(Bool)
        /// A number, as written (the importers read only whole numbers).
        case number(String)
        case string(String)
        case array([JSONValue])
        /// An object's members in the order written (a machine's states are in document order).
        case object([Member])
        /// JavaScript that is code, not data (a function, a call, a variable), read from source
        /// by ``JavaScriptConfigReader`` and never run: its first line, shortened.
        case code(String)
    }

    struct Member {
        var key: String
        var value: JSONValue
    }

    var kind: Kind
    var location: SourceLocation

    /// The value of a member of an object, or `nil` (also when this is not an object).
    subscript(key: String) -> JSONValue? {
        members.first { $0.key == key }?.value
    }

    /// The members of an object (none for any other value).
    var members: [Member] {
        if case .object(let members) = kind { return members }
        return []
    }

    var string: String? {
        if case .string(let text) = kind { return text }
        return nil
    }

    var bool: Bool? {
        if case .bool(let value) = kind { return value }
        return nil
    }

    var number: String? {
        if case .number(let text) = kind { return text }
        return nil
    }

    var isObject: Bool {
        if case .object = kind { return true }
        return false
    }

    var isNull: Bool {
        if case .null = kind { return true }
        return false
    }

    /// The items of an array; any other value as a list of one (XState writes one transition or
    /// action alone where it allows several).
    var list: [JSONValue] {
        if case .array(let items) = kind { return items }
        return [self]
    }

    /// What the value is, in a message.
    var typeName: String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        case .code(let text): "code (`\(text)`)"
        }
    }
}

/// Reads a JSON document (RFC 8259) into a ``JSONValue``: strictly, since the importers read
/// what `JSON.stringify` writes. The bytes must be UTF-8 and the nesting at most
/// ``YAMLLimits/maxDepth`` deep (read with an explicit stack, so a deep document is an error, not
/// a crash); a key written twice in one object is refused, since JavaScript keeps the last and
/// the author rarely means that. Each string and number is held to
/// ``YAMLLimits/maxScalarLength`` bytes, refused before it is copied. Each error says where it
/// is, what is wrong and what to do.
struct JSONReader {
    typealias Failure = TextCursor.Failure

    private var cursor: TextCursor
    private let maxDepth: Int
    /// The most bytes a string (read, its escapes replaced) or a number may hold.
    private let maxScalarLength: Int

    /// Reads the document in `bytes`.
    static func read(
        _ bytes: [UInt8], maxDepth: Int = YAMLLimits().maxDepth, maxScalarLength: Int = YAMLLimits().maxScalarLength
    ) throws(Failure) -> JSONValue {
        var reader = JSONReader(cursor: try TextCursor(bytes), maxDepth: maxDepth, maxScalarLength: maxScalarLength)
        if reader.cursor.starts(with: "\u{FEFF}") { reader.cursor.advance(by: 3) }
        reader.cursor.skipSpace()
        guard !reader.cursor.atEnd else { throw reader.failure("the document holds no value") }
        let value = try reader.document()
        reader.cursor.skipSpace()
        guard reader.cursor.atEnd else {
            throw reader.failure("more follows the document's value; a JSON document holds one value")
        }
        return value
    }

    private init(cursor: TextCursor, maxDepth: Int, maxScalarLength: Int) {
        self.cursor = cursor
        self.maxDepth = maxDepth
        self.maxScalarLength = maxScalarLength
    }

    // MARK: - Positions

    private var location: SourceLocation { cursor.location }

    private func failure(_ message: String, at location: SourceLocation? = nil) -> Failure {
        cursor.failure(message, at: location)
    }

    /// The failure for `what` (`a string`), `length` bytes long, over the limit.
    private func tooLong(_ what: String, _ length: Int, at location: SourceLocation) -> Failure {
        failure(
            "\(what) of \(length) bytes is over the limit of \(maxScalarLength) bytes (raise it with --max-scalar-length)",
            at: location)
    }

    // MARK: - Values

    /// An array or object being read: its items so far, and for an object the key of the
    /// value being read.
    private struct Open {
        var location: SourceLocation
        var isObject: Bool
        var items: [JSONValue] = []
        var members: [JSONValue.Member] = []
        var keys: Set<String> = []
        var key: String?

        var value: JSONValue {
            JSONValue(kind: isObject ? .object(members) : .array(items), location: location)
        }
    }

    /// The document's value, read with a stack of the arrays and objects open around the
    /// value being read.
    private mutating func document() throws(Failure) -> JSONValue {
        var stack: [Open] = []
        while true {
            var value: JSONValue
            if let opened = try open(depth: stack.count) {
                if try closes(opened) {
                    value = opened.value
                } else {
                    stack.append(opened)
                    if opened.isObject { stack[stack.count - 1].key = try key(in: &stack[stack.count - 1]) }
                    continue
                }
            } else {
                value = try scalar()
            }
            // Hand the value to the array or object around it, closing each that ends.
            while true {
                guard !stack.isEmpty else { return value }
                let top = stack.count - 1
                if stack[top].isObject {
                    stack[top].members.append(JSONValue.Member(key: stack[top].key ?? "", value: value))
                } else {
                    stack[top].items.append(value)
                }
                if try closes(stack[top]) {
                    value = stack.removeLast().value
                    continue
                }
                if stack[top].isObject { stack[top].key = try key(in: &stack[top]) }
                break
            }
        }
    }

    /// An array or object that starts here (past its bracket), or `nil` for any other value.
    private mutating func open(depth: Int) throws(Failure) -> Open? {
        cursor.skipSpace()
        guard let byte = cursor.peek(), byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") else { return nil }
        guard depth < maxDepth else {
            throw failure(
                "the document nests deeper than \(maxDepth) levels; flatten it, or raise the limit with --max-depth")
        }
        let opened = Open(location: location, isObject: byte == UInt8(ascii: "{"))
        cursor.advance()
        return opened
    }

    /// After a value (or right after the bracket of an empty one): whether `open` ends here
    /// (past its bracket), else past the comma before its next value.
    private mutating func closes(_ open: Open) throws(Failure) -> Bool {
        cursor.skipSpace()
        let close = open.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        let isEmpty = open.isObject ? open.members.isEmpty && open.key == nil : open.items.isEmpty
        if cursor.peek() == close {
            cursor.advance()
            return true
        }
        if isEmpty { return false }
        guard cursor.peek() == UInt8(ascii: ",") else {
            let what = open.isObject ? "object" : "array"
            throw failure(
                cursor.atEnd
                    ? "the document ends inside the \(what) opened at \(open.location)"
                    : "expected ',' or '\(Character(Unicode.Scalar(close)))' in the \(what) opened at \(open.location)")
        }
        let comma = location
        cursor.advance()
        cursor.skipSpace()
        if cursor.peek() == close {
            throw failure("a trailing ',' before '\(Character(Unicode.Scalar(close)))'; remove it", at: comma)
        }
        return false
    }

    /// A member's key and its colon; a key written twice in the object is refused.
    private mutating func key(in open: inout Open) throws(Failure) -> String {
        cursor.skipSpace()
        let start = location
        guard cursor.peek() == UInt8(ascii: "\"") else {
            throw failure(
                cursor.atEnd
                    ? "the document ends inside the object opened at \(open.location)" : "expected a key in quotes")
        }
        let key = try string()
        guard open.keys.insert(key).inserted else {
            throw failure(
                "the key '\(key)' is written twice in the object opened at \(open.location); keep one", at: start)
        }
        cursor.skipSpace()
        guard cursor.peek() == UInt8(ascii: ":") else { throw failure("expected ':' after the key '\(key)'") }
        cursor.advance()
        return key
    }

    private mutating func scalar() throws(Failure) -> JSONValue {
        cursor.skipSpace()
        let start = location
        guard let byte = cursor.peek() else { throw failure("the document ends where a value should be") }
        switch byte {
        case UInt8(ascii: "\""): return JSONValue(kind: .string(try string()), location: start)
        case UInt8(ascii: "t"):
            try word("true")
            return JSONValue(kind: .bool(true), location: start)
        case UInt8(ascii: "f"):
            try word("false")
            return JSONValue(kind: .bool(false), location: start)
        case UInt8(ascii: "n"):
            try word("null")
            return JSONValue(kind: .null, location: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONValue(kind: .number(try number()), location: start)
        default:
            throw failure("expected a value (an object, array, string, number, true, false or null)")
        }
    }

    private mutating func word(_ word: StaticString) throws(Failure) {
        guard cursor.starts(with: word) else {
            throw failure("expected a value (an object, array, string, number, true, false or null)")
        }
        cursor.advance(by: word.utf8CodeUnitCount)
    }

    /// A number as written: `-`, an integer part without leading zeros, then an optional
    /// fraction and exponent (RFC 8259, 6).
    private mutating func number() throws(Failure) -> String {
        let start = cursor.position
        let startLocation = location
        func digits(_ reader: inout JSONReader) -> Int {
            var count = 0
            while let byte = reader.cursor.peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                reader.cursor.advance()
                count += 1
            }
            return count
        }
        if cursor.peek() == UInt8(ascii: "-") { cursor.advance() }
        let integerStart = cursor.position
        let integerDigits = digits(&self)
        guard integerDigits > 0 else { throw failure("a number needs a digit here") }
        if integerDigits > 1, cursor.bytes[integerStart] == UInt8(ascii: "0") {
            throw failure("a number cannot start with 0 unless it is 0", at: startLocation)
        }
        if cursor.peek() == UInt8(ascii: ".") {
            cursor.advance()
            guard digits(&self) > 0 else { throw failure("a number needs a digit after '.'") }
        }
        if cursor.peek() == UInt8(ascii: "e") || cursor.peek() == UInt8(ascii: "E") {
            cursor.advance()
            if cursor.peek() == UInt8(ascii: "+") || cursor.peek() == UInt8(ascii: "-") { cursor.advance() }
            guard digits(&self) > 0 else { throw failure("a number needs a digit in its exponent") }
        }
        if cursor.position - start > maxScalarLength {
            throw tooLong("a number", cursor.position - start, at: startLocation)
        }
        return String(decoding: cursor.bytes[start..<cursor.position], as: UTF8.self)
    }

    /// A string in quotes, its escapes read (a `\u` escape of half a surrogate pair must be
    /// followed by the other half).
    private mutating func string() throws(Failure) -> String {
        let opening = location
        cursor.advance()
        var text: [UInt8] = []
        // Past the limit, the string is only counted (escapes are read into `spill`, emptied
        // each time), so that the failure can say how long it is.
        var length = 0
        var spill: [UInt8] = []
        while true {
            guard let byte = cursor.peek() else { throw failure("the string opened at \(opening) is not closed") }
            switch byte {
            case UInt8(ascii: "\""):
                cursor.advance()
                guard length <= maxScalarLength else { throw tooLong("a string", length, at: opening) }
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                let escapeStart = location
                cursor.advance()
                if length <= maxScalarLength {
                    try escape(into: &text, at: escapeStart)
                    length = text.count
                    if length > maxScalarLength { text = [] }
                } else {
                    try escape(into: &spill, at: escapeStart)
                    length += spill.count
                    spill.removeAll(keepingCapacity: true)
                }
            case 0..<0x20:
                throw failure(
                    "a control character (U+\(String(byte, radix: 16, uppercase: true))) inside a string; write it as an escape such as \\n or \\u0009"
                )
            default:
                length += 1
                if length <= maxScalarLength {
                    text.append(byte)
                } else if length == maxScalarLength + 1 {
                    text = []  // over the limit: nothing more is kept
                }
                cursor.advance()
            }
        }
    }

    private mutating func escape(into text: inout [UInt8], at start: SourceLocation) throws(Failure) {
        guard let byte = cursor.peek() else { throw failure("the document ends inside an escape") }
        cursor.advance()
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
            UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09
        ]
        if let replacement = simple[byte] {
            text.append(replacement)
            return
        }
        guard byte == UInt8(ascii: "u") else {
            throw failure(
                "'\\\(Character(Unicode.Scalar(byte)))' is not a JSON escape; use \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX",
                at: start)
        }
        var value = try hex(at: start)
        if (0xD800...0xDBFF).contains(value) {
            guard cursor.peek() == UInt8(ascii: "\\") else {
                throw failure("half a surrogate pair (\\u\(String(value, radix: 16)))", at: start)
            }
            cursor.advance()
            guard cursor.peek() == UInt8(ascii: "u") else {
                throw failure("half a surrogate pair (\\u\(String(value, radix: 16)))", at: start)
            }
            cursor.advance()
            let low = try hex(at: start)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw failure("half a surrogate pair (\\u\(String(value, radix: 16)))", at: start)
            }
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(value) {
            throw failure("half a surrogate pair (\\u\(String(value, radix: 16)))", at: start)
        }
        guard let scalar = Unicode.Scalar(value) else { throw failure("not a character", at: start) }
        text += Array(String(Character(scalar)).utf8)
    }

    private mutating func hex(at start: SourceLocation) throws(Failure) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = cursor.peek(), let digit = Self.hexValue(byte) else {
                throw failure("\\u needs four hexadecimal digits", at: start)
            }
            value = value << 4 | digit
            cursor.advance()
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
