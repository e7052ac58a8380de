import Testing

@testable import FlowSpecCore

/// Spec durations (`250ms`, `2s`, `5m`, `1h`): what is one, what each means, and how a
/// timeout's `after` is read whatever its YAML style or tag.
@Suite("Spec durations")
struct DurationSpecTests {
    @Test(
        "a positive whole number with a unit is a duration",
        arguments: [
            ("250ms", Duration.milliseconds(250)), ("2s", .seconds(2)), ("5m", .seconds(300)),
            ("1h", .seconds(3_600)), ("007s", .seconds(7)), ("1000ms", .seconds(1))
        ])
    func valid(text: String, expected: Duration) {
        #expect(Duration.parseSpec(text) == expected)
    }

    @Test(
        "anything else is not",
        arguments: [
            "", "s", "ms", "5", "0s", "000ms", "-5s", "+5s", "5 s", "5S", "5sec", "5ss", "5mss", "5x", "5\u{0}s",
            "s5", "5s5", "1.5s", "5é", "9999999999999h", "99999999999999999999ms"
        ])
    func invalid(text: String) {
        #expect(Duration.parseSpec(text) == nil)
    }

    @Test("the longest duration parses and one unit more overflows")
    func longest() {
        let longest = Duration.longestSpec.specDescription
        #expect(Duration.parseSpec(longest) == Duration.longestSpec)
        let hours = Duration.longestSpec.wholeMilliseconds / 3_600_000
        #expect(Duration.parseSpec("\(hours + 1)h") == nil)
        #expect(Duration.specOverflows("\(hours + 1)h"))
        #expect(!Duration.specOverflows("5x"))
    }

    @Test(
        "after: reads a duration plain, quoted or tagged as text, and no other value",
        arguments: [
            ("5s", true), ("'5s'", true), ("\"5s\"", true), ("!!str 5s", true), ("!!int 5s", true),
            ("!!null 5s", false), ("5", false), ("~", false), ("[5s]", false), ("true", false)
        ])
    func after(value: String, readable: Bool) {
        let yaml =
            "flowspec: 1\nmachines:\n  M:\n    initial: a\n    states:\n"
            + "      a: { kind: task, timeout: { after: \(value), to: b } }\n      b: { kind: terminal }\n"
        let sink = DiagnosticCollector(file: "t.yaml")
        let document = YAMLReader().read(Array(yaml.utf8), into: sink)
        let spec = SpecDecoder().decode(document!, into: sink)
        let after = spec.machines.first?.states.first?.timeout?.after
        #expect((after != nil) == readable, "\(sink.diagnostics.map(\.message))")
        if readable { #expect(after?.value == .seconds(5)) }
        #expect(sink.diagnostics.isEmpty == readable)
    }
}
