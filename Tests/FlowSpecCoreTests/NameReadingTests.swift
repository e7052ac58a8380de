import Testing

@testable import FlowSpecCore

/// Which plain scalars read as names: everything the YAML 1.2 core schema resolves to a
/// string, and nothing it resolves to null, a boolean or a number, in any spelling. Names
/// are read through a fast path that decides most of them from their first letter and
/// length; this pins it to the schema.
@Suite("Names and the core schema")
struct NameReadingTests {
    /// A target in `on:` with the given text, and how the decoder read it.
    static func target(_ text: String) -> (name: String?, findings: [String]) {
        let yaml = "flowspec: 1\nmachines:\n  M:\n    initial: a\n    states:\n      a: { on: { go: \(text) } }\n"
        let sink = DiagnosticCollector(file: "t.yaml")
        guard let document = YAMLReader().read(Array(yaml.utf8), into: sink) else { return (nil, ["unreadable"]) }
        let spec = SpecDecoder().decode(document, into: sink)
        guard let machine = spec.machines.first,
            !machine.states.isEmpty, let target = machine.transitions(of: 0).first?.candidates.first?.target
        else {
            return (nil, sink.diagnostics.map(\.message))
        }
        return (machine.names[target.value], sink.diagnostics.map(\.message))
    }

    @Test(
        "null and boolean spellings are not names",
        arguments: [
            "null", "Null", "NULL", "~", "true", "True", "TRUE", "false", "False", "FALSE",
            "0", "12", "-3", "0x1F", "0o17", "1.5", ".inf", "-.Inf", ".NaN", "1e3"
        ])
    func notAName(text: String) {
        let read = Self.target(text)
        #expect(read.name == nil)
        #expect(read.findings.count == 1, "\(read.findings)")
    }

    @Test(
        "near misses are names",
        arguments: [
            "nulls", "Nul", "nil", "nULL", "tRUE", "truth", "True1", "falsey", "FALSEs", "f", "t", "n",
            "no", "yes", "on", "off", "next", "timeout", "tap07", "fast", "nUll", "_true", "Truex"
        ])
    func aName(text: String) {
        let read = Self.target(text)
        #expect(read.name == text)
        #expect(read.findings.isEmpty, "\(read.findings)")
    }

    @Test(
        "quoted, any text is a name; an explicit tag decides",
        arguments: [
            ("'null'", "null"), ("\"true\"", "true"), ("'12'", "12"), ("!!str false", "false"), ("! TRUE", "TRUE")
        ])
    func quotedOrTagged(written: String, expected: String) {
        let read = Self.target(written)
        #expect(read.name == expected)
        #expect(read.findings.isEmpty, "\(read.findings)")
    }

    @Test("a null-tagged word is not a name")
    func nullTagged() {
        #expect(Self.target("!!null next").name == nil)
    }
}
