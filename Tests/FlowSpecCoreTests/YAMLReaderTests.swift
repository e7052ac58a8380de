import FlowSpecTestSupport
import Testing

@testable import FlowSpecCore

/// The YAML front end: positions, the core schema, anchors and aliases, duplicates, limits.
@Suite("YAML reader")
struct YAMLReaderTests {
    func read(_ text: String, limits: YAMLLimits = YAMLLimits()) -> (YAMLDocument?, [Diagnostic]) {
        let sink = DiagnosticCollector(file: "t.yaml")
        let document = YAMLReader(limits: limits).read(Array(text.utf8), into: sink)
        return (document, sink.diagnostics)
    }

    func value(_ document: YAMLDocument, _ key: String) throws -> YAMLNode {
        let root = try #require(document.root)
        let pair = try #require(document.pairs(of: root).first { document[$0.key].text == key })
        return document[pair.value]
    }

    @Test func everyNodeKeepsItsLineAndColumn() throws {
        let (document, diagnostics) = read("a: 1\nb:\n  - x\n  - { y: z }\n")
        #expect(diagnostics.isEmpty)
        let document_ = try #require(document)
        let b = try value(document_, "b")
        #expect(b.kind == .sequence)
        #expect(b.location == SourceLocation(line: 3, column: 3))
        let items = document_.children(of: try #require(document_.pairs(of: document_.root!).last?.value))
        #expect(document_[items.first!].location == SourceLocation(line: 3, column: 5))
        #expect(document_[items.last!].location == SourceLocation(line: 4, column: 5))
    }

    @Test(arguments: [
        ("on", ScalarValue.string("on")), ("off", .string("off")), ("yes", .string("yes")), ("no", .string("no")),
        ("y", .string("y")), ("true", .bool(true)), ("False", .bool(false)), ("TRUE", .bool(true)),
        ("~", .null), ("null", .null), ("", .null), ("42", .int(42)), ("-7", .int(-7)), ("0x1F", .int(31)),
        ("0o17", .int(15)), ("1.5", .float(1.5)), ("2s", .string("2s")), ("'true'", .string("true")),
        ("\"42\"", .string("42")), ("!!str 7", .string("7")), ("12e3", .float(12000)),
        ("99999999999999999999", .bigInt("99999999999999999999")),
        ("0x-1", .string("0x-1")), ("0o+7", .string("0o+7")), ("0x+1F", .string("0x+1F")), ("0x", .string("0x"))
    ])
    func coreSchema(text: String, expected: ScalarValue) throws {
        let (document, diagnostics) = read("k: \(text)\n")
        #expect(diagnostics.isEmpty)
        #expect(try value(try #require(document), "k").scalarValue == expected)
    }

    @Test func aliasesShareTheAnchoredNodesChildrenButStandWhereTheyAreWritten() throws {
        let (document, diagnostics) = read("base: &b { to: home }\ncopy: *b\n")
        #expect(diagnostics.isEmpty)
        let document_ = try #require(document)
        let base = try value(document_, "base")
        let copy = try value(document_, "copy")
        #expect(copy.kind == .mapping)
        // Findings about this use of the node point at `*b`, its contents where they are written.
        #expect(copy.location == SourceLocation(line: 2, column: 7))
        #expect(base.location == SourceLocation(line: 1, column: 7))
        let root = try #require(document_.root)
        let ids = Dictionary(uniqueKeysWithValues: document_.pairs(of: root).map { (document_[$0.key].text, $0.value) })
        let baseChildren = document_.children(of: try #require(ids["base"]))
        let copyChildren = document_.children(of: try #require(ids["copy"]))
        #expect(Array(baseChildren) == Array(copyChildren))
        #expect(document_[copyChildren.first!].location == SourceLocation(line: 1, column: 12))
    }

    @Test func duplicateKeysAreReportedAndTheFirstIsKept() throws {
        let (document, diagnostics) = read("a: 1\nb: 2\na: 3\n")
        #expect(diagnostics.map(\.rule) == [.duplicateKey])
        #expect(diagnostics.first?.location == SourceLocation(line: 3, column: 1))
        #expect(diagnostics.first?.notes.first?.location == SourceLocation(line: 1, column: 1))
        #expect(try value(try #require(document), "a").text == "1")
    }

    /// A mapping of more than a dozen keys (like `states:`) finds repeats through a hash set
    /// rather than pairwise: the same findings, the first of each key kept, the order of the
    /// rest unchanged (a complex key and a canonically equivalent spelling among them).
    @Test func repeatedKeysOfALargeMappingAreFoundAsInASmallOne() throws {
        var random = SplitMix64(seed: 0x0DD_C0DE)
        let keys = (0..<300).map { _ in
            ["k\(random.next() % 120)", "caf\u{E9}", "cafe\u{301}", "[x]"][
                Int(random.next() % 4 == 0 ? random.next() % 4 : 0)]
        }
        let text = keys.enumerated().map { "\($0.element): \($0.offset)" }.joined(separator: "\n")
        let (document, diagnostics) = read(text)
        var first: [String: Int] = [:]
        var expected: [(line: Int, firstLine: Int)] = []
        var keptValues: [String] = []
        for (line, key) in keys.enumerated() {
            if key == "[x]" {
                keptValues.append("\(line)")
                continue
            }
            if let earlier = first[key] {
                expected.append((line + 1, earlier + 1))
                continue
            }
            first[key] = line
            keptValues.append("\(line)")
        }
        #expect(diagnostics.map(\.location.line) == expected.map(\.line))
        #expect(diagnostics.map { $0.notes.first?.location?.line } == expected.map(\.firstLine))
        #expect(diagnostics.allSatisfy { $0.rule == .duplicateKey })
        let document_ = try #require(document)
        let root = try #require(document_.root)
        #expect(document_.pairs(of: root).map { document_[$0.value].text } == keptValues)
    }

    /// The set behind it agrees with a dictionary of first ordinals, with tags of 0 to 31 bits
    /// (with none, every probe compares keys).
    @Test(arguments: [0, 1, 31])
    func theKeySetAgreesWithADictionary(tagBits: Int) {
        var random = SplitMix64(seed: UInt64(tagBits))
        let texts = (0..<2_000).map { _ in "k\(random.next() % 700)" }
        var set = KeySet(pairs: texts.count, maxTagBits: tagBits)
        var kept: [String] = []
        var first: [String: Int] = [:]
        var disagreements = Disagreements()
        for text in texts {
            let found = set.firstOrInsert(ordinal: kept.count, hash: text.hashValue) { kept[$0] == text }
            disagreements.check(found == first[text], "\(text) found at \(found.map(String.init) ?? "nil")")
            if found == nil {
                first[text] = kept.count
                kept.append(text)
            }
        }
        #expect(disagreements.count == 0, "\(disagreements.summary)")
        #expect(kept.count == Set(texts).count)
    }

    @Test func aliasExpansionIsBounded() {
        var limits = YAMLLimits()
        limits.maxAliasExpansion = 10
        let (document, diagnostics) = read("a: &a [1, 2, 3, 4]\nb: [*a, *a, *a]\n", limits: limits)
        #expect(document == nil)
        #expect(diagnostics.map(\.rule) == [.limitExceeded])
        #expect(diagnostics.first?.location == SourceLocation(line: 2, column: 13))
    }

    @Test func nestingIsBounded() {
        var limits = YAMLLimits()
        limits.maxDepth = 3
        let (_, diagnostics) = read("[[[[1]]]]", limits: limits)
        #expect(diagnostics.map(\.rule) == [.limitExceeded])
        #expect(diagnostics.first?.location == SourceLocation(line: 1, column: 4))
    }

    @Test func scalarLengthIsBounded() {
        var limits = YAMLLimits()
        limits.maxScalarLength = 8
        let (_, diagnostics) = read("a: 123456789\n", limits: limits)
        #expect(diagnostics.map(\.rule) == [.limitExceeded])
    }

    @Test func fileSizeIsBounded() {
        var limits = YAMLLimits()
        limits.maxFileSize = 4
        let (_, diagnostics) = read("a: 12\n", limits: limits)
        #expect(diagnostics.map(\.rule) == [.limitExceeded])
    }

    @Test func aHundredThousandLevelsOfNestingEndWithALocatedError() {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let (document, diagnostics) = read(text)
        #expect(document == nil)
        #expect(diagnostics.map(\.rule) == [.limitExceeded])
        #expect(diagnostics.first?.location == SourceLocation(line: 1, column: 257))
    }

    @Test func libyamlErrorsAreLocatedWithTheirContext() {
        let (_, diagnostics) = read("a: [1, 2\n")
        #expect(diagnostics.map(\.rule) == [.yamlSyntax])
        #expect(diagnostics.first?.location == SourceLocation(line: 2, column: 1))
        #expect(diagnostics.first?.notes.first?.location == SourceLocation(line: 1, column: 4))
    }

    @Test func byteOrderMarkAndCRLFAreFine() throws {
        let (document, diagnostics) = read("\u{FEFF}a: 1\r\nb: 2\r\n")
        #expect(diagnostics.isEmpty)
        let b = try value(try #require(document), "b")
        #expect(b.location == SourceLocation(line: 2, column: 4))
    }

    @Test func lineIndexPrintsLinesWithoutBreaksOrMark() {
        let index = LineIndex(SourceFile(path: "x", text: "\u{FEFF}one\r\ntwo\rthree\nfour"))
        #expect(index.line(1) == "one")
        #expect(index.line(2) == "two")
        #expect(index.line(3) == "three")
        #expect(index.line(4) == "four")
        #expect(index.line(5) == nil)
    }
}
