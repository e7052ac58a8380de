/// The meaning of a scalar under the YAML 1.2 core schema.
///
/// Only `true` and `false` (in their three spellings) are booleans: `on`, `off`, `yes` and
/// `no` are strings. Quoted and block scalars are always strings.
public enum ScalarValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    /// An integer outside the range of `Int`, kept as written.
    case bigInt(String)
    case float(Double)
    case string(String)

    /// Resolves a scalar's text by the core schema, honouring an explicit tag.
    public static func resolve(_ text: String, style: YAMLNode.Style, tag: YAMLNode.Tag) -> ScalarValue {
        switch tag {
        case .string: return .string(text)
        case .null: return .null
        case .bool, .int, .float: return resolve(text, as: tag)
        case .none, .other: break
        }
        guard style == .plain else { return .string(text) }
        return resolvePlain(text)
    }

    /// Resolves a scalar tagged `!!bool`, `!!int` or `!!float` by the core schema's rules for
    /// that type, whatever its style; text that is not such a value stays a string (and is
    /// reported where a value of another type is expected).
    private static func resolve(_ text: String, as tag: YAMLNode.Tag) -> ScalarValue {
        let value = resolvePlain(text)
        switch (tag, value) {
        case (.bool, .bool), (.int, .int), (.int, .bigInt), (.float, .float): return value
        case (.float, .int(let whole)): return .float(Double(whole))
        default: return .string(text)
        }
    }

    /// Resolves a plain (unquoted) scalar.
    static func resolvePlain(_ text: String) -> ScalarValue {
        guard let first = text.utf8.first else { return .null }
        // The special words are at most five bytes long.
        if text.utf8.count <= 5, let special = resolveWord(text) { return special }
        guard
            first == UInt8(ascii: "-") || first == UInt8(ascii: "+")
                || first == UInt8(ascii: ".") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9"))
        else { return .string(text) }
        if let number = integer(text) { return number }
        if isFloat(text), let value = Double(text) { return .float(value) }
        return .string(text)
    }

    /// Whether a plain scalar is one of the core schema's null, boolean, infinity or
    /// not-a-number spellings (`null`, `True`, `.nan`).
    static func isSpecialWord(_ text: String) -> Bool {
        resolveWord(text) != nil
    }

    /// The core schema's null, boolean, infinity and not-a-number spellings. The first byte
    /// and the byte count pick the candidates: each spelling is ASCII without a `K`, `;` or
    /// backtick (the only ASCII with equivalents outside ASCII), so only its own bytes equal
    /// it. Comparing short strings is then a comparison of their inline bytes.
    private static func resolveWord(_ text: String) -> ScalarValue? {
        let count = text.utf8.count
        switch text.utf8.first {
        case nil: return .null
        case UInt8(ascii: "~"): return count == 1 ? .null : nil
        case UInt8(ascii: "n"), UInt8(ascii: "N"):
            return count == 4 && (text == "null" || text == "Null" || text == "NULL") ? .null : nil
        case UInt8(ascii: "t"), UInt8(ascii: "T"):
            return count == 4 && (text == "true" || text == "True" || text == "TRUE") ? .bool(true) : nil
        case UInt8(ascii: "f"), UInt8(ascii: "F"):
            return count == 5 && (text == "false" || text == "False" || text == "FALSE") ? .bool(false) : nil
        case UInt8(ascii: "."):
            guard count == 4 else { return nil }
            if text == ".inf" || text == ".Inf" || text == ".INF" { return .float(.infinity) }
            return text == ".nan" || text == ".NaN" || text == ".NAN" ? .float(.nan) : nil
        case UInt8(ascii: "+"):
            return count == 5 && (text == "+.inf" || text == "+.Inf" || text == "+.INF") ? .float(.infinity) : nil
        case UInt8(ascii: "-"):
            return count == 5 && (text == "-.inf" || text == "-.Inf" || text == "-.INF") ? .float(-.infinity) : nil
        default: return nil
        }
    }

    // The UTF-8 views are read in place: a copy into an array would allocate for every number.
    private static func integer(_ text: String) -> ScalarValue? {
        let bytes = text.utf8
        if bytes.count > 2, bytes.first == UInt8(ascii: "0") {
            let second = bytes[bytes.index(after: bytes.startIndex)]
            if second == UInt8(ascii: "o") {
                return radix(bytes.dropFirst(2), 8, text)
            }
            if second == UInt8(ascii: "x") {
                return radix(bytes.dropFirst(2), 16, text)
            }
        }
        var digits = bytes[...]
        if let sign = digits.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return Int(text).map(ScalarValue.int) ?? .bigInt(text)
    }

    /// `0o[0-7]+` or `0x[0-9a-fA-F]+`: digits only (`Int(_:radix:)` would also take a sign).
    private static func radix(_ digits: Substring.UTF8View, _ base: Int, _ text: String) -> ScalarValue? {
        guard digits.allSatisfy({ Character(UnicodeScalar($0)).hexDigitValue.map { $0 < base } ?? false })
        else { return nil }
        return Int(String(decoding: digits, as: UTF8.self), radix: base).map(ScalarValue.int) ?? .bigInt(text)
    }

    /// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`
    private static func isFloat(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        func digits() -> Int {
            let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            bytes = bytes.dropFirst()
        }
        let whole = digits()
        var fraction = 0
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            fraction = digits()
            if whole == 0 && fraction == 0 { return false }
        } else if whole == 0 {
            return false
        }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                bytes = bytes.dropFirst()
            }
            if digits() == 0 { return false }
        }
        return bytes.isEmpty
    }

    /// A short description for messages, such as `the integer 3` or `a null value`. A long
    /// string or number is quoted by its start only: a finding shows where the value is, and
    /// a message never carries a whole file that was read as one string.
    public var description: String {
        switch self {
        case .null: "an empty (null) value"
        case .bool(let value): "the boolean \(value)"
        case .int(let value): "the integer \(value)"
        case .bigInt(let text): "the integer \(Self.excerpt(text))"
        case .float(let value): "the number \(value)"
        case .string(let text): "the string '\(Self.excerpt(text))'"
        }
    }

    /// The most characters of a value a message quotes.
    static let excerptLength = 40

    /// `text`, or its first ``excerptLength`` characters followed by `…` and how long it is.
    static func excerpt(_ text: String) -> String {
        var count = 0
        var end = text.startIndex
        while end < text.endIndex, count < excerptLength {
            text.formIndex(after: &end)
            count += 1
        }
        guard end < text.endIndex else { return text }
        return "\(text[..<end])… (\(text.count) characters)"
    }
}
