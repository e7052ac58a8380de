import FlowSpecCore
import Foundation

/// An open document: its text, kept in step with the client's edits, and `check`'s findings
/// for it as LSP diagnostics.
struct Document {
    let uri: String
    private(set) var text: String

    init(uri: String, text: String) {
        self.uri = uri
        self.text = text
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
        let line = position["line"] as? Int ?? 0
        let character = position["character"] as? Int ?? 0
        var lineStart = text.startIndex
        var remaining = line
        while remaining > 0, let newline = text[lineStart...].firstIndex(of: "\n") {
            lineStart = text.index(after: newline)
            remaining -= 1
        }
        if remaining > 0 { return text.endIndex }
        let utf16 = text.utf16
        let lineEnd = text[lineStart...].firstIndex(of: "\n") ?? text.endIndex
        let offset = min(character, utf16.distance(from: lineStart, to: lineEnd))
        let target = utf16.index(lineStart, offsetBy: offset)
        return target.samePosition(in: text) ?? text.index(before: target)
    }

    /// What the server answers about places in the text (checked anew).
    func navigation() -> Navigation? {
        guard isSpec else { return nil }
        let path = URL(string: uri)?.path ?? uri
        return Navigation(
            uri: uri, result: SpecChecker().check(SourceFile(path: path, text: text)),
            lines: text.split(separator: "\n", omittingEmptySubsequences: false))
    }

    /// `check`'s findings for the text, with the spec's own severity settings.
    func diagnostics() -> [[String: Any]] {
        let path = URL(string: uri)?.path ?? uri
        let result = SpecChecker().check(SourceFile(path: path, text: text))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return SeverityPolicy().apply(to: result.diagnostics, spec: result.spec.severity).map { finding in
            var message = finding.message
            var related: [[String: Any]] = []
            for note in finding.notes {
                if let location = note.location {
                    related.append([
                        "location": ["uri": uri, "range": Self.range(location, lines)] as [String: Any],
                        "message": note.message
                    ])
                } else {
                    message += "\n" + note.message
                }
            }
            var diagnostic: [String: Any] = [
                "range": Self.range(finding.location, lines), "severity": Self.severity(finding.severity),
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

    private static func isWord(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-"
    }
}
