import Foundation
import Testing

/// What the tests that edit a document read back: the findings `flowspec-lsp` published just
/// before each of its answers, and `check`'s findings on the texts sampled along the way, both
/// written "rule line column" (0-based, the column in UTF-16 units as LSP counts it).
enum SessionFindings {
    /// The findings last published before the answer to each request, by request id.
    static func beforeEachAnswer(_ messages: [[String: Any]]) -> [Int: [String]] {
        var published: [Int: [String]] = [:]
        var latest: [String] = []
        for message in messages {
            if message["method"] as? String == "textDocument/publishDiagnostics" {
                let diagnostics = (message["params"] as? [String: Any])?["diagnostics"] as? [[String: Any]] ?? []
                latest = diagnostics.map(describe)
            } else if let id = message["id"] as? Int {
                published[id] = latest
            }
        }
        return published
    }

    /// `check --format json`'s findings on each sampled text, by the sample's key.
    static func check(_ samples: [Int: String]) throws -> [Int: [String]] {
        let directory = try CLI.temporaryDirectory(
            with: Dictionary(uniqueKeysWithValues: samples.map { ("\($0.key).yaml", $0.value) }))
        let check = try CLI.run(
            ["check", "--format", "json"] + samples.keys.sorted().map { "\($0).yaml" }, in: directory)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any])
        var expected: [Int: [String]] = [:]
        for finding in json["diagnostics"] as? [[String: Any]] ?? [] {
            let step = Int((finding["file"] as? String ?? "").dropLast(".yaml".count)) ?? -1
            let line = (finding["line"] as? Int ?? 1) - 1
            let column = utf16Column(
                samples[step] ?? "", line: line, scalarColumn: (finding["column"] as? Int ?? 1) - 1)
            expected[step, default: []].append("\(finding["rule"] ?? "") \(line) \(column)")
        }
        return expected
    }

    static func describe(_ diagnostic: [String: Any]) -> String {
        let start = (diagnostic["range"] as? [String: Any])?["start"] as? [String: Any]
        return "\(diagnostic["code"] ?? "") \(start?["line"] ?? "") \(start?["character"] ?? "")"
    }

    /// The UTF-16 offset of the `scalarColumn`th character of `line` in `text`.
    private static func utf16Column(_ text: String, line: Int, scalarColumn: Int) -> Int {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.indices.contains(line) else { return scalarColumn }
        return lines[line].unicodeScalars.prefix(scalarColumn).reduce(0) { $0 + $1.utf16.count }
    }
}
