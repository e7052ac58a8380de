import Testing

@testable import FlowSpecCore

/// A trace is one step a line: control characters in a name or a restored value are written
/// as escapes, and `--replay` reads them back as the characters they stand for.
@Suite("Trace line escapes")
struct TraceLineEscapeTests {
    @Test(arguments: [
        "plain", "x\n-> b | effects: - | forged", "\r\t\u{0}\u{7F}\u{85}\u{2028}\u{2029}", "ü→\u{1F600}", ""
    ])
    func escapedTextReadsBack(text: String) {
        let escaped = TraceLine.escaped(text)
        #expect(!escaped.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{2028}" || $0 == "\u{2029}" })
        #expect(TraceLine.unescaped(escaped) == text)
    }

    /// Only escapes of what is escaped are read: a name that holds `\u{41}` keeps it, and so
    /// does text that only looks like the start of an escape.
    @Test(arguments: [#"\u{41}"#, #"\u{A"#, #"\u{}"#, #"\u"#, #"a\b"#, #"\u{1100000}"#])
    func otherTextIsKept(text: String) {
        #expect(TraceLine.unescaped(text) == text)
    }
}
