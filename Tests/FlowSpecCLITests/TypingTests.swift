import Foundation
import Testing

/// The reference spec typed into `flowspec-lsp` one character at a time, each keystroke an
/// incremental edit followed by a request, so that the findings of every prefix are
/// published. The typing is split in parts, each a server of its own that opens the text
/// typed so far, so the parts run side by side.
@Suite("flowspec-lsp typing (process)")
struct TypingTests {
    static let parts = 4
    /// Every this many keystrokes, the published findings are compared with `check`'s.
    static let sampleEvery = 97

    @Test(arguments: 0..<parts) func typingTheReferenceSpec(part: Int) throws {
        let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("specs/app.yaml"), encoding: .utf8)
        let characters = Array(text)
        let range = (characters.count * part / Self.parts)..<(characters.count * (part + 1) / Self.parts)
        let uri = "file:///w/app.flowspec.yaml"
        var typed = String(characters[..<range.lowerBound])
        var input = try LanguageServerTests.frame(LanguageServerTests.request(0, "initialize"))
        input += try LanguageServerTests.frame(
            LanguageServerTests.notification(
                "textDocument/didOpen", ["textDocument": ["uri": uri, "version": 0, "text": typed]]))
        var line = typed.filter { $0 == "\n" }.count
        var column = typed.split(separator: "\n", omittingEmptySubsequences: false).last?.utf16.count ?? 0
        var samples: [Int: String] = [:]
        for (step, character) in characters[range].enumerated() {
            let position: [String: Any] = ["line": line, "character": column]
            input += try LanguageServerTests.frame(
                LanguageServerTests.notification(
                    "textDocument/didChange",
                    [
                        "textDocument": ["uri": uri, "version": step + 1],
                        "contentChanges": [
                            ["range": ["start": position, "end": position], "text": String(character)] as [String: Any]
                        ]
                    ]))
            input += try LanguageServerTests.frame(LanguageServerTests.request(step + 1, "flowspec/ping"))
            typed.append(character)
            if character == "\n" {
                line += 1
                column = 0
            } else {
                column += String(character).utf16.count
            }
            if step % Self.sampleEvery == 0 { samples[step + 1] = typed }
        }
        let last = range.count + 2
        input += try LanguageServerTests.frame(
            LanguageServerTests.request(last - 1, "flowspec/documentText", ["textDocument": ["uri": uri]]))
        input += try LanguageServerTests.frame(LanguageServerTests.request(last, "shutdown"))
        input += try LanguageServerTests.frame(LanguageServerTests.notification("exit"))
        let (status, messages, stderr) = try LanguageServerTests.serve(input)
        #expect(status == 0, "\(stderr)")
        #expect(LanguageServerTests.result(last - 1, messages) as? String == typed, "the server holds what was typed")

        // The findings published just before each answer are those of the text typed so far.
        let published = SessionFindings.beforeEachAnswer(messages)
        #expect(published.count == last + 1, "every request answered")
        let publications = messages.filter { $0["method"] as? String == "textDocument/publishDiagnostics" }.count
        // The open is checked together with the first keystroke, which arrives with it.
        #expect(publications == range.count, "findings after every keystroke")
        // Each publication names the version it is of: the keystroke just made.
        let versions = messages.compactMap { message -> Int? in
            guard message["method"] as? String == "textDocument/publishDiagnostics" else { return nil }
            return (message["params"] as? [String: Any])?["version"] as? Int
        }
        #expect(versions == Array(1...range.count), "the versions of the findings")

        let expected = try SessionFindings.check(samples)
        for step in samples.keys.sorted() {
            #expect(published[step] == expected[step] ?? [], "after keystroke \(range.lowerBound + step)")
        }
        if part == Self.parts - 1 { #expect(published[last - 2] == [], "the whole spec is clean") }
    }
}
