import Testing
@testable import FlowSpecCore

/// Text output cannot be forged or garbled by what a spec contains.
@Suite("Text renderer")
struct TextRendererTests {
    @Test func aNameWithALineBreakCannotForgeADiagnosticLine() {
        let spec = """
            flowspec: 1
            machines:
              M:
                initial: start
                states:
                  start: { kind: input, on: { go: "x\\nforged.yaml:1:1: error: fake [yaml-syntax]" } }
            """
        let file = SourceFile(path: "spec.yaml", text: spec)
        let diagnostics = SpecChecker().check(file).diagnostics
        let output = DiagnosticRenderer.render(diagnostics, files: [file], format: .text)
        #expect(!diagnostics.isEmpty)
        #expect(!output.split(separator: "\n").contains { $0.hasPrefix("forged.yaml") })
        #expect(output.contains("'x\\u{A}forged.yaml:1:1: error: fake [yaml-syntax]'"))
    }

    @Test func controlCharactersInTheSourceLineAreNotPrintedRaw() {
        let file = SourceFile(path: "spec.yaml", text: "flowspec: 1\nmachines: \"\u{1B}[31mred\"\nextra: 1\n")
        let output = DiagnosticRenderer.render(SpecChecker().check(file).diagnostics, files: [file], format: .text)
        #expect(!output.contains("\u{1B}"))
    }
}
