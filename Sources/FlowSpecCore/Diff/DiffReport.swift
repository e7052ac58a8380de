/// `flowspec diff` output of the changes: compiler-style lines after the findings, or JSON
/// with the findings beside them.
public enum DiffReport {
    /// `FILE:LINE:COLUMN: added state 'profile': input`, a line each, under a line per machine
    /// that says how many changes it has.
    public static func text(_ changes: [SpecDiff.Change]) -> String {
        var output = ""
        var machine: String?
        for (index, change) in changes.enumerated() {
            if change.machine != machine {
                machine = change.machine
                let count = changes[index...].prefix { $0.machine == change.machine }.count
                output += "\(change.machine): \(count) change\(count == 1 ? "" : "s")\n"
            }
            output +=
                "\(change.file):\(change.location.line):\(change.location.column): \(change.kind.rawValue) "
                + "\(change.subject)\(change.detail.map { ": \($0)" } ?? "")\n"
        }
        return output
    }

    /// `{"changes": [{"machine", "kind", "subject", "detail", "file", "line", "column"}],
    /// "diagnostics": [as `check --format json`]}`.
    public static func json(
        _ changes: [SpecDiff.Change], findings: [Diagnostic], to output: inout some TextOutputStream
    ) {
        JSONNode.object([
            "changes": .array(
                changes.map { change in
                    var members: [String: JSONNode] = [
                        "machine": .string(change.machine), "kind": .string(change.kind.rawValue),
                        "subject": .string(change.subject), "file": .string(change.file),
                        "line": .int(change.location.line), "column": .int(change.location.column)
                    ]
                    if let detail = change.detail { members["detail"] = .string(detail) }
                    return .object(members)
                }),
            "diagnostics": .array(findings.map(JSONRenderer.entry))
        ]).writeDocument(to: &output)
    }
}
