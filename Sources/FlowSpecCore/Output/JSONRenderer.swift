/// Prints findings as one JSON object, `{"diagnostics": [...]}`; each diagnostic has `rule`,
/// `severity`, `message`, `file`, `line`, `column`, `machine` (when it belongs to one),
/// `subjects` and `notes` (each with `message`, and `line` and `column` when it has a place).
/// Keys are sorted, so output is byte-identical run to run; findings are written one by one.
enum JSONRenderer {
    /// Writes the document, the findings one by one.
    static func render(_ diagnostics: [Diagnostic], into output: inout some TextOutputStream) {
        let document = JSONNode.object([
            "diagnostics": .lazyArray(count: diagnostics.count) { entry(diagnostics[$0]) }
        ])
        document.writeDocument(to: &output)
    }

    /// One finding's entry.
    static func entry(_ diagnostic: Diagnostic) -> JSONNode {
        var members: [String: JSONNode] = [
            "rule": .string(diagnostic.rule.rawValue),
            "severity": .string(diagnostic.severity.rawValue),
            "message": .string(diagnostic.message),
            "file": .string(diagnostic.file),
            "line": .int(diagnostic.location.line),
            "column": .int(diagnostic.location.column),
            "subjects": .array(diagnostic.subjects.map(JSONNode.string)),
            "notes": .array(diagnostic.notes.map(note))
        ]
        members["machine"] = diagnostic.machine.map(JSONNode.string)
        return .object(members)
    }

    /// One note: its message, and its place if it has one.
    static func note(_ note: Diagnostic.Note) -> JSONNode {
        var members: [String: JSONNode] = ["message": .string(note.message)]
        members["line"] = note.location.map { .int($0.line) }
        members["column"] = note.location.map { .int($0.column) }
        return .object(members)
    }
}
