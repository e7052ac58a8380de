/// Reads an XState machine config from JavaScript or TypeScript source: the object literal
/// passed to the first `createMachine(…)` (also `setup({…}).createMachine(…)`) or v4's
/// `Machine(…)`, as the ``JSONValue`` that `JSON.stringify` would give where the source is data
/// (objects, arrays, strings, numbers, `true`, `false`, `null`), and where it is code (a
/// function, a call such as `assign(…)`, a variable) a ``JSONValue/Kind/code`` value at its
/// place, which the importer reports: nothing is run.
///
/// What cannot be read without running the code is refused with its place: a spread
/// (`...base`) or a computed key (`[EVENTS.start]`) would make members the import cannot see.
/// Comments, trailing commas, quoted or bare keys, shorthand properties (code: a variable),
/// methods (code), template literals without `${}`, and TypeScript's `as …`, `satisfies …`
/// and type arguments (`createMachine<Context>(…)`) are read. Nesting is held to `maxDepth`
/// and every string to `maxScalarLength`, as for JSON.
struct JavaScriptConfigReader {
    typealias Failure = TextCursor.Failure

    private var cursor: TextCursor
    private let maxDepth: Int
    private let maxScalarLength: Int
    /// The most bytes of a piece of code a ``JSONValue/Kind/code`` value keeps, for a report.
    static let codeExcerptLength = 40

    /// Whether `bytes` look like source that calls `createMachine(` or `Machine(` (also with
    /// type arguments), rather than a JSON document.
    static func isSource(_ bytes: [UInt8]) -> Bool {
        let name = Array("Machine".utf8)
        guard bytes.count > name.count else { return false }
        for start in 0..<(bytes.count - name.count) where bytes[start] == name[0] {
            guard bytes[start..<(start + name.count)].elementsEqual(name) else { continue }
            var next = start + name.count
            while next < bytes.count, TextCursor.isSpace(bytes[next]) { next += 1 }
            if next < bytes.count, bytes[next] == UInt8(ascii: "(") || bytes[next] == UInt8(ascii: "<") {
                return true
            }
        }
        return false
    }

    /// The config in `bytes`.
    static func read(
        _ bytes: [UInt8], maxDepth: Int = YAMLLimits().maxDepth, maxScalarLength: Int = YAMLLimits().maxScalarLength
    ) throws(Failure) -> JSONValue {
        try readWithImplementations(bytes, maxDepth: maxDepth, maxScalarLength: maxScalarLength).config
    }

    /// The config in `bytes`, and the implementations written beside it, when they can be read
    /// as data: the object given to `setup({ … })` before `.createMachine(`, or v4's second
    /// argument, `Machine(config, { delays, … })`. They say, for one, how long a named delay is.
    static func readWithImplementations(
        _ bytes: [UInt8], maxDepth: Int = YAMLLimits().maxDepth, maxScalarLength: Int = YAMLLimits().maxScalarLength
    ) throws(Failure) -> (config: JSONValue, implementations: JSONValue?) {
        var reader = JavaScriptConfigReader(
            cursor: try TextCursor(bytes), maxDepth: maxDepth, maxScalarLength: maxScalarLength)
        guard try reader.findConfig() else {
            throw reader.cursor.failure(
                "found no `createMachine({ … })` or `Machine({ … })` call with an object literal; import the config object, or its JSON (`JSON.stringify(config)`)",
                at: SourceLocation(line: 1, column: 1))
        }
        let config = try reader.value(depth: 0)
        try reader.skipTrivia()
        if reader.cursor.peek() == UInt8(ascii: ",") {
            reader.cursor.advance()
            try reader.skipTrivia()
            if reader.cursor.peek() == UInt8(ascii: "{") { reader.implementations = reader.readLeniently() }
        }
        return (config, reader.implementations)
    }

    /// The `setup` object read before the call, or the call's second argument.
    private var implementations: JSONValue?

    private init(cursor: TextCursor, maxDepth: Int, maxScalarLength: Int) {
        self.cursor = cursor
        self.maxDepth = maxDepth
        self.maxScalarLength = maxScalarLength
    }

    // MARK: - Finding the call

    /// Moves to the `{` of the first `createMachine(` or `Machine(` call's object; whether there is one.
    private mutating func findConfig() throws(Failure) -> Bool {
        while true {
            try skipTrivia()
            guard let byte = cursor.peek() else { return false }
            if Self.isQuote(byte) {
                skipQuotedLoosely()
                continue
            }
            guard Self.startsIdentifier(byte) else {
                cursor.advance()
                continue
            }
            let name = identifier()
            if name == "setup" {
                try skipTrivia()
                guard cursor.peek() == UInt8(ascii: "(") else { continue }
                cursor.advance()
                try skipTrivia()
                if cursor.peek() == UInt8(ascii: "{") { implementations = readLeniently() }
                continue
            }
            guard name == "createMachine" || name == "Machine" else { continue }
            try skipTrivia()
            if cursor.peek() == UInt8(ascii: "<") { try skipBalanced(open: "<", close: ">") }
            try skipTrivia()
            guard cursor.peek() == UInt8(ascii: "(") else { continue }
            cursor.advance()
            try skipTrivia()
            if cursor.peek() == UInt8(ascii: "{") { return true }
        }
    }

    /// The object here, or `nil` when it cannot be read as data: the implementations beside a
    /// config are read only for what they can add. The search goes on from where the reading
    /// stopped, never from before it, so no part of the source is read twice.
    private mutating func readLeniently() -> JSONValue? {
        let start = cursor.position
        do throws(Failure) {
            return try value(depth: 0)
        } catch {
            if cursor.position == start { cursor.advance() }
            return nil
        }
    }

    /// Past a string or template before the call, to its closing quote (or the end of its line
    /// for a string): what comes before the config is not read, only passed over, so a regular
    /// expression holding a quote costs nothing worse than a line.
    private mutating func skipQuotedLoosely() {
        guard let quote = cursor.peek() else { return }
        cursor.advance()
        while let byte = cursor.peek() {
            if byte == UInt8(ascii: "\\") {
                cursor.advance()
                if !cursor.atEnd { cursor.advance() }
                continue
            }
            if byte == UInt8(ascii: "\n"), quote != UInt8(ascii: "`") { return }
            cursor.advance()
            if byte == quote { return }
        }
    }

    // MARK: - Values

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        try skipTrivia()
        let start = cursor
        guard depth < maxDepth else {
            throw cursor.failure(
                "the config nests deeper than \(maxDepth) levels; flatten it, or raise the limit with --max-depth")
        }
        guard let byte = cursor.peek() else { throw cursor.failure("the source ends where a value should be") }
        var value: JSONValue
        switch byte {
        case UInt8(ascii: "{"): value = try object(depth: depth)
        case UInt8(ascii: "["): value = try array(depth: depth)
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            value = JSONValue(kind: .string(try string()), location: start.location)
        case UInt8(ascii: "`"):
            guard let text = try template() else { return try code(from: start) }
            value = JSONValue(kind: .string(text), location: start.location)
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
            value = JSONValue(kind: .number(number()), location: start.location)
        default:
            guard Self.startsIdentifier(byte) else { return try code(from: start) }
            switch identifier() {
            case "true": value = JSONValue(kind: .bool(true), location: start.location)
            case "false": value = JSONValue(kind: .bool(false), location: start.location)
            case "null", "undefined": value = JSONValue(kind: .null, location: start.location)
            default: return try code(from: start)
            }
        }
        // TypeScript's `as const`, `satisfies T` leave the value as it is; anything else makes it code.
        try skipTrivia()
        guard let next = cursor.peek(), !Self.endsValue(next) else { return value }
        let rest = cursor
        if Self.startsIdentifier(next), ["as", "satisfies"].contains(identifier()) {
            try skipExpression()
            return value
        }
        cursor = rest
        return try code(from: start)
    }

    private mutating func object(depth: Int) throws(Failure) -> JSONValue {
        let start = cursor.location
        cursor.advance()
        var members: [JSONValue.Member] = []
        var positions: [String: Int] = [:]
        while true {
            if try closes(UInt8(ascii: "}"), "object", openedAt: start) {
                return JSONValue(kind: .object(members), location: start)
            }
            let keyStart = cursor
            let key = try self.key()
            try skipTrivia()
            let value: JSONValue
            switch cursor.peek() {
            case UInt8(ascii: ":"):
                cursor.advance()
                value = try self.value(depth: depth + 1)
            case UInt8(ascii: "("), UInt8(ascii: "<"):
                // A method, `entry() { … }`: code.
                cursor = keyStart
                value = try code(from: keyStart)
            case UInt8(ascii: ","), UInt8(ascii: "}"):
                // A shorthand property, `{ fetchUser }`: a variable, so code.
                value = JSONValue(kind: .code(key), location: keyStart.location)
            default:
                throw cursor.failure("expected ':' after the key '\(key)'")
            }
            // As in JavaScript, a key written again gives the earlier one its value, in its place.
            if let earlier = positions[key] {
                members[earlier].value = value
            } else {
                positions[key] = members.count
                members.append(JSONValue.Member(key: key, value: value))
            }
            try separator(UInt8(ascii: "}"), "object", openedAt: start)
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> JSONValue {
        let start = cursor.location
        cursor.advance()
        var items: [JSONValue] = []
        while true {
            if try closes(UInt8(ascii: "]"), "array", openedAt: start) {
                return JSONValue(kind: .array(items), location: start)
            }
            try refuseSpread()
            items.append(try value(depth: depth + 1))
            try separator(UInt8(ascii: "]"), "array", openedAt: start)
        }
    }

    /// Before an item: whether `close` ends the object or array here (then past it).
    private mutating func closes(_ close: UInt8, _ what: String, openedAt start: SourceLocation) throws(Failure)
        -> Bool
    {
        try skipTrivia()
        guard let byte = cursor.peek() else {
            throw cursor.failure("the source ends inside the \(what) opened at \(start)")
        }
        guard byte == close else { return false }
        cursor.advance()
        return true
    }

    /// After an item: past its `,`, or at `close`.
    private mutating func separator(_ close: UInt8, _ what: String, openedAt start: SourceLocation) throws(Failure) {
        try skipTrivia()
        if cursor.peek() == UInt8(ascii: ",") {
            cursor.advance()
        } else if cursor.peek() != close {
            throw cursor.failure(
                cursor.atEnd
                    ? "the source ends inside the \(what) opened at \(start)"
                    : "expected ',' or '\(Character(Unicode.Scalar(close)))' in the \(what) opened at \(start)")
        }
    }

    /// A member's key: a name, a string or a number. A computed key or a spread is refused.
    private mutating func key() throws(Failure) -> String {
        try refuseSpread()
        guard let byte = cursor.peek() else { throw cursor.failure("the source ends where a key should be") }
        if Self.isQuote(byte) { return try string() }
        if byte == UInt8(ascii: "[") {
            throw cursor.failure(
                "a computed key, which flowspec cannot read without running the code; write the key out, or import the config's JSON (`JSON.stringify(config)`)"
            )
        }
        if Self.startsIdentifier(byte) { return identifier() }
        if UInt8(ascii: "0")...UInt8(ascii: "9") ~= byte { return number() }
        throw cursor.failure("expected a key")
    }

    private mutating func refuseSpread() throws(Failure) {
        guard cursor.starts(with: "...") else { return }
        throw cursor.failure(
            "a spread (`...`), which flowspec cannot read without running the code; write its members out, or import the config's JSON (`JSON.stringify(config)`)"
        )
    }

    /// The code from `start` to the end of its expression, as a ``JSONValue/Kind/code`` value
    /// holding its first line, shortened.
    private mutating func code(from start: TextCursor) throws(Failure) -> JSONValue {
        cursor = start
        try skipExpression()
        var text = String(decoding: start.bytes[start.position..<cursor.position], as: UTF8.self)
        text = String(text.prefix { $0 != "\n" && $0 != "\r" }).trimmingSpaces
        if text.utf8.count > Self.codeExcerptLength {
            text = String(text.prefix(Self.codeExcerptLength)) + "…"
        }
        return JSONValue(kind: .code(text), location: start.location)
    }

    // MARK: - Scalars

    private mutating func identifier() -> String {
        let start = cursor.position
        while let byte = cursor.peek(), Self.continuesIdentifier(byte) { cursor.advance() }
        return String(decoding: cursor.bytes[start..<cursor.position], as: UTF8.self)
    }

    /// A number as written (`1000`, `0.5`, `1_000`, `0x1F`), for the importer to read.
    private mutating func number() -> String {
        let start = cursor.position
        if cursor.peek() == UInt8(ascii: "-") { cursor.advance() }
        while let byte = cursor.peek(), Self.continuesIdentifier(byte) || byte == UInt8(ascii: ".") { cursor.advance() }
        return String(decoding: cursor.bytes[start..<cursor.position], as: UTF8.self).replacingUnderscores
    }

    /// A string in `'` or `"`, its escapes read.
    private mutating func string() throws(Failure) -> String {
        let start = cursor.location
        guard let quote = cursor.peek() else { throw cursor.failure("expected a string") }
        cursor.advance()
        var text: [UInt8] = []
        while true {
            guard let byte = cursor.peek(), byte != UInt8(ascii: "\n") else {
                throw cursor.failure("the string that starts at \(start) does not end on its line", at: start)
            }
            cursor.advance()
            if byte == quote { break }
            try append(byte, to: &text, of: start)
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// A character of a string or template, read past (an escape read whole), held to the limit.
    private mutating func append(_ byte: UInt8, to text: inout [UInt8], of start: SourceLocation) throws(Failure) {
        if byte == UInt8(ascii: "\\") {
            try escape(into: &text)
        } else {
            text.append(byte)
        }
        guard text.count <= maxScalarLength else {
            throw cursor.failure(
                "a string over the limit of \(maxScalarLength) bytes (raise it with --max-scalar-length)", at: start)
        }
    }

    /// A template literal without `${…}`, as a string; `nil` (the cursor where it was) for one
    /// with, which is code.
    private mutating func template() throws(Failure) -> String? {
        let start = cursor
        cursor.advance()
        var text: [UInt8] = []
        while true {
            guard let byte = cursor.peek() else {
                throw cursor.failure("the template that starts at \(start.location) does not end", at: start.location)
            }
            if byte == UInt8(ascii: "$"), cursor.peek(1) == UInt8(ascii: "{") {
                cursor = start
                return nil
            }
            cursor.advance()
            if byte == UInt8(ascii: "`") { return String(decoding: text, as: UTF8.self) }
            try append(byte, to: &text, of: start.location)
        }
    }

    /// The character an escape stands for, past its backslash.
    private mutating func escape(into text: inout [UInt8]) throws(Failure) {
        guard let byte = cursor.peek() else { throw cursor.failure("the source ends inside an escape") }
        cursor.advance()
        switch byte {
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "0"): text.append(0x00)
        case UInt8(ascii: "\n"): break  // a line continued
        case UInt8(ascii: "u"), UInt8(ascii: "x"):
            var digits = ""
            let braced = byte == UInt8(ascii: "u") && cursor.peek() == UInt8(ascii: "{")
            if braced { cursor.advance() }
            let count = braced ? 6 : byte == UInt8(ascii: "u") ? 4 : 2
            while digits.count < count, let digit = cursor.peek(), Self.isHexDigit(digit) {
                digits.append(Character(Unicode.Scalar(digit)))
                cursor.advance()
            }
            if braced, cursor.peek() == UInt8(ascii: "}") { cursor.advance() }
            guard let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) else {
                throw cursor.failure("an escape that names no character")
            }
            text += Array(String(Character(scalar)).utf8)
        default: text.append(byte)
        }
    }

    // MARK: - Skipping

    /// Spaces, line breaks and comments.
    private mutating func skipTrivia() throws(Failure) {
        while true {
            cursor.skipSpace()
            if cursor.starts(with: "//") {
                while let byte = cursor.peek(), byte != UInt8(ascii: "\n") { cursor.advance() }
            } else if cursor.starts(with: "/*") {
                let start = cursor.location
                cursor.advance(by: 2)
                while !cursor.starts(with: "*/") {
                    guard !cursor.atEnd else {
                        throw cursor.failure("the comment that starts at \(start) does not end")
                    }
                    cursor.advance()
                }
                cursor.advance(by: 2)
            } else {
                return
            }
        }
    }

    /// Past an expression: up to a `,`, `}`, `]` or `)` outside every bracket, string and
    /// comment it holds.
    private mutating func skipExpression() throws(Failure) {
        var open: [UInt8] = []
        while true {
            try skipTrivia()
            guard let byte = cursor.peek() else {
                guard open.isEmpty else { throw cursor.failure("the source ends inside an expression") }
                return
            }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"): _ = try string()
            case UInt8(ascii: "`"): try skipTemplate(depth: open.count)
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                guard open.count < maxDepth else {
                    throw cursor.failure(
                        "the config nests deeper than \(maxDepth) levels; flatten it, or raise the limit with --max-depth"
                    )
                }
                open.append(byte)
                cursor.advance()
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                guard !open.isEmpty else { return }
                open.removeLast()
                cursor.advance()
            case UInt8(ascii: ","):
                if open.isEmpty { return }
                cursor.advance()
            default: cursor.advance()
            }
        }
    }

    /// Past a template literal, its `${…}` expressions included.
    private mutating func skipTemplate(depth: Int) throws(Failure) {
        let start = cursor.location
        cursor.advance()
        while true {
            guard let byte = cursor.peek() else {
                throw cursor.failure("the template that starts at \(start) does not end")
            }
            cursor.advance()
            if byte == UInt8(ascii: "`") { return }
            if byte == UInt8(ascii: "\\") {
                if !cursor.atEnd { cursor.advance() }
            } else if byte == UInt8(ascii: "$"), cursor.peek() == UInt8(ascii: "{") {
                guard depth < maxDepth else {
                    throw cursor.failure(
                        "the config nests deeper than \(maxDepth) levels; flatten it, or raise the limit with --max-depth"
                    )
                }
                cursor.advance()
                try skipExpression()
                guard cursor.peek() == UInt8(ascii: "}") else {
                    throw cursor.failure("the template that starts at \(start) does not end")
                }
                cursor.advance()
            }
        }
    }

    /// Past `open` … `close`, nested (type arguments: `<Context, Event>`).
    private mutating func skipBalanced(open: Unicode.Scalar, close: Unicode.Scalar) throws(Failure) {
        var depth = 0
        while let byte = cursor.peek() {
            cursor.advance()
            if byte == UInt8(ascii: open) { depth += 1 }
            if byte == UInt8(ascii: close) {
                depth -= 1
                if depth == 0 { return }
            }
        }
        throw cursor.failure("the source ends inside '\(open)…\(close)'")
    }

    // MARK: - Characters

    private static func isQuote(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "`")
    }

    private static func startsIdentifier(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
    }

    private static func continuesIdentifier(_ byte: UInt8) -> Bool {
        startsIdentifier(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    /// Whether a value ends before `byte`.
    private static func endsValue(_ byte: UInt8) -> Bool {
        [UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ")")].contains(byte)
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    fileprivate var replacingUnderscores: String { String(filter { $0 != "_" }) }
}
