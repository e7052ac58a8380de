import CYAML

/// Reads one YAML document from bytes with libyaml's event API into a ``YAMLDocument``.
///
/// The reader never recurses: open collections live on an explicit stack. It reports, as
/// findings, libyaml's own errors at their position, duplicate keys (keeping the first),
/// unknown or recursive aliases, a second document, and exceeded ``YAMLLimits``. After an
/// error that stops parsing, the document holds what was read before it (without a root).
public struct YAMLReader {
    private let limits: YAMLLimits
    /// Added to every line of the document's nodes (an imported file's, see `SpecImporter`).
    var lineOffset = 0

    /// Creates a reader with the given limits.
    public init(limits: YAMLLimits = YAMLLimits()) {
        self.limits = limits
    }

    /// Parses `bytes`, reporting problems into `diagnostics`. Returns `nil` when the YAML could not
    /// be read to the end.
    public func read(_ bytes: [UInt8], into diagnostics: DiagnosticCollector) -> YAMLDocument? {
        var taker = NoSubtreeTaker()
        return read(bytes, taking: &taker, into: diagnostics)
    }

    /// Parses `bytes` like ``read(_:into:)``, letting `taker` take finished subtrees out of the
    /// document as they are read (see ``YAMLSubtreeTaker``).
    public func read<Taker: YAMLSubtreeTaker>(
        _ bytes: [UInt8], taking taker: inout Taker,
        into diagnostics: DiagnosticCollector
    ) -> YAMLDocument? {
        bytes.withUnsafeBufferPointer { read($0, taking: &taker, into: diagnostics) }
    }

    /// Parses the bytes of a buffer like ``read(_:taking:into:)``. Now and then, `done` is
    /// told how many leading bytes the reader is done with for now: all of them once the
    /// positions are mapped (libyaml reads them in turn), then those libyaml has read past.
    func read<Taker: YAMLSubtreeTaker>(
        _ bytes: UnsafeBufferPointer<UInt8>, taking taker: inout Taker,
        into diagnostics: DiagnosticCollector,
        done: (_ byteCount: Int) -> Void = { _ in }
    ) -> YAMLDocument? {
        if bytes.count > limits.maxFileSize {
            diagnostics.report(
                .limitExceeded,
                "the file is \(bytes.count) bytes, over the limit of \(limits.maxFileSize) bytes",
                at: .start)
            return nil
        }
        var builder = Builder(limits: limits, marks: MarkMapper(bytes, lineOffset: lineOffset), taker: taker)
        done(bytes.count)
        defer { taker = builder.taker }
        // About one node per 8 bytes of a typical spec when nothing is taken; reserving up
        // front saves copying the arena as it grows. Capped, so that a huge file does not ask
        // for gigabytes of address space at once. A taker keeps the arena small.
        if taker.path.isEmpty {
            builder.document.reserveCapacity(nodes: min(bytes.count / 8, 8_000_000))
        }
        return builder.run(bytes, diagnostics: diagnostics, done: done)
    }
}

/// The state of one parse: the document being built and the stack of open collections.
private struct Builder<Taker: YAMLSubtreeTaker> {
    struct Frame {
        var node: YAMLDocument.NodeID
        var firstChild: Int
        var anchor: String?
        /// How many leading keys of the taker's path lead to this collection (-1: off the path).
        var matched: Int
        /// The document's child-index count and the anchors defined when the collection opened.
        var childMark: Int
        var anchorsBefore: Int
    }

    let limits: YAMLLimits
    var marks: MarkMapper
    var taker: Taker
    let path: [String?]
    /// Keys that may follow `path` again and again (the taker's ``YAMLSubtreeTaker/repeatingPath``).
    let repeating: [Set<String>?]
    var document = YAMLDocument()
    var stack: [Frame] = []
    var pending: [YAMLDocument.NodeID] = []
    var anchors: [String: YAMLDocument.NodeID] = [:]
    var openAnchors: Set<String> = []
    /// Anchors defined so far, and open collections that carry one.
    var anchorsDefined = 0
    var openAnchoredFrames = 0
    /// The key nodes along the taker's path to the innermost matched collection.
    var keyPath: [YAMLDocument.NodeID] = []
    var aliasExpansion = 0
    var documents = 0

    init(limits: YAMLLimits, marks: MarkMapper, taker: Taker) {
        self.limits = limits
        self.marks = marks
        self.taker = taker
        self.path = taker.path
        self.repeating = taker.repeatingPath
    }

    /// Whether a key's text is one the taker's path expects at a depth (any key where it says
    /// `nil`); `nil` past the path's end.
    func expects(_ text: String, atDepth depth: Int) -> Bool? {
        if depth < path.count { return path[depth].map { $0 == text } ?? true }
        guard !repeating.isEmpty else { return nil }
        return repeating[(depth - path.count) % repeating.count].map { $0.contains(text) } ?? true
    }

    /// Whether a collection matched to a depth is at the end of the path, or of a repetition.
    func isOffered(_ matched: Int) -> Bool {
        matched == path.count
            || (!repeating.isEmpty && matched > path.count && (matched - path.count) % repeating.count == 0)
    }

    /// How many bytes libyaml reads between two calls of `run`'s `done`.
    static var doneInterval: Int { 1 << 20 }

    mutating func run(
        _ buffer: UnsafeBufferPointer<UInt8>, diagnostics: DiagnosticCollector,
        done: (Int) -> Void
    ) -> YAMLDocument? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            diagnostics.report(.yamlSyntax, "libyaml could not start (out of memory)", at: .start)
            return nil
        }
        defer { yaml_parser_delete(&parser) }
        if let base = buffer.baseAddress {
            yaml_parser_set_input_string(&parser, base, buffer.count)
        } else {
            var empty: UInt8 = 0
            yaml_parser_set_input_string(&parser, &empty, 0)
        }
        var event = yaml_event_t()
        var nextDone = Self.doneInterval
        while true {
            if parser.offset >= nextDone {
                done(parser.offset)
                nextDone = parser.offset + Self.doneInterval
            }
            guard yaml_parser_parse(&parser, &event) == 1 else {
                reportParserError(parser, source: buffer, diagnostics: diagnostics)
                return nil
            }
            defer { yaml_event_delete(&event) }
            switch handle(event, diagnostics: diagnostics) {
            case .next: continue
            case .done: return document
            case .failed: return nil
            }
        }
    }

    enum Step { case next, done, failed }

    mutating func handle(_ event: yaml_event_t, diagnostics: DiagnosticCollector) -> Step {
        let location = marks.location(event.start_mark)
        switch event.type {
        case YAML_STREAM_END_EVENT:
            return .done
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                diagnostics.report(
                    .yamlSyntax,
                    "a spec file holds one YAML document; a second one starts here",
                    at: location,
                    notes: [.init("remove the '---' line and what follows, or move it to its own file")])
                return .failed
            }
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            if Int(scalar.length) > limits.maxScalarLength {
                diagnostics.report(
                    .limitExceeded,
                    "a scalar of \(scalar.length) bytes is over the limit of \(limits.maxScalarLength) bytes",
                    at: location)
                return .failed
            }
            let text = string(scalar.value, length: Int(scalar.length))
            let node = YAMLNode(
                kind: .scalar, style: style(of: scalar.style), tag: tag(scalar.tag),
                location: location, text: text)
            let id = document.append(node)
            register(anchor: optionalString(scalar.anchor), for: id)
            attach(id)
        case YAML_ALIAS_EVENT:
            return alias(optionalString(event.data.alias.anchor) ?? "", at: location, diagnostics: diagnostics)
        case YAML_SEQUENCE_START_EVENT:
            let start = event.data.sequence_start
            return open(
                .sequence, tag: tag(start.tag),
                anchor: optionalString(start.anchor), at: location, diagnostics: diagnostics)
        case YAML_MAPPING_START_EVENT:
            let start = event.data.mapping_start
            return open(
                .mapping, tag: tag(start.tag),
                anchor: optionalString(start.anchor), at: location, diagnostics: diagnostics)
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            close(diagnostics: diagnostics)
        default:
            break
        }
        return .next
    }

    mutating func open(
        _ kind: YAMLNode.Kind, tag: YAMLNode.Tag, anchor: String?,
        at location: SourceLocation, diagnostics: DiagnosticCollector
    ) -> Step {
        if stack.count >= limits.maxDepth {
            diagnostics.report(
                .limitExceeded,
                "collections nest more than \(limits.maxDepth) levels deep here",
                at: location,
                notes: [.init("a flowspec spec needs fewer than 10 levels")])
            return .failed
        }
        let node = YAMLNode(kind: kind, style: .collection, tag: tag, location: location, text: "")
        let matched = pathMatch(opening: kind)
        let id = document.append(node)
        if let anchor {
            openAnchors.insert(anchor)
            openAnchoredFrames += 1
        }
        stack.append(
            Frame(
                node: id, firstChild: pending.count, anchor: anchor, matched: matched,
                childMark: document.childIndexCount, anchorsBefore: anchorsDefined))
        return .next
    }

    /// How many keys of the taker's path lead to a collection opening now, updating
    /// ``keyPath``; -1 when it is off the path.
    mutating func pathMatch(opening kind: YAMLNode.Kind) -> Int {
        guard !path.isEmpty else { return -1 }
        guard let parent = stack.last else { return kind == .mapping ? 0 : -1 }
        let depth = parent.matched
        guard depth >= 0, depth < path.count || !repeating.isEmpty, document.nodes[Int(parent.node)].kind == .mapping,
            (pending.count - parent.firstChild) % 2 == 1, let key = pending.last
        else { return -1 }
        let keyNode = document[key]
        guard keyNode.kind == .scalar, expects(keyNode.text, atDepth: depth) == true else { return -1 }
        keyPath.removeLast(keyPath.count - depth)
        keyPath.append(key)
        return depth + 1
    }

    mutating func close(diagnostics: DiagnosticCollector) {
        let frame = stack.removeLast()
        if document.nodes[Int(frame.node)].kind == .mapping {
            removeDuplicateKeys(from: frame.firstChild, diagnostics: diagnostics)
        }
        var size: UInt32 = 1
        for index in frame.firstChild..<pending.count {
            let (sum, overflow) = size.addingReportingOverflow(document.nodes[Int(pending[index])].expandedSize)
            size = overflow ? .max : sum
        }
        document.setChildren(of: frame.node, pending[frame.firstChild...])
        setExpandedSize(size, of: frame.node)
        pending.removeLast(pending.count - frame.firstChild)
        if let anchor = frame.anchor {
            openAnchors.remove(anchor)
            openAnchoredFrames -= 1
        }
        register(anchor: frame.anchor, for: frame.node)
        attach(offer(frame) ?? frame.node)
    }

    /// Offers a finished collection at the end of the taker's path to the taker; if taken, its
    /// nodes leave the document and the placeholder's index is returned.
    mutating func offer(_ frame: Frame) -> YAMLDocument.NodeID? {
        guard isOffered(frame.matched), frame.matched > 0, frame.anchor == nil,
            openAnchoredFrames == 0, anchorsDefined == frame.anchorsBefore,
            let token = taker.take(frame.node, keys: keyPath, in: document)
        else { return nil }
        var placeholder = document[frame.node]
        placeholder.kind = .taken
        placeholder.childStart = token
        placeholder.childCount = 0
        document.truncate(nodes: frame.node, children: frame.childMark)
        return document.append(placeholder)
    }

    mutating func alias(_ name: String, at location: SourceLocation, diagnostics: DiagnosticCollector) -> Step {
        guard let target = anchors[name] else {
            let problem =
                openAnchors.contains(name)
                ? "the alias '*\(name)' refers to a node that contains it; recursive structures are not allowed"
                : "the alias '*\(name)' refers to no anchor; define '&\(name)' before using it"
            diagnostics.report(.yamlSyntax, problem, at: location)
            return .failed
        }
        aliasExpansion += Int(document[target].expandedSize)
        if aliasExpansion > limits.maxAliasExpansion {
            diagnostics.report(
                .limitExceeded,
                "aliases expand to more than \(limits.maxAliasExpansion) nodes (an alias bomb?)",
                at: location)
            return .failed
        }
        // A copy of the node placed where the alias is written, so that findings about this
        // use point at the `*name`, not at the anchor (a collection's children are shared).
        var use = document[target]
        use.location = location
        attach(document.append(use))
        return .next
    }

    mutating func attach(_ id: YAMLDocument.NodeID) {
        if stack.isEmpty {
            document.root = id
        } else {
            pending.append(id)
        }
    }

    mutating func register(anchor: String?, for id: YAMLDocument.NodeID) {
        guard let anchor else { return }
        anchors[anchor] = id
        anchorsDefined += 1
    }

    mutating func setExpandedSize(_ size: UInt32, of id: YAMLDocument.NodeID) {
        document.nodes[Int(id)].expandedSize = size
    }

    /// Reports each repeated scalar key of the mapping whose pairs are `pending[start...]` and
    /// drops its pair, keeping the first. Small mappings (most of a spec) are compared pairwise;
    /// large ones (`states:`) through a hash set of the kept keys.
    mutating func removeDuplicateKeys(from start: Int, diagnostics: DiagnosticCollector) {
        let pairs = (pending.count - start) / 2
        // One key repeats nothing (many mappings of a spec have one key: `on:`, `{ to: … }`).
        guard pairs > 1 else { return }
        let hashed = pairs > 12
        // A small mapping that repeats no key (nearly all) is only read, in place.
        if !hashed, !hasRepeatedKey(from: start) { return }
        var keys = KeySet(pairs: hashed ? pairs : 0)
        var kept = start
        var index = start
        while index + 1 < pending.count {
            // Read in place: copying whole nodes is most of the cost of this loop.
            let node = Int(pending[index])
            if document.nodes[node].kind == .scalar {
                let text = document.nodes[node].text
                let first: SourceLocation?
                if hashed {
                    let ordinal = keys.firstOrInsert(ordinal: (kept - start) / 2, hash: TextHash.hash(text)) {
                        ordinal in
                        document.nodes[Int(pending[start + 2 * ordinal])].text == text
                    }
                    first = ordinal.map { document.nodes[Int(pending[start + 2 * $0])].location }
                } else {
                    first = firstKey(text, in: start..<kept)
                }
                if let first {
                    let key = document[pending[index]]
                    diagnostics.report(
                        .duplicateKey, DuplicateKeyRule.repeatedKey(key.text), at: key.location, subjects: [key.text],
                        notes: [.init(DuplicateKeyRule.firstKeyNote, at: first)])
                    index += 2
                    continue
                }
            }
            pending[kept] = pending[index]
            pending[kept + 1] = pending[index + 1]
            kept += 2
            index += 2
        }
        pending.removeLast(pending.count - kept)
    }

    /// Whether two scalar keys of the mapping whose pairs are `pending[start...]` are equal.
    func hasRepeatedKey(from start: Int) -> Bool {
        withBuffers { nodes, pending in
            stride(from: start + 2, to: pending.count - 1, by: 2).contains { index in
                // Through the pointer: subscripting the buffer copied the node.
                let key = nodes.baseAddress! + Int(pending[index])
                return key.pointee.kind == .scalar
                    && Self.firstKey(key.pointee.text, in: start..<index, nodes: nodes, pending: pending) != nil
            }
        }
    }

    /// Where a scalar key with this text is among the kept pairs `pending[range]`, if it is.
    func firstKey(_ text: String, in range: Range<Int>) -> SourceLocation? {
        withBuffers { Self.firstKey(text, in: range, nodes: $0, pending: $1) }
    }

    /// The nodes and the pending children, read through buffers: indexing the arrays copied
    /// each node compared.
    private func withBuffers<Result>(
        _ body: (UnsafeBufferPointer<YAMLNode>, UnsafeBufferPointer<YAMLDocument.NodeID>) -> Result
    )
        -> Result
    {
        document.nodes.withUnsafeBufferPointer { nodes in pending.withUnsafeBufferPointer { body(nodes, $0) } }
    }

    private static func firstKey(
        _ text: String, in range: Range<Int>, nodes: UnsafeBufferPointer<YAMLNode>,
        pending: UnsafeBufferPointer<YAMLDocument.NodeID>
    ) -> SourceLocation? {
        for index in stride(from: range.lowerBound, to: range.upperBound, by: 2) {
            let node = nodes.baseAddress! + Int(pending[index])
            if node.pointee.kind == .scalar, node.pointee.text == text { return node.pointee.location }
        }
        return nil
    }

    func reportParserError(
        _ parser: yaml_parser_t, source: UnsafeBufferPointer<UInt8>, diagnostics: DiagnosticCollector
    ) {
        // A reader error (bad encoding, a control character) has a byte offset, not a mark.
        // libyaml places the end of the input on a line of its own, after the last one; such
        // an error is shown at the end of the last line instead.
        let end = Self.location(ofByte: source.count, in: source)
        let location = min(
            end,
            parser.error == YAML_READER_ERROR
                ? Self.location(ofByte: Int(parser.problem_offset), in: source)
                : marks.location(parser.problem_mark))
        var message = parser.problem.map { String(cString: $0) } ?? "the YAML could not be read"
        var notes: [Diagnostic.Note] = []
        if let context = parser.context.map({ String(cString: $0) }) {
            let contextLocation = min(end, marks.location(parser.context_mark))
            notes.append(.init(context, at: contextLocation))
            if context == "while scanning a simple key", contextLocation.line == location.line,
                location.column - contextLocation.column >= 1024
            {
                notes.append(
                    .init(
                        "a key written without `?` is at most 1024 characters long; write a longer one as `? key` with its value on the next line as `: value`"
                    ))
            }
        }
        if let separator = marks.firstYAML11Break {
            notes.append(
                .init(
                    "libyaml reads U+2028, U+2029 and U+0085 as line breaks (YAML 1.1), even in comments and quotes; the first is here: replace it with a space or a real line break",
                    at: separator))
        }
        if parser.error != YAML_READER_ERROR, Self.isTab(at: location, in: source) {
            message += " (a tab: YAML indents with spaces only)"
        }
        diagnostics.report(.yamlSyntax, message, at: location, notes: notes)
    }

    /// Whether the character at an editor position is a tab.
    static func isTab(at location: SourceLocation, in source: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let line = LineIndex.line(location.line, in: source) else { return false }
        return line.unicodeScalars.dropFirst(location.column - 1).first == "\t"
    }

    /// The line and column (in characters, after a byte-order mark) of a byte offset.
    static func location(ofByte offset: Int, in source: UnsafeBufferPointer<UInt8>) -> SourceLocation {
        var line = 1
        var column = 1
        var index = source.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let end = min(offset, source.count)
        while index < end {
            let byte = source[index]
            if byte == UInt8(ascii: "\n")
                || (byte == UInt8(ascii: "\r")
                    && (index + 1 >= source.count || source[index + 1] != UInt8(ascii: "\n")))
            {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 && byte != UInt8(ascii: "\r") {
                column += 1
            }
            index += 1
        }
        return SourceLocation(line: line, column: column)
    }

    func style(of style: yaml_scalar_style_t) -> YAMLNode.Style {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: .literal
        case YAML_FOLDED_SCALAR_STYLE: .folded
        default: .plain
        }
    }

    func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?, length: Int) -> String {
        guard let pointer, length > 0 else { return "" }
        return String(decoding: UnsafeBufferPointer(start: pointer, count: length), as: UTF8.self)
    }

    func tag(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> YAMLNode.Tag {
        pointer == nil ? .none : YAMLNode.Tag(resolved: optionalString(pointer))
    }

    func optionalString(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}
