/// Reads typed values out of YAML nodes for the spec decoder, reporting each wrong key,
/// type or value as a located finding and carrying on.
struct NodeReader {
    let document: YAMLDocument
    /// Where findings go.
    let diagnostics: DiagnosticCollector
    /// The states decoded while the document was read, for its ``YAMLNode/Kind/taken`` nodes.
    var streamedStates: StreamedStates?
    /// The limits on states and transitions.
    var limits = YAMLLimits()
    /// The machine being decoded, attached to findings.
    var machine: String?
    /// The names of the machine being decoded that its transitions use.
    var nameTable = NameTable()
    /// The event transitions of the machine's states decoded so far.
    var transitionStore = TransitionStore()
    /// Set by the decoders when something that would have been an edge or a bound of the
    /// state graph could not be read (see ``StateSpec/hasLostTransitions``).
    var lostTransitions = false
    /// Whether anything was reported in the part being read (see ``readingPart(_:)``).
    private(set) var partHasFindings = false

    /// The keys of one mapping, checked against the keys its context allows.
    struct Fields {
        var entries: [(key: Located<String>, value: YAMLDocument.NodeID)] = []

        /// The value node of a key, if present.
        subscript(key: String) -> YAMLDocument.NodeID? {
            entries.first { NodeReader.isSame($0.key.value, key) }?.value
        }

        /// The located key, if present.
        func key(_ key: String) -> Located<String>? {
            entries.first { NodeReader.isSame($0.key.value, key) }?.key
        }
    }

    /// Whether two keys are the same text. Keys of one mapping mostly differ in length, which
    /// a `String` knows without reading its bytes: most comparisons end there, where `==` of
    /// two different short strings is a call into the standard library.
    @inline(__always)
    static func isSame(_ text: String, _ other: String) -> Bool {
        text.utf8.count == other.utf8.count && text == other
    }

    mutating func report(
        _ rule: Rule, _ message: String, at location: SourceLocation,
        subjects: [String] = [], notes: [Diagnostic.Note] = [], fix: Diagnostic.Fix? = nil
    ) {
        partHasFindings = true
        diagnostics.report(rule, message, at: location, machine: machine, subjects: subjects, notes: notes, fix: fix)
    }

    /// Reads one part of the spec (a state) with `read`, and says whether the part is
    /// malformed: whether anything in it was reported.
    mutating func readingPart<Value>(_ read: (inout NodeReader) -> Value) -> (value: Value, malformed: Bool) {
        let outer = partHasFindings
        partHasFindings = false
        let value = read(&self)
        let malformed = partHasFindings
        partHasFindings = outer || malformed
        return (value, malformed)
    }

    func location(_ id: YAMLDocument.NodeID) -> SourceLocation { document[id].location }

    /// Describes a node for messages: `a mapping`, `a list`, `the integer 3`.
    func describe(_ id: YAMLDocument.NodeID) -> String {
        let node = document[id]
        switch node.kind {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .taken: return "a state"
        case .scalar: return node.scalarValue.description
        }
    }

    /// Reads a mapping whose keys must be among `allowed`; unknown keys are reported with
    /// a suggestion. Returns `nil` (after reporting) if the node is not a mapping.
    mutating func fields(_ id: YAMLDocument.NodeID, of what: @autoclosure () -> String, allowed: [String]) -> Fields? {
        guard var entries = namedEntries(id, of: what()) else { return nil }
        // The entries are kept as they are unless a key is unknown (one array, not two).
        var kept = 0
        for index in entries.indices {
            if allowed.contains(where: { Self.isSame($0, entries[index].key.value) }) {
                if kept != index { entries[kept] = entries[index] }
                kept += 1
            } else {
                let key = entries[index].key
                let meant = Suggestion.closest(to: key.value, among: allowed)
                report(
                    .unknownKey,
                    UnknownKeyRule.unknownKey(key.value, of: what(), hint: Suggestion.didYouMean(meant)),
                    at: key.location, subjects: [key.value], notes: [.init(UnknownKeyRule.allowedKeysNote(allowed))],
                    fix: meant.map { .replace(with: $0) })
            }
        }
        entries.removeLast(entries.count - kept)
        return Fields(entries: entries)
    }

    /// Reads a mapping whose keys are names (states, events, sequences). Non-string keys
    /// are reported and skipped. Returns `nil` (after reporting) if the node is not a mapping.
    mutating func namedEntries(_ id: YAMLDocument.NodeID, of what: @autoclosure () -> String)
        -> [(key: Located<String>, value: YAMLDocument.NodeID)]?
    {
        guard let children = mappingChildren(id, of: what()) else { return nil }
        var result: [(key: Located<String>, value: YAMLDocument.NodeID)] = []
        result.reserveCapacity(children.count / 2)
        for index in stride(from: children.startIndex, to: children.endIndex - 1, by: 2) {
            if let name = entryName(children[index], in: what()) {
                result.append((name, children[index + 1]))
            }
        }
        return result
    }

    /// The children of a mapping, keys and values interleaved; `nil` (after reporting) if the
    /// node is not a mapping.
    mutating func mappingChildren(_ id: YAMLDocument.NodeID, of what: @autoclosure () -> String)
        -> ArraySlice<YAMLDocument.NodeID>?
    {
        guard document[id].kind == .mapping else {
            report(.invalidValue, "\(what()) must be a mapping, not \(describe(id))", at: location(id))
            return nil
        }
        return document.children(of: id)
    }

    /// A key of the mapping `what` read as a name, as ``namedEntries(_:of:)`` reads each key;
    /// `nil` (after reporting) for a merge key or a key that is not a name.
    mutating func entryName(_ key: YAMLDocument.NodeID, in what: @autoclosure () -> String) -> Located<String>? {
        if Self.isMergeKey(key, in: document) {
            report(
                .unknownKey, UnknownKeyRule.mergeKey,
                at: document[key].location, subjects: ["<<"])
            return nil
        }
        return name(key, as: "a key in \(what())")
    }

    /// Reads a non-empty string scalar.
    mutating func name(_ id: YAMLDocument.NodeID, as what: @autoclosure () -> String) -> Located<String>? {
        // The common case, read in place; the rest reads the node whole to explain the problem.
        if let text = Self.nameText(id, in: document) { return Located(text, at: document[id].location) }
        let node = document[id]
        guard node.kind == .scalar else {
            report(.invalidValue, "\(what()) must be a name, not \(describe(id))", at: node.location)
            return nil
        }
        switch node.scalarValue {
        case .string(let text) where !text.isEmpty:
            return Located(text, at: node.location)
        case .null where node.tag == .null:
            report(.invalidValue, "\(what()) is tagged `!!null`, so it has no value; remove the tag", at: node.location)
        case .null where !node.text.isEmpty:
            report(
                .invalidValue,
                "\(what()) is null ('\(node.text)' means no value in YAML); quote it (\"\(node.text)\") to use it as a name",
                at: node.location)
        case .string, .null:
            report(.invalidValue, "\(what()) is empty; expected a name", at: node.location)
        default:
            report(
                .invalidValue,
                "\(what()) must be a name, not \(describe(id)); quote it (\"\(node.text)\") to use it as a name",
                at: node.location)
        }
        return nil
    }

    /// Reads a name a transition refers to (an event or a target), interned in ``nameTable``.
    mutating func nameReference(_ id: YAMLDocument.NodeID, as what: @autoclosure () -> String) -> Located<Name>? {
        name(id, as: what()).map { Located(nameTable.intern($0.value), at: $0.location) }
    }

    /// The text of a scalar that reads as a name (a non-empty string), if it is one.
    static func nameText(_ id: YAMLDocument.NodeID, in document: YAMLDocument) -> String? {
        // The node's fields are read in place from the arena: reading them through the
        // document's subscript copied the whole node each time.
        let index = Int(id)
        guard document.nodes[index].kind == .scalar else { return nil }
        if document.nodes[index].tag == .none,
            isStringAsWritten(document.nodes[index].text, style: document.nodes[index].style)
        {
            return document.nodes[index].text
        }
        let value = ScalarValue.resolve(
            document.nodes[index].text, style: document.nodes[index].style,
            tag: document.nodes[index].tag)
        guard case .string(let text) = value, !text.isEmpty else { return nil }
        return text
    }

    /// Whether an untagged scalar is certainly a non-empty string, without resolving it: quoted,
    /// or plain and starting with a letter or `_` (numbers and the other special words start
    /// with a digit or `.+-~`), and not a null or boolean (`null`, `true`, `false`: told from
    /// `next`, `tap01` or `timeout` by their length, or else a comparison).
    private static func isStringAsWritten(_ text: String, style: YAMLNode.Style) -> Bool {
        guard let first = text.utf8.first else { return false }
        if style != .plain { return true }
        switch first {
        case UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "t"), UInt8(ascii: "T"), UInt8(ascii: "f"),
            UInt8(ascii: "F"):
            return !ScalarValue.isSpecialWord(text)
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }

    /// Whether a key is a merge key (`<<`), which the flowspec language does not have.
    static func isMergeKey(_ id: YAMLDocument.NodeID, in document: YAMLDocument) -> Bool {
        // Read in place (the subscript copies the node): every key of every mapping asks.
        let index = Int(id)
        return document.nodes[index].kind == .scalar && document.nodes[index].style == .plain
            && document.nodes[index].text.utf8.count == 2 && document.nodes[index].text == "<<"
    }

    /// Reads any string scalar (used for free text such as `summary`).
    mutating func text(_ id: YAMLDocument.NodeID, as what: @autoclosure () -> String) -> String? {
        let node = document[id]
        guard node.kind == .scalar, case .string(let text) = node.scalarValue else {
            report(.invalidValue, "\(what()) must be text, not \(describe(id))", at: node.location)
            return nil
        }
        return text
    }

    /// Reads a list of names; a single name is accepted as a list of one. `what` describes one
    /// item (`an effect`), `list` the whole value (`` `effects` ``).
    mutating func names(
        _ id: YAMLDocument.NodeID, as what: @autoclosure () -> String,
        list: @autoclosure () -> String
    ) -> [Located<String>] {
        let node = document[id]
        switch node.kind {
        case .scalar:
            return name(id, as: what()).map { [$0] } ?? []
        case .sequence:
            return document.children(of: id).compactMap { name($0, as: what()) }
        case .mapping, .taken:
            report(.invalidValue, "\(list()) must be a name or a list of names, not a mapping", at: node.location)
            return []
        }
    }

    /// Reads a list of names (`what` names one item, `list` the whole list), reporting a name
    /// listed twice.
    mutating func declaredNames(_ id: YAMLDocument.NodeID, as what: @autoclosure () -> String, in list: String)
        -> [Located<String>]
    {
        var seen: [String: SourceLocation] = [:]
        var result: [Located<String>] = []
        for name in names(id, as: what(), list: list) {
            if let first = seen[name.value] {
                report(
                    .duplicateKey, DuplicateKeyRule.repeatedName(name.value, in: list), at: name.location,
                    subjects: [name.value], notes: [.init(DuplicateKeyRule.firstNameNote, at: first)])
                continue
            }
            seen[name.value] = name.location
            result.append(name)
        }
        return result
    }

    /// Reads a duration such as `250ms`, `2s`, `5m` or `1h`.
    mutating func duration(_ id: YAMLDocument.NodeID, as what: @autoclosure () -> String) -> Located<Duration>? {
        // Text a duration is made of (digits, then a unit) is a string whatever its style and
        // any tag but `!!null`: it is parsed at once, without resolving it first.
        let index = Int(id)
        if document.nodes[index].kind == .scalar, document.nodes[index].tag != .null,
            let duration = Duration.parseSpec(document.nodes[index].text)
        {
            return Located(duration, at: document.nodes[index].location)
        }
        let node = document[id]
        let written = node.kind == .scalar ? "'\(node.text)'" : describe(id)
        if node.kind == .scalar, Duration.specOverflows(node.text) {
            report(
                .invalidValue,
                "\(what()) '\(node.text)' is too long; the longest duration is \(Duration.longestSpec.specDescription)",
                at: node.location)
            return nil
        }
        report(
            .invalidValue,
            "\(what()) must be a positive whole number with a unit (ms, s, m or h), like 250ms or 2s; found \(written)",
            at: node.location)
        return nil
    }

    /// Reads a positive integer.
    mutating func positiveInteger(_ id: YAMLDocument.NodeID, as what: @autoclosure () -> String) -> Located<Int>? {
        let node = document[id]
        if node.kind == .scalar, case .int(let value) = node.scalarValue, value > 0 {
            return Located(value, at: node.location)
        }
        if node.kind == .scalar, case .bigInt = node.scalarValue {
            report(
                .invalidValue, "\(what()) is too large: \(node.text) is over the largest whole number, \(Int.max)",
                at: node.location)
            return nil
        }
        report(.invalidValue, "\(what()) must be a positive whole number, not \(describe(id))", at: node.location)
        return nil
    }

    /// Reads a boolean (`true` or `false`).
    mutating func boolean(_ id: YAMLDocument.NodeID, as what: @autoclosure () -> String) -> Bool? {
        let node = document[id]
        if node.kind == .scalar, case .bool(let value) = node.scalarValue {
            return value
        }
        report(.invalidValue, "\(what()) must be true or false, not \(describe(id))", at: node.location)
        return nil
    }

    /// Reads one of a fixed set of words.
    mutating func choice<T: RawRepresentable>(
        _ id: YAMLDocument.NodeID, as what: @autoclosure () -> String,
        among options: [T]
    ) -> Located<T>? where T.RawValue == String {
        let node = document[id]
        if node.kind == .scalar, case .string(let text) = node.scalarValue,
            let value = options.first(where: { $0.rawValue == text })
        {
            return Located(value, at: node.location)
        }
        let words = options.map(\.rawValue)
        let written = node.kind == .scalar ? node.text : ""
        let meant = Suggestion.closest(to: written, among: words)
        report(
            .invalidValue,
            "\(what()) must be one of \(words.joined(separator: ", ")), not \(describe(id))\(Suggestion.didYouMean(meant))",
            at: node.location, fix: meant.map { .replace(with: $0) })
        return nil
    }

    /// Reports a required key that is missing from a mapping.
    mutating func missing(
        _ key: String, in what: @autoclosure () -> String, at location: SourceLocation, example: String
    ) {
        report(.invalidValue, "\(what()) is missing the required key '\(key)' (for example `\(example)`)", at: location)
    }
}
