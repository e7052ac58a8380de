import FlowSpecTestSupport
import Foundation
import Testing

/// Incremental sync against a model of the client: seeded random edits of the reference spec
/// (deletions, replacements across lines, insertions with characters outside the BMP, whose
/// UTF-16 length is two) are applied to the client's copy and sent to `flowspec-lsp`. After
/// every edit the server's text (`flowspec/documentText`) must be the client's; at samples, the
/// findings it publishes must be `check`'s on that text.
@Suite("flowspec-lsp random edits (process)")
struct RandomEditTests {
    static let edits = 400
    static let sampleEvery = 20
    /// What an edit may insert, besides pieces of the spec itself.
    static let oddities = ["é", "🎉", "\n", "  ", ": ", "{ ", " }", "- ", "#", "\"", "'"]

    @Test(arguments: [UInt64(1), 2, 3]) func randomEditsKeepTheTextsInStep(seed: UInt64) throws {
        let original = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("specs/app.yaml"), encoding: .utf8)
        var random = SplitMix64(seed: seed)
        var text = original
        let uri = "file:///w/app.flowspec.yaml"
        var input = try LanguageServerTests.frame(LanguageServerTests.request(0, "initialize"))
        input += try LanguageServerTests.frame(
            LanguageServerTests.notification(
                "textDocument/didOpen", ["textDocument": ["uri": uri, "version": 0, "text": text]]))
        var samples: [Int: String] = [:]
        var texts: [String] = []
        for step in 1...Self.edits {
            let edit = Self.randomEdit(in: text, from: original, &random)
            text = CodeActionTests.applying([["range": edit["range"] ?? [:], "newText": edit["text"] ?? ""]], to: text)
            input += try LanguageServerTests.frame(
                LanguageServerTests.notification(
                    "textDocument/didChange",
                    ["textDocument": ["uri": uri, "version": step], "contentChanges": [edit]]))
            input += try LanguageServerTests.frame(
                LanguageServerTests.request(step, "flowspec/documentText", ["textDocument": ["uri": uri]]))
            texts.append(text)
            if step % Self.sampleEvery == 0 { samples[step] = text }
        }
        input += try LanguageServerTests.frame(LanguageServerTests.request(Self.edits + 1, "shutdown"))
        input += try LanguageServerTests.frame(LanguageServerTests.notification("exit"))
        let (status, messages, stderr) = try LanguageServerTests.serve(input)
        #expect(status == 0, "\(stderr)")
        let held = (1...Self.edits).map { LanguageServerTests.result($0, messages) as? String }
        let first = held.indices.first { held[$0] != texts[$0] }
        #expect(first == nil, "the texts part after edit \((first ?? 0) + 1) (seed \(seed))")

        // The findings published just before each answer are those of the text edited so far.
        let published = SessionFindings.beforeEachAnswer(messages)
        let expected = try SessionFindings.check(samples)
        for step in samples.keys.sorted() {
            #expect(published[step] == expected[step] ?? [], "after edit \(step) (seed \(seed))")
        }
    }

    /// An edit of `text`: a range at scalar boundaries (possibly across lines, possibly empty)
    /// replaced by a piece of `source`, one of the oddities, or nothing.
    static func randomEdit(in text: String, from source: String, _ random: inout SplitMix64) -> [String: Any] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        func position() -> (line: Int, character: Int) {
            let line = random.below(lines.count)
            let scalars = Array(lines[line].unicodeScalars)
            let count = random.below(scalars.count + 1)
            return (line, scalars[..<count].reduce(0) { $0 + $1.utf16.count })
        }
        var start = position()
        var end = random.percent(40) ? start : position()
        if end < start { swap(&start, &end) }
        if end.line - start.line > 3 { end = start }  // keep most of the spec
        let newText: String
        switch random.below(3) {
        case 0: newText = ""
        case 1: newText = random.pick(oddities)
        default:
            let scalars = Array(source.unicodeScalars)
            let from = random.below(scalars.count)
            let length = random.below(40)
            newText = String(String.UnicodeScalarView(scalars[from..<min(from + length, scalars.count)]))
        }
        return [
            "range": [
                "start": ["line": start.line, "character": start.character],
                "end": ["line": end.line, "character": end.character]
            ] as [String: Any],
            "text": newText
        ]
    }
}
