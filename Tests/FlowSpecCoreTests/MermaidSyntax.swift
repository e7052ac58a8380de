import Foundation

/// A structural check of the Mermaid that `flowspec graph` writes, standing in for Mermaid's
/// own parser (a JavaScript library the tests cannot run).
///
/// It accepts only the subset of `stateDiagram-v2` flowspec uses — a front-matter title, then
/// `state "label" as id`, `id : text`, `a --> b` (and `[*] --> b`) with an optional `: label`, `classDef` and
/// `class` lines, composite states (`state "label" as id {` … `}`, four more spaces of
/// indentation inside, `--` between concurrent regions) and multi-line notes (`note right of id` … `end note`) — and enforces the
/// rules of Mermaid's parser and renderer that flowspec's output could break: a composite
/// state has no description (Mermaid throws "Group nodes can only have label"); a statement
/// inside a composite state's block names only `[*]` and the states declared directly in it
/// (Mermaid moves a state into the last block that names it), so transitions that cross a
/// border are written at the top level; a note is not written inside its own state's block.
/// It also enforces the rules of Mermaid's lexer that a spec name could break:
/// a label holds no `"` (state labels) or `:`/`;` (transition labels and descriptions); `#`
/// appears only in `#123;` entities (Mermaid decodes them, and reads a bare `#` as a comment);
/// no `%%` (a comment anywhere on a line); no `direction` followed by whitespace (Mermaid reads
/// `direction TB` anywhere in a line as a layout statement); no `[[`, `<<` (fork, join and
/// choice markers); no space at either end (Mermaid trims labels); no `<`, `>`, `&`, backquote (HTML and Markdown in labels); no whitespace but
/// plain spaces and no control characters; no `ﬂ` or `¶` (Mermaid's internal entity markers);
/// and no line that Mermaid's `style…:…#…;` clean-up would cut. Ids must be declared before use.
///
/// On success it returns what a reader of the diagram would see: the title and every label
/// with its entities decoded.
enum MermaidSyntax {
    struct Problem: Error, CustomStringConvertible {
        var line: Int
        var message: String
        var description: String { "line \(line): \(message)" }
    }

    struct Edge: Equatable {
        var from: String
        var to: String
        var label: String?
        /// The composite state whose block holds the transition (`nil`: the top level).
        var scope: String? = nil
    }

    struct Diagram {
        var title = ""
        /// Each state id's label, then its description lines.
        var states: [String: [String]] = [:]
        var edges: [Edge] = []
        /// Class name to the ids it is applied to.
        var classes: [String: [String]] = [:]
        /// Each state id's composite state, for the states declared inside one.
        var parents: [String: String] = [:]
        /// The ids of the composite states, in the order they are declared.
        var composites: [String] = []
        /// The lines of the notes beside each state id.
        var notes: [String: [String]] = [:]
        /// Per composite state, how many `--` lines split its block into concurrent regions.
        var regionSeparators: [String: Int] = [:]
    }

    static func parse(_ text: String) throws -> Diagram {
        guard text.hasSuffix("\n") else { throw Problem(line: 0, message: "does not end with a line break") }
        let lines = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= 4, lines[0] == "---", lines[2] == "---", lines[3] == "stateDiagram-v2" else {
            throw Problem(line: 1, message: "expected front matter (---, title, ---) and stateDiagram-v2")
        }
        var diagram = Diagram()
        diagram.title = try title(lines[1])
        var parser = LineParser()
        for (offset, line) in lines.enumerated().dropFirst(4) {
            do { try parser.parse(line, into: &diagram) } catch let error as SyntaxError {
                throw Problem(line: offset + 1, message: "\(error.message): \(line)")
            }
        }
        if let open = parser.blocks.last {
            throw Problem(line: lines.count, message: "composite state \(open) is not closed")
        }
        if parser.note != nil { throw Problem(line: lines.count, message: "a note is not ended") }
        return diagram
    }

    /// `title: "…"`, a YAML double-quoted scalar with no `#` or `%` left raw.
    static func title(_ line: String) throws -> String {
        guard line.hasPrefix("title: \""), line.hasSuffix("\""), line.count >= 9 else {
            throw Problem(line: 2, message: "expected title: \"…\"")
        }
        let body = line.dropFirst("title: \"".count).dropLast()
        guard !body.contains("#"), !body.contains("%") else {
            throw Problem(line: 2, message: "raw # or % in the title")
        }
        return try yamlUnquote(Array(body.unicodeScalars))
    }

    static func yamlUnquote(_ scalars: [Unicode.Scalar]) throws -> String {
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if scalar == "\"" { throw Problem(line: 2, message: "unescaped quote in the title") }
            guard scalar == "\\" else {
                result.append(scalar)
                continue
            }
            guard index < scalars.count else { throw Problem(line: 2, message: "dangling backslash") }
            let kind = scalars[index]
            index += 1
            let digits = ["x": 2, "u": 4, "U": 8][String(kind)]
            if kind == "\"" || kind == "\\" {
                result.append(kind)
                continue
            }
            guard let digits, index + digits <= scalars.count,
                let value = UInt32(String(String.UnicodeScalarView(scalars[index..<index + digits])), radix: 16),
                let decoded = Unicode.Scalar(value)
            else {
                throw Problem(line: 2, message: "bad escape in the title")
            }
            result.append(decoded)
            index += digits
        }
        return String(result)
    }

    /// Checks a label's characters and returns it with its entities decoded.
    static func decodeLabel(_ text: String) throws -> String {
        if text.unicodeScalars.first == " " || text.unicodeScalars.last == " " {
            throw SyntaxError("a label with a space at an end, which Mermaid trims")
        }
        var result = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "#" {
                var end = index + 1
                while end < scalars.count, ("0"..."9").contains(scalars[end]) { end += 1 }
                guard end > index + 1, end < scalars.count, scalars[end] == ";",
                    let value = UInt32(String(String.UnicodeScalarView(scalars[index + 1..<end]))),
                    let decoded = Unicode.Scalar(value)
                else { throw SyntaxError("a # that is not a #123; entity") }
                result.append(decoded)
                index = end + 1
                continue
            }
            if let reason = forbidden(scalar) { throw SyntaxError(reason) }
            result.append(scalar)
            index += 1
        }
        let decoded = String(result)
        guard !decoded.isEmpty else { throw SyntaxError("an empty label") }
        return decoded
    }

    /// Why a raw character may not appear in a label, if it may not.
    static func forbidden(_ scalar: Unicode.Scalar) -> String? {
        if "\":;%<>&`\\".unicodeScalars.contains(scalar) { return "a raw '\(scalar)'" }
        if scalar == "\u{FB02}" || scalar == "\u{B6}" { return "a raw entity marker (ﬂ or ¶)" }
        if scalar.properties.isWhitespace && scalar != " " { return "whitespace other than a space" }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned:
            return "an invisible or control character U+\(String(scalar.value, radix: 16))"
        default: return nil
        }
    }

    /// Rules that Mermaid applies to a whole line, whatever statement it is.
    static func checkWholeLine(_ line: String) throws {
        let lower = line.lowercased()
        if lower.unicodeScalars.split(separator: "%", omittingEmptySubsequences: false).dropFirst().dropLast()
            .contains(where: \.isEmpty)
        {
            throw SyntaxError("%% starts a comment")
        }
        if lower.range(of: "direction\\s+(tb|bt|rl|lr)", options: .regularExpression) != nil {
            throw SyntaxError("Mermaid reads this line as a direction statement")
        }
        let scalars = Array(line.unicodeScalars)
        for marker in ["[[", "<<"]
        where zip(scalars, scalars.dropFirst()).contains(where: {
            String(String.UnicodeScalarView([$0, $1])) == marker
        }) {
            throw SyntaxError("fork/join/choice marker")
        }
        for cut in ["style.*:\\S*#.*;", "classDef.*:\\S*#.*;"]
        where line.range(of: cut, options: .regularExpression) != nil {
            throw SyntaxError("Mermaid's style clean-up would cut this line")
        }
    }
}

/// Why a line of a diagram is not valid.
struct SyntaxError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// Parses the statements after the header, one line at a time. Lines are handled as Unicode
/// scalars, as Mermaid's lexer sees them: a quote followed by a combining mark is still a quote.
private struct LineParser {
    var declared: Set<String> = []
    var classDefs: Set<String> = []
    /// The composite states whose blocks are open, outermost first.
    var blocks: [String] = []
    /// The note being read: its state and its indentation.
    var note: (id: String, indent: Int)?

    mutating func parse(_ line: String, into diagram: inout MermaidSyntax.Diagram) throws {
        try MermaidSyntax.checkWholeLine(line)
        let scalars = Scalars(line)
        if let note { return try noteLine(scalars, note, &diagram) }
        let indent = 4 * (blocks.count + 1)
        if scalars.string == String(repeating: " ", count: indent - 4) + "}", !blocks.isEmpty {
            blocks.removeLast()
            return
        }
        guard scalars.hasPrefix(String(repeating: " ", count: indent)), !scalars.dropFirst(indent).hasPrefix(" ") else {
            throw SyntaxError("expected \(indent) spaces of indentation")
        }
        let body = scalars.dropFirst(indent)
        // A concurrent region's separator: only inside a composite state's block.
        if body.string == "--" {
            guard let block = blocks.last else { throw SyntaxError("`--` outside a composite state") }
            diagram.regionSeparators[block, default: 0] += 1
            return
        }
        if body.hasPrefix("state \"") { return try declareState(body.dropFirst(7), &diagram) }
        if body.hasPrefix("classDef ") { return try classDef(body.string) }
        if body.hasPrefix("class ") { return try applyClass(body.string, &diagram) }
        if body.hasPrefix("note right of ") || body.hasPrefix("note left of ") {
            return try startNote(body.string.split(separator: " ").last.map(String.init) ?? "", indent, &diagram)
        }
        if let arrow = body.find(" --> ") { return try edge(body, arrow, &diagram) }
        try describe(body, &diagram)
    }

    private mutating func declareState(_ rest: Scalars, _ diagram: inout MermaidSyntax.Diagram) throws {
        guard let close = rest.find("\" as ") else { throw SyntaxError("expected state \"label\" as id") }
        let label = rest.prefix(close.lowerBound).string
        var id = rest.dropFirst(close.upperBound).string
        let opens = id.hasSuffix(" {")
        if opens { id.removeLast(2) }
        guard Self.isID(id), !declared.contains(id) else { throw SyntaxError("bad or repeated id '\(id)'") }
        declared.insert(id)
        diagram.states[id] = [try MermaidSyntax.decodeLabel(label)]
        if let parent = blocks.last { diagram.parents[id] = parent }
        if opens {
            blocks.append(id)
            diagram.composites.append(id)
        }
    }

    /// Inside a composite state's block, only `[*]` and the states declared directly in it.
    private func checkScope(_ id: String, _ diagram: MermaidSyntax.Diagram) throws {
        guard let block = blocks.last, id != "[*]" else { return }
        guard diagram.parents[id] == block else {
            throw SyntaxError("'\(id)' is not declared in the block of \(block): Mermaid would move it there")
        }
    }

    private mutating func startNote(_ id: String, _ indent: Int, _ diagram: inout MermaidSyntax.Diagram) throws {
        guard declared.contains(id) else { throw SyntaxError("note on an undeclared id") }
        guard !blocks.contains(id) else { throw SyntaxError("a note inside its own state's block") }
        try checkScope(id, diagram)
        note = (id, indent)
        diagram.notes[id, default: []] += []
    }

    private mutating func noteLine(
        _ scalars: Scalars, _ note: (id: String, indent: Int), _ diagram: inout MermaidSyntax.Diagram
    ) throws {
        if scalars.string == String(repeating: " ", count: note.indent) + "end note" {
            guard diagram.notes[note.id]?.isEmpty == false else { throw SyntaxError("an empty note") }
            self.note = nil
            return
        }
        let indent = note.indent + 4
        guard scalars.hasPrefix(String(repeating: " ", count: indent)), !scalars.dropFirst(indent).hasPrefix(" ") else {
            throw SyntaxError("expected \(indent) spaces of indentation in a note")
        }
        let text = scalars.dropFirst(indent).string
        guard !text.lowercased().hasPrefix("end note") else {
            throw SyntaxError("a note line Mermaid reads as its end")
        }
        diagram.notes[note.id, default: []].append(try MermaidSyntax.decodeLabel(text))
    }

    private mutating func classDef(_ body: String) throws {
        let parts = body.split(separator: " ", maxSplits: 2).map(String.init)
        guard parts.count == 3, Self.isWord(parts[1]), parts[1].lowercased() != "default" else {
            throw SyntaxError("bad classDef")
        }
        let property = "[a-z-]+:[^,;:]+"
        guard parts[2].range(of: "^\(property)(,\(property))*$", options: .regularExpression) != nil else {
            throw SyntaxError("bad classDef styles")
        }
        classDefs.insert(parts[1])
    }

    private func applyClass(_ body: String, _ diagram: inout MermaidSyntax.Diagram) throws {
        let parts = body.split(separator: " ").map(String.init)
        guard parts.count == 3, classDefs.contains(parts[2]) else {
            throw SyntaxError("class of an undefined classDef")
        }
        let ids = parts[1].split(separator: ",").map(String.init)
        guard !ids.isEmpty, ids.allSatisfy(declared.contains) else { throw SyntaxError("class names an undeclared id") }
        diagram.classes[parts[2], default: []] += ids
    }

    private func edge(_ body: Scalars, _ arrow: Range<Int>, _ diagram: inout MermaidSyntax.Diagram) throws {
        let from = body.prefix(arrow.lowerBound).string
        var to = body.dropFirst(arrow.upperBound)
        var label: String?
        if let colon = to.find(" : ") {
            label = try MermaidSyntax.decodeLabel(to.dropFirst(colon.upperBound).string)
            to = to.prefix(colon.lowerBound)
        }
        let target = to.string
        // Mermaid takes a label on a start's transition too (the effects of an `initial`).
        let entry = from == "[*]" && declared.contains(target)
        let exit = target == "[*]" && declared.contains(from) && label == nil
        guard entry || exit || (declared.contains(from) && declared.contains(target) && label != nil) else {
            throw SyntaxError("bad transition")
        }
        // flowspec writes its labelled transitions at the top level, but for a composite state's
        // start, which only its block can name (Mermaid takes labels inside blocks).
        if !blocks.isEmpty, label != nil, from != "[*]" {
            throw SyntaxError("a labelled transition inside a composite state's block")
        }
        try checkScope(from, diagram)
        try checkScope(target, diagram)
        diagram.edges.append(.init(from: from, to: target, label: label, scope: blocks.last))
    }

    private func describe(_ body: Scalars, _ diagram: inout MermaidSyntax.Diagram) throws {
        guard let colon = body.find(" : ") else { throw SyntaxError("not a statement flowspec writes") }
        let id = body.prefix(colon.lowerBound).string
        guard declared.contains(id) else { throw SyntaxError("description of an undeclared id") }
        guard !diagram.composites.contains(id) else {
            throw SyntaxError("a description of composite state \(id), which Mermaid rejects")
        }
        try checkScope(id, diagram)
        let text = body.dropFirst(colon.upperBound).string
        diagram.states[id, default: []].append(try MermaidSyntax.decodeLabel(text))
    }

    /// `s0`, `s1`, …, `wide`, and the removed states of a diff diagram, `removed0`, ….
    static func isID(_ text: String) -> Bool {
        for prefix in ["s", "removed"] where text.hasPrefix(prefix) && text.count > prefix.count {
            if text.dropFirst(prefix.count).allSatisfy(\.isASCIIDigit) { return true }
        }
        return text == "wide"
    }

    static func isWord(_ text: String) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }
}

/// A line as Unicode scalars, with the few searches the parser needs.
private struct Scalars {
    var items: [Unicode.Scalar]

    init(_ text: String) { items = Array(text.unicodeScalars) }
    init(_ items: ArraySlice<Unicode.Scalar>) { self.items = Array(items) }

    var string: String { String(String.UnicodeScalarView(items)) }

    func hasPrefix(_ prefix: String) -> Bool { items.starts(with: prefix.unicodeScalars) }
    func dropFirst(_ count: Int) -> Scalars { Scalars(items.dropFirst(count)) }
    func prefix(_ count: Int) -> Scalars { Scalars(items.prefix(count)) }

    /// The first occurrence of `needle`, as offsets.
    func find(_ needle: String) -> Range<Int>? {
        let pattern = Array(needle.unicodeScalars)
        guard pattern.count <= items.count else { return nil }
        for start in 0...(items.count - pattern.count) where items[start..<start + pattern.count].elementsEqual(pattern)
        {
            return start..<start + pattern.count
        }
        return nil
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
