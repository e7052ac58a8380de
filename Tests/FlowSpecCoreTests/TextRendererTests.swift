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

    // MARK: invisible and bidirectional characters

    static func render(_ spec: String, format: OutputFormat = .text) -> String {
        let file = SourceFile(path: "spec.yaml", text: spec)
        return DiagnosticRenderer.render(SpecChecker().check(file).diagnostics, files: [file], format: format)
    }

    /// A name with a zero-width space and one with a zero-width joiner look exactly like
    /// `start` and `done`: every message, and the excerpt, shows the escapes, with the caret
    /// moved right by their extra width.
    @Test func zeroWidthCharactersAreEscapedInMessagesAndExcerpts() {
        let output = Self.render(
            """
            flowspec: 1
            machines:
              M:
                initial: start
                defaults: { kind: input }
                states:
                  "sta\u{200B}rt": { on: { go: "do\u{200D}ne" } }
                  done: { kind: terminal }
            """)
        #expect(
            output == #"""
                spec.yaml:4:14: error: initial state 'start' is not a state of machine 'M'; did you mean 'sta\u{200B}rt'? [undefined-state]
                    initial: start
                             ^
                spec.yaml:7:7: error: state name 'sta\u{200B}rt' cannot become a Swift identifier: it contains U+200B; names use ASCII letters, digits and '_', may be split by '-', '.' or spaces, and do not start with a digit [invalid-identifier]
                      "sta\u{200B}rt": { on: { go: "do\u{200D}ne" } }
                      ^
                spec.yaml:7:29: error: target 'do\u{200D}ne' is not a state of machine 'M'; did you mean 'done'? [undefined-state]
                      "sta\u{200B}rt": { on: { go: "do\u{200D}ne" } }
                                                   ^

                """#)
    }

    /// U+202E RIGHT-TO-LEFT OVERRIDE would print the rest of the line backwards; U+2066–U+2069,
    /// U+FEFF, U+2060, a soft hyphen, a no-break space and a variation selector after a letter
    /// are invisible or look like something else. All are escaped; the caret lands under the
    /// target's opening quote however many escapes come before it.
    @Test func bidirectionalAndOtherInvisibleCharactersAreEscaped() {
        let output = Self.render(
            """
            flowspec: 1
            machines:
              M:
                initial: a
                defaults: { kind: input }
                states:
                  a: { summary: "\u{2066}x\u{2069}\u{FEFF}\u{2060}\u{AD}\u{A0}", on: { go: "admin\u{202E}nimda" } }
                  b: { kind: terminal, summary: "e\u{FE0F}" }
            """)
        #expect(
            output == #"""
                spec.yaml:7:42: error: target 'admin\u{202E}nimda' is not a state of machine 'M' [undefined-state]
                      a: { summary: "\u{2066}x\u{2069}\u{FEFF}\u{2060}\u{AD}\u{A0}", on: { go: "admin\u{202E}nimda" } }
                                                                                               ^
                spec.yaml:8:7: error: state 'b' can never be reached from the initial state 'a' [unreachable-state]
                      b: { kind: terminal, summary: "e\u{FE0F}" }
                      ^
                spec.yaml:8:7: note: no transition leads to it

                """#)
        #expect(!output.unicodeScalars.contains { $0.properties.generalCategory == .format })
    }

    /// Emoji sequences are pictures, not spoofing: a zero-width joiner between two emoji, a
    /// variation selector after one and a skin tone stay as they are.
    @Test func emojiSequencesAreKept() {
        let family = "👩\u{200D}💻"
        let heart = "❤\u{FE0F}"
        let scotland = "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"
        #expect(
            TextRenderer.visible("'\(family)' '\(heart)' '👍🏽' '\(scotland)' '1\u{FE0F}\u{20E3}'")
                == "'\(family)' '\(heart)' '👍🏽' '\(scotland)' '1\u{FE0F}\u{20E3}'")
        // The same characters out of place are escaped.
        #expect(
            TextRenderer.visible("a\u{200D}b 👩\u{200D} \u{200D}💻 x\u{FE0F} 1\u{200D}2 a\u{E0067}")
                == #"a\u{200D}b 👩\u{200D} \u{200D}💻 x\u{FE0F} 1\u{200D}2 a\u{E0067}"#)
    }

    @Test func visibleEscapesEveryFormatCharacterAndLeavesOrdinaryTextAlone() {
        for value in [0x200B, 0x200C, 0x200E, 0x200F, 0x2060, 0xFEFF, 0x061C, 0x180E] + Array(0x202A...0x202E)
            + Array(0x2066...0x2069)
        {
            let scalar = Unicode.Scalar(value)!
            #expect(
                TextRenderer.visible("a\(Character(scalar))b") == "a\\u{\(String(value, radix: 16, uppercase: true))}b")
        }
        let ordinary = "café naïve שלום مرحبا 日本語 Ελληνικά e\u{301} …–—‘’“” tab\there"
        #expect(TextRenderer.visible(ordinary) == ordinary.replacingOccurrences(of: "\t", with: "\\u{9}"))
    }

    /// A finding inside a long line is shown in a window; escapes before the column in the
    /// window still move the caret.
    @Test func theCaretFollowsEscapesInALongLine() {
        let padding = String(repeating: "\u{200B}", count: 100)
        let output = Self.render(
            """
            flowspec: 1
            machines:
              M:
                initial: a
                defaults: { kind: input }
                states:
                  a: { summary: "\(padding)", on: { go: nowhere } }
                  b: { kind: terminal }
            """)
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].contains(": error: target 'nowhere' is not a state"), "\(lines[0])")
        let excerpt = lines[1]
        let caret = lines[2]
        #expect(caret.hasSuffix("^") && caret.dropLast().allSatisfy { $0 == " " })
        let column = caret.count - 1
        #expect(Array(excerpt)[column...].starts(with: "nowhere"), "\(excerpt)\n\(caret)")
    }

    /// Findings on a long line keep its characters between them, and findings and notes on
    /// other lines in between do not disturb it: rendered together, they read exactly as each
    /// rendered on its own does.
    @Test func findingsOnALongLineAndBetweenReadAsEachOnItsOwn() {
        let long = "    events: [" + (0..<80).map { "e\($0)" }.joined(separator: ", ") + "]"
        let text = "flowspec: 1\nmachines:\n" + long + "\nshort: 1\n" + long.uppercased() + "\n"
        let file = SourceFile(path: "spec.yaml", text: text)
        func finding(line: Int, column: Int, note: (line: Int, column: Int)? = nil) -> Diagnostic {
            Diagnostic(
                rule: .unusedName, message: "at \(line):\(column)", file: "spec.yaml",
                location: SourceLocation(line: line, column: column),
                notes: note.map { [.init("see", at: SourceLocation(line: $0.line, column: $0.column))] } ?? [])
        }
        let diagnostics = [
            finding(line: 3, column: 14, note: (4, 1)), finding(line: 3, column: 300, note: (5, 200)),
            finding(line: 3, column: 400), finding(line: 4, column: 8), finding(line: 5, column: 30, note: (3, 20))
        ]
        let together = DiagnosticRenderer.render(diagnostics, files: [file], format: .text)
        let alone = diagnostics.map { DiagnosticRenderer.render([$0], files: [file], format: .text) }.joined()
        #expect(together == alone)
        // Each finding and each note elsewhere: a line of source (at most the window and two
        // ellipses) and a caret.
        let shown = together.split(separator: "\n").filter { !$0.hasPrefix("spec.yaml:") }
        #expect(shown.count == 16 && shown.allSatisfy { $0.count <= 122 }, "\(together)")
    }

    /// 20,000 findings on one line of 200,000 characters print a window each, in linear time:
    /// decoding the whole line for each finding took minutes at 100,000.
    @Test func twentyThousandFindingsOnOneLongLine() {
        let count = 20_000
        let spec =
            "flowspec: 1\nmachines:\n  M:\n    initial: a\n    events: ["
            + (0..<count).map { "e\($0)" }.joined(separator: ", ")
            + "]\n    states:\n      a: { kind: terminal }\n"
        let output = Self.render(spec)
        let lines = output.split(separator: "\n")
        let excerpts = lines.filter { $0.hasPrefix("    events: [") || $0.hasPrefix("…") }
        #expect(excerpts.count == count)
        #expect(lines.map(\.count).max() ?? 0 < 200)
    }

    /// GitHub annotations escape the same characters (JSON and SARIF escape them already).
    @Test func githubAnnotationsEscapeInvisibleCharacters() {
        let output = Self.render(
            """
            flowspec: 1
            machines:
              M:
                initial: a
                defaults: { kind: input }
                states:
                  a: { on: { go: "admin\u{202E}nimda" } }
                  b: { kind: terminal }
            """, format: .github)
        #expect(
            output.hasPrefix(
                #"::error file=spec.yaml,line=7,col=22,title=flowspec undefined-state::target 'admin\u{202E}nimda' is not a state of machine 'M'"#
            ), "\(output)")
        #expect(!output.unicodeScalars.contains("\u{202E}"))
    }

    /// A workflow command's file is a property: `%`, CR, LF, `:` and `,` are escaped, each CR
    /// and LF alone even when they come as a pair (one `Character`), so a file name cannot
    /// end the command early and start another.
    @Test func githubAnnotationsEscapeEveryByteOfAFileName() {
        let finding = Diagnostic(
            rule: .unusedName, message: "50% done\r\nnext", file: "a:b,c%\r\n::error é.yaml",
            location: SourceLocation(line: 1, column: 2),
            notes: [.init("see here", at: SourceLocation(line: 3, column: 4))])
        let output = DiagnosticRenderer.render([finding], files: [], format: .github)
        #expect(
            output
                == #"::warning file=a%3Ab%2Cc%25%0D%0A%3A%3Aerror é.yaml,line=1,col=2,title=flowspec unused-name::50%25 done\u{D}\u{A}next%0A3:4: see here"#
                + "\n")
    }
}
