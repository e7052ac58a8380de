import FlowSpecCore
import Foundation

/// An open document: its text, kept in step with the client's edits, and `check`'s findings
/// for it as LSP diagnostics. The text is checked once per version, for the findings and for
/// every question asked about it.
struct Document {
    let uri: String
    private(set) var text: String {
        didSet { checked = nil }
    }
    private var checked: Checked?
    /// The last check of a version that had machines: what completion offers names from while
    /// the text being typed does not parse.
    private(set) var lastWithMachines: SpecChecker.Checked?

    /// The text checked: the result, the findings under the spec's severity settings, and the
    /// lines.
    struct Checked {
        let result: SpecChecker.Checked
        let findings: [Diagnostic]
        let lines: [Substring]
    }

    /// The client's version of the text, when it gave one (published with the findings, so
    /// that the client can tell which text they are of).
    var version: Int?

    init(uri: String, text: String, version: Int? = nil) {
        self.uri = uri
        self.text = text
        self.version = version
    }

    /// Whether the document is a spec: `*.flowspec.yaml` (or `.yml`), or YAML with a top-level
    /// `flowspec:` key.
    var isSpec: Bool {
        uri.hasSuffix(".flowspec.yaml") || uri.hasSuffix(".flowspec.yml") || text.hasPrefix("flowspec:")
            || text.contains("\nflowspec:")
    }

    /// Applies one `contentChanges` entry: the whole text, or a range (UTF-16 positions) replaced.
    mutating func apply(_ change: [String: Any]) {
        guard let newText = change["text"] as? String else { return }
        guard let range = change["range"] as? [String: Any], let start = range["start"] as? [String: Any],
            let end = range["end"] as? [String: Any]
        else {
            text = newText
            return
        }
        let lower = index(start)
        let upper = max(lower, index(end))
        text.replaceSubrange(lower..<upper, with: newText)
    }

    /// The index of an LSP position (0-based line, UTF-16 offset in it), clamped into the text.
    private func index(_ position: [String: Any]) -> String.Index {
        let wanted = position["line"] as? Int ?? 0
        var found: Substring?
        var number = 0
        Self.forEachLine(of: text) { line in
            if number == wanted { found = line }
            number += 1
            return number <= wanted
        }
        guard let scalars = found?.unicodeScalars else { return text.endIndex }
        let offset = position["character"] as? Int ?? 0
        var units = 0
        var target = scalars.startIndex
        // A position inside a surrogate pair, or past the line's end, is taken back to the
        // scalar's start, or to the end of the line.
        while target < scalars.endIndex, units + scalars[target].utf16.count <= offset {
            units += scalars[target].utf16.count
            target = scalars.index(after: target)
        }
        return target
    }

    /// The text's lines without their ends, which are "\n", "\r\n" or "\r", as LSP counts them.
    static func lines(_ text: String) -> [Substring] {
        var lines: [Substring] = []
        forEachLine(of: text) { line in
            lines.append(line)
            return true
        }
        return lines
    }

    /// Calls `body` with each line of `text` in turn (as ``lines(_:)`` splits them) while it
    /// returns `true`: an edit finds its line without splitting the whole text.
    private static func forEachLine(of text: String, _ body: (Substring) -> Bool) {
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var index = start
        while index < scalars.endIndex {
            let scalar = scalars[index]
            guard scalar == "\n" || scalar == "\r" else {
                index = scalars.index(after: index)
                continue
            }
            guard body(text[start..<index]) else { return }
            index = scalars.index(after: index)
            if scalar == "\r", index < scalars.endIndex, scalars[index] == "\n" { index = scalars.index(after: index) }
            start = index
        }
        _ = body(text[start..<scalars.endIndex])
    }

    /// The check of the current text, or `nil` when the document is no spec.
    mutating func check() -> Checked? {
        guard isSpec else { return nil }
        if let checked { return checked }
        let result = SpecChecker().check(SourceFile(path: URL(string: uri)?.path ?? uri, text: text))
        let checked = Checked(
            result: result, findings: SeverityPolicy().apply(to: result.diagnostics, spec: result.spec.severity),
            lines: Self.lines(text))
        self.checked = checked
        if !result.spec.machines.isEmpty { lastWithMachines = result }
        return checked
    }

    /// What the server answers about places in the text.
    mutating func navigation() -> Navigation? {
        check().map { Navigation(uri: uri, checked: $0) }
    }

    /// `check`'s findings for the text as LSP diagnostics (none when it is no spec).
    mutating func diagnostics() -> [[String: Any]] {
        guard let checked = check() else { return [] }
        return checked.findings.map { finding in
            var message = finding.message
            var related: [[String: Any]] = []
            for note in finding.notes {
                if let location = note.location {
                    related.append([
                        "location": ["uri": uri, "range": Self.range(location, checked.lines)] as [String: Any],
                        "message": note.message
                    ])
                } else {
                    message += "\n" + note.message
                }
            }
            var diagnostic: [String: Any] = [
                "range": Self.range(finding.location, checked.lines), "severity": Self.severity(finding.severity),
                "code": finding.rule.rawValue, "source": "flowspec", "message": message
            ]
            if !related.isEmpty { diagnostic["relatedInformation"] = related }
            return diagnostic
        }
    }

    static func severity(_ severity: Severity) -> Int {
        switch severity {
        case .error: 1
        case .warning: 2
        case .note: 3
        }
    }

    /// The LSP range of a location (1-based line, column in characters): from it to the end of
    /// the word there, in UTF-16 offsets.
    static func range(_ location: SourceLocation, _ lines: [Substring]) -> [String: Any] {
        let line = max(location.line - 1, 0)
        guard line < lines.count else {
            let position: [String: Any] = ["line": line, "character": 0]
            return ["start": position, "end": position]
        }
        let scalars = Array(lines[line].unicodeScalars)
        let column = min(max(location.column - 1, 0), scalars.count)
        var end = column
        while end < scalars.count, isWord(scalars[end]) { end += 1 }
        if end == column, end < scalars.count { end += 1 }
        func utf16(_ count: Int) -> Int { scalars[..<count].reduce(0) { $0 + ($1.value > 0xFFFF ? 2 : 1) } }
        return [
            "start": ["line": line, "character": utf16(column)] as [String: Any],
            "end": ["line": line, "character": utf16(end)] as [String: Any]
        ]
    }

    /// Whether an LSP range and a requested range share a position.
    static func range(
        _ range: [String: Any], meets requested: (start: (line: Int, character: Int), end: (line: Int, character: Int))
    ) -> Bool {
        func position(_ key: String) -> (Int, Int) {
            let point = range[key] as? [String: Any]
            return (point?["line"] as? Int ?? 0, point?["character"] as? Int ?? 0)
        }
        let start = position("start")
        let end = position("end")
        return
            !(end < (requested.start.line, requested.start.character)
            || (requested.end.line, requested.end.character) < start)
    }

    private static func isWord(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-"
    }
}
