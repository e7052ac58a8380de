import FlowSpecTestSupport
import Testing

@testable import FlowSpecCore

/// UTF-16 spec files (with a byte-order mark, as libyaml requires) are transcoded to UTF-8 when
/// read, so that positions and the excerpts under findings are right; invalid UTF-16 is a
/// located `yaml-syntax` error, never a crash and never silently repaired.
@Suite("Source encoding")
struct SourceEncodingTests {
    static let spec = """
        flowspec: 1
        machines:
          M:
            initial: a
            defaults: { kind: input }
            states:
              a: { on: { go: b }, summary: "😀 café" }
              b: { kind: terminal }
              lost: { kind: terminal }

        """

    static func utf16(_ text: String, bigEndian: Bool, bom: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = []
        for unit in Array((bom ? "\u{FEFF}" : "").utf16) + Array(text.utf16) {
            bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        return bytes
    }

    /// Raw UTF-16 code units (surrogates allowed) as bytes, after a byte-order mark.
    static func units(_ units: [UInt16], bigEndian: Bool) -> [UInt8] {
        ([0xFEFF] + units).flatMap { unit in
            bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
    }

    static func render(_ file: SourceFile) -> String {
        DiagnosticRenderer.render(SpecChecker().check(file).diagnostics, files: [file], format: .text)
    }

    @Test(
        "UTF-16 with a byte-order mark becomes the same UTF-8 text, after a UTF-8 byte-order mark",
        arguments: [false, true])
    func transcodesUTF16(bigEndian: Bool) {
        let file = SourceFile(path: "spec.yaml", bytes: Self.utf16(Self.spec, bigEndian: bigEndian))
        #expect(file.encoding == (bigEndian ? .utf16BigEndian : .utf16LittleEndian))
        #expect(file.bytes == [0xEF, 0xBB, 0xBF] + Array(Self.spec.utf8))
        #expect(
            Self.render(file) == """
                spec.yaml:9:7: error: state 'lost' can never be reached from the initial state 'a' [unreachable-state]
                      lost: { kind: terminal }
                      ^
                spec.yaml:9:7: note: no transition leads to it

                """)
    }

    @Test func utf8AndOtherBytesAreLeftAsTheyAre() {
        for bytes: [UInt8] in [
            Array(Self.spec.utf8), [0xEF, 0xBB, 0xBF] + Array(Self.spec.utf8), [], [0xFF], [0xFE],
            [0x00, 0x00, 0xFE, 0xFF], Array("\u{FEFF}x".utf8)
        ] {
            let file = SourceFile(path: "x", bytes: bytes)
            #expect(file.bytes == bytes)
            #expect(file.encoding == .utf8)
        }
    }

    @Test("a file holding only a UTF-16 byte-order mark is an empty file", arguments: [false, true])
    func onlyAByteOrderMark(bigEndian: Bool) {
        let file = SourceFile(path: "spec.yaml", bytes: bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE])
        #expect(file.bytes == [0xEF, 0xBB, 0xBF])
        #expect(
            Self.render(file) == """
                spec.yaml:1:1: error: the file is empty; a spec starts with `flowspec: 1` [unsupported-version]

                ^

                """)
    }

    /// `# x` then a line `a: <bad>z` in UTF-16 code units.
    static func lines(with bad: [UInt16]) -> [UInt16] {
        Array("# x\n".utf16) + Array("a: y".utf16) + bad + Array("z\n".utf16)
    }

    @Test(
        "invalid UTF-16 is a yaml-syntax error at its line and column",
        arguments: [
            ("a high surrogate before an ordinary unit", [UInt16(0xD83D)]),
            ("a high surrogate before another high one", [0xD83D, 0xD83D]),
            ("a lone low surrogate", [0xDE00]),
            ("a low surrogate before a high one", [0xDE00, 0xD83D])
        ], [false, true])
    func invalidUTF16IsLocated(case: (String, [UInt16]), bigEndian: Bool) {
        let file = SourceFile(path: "spec.yaml", bytes: Self.units(Self.lines(with: `case`.1), bigEndian: bigEndian))
        let diagnostics = SpecChecker().check(file).diagnostics
        #expect(
            diagnostics.map { "\($0.location) \($0.message) [\($0.rule.rawValue)]" }
                == ["2:5 invalid Unicode character [yaml-syntax]"], "\(`case`.0)")
    }

    @Test("a surrogate at the very end, and an odd last byte, are located too", arguments: [false, true])
    func invalidUTF16AtTheEnd(bigEndian: Bool) {
        let highAtEnd = SourceFile(
            path: "spec.yaml", bytes: Self.units(Array("# x\nab".utf16) + [0xD83D], bigEndian: bigEndian))
        #expect(
            SpecChecker().check(highAtEnd).diagnostics.map { "\($0.location) \($0.message)" }
                == ["2:3 invalid Unicode character"])
        let odd = SourceFile(
            path: "spec.yaml", bytes: Self.units(Array("# x\nab".utf16), bigEndian: bigEndian) + [0x41])
        #expect(
            SpecChecker().check(odd).diagnostics.map { "\($0.location) \($0.message)" }
                == ["2:3 invalid Unicode character"])
        #expect(
            Self.render(odd).hasPrefix(
                """
                spec.yaml:2:3: error: invalid Unicode character [yaml-syntax]
                ab
                """))
    }

    /// Arbitrary code units after a byte-order mark: never a crash, and every finding is
    /// placed on a line of the transcoded file. (U+2028 and U+0085, which libyaml counts as
    /// line breaks, are left out: their positions are the YAML reader's business, and the same
    /// in UTF-8.)
    @Test func arbitraryUTF16NeverCrashes() {
        var random = SplitMix64(seed: 0x5EED_0016)
        let alphabet: [UInt16] =
            Array("flowspec: 1\nmachines:\n  M: { initial: a, states: { a: {} } }\n\"'#-[]{},: \t\r".utf16)
            + [0x00, 0xFEFF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xD83D, 0xDE00, 0xE9, 0xFFFE, 0x7F]
        for _ in 0..<2_000 {
            let count = Int(random.next() % 40)
            let codeUnits = (0..<count).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            var bytes = Self.units(codeUnits, bigEndian: random.next() % 2 == 0)
            if random.next() % 4 == 0 { bytes.append(0x41) }
            let file = SourceFile(path: "x.yaml", bytes: bytes)
            let diagnostics = SpecChecker().check(file).diagnostics
            _ = DiagnosticRenderer.render(diagnostics, files: [file], format: .text)
            let lines = file.bytes.filter { $0 == 0x0A || $0 == 0x0D }.count + 1
            for diagnostic in diagnostics {
                #expect(
                    diagnostic.location.line >= 1 && diagnostic.location.line <= lines + 1,
                    "\(codeUnits.map { String($0, radix: 16) }) \(bytes.count % 2 == 1 ? "odd" : ""): \(diagnostic.location) \(diagnostic.message)"
                )
            }
        }
    }
}
