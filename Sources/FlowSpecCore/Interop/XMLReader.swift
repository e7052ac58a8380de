/// Reads an XML document into an ``XMLElement`` tree: elements, attributes, namespaces,
/// character data, CDATA sections, comments and processing instructions, with the five
/// predefined entities and character references.
///
/// It reads no DTD: a `<!DOCTYPE` is refused, so no entity can be declared, and no document
/// can expand without bound (the "billion laughs"). The tree is built with an explicit stack,
/// its depth held to ``YAMLLimits/maxDepth``, and each name, attribute value and run of text
/// to ``YAMLLimits/maxScalarLength`` bytes (refused before it is copied, so a hostile document
/// cannot make the reader, or the spec written from it, that large); the bytes must be UTF-8.
/// Each error says where it is, what is wrong and what to do.
struct XMLReader {
    typealias Failure = TextCursor.Failure

    private var cursor: TextCursor
    private let maxDepth: Int
    /// The most bytes a name, an attribute value or a run of text may hold.
    private let maxScalarLength: Int
    /// Names and attribute values, once each: a document repeats them element after element
    /// (`{http://www.w3.org/2005/07/scxml}transition`, a timer's event in four places).
    private var strings = SharedStrings()

    /// Reads the document in `bytes`.
    static func read(
        _ bytes: [UInt8], maxDepth: Int = YAMLLimits().maxDepth, maxScalarLength: Int = YAMLLimits().maxScalarLength
    ) throws(Failure) -> XMLElement {
        var reader = XMLReader(
            cursor: try TextCursor(bytes, forbiddingControlCharactersOf: "XML"), maxDepth: maxDepth,
            maxScalarLength: maxScalarLength)
        return try reader.document()
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

    /// The failure for `what` (`an attribute value`), `length` bytes long, over the limit.
    private func tooLong(_ what: String, _ length: Int, at location: SourceLocation) -> Failure {
        failure(
            "\(what) of \(length) bytes is over the limit of \(maxScalarLength) bytes (raise it with --max-scalar-length)",
            at: location)
    }

    /// Whether a byte may be part of a name: ASCII letters, digits, `_ - . :`, and every byte of
    /// a character beyond ASCII.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: ":"), 0x80...0xFF:
            true
        default: false
        }
    }

    // MARK: - The document

    private mutating func document() throws(Failure) -> XMLElement {
        if cursor.starts(with: "\u{FEFF}") { cursor.advance(by: 3) }
        var root: XMLElement?
        // The open elements, outermost first, with the namespace prefixes each declares.
        var open: [(element: XMLElement, prefixes: [String: String], written: String)] = []
        while true {
            if cursor.atEnd {
                if let innermost = open.last {
                    throw failure(
                        "the document ends inside <\(innermost.written)> (opened at \(innermost.element.location)); close it with </\(innermost.written)>"
                    )
                }
                guard let root else { throw failure("the document holds no element") }
                return root
            }
            if open.isEmpty {
                cursor.skipSpace()
                if cursor.atEnd { continue }
                guard cursor.peek() == UInt8(ascii: "<") else {
                    throw failure(
                        root == nil
                            ? "expected '<' to start the document's element" : "text after the document's element")
                }
            }
            if cursor.peek() != UInt8(ascii: "<") {
                let text = try characterData()
                if !text.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }) {
                    open[open.count - 1].element.children.append(.text(text))
                }
                continue
            }
            if cursor.starts(with: "<?") {
                try skip(past: "?>", what: "a processing instruction")
            } else if cursor.starts(with: "<!--") {
                try skip(past: "-->", what: "a comment")
            } else if cursor.starts(with: "<![CDATA[") {
                guard !open.isEmpty else { throw failure("a CDATA section outside the document's element") }
                let start = cursor.position + 9
                let at = location
                try skip(past: "]]>", what: "a CDATA section")
                if cursor.position - 3 - start > maxScalarLength {
                    throw tooLong("a CDATA section", cursor.position - 3 - start, at: at)
                }
                open[open.count - 1].element.children.append(
                    .text(String(decoding: cursor.bytes[start..<cursor.position - 3], as: UTF8.self)))
            } else if cursor.starts(with: "<!DOCTYPE") {
                throw failure(
                    "a document type declaration (DTD) is not read: it could declare entities that expand without bound; remove the <!DOCTYPE …>"
                )
            } else if cursor.starts(with: "<!") {
                throw failure("'<!' starts only a comment or a CDATA section here")
            } else if cursor.peek(1) == UInt8(ascii: "/") {
                let closed = try endTag(closing: open.last?.written)
                var finished = open.removeLast()
                finished.element.name = try resolved(
                    finished.written, isElement: true, open.map(\.prefixes) + [finished.prefixes],
                    at: finished.element.location)
                if open.isEmpty {
                    root = finished.element
                } else {
                    open[open.count - 1].element.children.append(.element(finished.element))
                }
                _ = closed
            } else {
                guard root == nil || !open.isEmpty else {
                    throw failure("a second element after the document's element")
                }
                guard open.count < maxDepth else {
                    throw failure("elements nest more than \(maxDepth) deep; flowspec reads at most that (--max-depth)")
                }
                let (element, written, prefixes, selfClosing) = try startTag(scopes: open.map(\.prefixes))
                if selfClosing {
                    if open.isEmpty {
                        root = element
                    } else {
                        open[open.count - 1].element.children.append(.element(element))
                    }
                } else {
                    open.append((element, prefixes, written))
                }
            }
        }
    }

    private mutating func skip(past end: StaticString, what: String) throws(Failure) {
        let start = location
        while !cursor.atEnd {
            if cursor.starts(with: end) {
                cursor.advance(by: end.utf8CodeUnitCount)
                return
            }
            cursor.advance()
        }
        throw failure("\(what) that is never closed (with '\(end)')", at: start)
    }

    private mutating func name(_ what: String) throws(Failure) -> String {
        let start = cursor.position
        let at = location
        while let byte = cursor.peek(), Self.isNameByte(byte) { cursor.advance() }
        guard cursor.position > start else { throw failure("expected \(what)") }
        if cursor.position - start > maxScalarLength { throw tooLong("a name", cursor.position - start, at: at) }
        return String(decoding: cursor.bytes[start..<cursor.position], as: UTF8.self)
    }

    /// `<name attributes…>` or `<name …/>`: the element (its name resolved, unless it stays
    /// open), its name as written, the prefixes it declares, and whether it closes itself.
    private mutating func startTag(
        scopes: [[String: String]]
    ) throws(Failure) -> (XMLElement, String, [String: String], Bool) {
        let start = location
        cursor.advance()
        let written = try name("an element name after '<'")
        var element = XMLElement(written)
        element.location = start
        var raw: [(name: String, value: String, at: SourceLocation)] = []
        // The names so far, for the check that none is written twice: a set, since an element
        // may hold any number of attributes.
        var seen: Set<String> = []
        var prefixes: [String: String] = [:]
        while true {
            let hadSpace = cursor.peek().map(TextCursor.isSpace) ?? false
            cursor.skipSpace()
            guard let byte = cursor.peek() else {
                throw failure("the tag <\(written)> is never closed with '>'", at: start)
            }
            if byte == UInt8(ascii: ">") {
                cursor.advance()
                break
            }
            if byte == UInt8(ascii: "/") {
                cursor.advance()
                guard cursor.peek() == UInt8(ascii: ">") else {
                    throw failure("expected '>' after '/' in <\(written)>")
                }
                cursor.advance()
                (element.attributes, element.attributeLocations) = try resolvedAttributes(raw, scopes + [prefixes])
                element.name = try resolved(written, isElement: true, scopes + [prefixes], at: start)
                return (element, written, prefixes, true)
            }
            guard hadSpace else { throw failure("expected a space before the next attribute of <\(written)>") }
            let at = location
            let attribute = try name("an attribute name in <\(written)>")
            cursor.skipSpace()
            guard cursor.peek() == UInt8(ascii: "=") else {
                throw failure("expected '=' after the attribute '\(attribute)'")
            }
            cursor.advance()
            cursor.skipSpace()
            let value = try attributeValue(attribute)
            guard seen.insert(attribute).inserted else {
                throw failure("<\(written)> has the attribute '\(attribute)' twice; keep one", at: at)
            }
            if attribute == "xmlns" {
                prefixes[""] = value
            } else if attribute.hasPrefix("xmlns:") {
                prefixes[String(attribute.dropFirst(6))] = value
            }
            raw.append((attribute, value, at))
        }
        (element.attributes, element.attributeLocations) = try resolvedAttributes(raw, scopes + [prefixes])
        return (element, written, prefixes, false)
    }

    private mutating func attributeValue(_ attribute: String) throws(Failure) -> String {
        guard let quote = cursor.peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw failure("the value of '\(attribute)' must be in quotes")
        }
        let start = location
        cursor.advance()
        var value: [UInt8] = []
        // Past the limit, the value is only counted, so that the failure can say how long it is.
        var length = 0
        while let byte = cursor.peek() {
            if byte == quote {
                cursor.advance()
                guard length <= maxScalarLength else { throw tooLong("an attribute value", length, at: start) }
                return String(decoding: value, as: UTF8.self)
            }
            if byte == UInt8(ascii: "<") { throw failure("'<' in the value of '\(attribute)'; write it as &lt;") }
            if byte == UInt8(ascii: "&") {
                let character = try reference()
                length += character.count
                if length <= maxScalarLength { value += character }
                continue
            }
            length += 1
            // Attribute values normalise white space to spaces (XML 1.0, 3.3.3).
            if length <= maxScalarLength { value.append(TextCursor.isSpace(byte) ? 0x20 : byte) }
            cursor.advance()
        }
        throw failure("the value of '\(attribute)' is never closed", at: start)
    }

    /// `&name;` or `&#N;`: the five predefined entities and character references.
    private mutating func reference() throws(Failure) -> [UInt8] {
        let start = location
        cursor.advance()
        if cursor.peek() == UInt8(ascii: "#") { return try characterReference(at: start) }
        var text: [UInt8] = []
        while let byte = cursor.peek(), byte != UInt8(ascii: ";"), text.count < 12 {
            text.append(byte)
            cursor.advance()
        }
        guard cursor.peek() == UInt8(ascii: ";") else {
            throw failure(
                "'&' starts an entity reference that does not end with ';'; write a plain '&' as &amp;", at: start)
        }
        cursor.advance()
        let name = String(decoding: text, as: UTF8.self)
        switch name {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            throw failure(
                "unknown entity '&\(name);': only &lt; &gt; &amp; &quot; &apos; and character references are read",
                at: start)
        }
    }

    /// `&#N;` or `&#xH;`, from its `#`. XML allows any number of digits (leading zeros too), so
    /// the value is read digit by digit, held at the first value past U+10FFFF rather than
    /// overflowing; the message quotes at most the first 16 digits.
    private mutating func characterReference(at start: SourceLocation) throws(Failure) -> [UInt8] {
        cursor.advance()
        let hexadecimal = cursor.peek() == UInt8(ascii: "x") || cursor.peek() == UInt8(ascii: "X")
        if hexadecimal { cursor.advance() }
        var value: UInt32 = 0
        var digits: [UInt8] = []
        var count = 0
        while let byte = cursor.peek() {
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where hexadecimal: digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where hexadecimal: digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: digit = UInt32.max
            }
            guard digit != UInt32.max else { break }
            // 0x110000 × 16 + 15 fits a UInt32, so holding the value at 0x110000 never overflows.
            value = min(value * (hexadecimal ? 16 : 10) + digit, 0x11_0000)
            if count < 16 { digits.append(byte) }
            count += 1
            cursor.advance()
        }
        let written =
            "&#" + (hexadecimal ? "x" : "") + String(decoding: digits, as: UTF8.self) + (count > 16 ? "…" : "")
        guard count > 0 else {
            throw failure(
                "the character reference '\(written)' has no \(hexadecimal ? "hexadecimal " : "")digits; write a plain '&' as &amp;",
                at: start)
        }
        guard cursor.peek() == UInt8(ascii: ";") else {
            throw failure(
                "the character reference '\(written)' does not end with ';' after its digits; end it with ';'",
                at: start)
        }
        cursor.advance()
        guard let scalar = Unicode.Scalar(value) else {
            throw failure(
                "the character reference '\(written);' is not a Unicode scalar value (at most U+10FFFF, and no surrogate)",
                at: start)
        }
        guard scalar.value >= 0x20 || [0x09, 0x0A, 0x0D].contains(scalar.value) else {
            throw failure("'\(written);' is no character XML allows", at: start)
        }
        return Array(String(scalar).utf8)
    }

    /// Text up to the next `<`, with its references replaced.
    private mutating func characterData() throws(Failure) -> String {
        let start = location
        var text: [UInt8] = []
        var length = 0
        while let byte = cursor.peek(), byte != UInt8(ascii: "<") {
            if byte == UInt8(ascii: "&") {
                let character = try reference()
                length += character.count
                if length <= maxScalarLength { text += character }
                continue
            }
            length += 1
            if length <= maxScalarLength { text.append(byte) }
            cursor.advance()
        }
        guard length <= maxScalarLength else { throw tooLong("text", length, at: start) }
        return String(decoding: text, as: UTF8.self)
    }

    /// `</name>`, which must close the element open.
    private mutating func endTag(closing open: String?) throws(Failure) -> String {
        let start = location
        cursor.advance(by: 2)
        let written = try name("an element name after '</'")
        cursor.skipSpace()
        guard cursor.peek() == UInt8(ascii: ">") else { throw failure("expected '>' to end </\(written)>") }
        cursor.advance()
        guard let open else { throw failure("</\(written)> closes no open element", at: start) }
        guard open == written else {
            throw failure("</\(written)> where <\(open)> should be closed; close <\(open)> first", at: start)
        }
        return written
    }

    // MARK: - Namespaces

    /// A name with its prefix resolved: `{URI}local`, or `local` in no namespace (an
    /// attribute without a prefix is in none; an element, in the default namespace).
    private mutating func resolved(
        _ written: String, isElement: Bool, _ scopes: [[String: String]], at location: SourceLocation
    ) throws(Failure) -> String {
        strings.shared(try resolvedName(written, isElement: isElement, scopes, at: location))
    }

    private func resolvedName(
        _ written: String, isElement: Bool, _ scopes: [[String: String]], at location: SourceLocation
    ) throws(Failure) -> String {
        let parts = written.split(separator: ":", maxSplits: 1)
        let prefix = parts.count == 2 ? String(parts[0]) : ""
        let local = parts.count == 2 ? String(parts[1]) : written
        if prefix.isEmpty && !isElement { return local }
        if prefix == "xml" { return "{http://www.w3.org/XML/1998/namespace}" + local }
        for scope in scopes.reversed() {
            if let uri = scope[prefix] { return uri.isEmpty ? local : "{" + uri + "}" + local }
        }
        guard prefix.isEmpty else {
            throw failure(
                "the prefix '\(prefix)' of '\(written)' is not declared; add xmlns:\(prefix)=\"…\"", at: location)
        }
        return local
    }

    private mutating func resolvedAttributes(
        _ raw: [(name: String, value: String, at: SourceLocation)], _ scopes: [[String: String]]
    ) throws(Failure) -> ([(name: String, value: String)], [SourceLocation]) {
        var attributes: [(name: String, value: String)] = []
        var locations: [SourceLocation] = []
        attributes.reserveCapacity(raw.count)
        locations.reserveCapacity(raw.count)
        for attribute in raw where attribute.name != "xmlns" && !attribute.name.hasPrefix("xmlns:") {
            attributes.append(
                (
                    try resolved(attribute.name, isElement: false, scopes, at: attribute.at),
                    strings.shared(attribute.value)
                ))
            locations.append(attribute.at)
        }
        return (attributes, locations)
    }
}

/// One copy of each string a reader reads again and again, so that the tree it builds shares
/// one instead of holding one per use. A string of up to 15 bytes is held in the `String`
/// itself: sharing it would only cost the table's space.
struct SharedStrings {
    private var table: [String: String] = [:]

    /// `string`, or the copy read before that is equal to it.
    mutating func shared(_ string: String) -> String {
        guard string.utf8.count > 15 else { return string }
        if let kept = table[string] { return kept }
        table[string] = string
        return string
    }
}
