/// A JSON value, printed byte for byte as Foundation's `JSONEncoder` prints with
/// `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]`: two spaces an indent level,
/// `"key" : value`, keys in order, an empty array or object as an empty line between its
/// brackets, and only `"`, `\` and control characters escaped.
///
/// The JSON and SARIF outputs are printed with it rather than with `JSONEncoder`, so that their
/// findings are written to the output one by one (``lazyArray(count:item:)``) instead of being
/// encoded whole into memory first, and the core library needs no Foundation.
/// `JSONNodeTests` compares the two on every kind of value and every ASCII character.
enum JSONNode {
    case string(String)
    case int(Int)
    case bool(Bool)
    case array([JSONNode])
    /// An array of `count` items, each made by `item` when it is printed, so that a long array
    /// is never held whole.
    case lazyArray(count: Int, item: (Int) -> JSONNode)
    /// An object, its members printed in the order of their keys' bytes (an optional member
    /// that is absent is left out of the dictionary).
    case object([String: JSONNode])
    /// An object, its members printed in the order given (where the order means something, as
    /// the states of an exported machine do).
    case members([(key: String, value: JSONNode)])

    /// Prints the value as a document: the value and a newline.
    func writeDocument(to output: inout some TextOutputStream) {
        write(to: &output, indent: 0)
        output.write("\n")
    }

    /// Prints the value, its inner lines indented by `indent` more levels.
    func write(to output: inout some TextOutputStream, indent: Int) {
        switch self {
        case .string(let text):
            Self.writeString(text, to: &output)
        case .int(let value):
            output.write(String(value))
        case .bool(let value):
            output.write(value ? "true" : "false")
        case .array(let items):
            Self.writeItems(count: items.count, open: "[", close: "]", to: &output, indent: indent) { index, output in
                items[index].write(to: &output, indent: indent + 1)
            }
        case .lazyArray(let count, let item):
            Self.writeItems(count: count, open: "[", close: "]", to: &output, indent: indent) { index, output in
                item(index).write(to: &output, indent: indent + 1)
            }
        case .object(let members):
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            JSONNode.members(sorted.map { ($0.key, $0.value) }).write(to: &output, indent: indent)
        case .members(let members):
            Self.writeItems(count: members.count, open: "{", close: "}", to: &output, indent: indent) { index, output in
                Self.writeString(members[index].key, to: &output)
                output.write(" : ")
                members[index].value.write(to: &output, indent: indent + 1)
            }
        }
    }

    /// `open`, each item on a line of its own one level deeper, `close` on a line at `indent`.
    private static func writeItems<Output: TextOutputStream>(
        count: Int, open: String, close: String, to output: inout Output, indent: Int,
        item: (Int, inout Output) -> Void
    ) {
        output.write(open)
        output.write("\n")
        let inner = String(repeating: "  ", count: indent + 1)
        for index in 0..<count {
            if index > 0 { output.write(",\n") }
            output.write(inner)
            item(index, &output)
        }
        output.write("\n")
        output.write(String(repeating: "  ", count: indent))
        output.write(close)
    }

    /// A string in quotes, `"` and `\` escaped with a backslash, control characters as `\b`,
    /// `\t`, `\n`, `\f`, `\r` or `\u00XX`; everything else (`/`, DEL, all of Unicode) as is.
    static func writeString(_ text: String, to output: inout some TextOutputStream) {
        output.write("\"")
        if text.utf8.contains(where: needsEscape) {
            // Every byte to escape is ASCII, so the text is copied byte by byte around them.
            var escaped: [UInt8] = []
            escaped.reserveCapacity(text.utf8.count + 16)
            for byte in text.utf8 {
                guard needsEscape(byte) else {
                    escaped.append(byte)
                    continue
                }
                escaped.append(UInt8(ascii: "\\"))
                switch byte {
                case 0x08: escaped.append(UInt8(ascii: "b"))
                case 0x09: escaped.append(UInt8(ascii: "t"))
                case 0x0A: escaped.append(UInt8(ascii: "n"))
                case 0x0C: escaped.append(UInt8(ascii: "f"))
                case 0x0D: escaped.append(UInt8(ascii: "r"))
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): escaped.append(byte)
                default: escaped += Array("u00".utf8) + [hexDigit(byte >> 4), hexDigit(byte & 0xF)]
                }
            }
            output.write(String(decoding: escaped, as: UTF8.self))
        } else {
            output.write(text)
        }
        output.write("\"")
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
