import Foundation

@testable import FlowSpecCore

// A small JSON Schema (draft 2020-12) validator for exactly the keywords
// `schema/flowspec.schema.json` uses, and the conversion of a spec's YAML into the JSON value
// an editor's YAML language server validates. Used by `SchemaTests`.

/// A JSON value. Numbers keep whether they were written as integers.
enum JSONValue: Sendable, Decodable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// The number, for numeric values.
    var number: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// Equality as JSON Schema defines it for `const`, `enum` and `uniqueItems`: numbers by
    /// mathematical value, objects regardless of key order.
    func isEqual(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isEqual(to: $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map { value.isEqual(to: $0) } ?? false }
        default:
            if let a = number, let b = other.number { return a == b }
            return false
        }
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .int(let value): "\(value)"
        case .double(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        case .array(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .object(let members):
            "{" + members.keys.sorted().map { "\"\($0)\": \(members[$0]!)" }.joined(separator: ", ") + "}"
        }
    }
}

/// One step of a path into a JSON value.
enum JSONPathComponent: Sendable, Hashable, CustomStringConvertible {
    case key(String)
    case index(Int)

    var description: String {
        switch self {
        case .key(let key): key
        case .index(let index): "\(index)"
        }
    }
}

/// A validation error. `key` is set when the error is about one key of an object (a key
/// `additionalProperties` or `propertyNames` forbids) rather than about the value at `path`.
/// `causes` are the errors of the subschemas a failing `oneOf`/`anyOf` tried.
struct SchemaError: Sendable, CustomStringConvertible {
    var path: [JSONPathComponent]
    var key: String?
    var message: String
    var causes: [SchemaError] = []

    /// This error and, depth first, every error it was caused by.
    var flattened: [SchemaError] {
        [self] + causes.flatMap(\.flattened)
    }

    var description: String {
        let location = "/" + (path + (key.map { [.key($0)] } ?? [])).map(\.description).joined(separator: "/")
        return "\(location): \(message)"
    }
}

/// Validates JSON values against a schema document written with the supported keywords.
struct JSONSchemaValidator {
    /// The keywords the validator implements. Annotations (`description`, `default`, …) have
    /// no effect on validation.
    static let supportedKeywords: Set<String> = [
        // Core and annotations.
        "$schema", "$comment", "$defs", "$ref", "title", "description", "default",
        // Any instance.
        "type", "const", "enum",
        // Strings and numbers.
        "pattern", "minLength", "minimum", "maximum",
        // Objects.
        "properties", "additionalProperties", "required", "propertyNames", "minProperties", "maxProperties",
        // Arrays.
        "items", "minItems", "uniqueItems",
        // Applicators.
        "oneOf", "anyOf", "not", "if", "then", "else"
    ]

    /// Keywords whose value is one subschema.
    static let subschemaKeywords: Set<String> = [
        "additionalProperties", "propertyNames", "items", "not", "if", "then", "else"
    ]
    /// Keywords whose value is an object of subschemas.
    static let subschemaMapKeywords: Set<String> = ["properties", "$defs"]
    /// Keywords whose value is an array of subschemas.
    static let subschemaListKeywords: Set<String> = ["oneOf", "anyOf"]

    let root: JSONValue
    private var patterns: [String: NSRegularExpression] = [:]

    /// Creates a validator for a schema document; fails on a pattern that does not compile.
    init(schema: JSONValue) throws {
        root = schema
        for pattern in Self.patterns(in: schema) where patterns[pattern] == nil {
            patterns[pattern] = try NSRegularExpression(pattern: pattern)
        }
    }

    /// Every problem that makes `schema` unusable by this validator: an unsupported keyword,
    /// a keyword value of the wrong shape, a `$ref` that does not resolve, a bad pattern.
    static func problems(in schema: JSONValue) -> [String] {
        var problems: [String] = []
        func check(_ schema: JSONValue, at location: String) {
            if case .bool = schema { return }
            guard case .object(let keywords) = schema else {
                problems.append("\(location): a schema must be an object or a boolean")
                return
            }
            for (keyword, value) in keywords.sorted(by: { $0.key < $1.key }) {
                let here = "\(location)/\(keyword)"
                guard supportedKeywords.contains(keyword) else {
                    problems.append("\(here): the keyword '\(keyword)' is not supported by the test's validator")
                    continue
                }
                switch (keyword, value) {
                case _ where subschemaKeywords.contains(keyword):
                    check(value, at: here)
                case (_, .object(let members)) where subschemaMapKeywords.contains(keyword):
                    for (name, subschema) in members { check(subschema, at: "\(here)/\(name)") }
                case (_, .array(let items)) where subschemaListKeywords.contains(keyword) && !items.isEmpty:
                    for (index, subschema) in items.enumerated() { check(subschema, at: "\(here)/\(index)") }
                case ("$ref", .string(let reference)):
                    if !reference.hasPrefix("#/") {
                        problems.append("\(here): only local references (`#/$defs/…`) are supported")
                    }
                case ("type", .string(let name)):
                    if !typeNames.contains(name) { problems.append("\(here): unknown type '\(name)'") }
                case ("type", .array(let names)):
                    for name in names {
                        if case .string(let text) = name, typeNames.contains(text) { continue }
                        problems.append("\(here): unknown type \(name)")
                    }
                case ("required", .array(let names)):
                    if !names.allSatisfy({ if case .string = $0 { true } else { false } }) {
                        problems.append("\(here): `required` lists strings")
                    }
                case ("enum", .array(let values)) where !values.isEmpty: break
                case ("pattern", .string(let pattern)):
                    if (try? NSRegularExpression(pattern: pattern)) == nil {
                        problems.append("\(here): the pattern does not compile")
                    }
                case ("minLength", .int(let n)), ("minProperties", .int(let n)), ("maxProperties", .int(let n)),
                    ("minItems", .int(let n)):
                    if n < 0 { problems.append("\(here): must not be negative") }
                case ("minimum", .int), ("minimum", .double), ("maximum", .int), ("maximum", .double): break
                case ("uniqueItems", .bool): break
                case ("$schema", .string), ("$comment", .string), ("title", .string), ("description", .string): break
                case ("const", _), ("default", _): break
                default:
                    problems.append("\(here): a value of the wrong shape for `\(keyword)`: \(value)")
                }
            }
        }
        check(schema, at: "#")
        // Every reference must resolve against the document's root.
        for reference in references(in: schema) where resolve(reference, in: schema) == nil {
            problems.append("the reference '\(reference)' does not resolve")
        }
        return problems
    }

    static let typeNames: Set<String> = ["null", "boolean", "object", "array", "number", "integer", "string"]

    /// Resolves a local reference (`#/$defs/name`, or any `#/…` JSON pointer).
    static func resolve(_ reference: String, in root: JSONValue) -> JSONValue? {
        guard reference.hasPrefix("#") else { return nil }
        var node = root
        for token in reference.dropFirst().split(separator: "/", omittingEmptySubsequences: true) {
            let name = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch node {
            case .object(let members):
                guard let next = members[name] else { return nil }
                node = next
            case .array(let items):
                guard let index = Int(name), items.indices.contains(index) else { return nil }
                node = items[index]
            default:
                return nil
            }
        }
        return node
    }

    /// Every value of `$ref` and `pattern` in a schema document.
    private static func references(in schema: JSONValue) -> [String] { strings(of: "$ref", in: schema) }
    private static func patterns(in schema: JSONValue) -> [String] { strings(of: "pattern", in: schema) }

    private static func strings(of keyword: String, in value: JSONValue) -> [String] {
        switch value {
        case .object(let members):
            var found: [String] = []
            if case .string(let text)? = members[keyword] { found.append(text) }
            for (key, member) in members where key != "const" && key != "enum" && key != "default" {
                found += strings(of: keyword, in: member)
            }
            return found
        case .array(let items):
            return items.flatMap { strings(of: keyword, in: $0) }
        default:
            return []
        }
    }

    /// Validates `instance` against the whole schema document.
    func validate(_ instance: JSONValue) -> [SchemaError] {
        validate(instance, against: root, at: [])
    }

    /// Validates `instance` (found at `path`) against one subschema.
    func validate(_ instance: JSONValue, against schema: JSONValue, at path: [JSONPathComponent]) -> [SchemaError] {
        let keywords: [String: JSONValue]
        switch schema {
        case .bool(true): return []
        case .bool(false): return [SchemaError(path: path, message: "no value is allowed here")]
        case .object(let members): keywords = members
        default: return [SchemaError(path: path, message: "the schema is not a schema: \(schema)")]
        }
        var errors: [SchemaError] = []
        func fail(_ message: String, key: String? = nil, causes: [SchemaError] = []) {
            errors.append(SchemaError(path: path, key: key, message: message, causes: causes))
        }

        if case .string(let reference)? = keywords["$ref"] {
            if let target = Self.resolve(reference, in: root) {
                errors += validate(instance, against: target, at: path)
            } else {
                fail("unresolved reference \(reference)")
            }
        }
        if let type = keywords["type"] {
            let names: [String]
            switch type {
            case .string(let name): names = [name]
            case .array(let items): names = items.compactMap { if case .string(let name) = $0 { name } else { nil } }
            default: names = []
            }
            if !names.contains(where: { Self.instance(instance, hasType: $0) }) {
                fail("expected \(names.joined(separator: " or ")), found \(instance)")
            }
        }
        if let value = keywords["const"], !instance.isEqual(to: value) {
            fail("expected \(value), found \(instance)")
        }
        if case .array(let values)? = keywords["enum"], !values.contains(where: { instance.isEqual(to: $0) }) {
            fail("expected one of \(values.map(\.description).joined(separator: ", ")), found \(instance)")
        }

        if case .string(let text) = instance {
            if case .string(let pattern)? = keywords["pattern"], let regex = patterns[pattern] {
                let range = NSRange(text.startIndex..., in: text)
                if regex.firstMatch(in: text, range: range) == nil {
                    fail("\(instance) does not match \(pattern)")
                }
            }
            if case .int(let minimum)? = keywords["minLength"], text.unicodeScalars.count < minimum {
                fail("\(instance) is shorter than \(minimum) characters")
            }
        }

        if let number = instance.number {
            if let minimum = keywords["minimum"]?.number, number < minimum {
                fail("\(instance) is less than \(minimum)")
            }
            if let maximum = keywords["maximum"]?.number, number > maximum {
                fail("\(instance) is greater than \(maximum)")
            }
        }

        if case .object(let members) = instance {
            if case .array(let required)? = keywords["required"] {
                for case .string(let name) in required where members[name] == nil {
                    fail("the required key '\(name)' is missing")
                }
            }
            var properties: [String: JSONValue] = [:]
            if case .object(let declared)? = keywords["properties"] { properties = declared }
            for (name, value) in members.sorted(by: { $0.key < $1.key }) {
                if let subschema = properties[name] {
                    errors += validate(value, against: subschema, at: path + [.key(name)])
                } else if let additional = keywords["additionalProperties"] {
                    if case .bool(false) = additional {
                        let allowed = properties.keys.sorted().joined(separator: ", ")
                        fail("the key '\(name)' is not allowed here (allowed: \(allowed))", key: name)
                    } else {
                        errors += validate(value, against: additional, at: path + [.key(name)])
                    }
                }
                if let names = keywords["propertyNames"] {
                    let problems = validate(.string(name), against: names, at: path + [.key(name)])
                    if !problems.isEmpty {
                        fail("the key '\(name)' is not a valid name", key: name, causes: problems)
                    }
                }
            }
            if case .int(let minimum)? = keywords["minProperties"], members.count < minimum {
                fail("has \(members.count) keys, fewer than \(minimum)")
            }
            if case .int(let maximum)? = keywords["maxProperties"], members.count > maximum {
                fail("has \(members.count) keys, more than \(maximum)")
            }
        }

        if case .array(let items) = instance {
            if let itemSchema = keywords["items"] {
                for (index, item) in items.enumerated() {
                    errors += validate(item, against: itemSchema, at: path + [.index(index)])
                }
            }
            if case .int(let minimum)? = keywords["minItems"], items.count < minimum {
                fail("has \(items.count) items, fewer than \(minimum)")
            }
            if case .bool(true)? = keywords["uniqueItems"] {
                // Reported at the repeated item, where flowspec reports a name listed twice.
                for (index, item) in items.enumerated()
                where items[..<index].contains(where: { $0.isEqual(to: item) }) {
                    errors.append(SchemaError(path: path + [.index(index)], message: "\(item) is listed twice"))
                }
            }
        }

        if case .array(let branches)? = keywords["oneOf"] {
            let results = branches.map { validate(instance, against: $0, at: path) }
            let matches = results.filter(\.isEmpty).count
            if matches == 0 {
                fail("matches none of the \(branches.count) alternatives", causes: results.flatMap { $0 })
            } else if matches > 1 {
                fail("matches \(matches) of the alternatives; `oneOf` needs exactly one")
            }
        }
        if case .array(let branches)? = keywords["anyOf"] {
            let results = branches.map { validate(instance, against: $0, at: path) }
            if !results.contains(where: \.isEmpty) {
                fail("matches none of the \(branches.count) alternatives", causes: results.flatMap { $0 })
            }
        }
        if let negated = keywords["not"], validate(instance, against: negated, at: path).isEmpty {
            fail("matches a schema it must not match: \(negated)")
        }
        if let condition = keywords["if"] {
            if validate(instance, against: condition, at: path).isEmpty {
                if let then = keywords["then"] { errors += validate(instance, against: then, at: path) }
            } else if let otherwise = keywords["else"] {
                errors += validate(instance, against: otherwise, at: path)
            }
        }
        return errors
    }

    static func instance(_ instance: JSONValue, hasType type: String) -> Bool {
        switch (type, instance) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object),
            ("number", .int), ("number", .double), ("integer", .int):
            return true
        case ("integer", .double(let value)):
            // JSON Schema: a number with a zero fractional part is an integer.
            return value.isFinite && value.rounded(.towardZero) == value
        default:
            return false
        }
    }
}

/// A spec's YAML as the JSON value a YAML language server validates, read with flowspec's own
/// reader and the YAML 1.2 core schema (so `on:` is the string key "on").
struct SpecJSON: Sendable {
    let document: YAMLDocument
    let value: JSONValue

    init(document: YAMLDocument) {
        self.document = document
        value = document.root.map { Self.convert($0, in: document) } ?? .null
    }

    /// A mapping key as an object key: the scalar's text, as an editor sees it (`true`, `42`
    /// and `"true"` all become the key "true").
    static func keyText(_ id: YAMLDocument.NodeID, in document: YAMLDocument) -> String {
        let node = document[id]
        return node.kind == .scalar ? node.text : "<\(node.kind) key>"
    }

    static func convert(_ id: YAMLDocument.NodeID, in document: YAMLDocument) -> JSONValue {
        let node = document[id]
        switch node.kind {
        case .scalar:
            switch node.scalarValue {
            case .null: return .null
            case .bool(let value): return .bool(value)
            case .int(let value): return .int(value)
            case .bigInt(let text): return .double(bigIntValue(text))
            case .float(let value): return .double(value)
            case .string(let text): return .string(text)
            }
        case .taken:
            return .null  // only a reader given a subtree taker leaves these; this one has none
        case .sequence:
            return .array(document.children(of: id).map { convert($0, in: document) })
        case .mapping:
            var members: [String: JSONValue] = [:]
            for (key, value) in document.pairs(of: id) {
                let name = keyText(key, in: document)
                if members[name] == nil { members[name] = convert(value, in: document) }
            }
            return .object(members)
        }
    }

    /// The value of an integer too large for `Int` (`99999999999999999999`, `0x1FFFFFFFFFFFFFFFF`).
    static func bigIntValue(_ text: String) -> Double {
        var digits = Substring(text)
        var sign = 1.0
        if let first = digits.first, first == "-" || first == "+" {
            sign = first == "-" ? -1 : 1
            digits = digits.dropFirst()
        }
        var base = 10.0
        if digits.hasPrefix("0x") {
            base = 16
            digits = digits.dropFirst(2)
        } else if digits.hasPrefix("0o") {
            base = 8
            digits = digits.dropFirst(2)
        }
        return sign * digits.reduce(0.0) { $0 * base + Double($1.hexDigitValue ?? 0) }
    }

    /// The YAML node at a path, and the key it is the value of (if any).
    func node(at path: [JSONPathComponent]) -> (node: YAMLDocument.NodeID, key: YAMLDocument.NodeID?)? {
        guard var current = document.root else { return nil }
        var key: YAMLDocument.NodeID?
        for component in path {
            let node = document[current]
            switch (component, node.kind) {
            case (.key(let name), .mapping):
                guard
                    let pair = document.pairs(of: current).first(where: { Self.keyText($0.key, in: document) == name })
                else { return nil }
                (key, current) = (pair.key, pair.value)
            case (.index(let index), .sequence):
                let children = document.children(of: current)
                guard index < children.count else { return nil }
                (key, current) = (nil, children[children.startIndex + index])
            default:
                return nil
            }
        }
        return (current, key)
    }

    /// The places in the YAML an error is about: the key for an error about a key; otherwise
    /// the value and the key it belongs to (flowspec reports a missing key at the owner's name).
    func locations(of error: SchemaError) -> Set<SourceLocation> {
        if let key = error.key {
            guard let found = node(at: error.path + [.key(key)]), let keyNode = found.key else { return [] }
            return [document[keyNode].location]
        }
        guard let found = node(at: error.path) else {
            return error.path.isEmpty ? [.start] : []
        }
        var result: Set<SourceLocation> = [document[found.node].location]
        if let keyNode = found.key { result.insert(document[keyNode].location) }
        return result
    }
}
