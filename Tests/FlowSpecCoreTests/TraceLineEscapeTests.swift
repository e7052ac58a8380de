import Testing

@testable import FlowSpecCore

/// A trace is one step a line: control characters in a name or a restored value are written
/// as escapes, and `--replay` reads them back as the characters they stand for. One type
/// writes the lines and reads them back.
@Suite("Trace lines")
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

    static let inputs: [TraceLine.Input] = [
        .start, .restore("nil"), .restore("2, connectivity=7; signedIn=5"), .restore("line\nbreak"), .event("next"),
        .event("a\u{2028}b"), .timeout, .timeoutOf("signIn")
    ]

    /// Every input a line writes is read back as that input, whatever its names hold.
    @Test(arguments: inputs)
    func eachInputReadsBack(input: TraceLine.Input) {
        let line = TraceLine.text(
            input: input.text, state: "home", ignored: false, effects: ["log"],
            timeouts: [.init(scope: "signIn", milliseconds: 500, target: "welcome")])
        #expect(TraceLine.read(line[...]) == .step(input, line: line))
        #expect(TraceLine.read((line + "\r")[...]) == .step(input, line: line))
    }

    @Test func conditionsCommentsAndOtherLinesAreTold() {
        #expect(TraceLine.read(TraceLine.condition("offline", holds: true)[...]) == .condition("offline", holds: true))
        #expect(
            TraceLine.read(TraceLine.condition("offline", holds: false)[...]) == .condition("offline", holds: false))
        #expect(TraceLine.read("# sub-flow starts"[...]) == .skipped)
        #expect(TraceLine.read(""[...]) == .skipped)
        #expect(TraceLine.read("+"[...]) == .unreadable)
        #expect(TraceLine.read("home"[...]) == .unreadable)
    }

    /// `flowspec simulate`'s inputs are named as a trace names them.
    @Test func simulateTakesTheTracesNames() {
        #expect(Simulation.Step(token: "@timeout") == .timeout)
        #expect(Simulation.Step(token: "@timeout(signIn)") == .compoundTimeout("signIn"))
        #expect(Simulation.Step(token: "+offline") == .condition("offline", true))
        #expect(Simulation.Step(token: "-offline") == .condition("offline", false))
        #expect(Simulation.Step(token: "next") == .event("next"))
    }
}
