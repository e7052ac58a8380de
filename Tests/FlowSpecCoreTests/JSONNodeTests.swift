import Foundation
import Testing

@testable import FlowSpecCore

/// `check --format json` and `--format sarif` print with ``JSONNode`` rather than with
/// `JSONEncoder` (so that findings stream out one by one), and promise the very bytes
/// `JSONEncoder` would print. These tests hold the printer to that, value by value.
@Suite("JSON printing")
struct JSONNodeTests {
    /// The same value for `JSONEncoder`.
    indirect enum Reference: Encodable {
        case string(String)
        case int(Int)
        case bool(Bool)
        case array([Reference])
        case object([String: Reference])

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .string(let text):
                var container = encoder.singleValueContainer()
                try container.encode(text)
            case .int(let value):
                var container = encoder.singleValueContainer()
                try container.encode(value)
            case .bool(let value):
                var container = encoder.singleValueContainer()
                try container.encode(value)
            case .array(let items): try items.encode(to: encoder)
            case .object(let members): try members.encode(to: encoder)
            }
        }

        var value: JSONNode {
            switch self {
            case .string(let text): .string(text)
            case .int(let value): .int(value)
            case .bool(let value): .bool(value)
            case .array(let items): .array(items.map(\.value))
            case .object(let members): .object(members.mapValues(\.value))
            }
        }
    }

    static func encoded(_ reference: Reference) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(reference), as: UTF8.self) + "\n"
    }

    static func printed(_ value: JSONNode) -> String {
        var output = ""
        value.writeDocument(to: &output)
        return output
    }

    static func expectSame(_ reference: Reference, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        #expect(printed(reference.value) == (try encoded(reference)), sourceLocation: sourceLocation)
    }

    @Test func everyASCIICharacterIsWrittenAsTheEncoderWritesIt() throws {
        for value in 0..<0x80 {
            let character = String(UnicodeScalar(UInt8(value)))
            try Self.expectSame(.array([.string(character), .string("a\(character)b")]))
            try Self.expectSame(.object([character: .int(value)]))
        }
    }

    @Test func textOutsideASCIIIsWrittenAsIs() throws {
        let texts = [
            "é", "e\u{301}", "\u{85}", "\u{A0}", "\u{2028}\u{2029}", "\u{FEFF}", "😀", "\u{10FFFF}",
            "日本語\n\"quoted\"\t\\", "/path/to/spec.yaml", ""
        ]
        for text in texts {
            try Self.expectSame(.object(["text": .string(text), text + "key": .string(text)]))
        }
    }

    @Test func emptyAndNestedCollectionsAreLaidOutAsTheEncoderLaysThemOut() throws {
        try Self.expectSame(.array([]))
        try Self.expectSame(.object([:]))
        try Self.expectSame(.object(["a": .array([]), "b": .object([:]), "c": .array([.array([]), .object([:])])]))
        try Self.expectSame(.array([.object(["x": .array([.object(["y": .array([.int(1), .int(-2)])])])]), .int(0)]))
        try Self.expectSame(.array([.int(Int.min), .int(Int.max)]))
        try Self.expectSame(.object(["no": .bool(false), "yes": .bool(true), "list": .array([.bool(true)])]))
    }

    @Test func keysAreInTheEncodersOrder() throws {
        let keys = [
            "zeta", "Alpha", "alpha", "a10", "a9", "$schema", "_x", "ruleIndex", "ruleId", "uri", "uriBaseId",
            "startLine", "startColumn", "é", "e", "Z"
        ]
        try Self.expectSame(.object(Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, .int($0)) })))
    }

    @Test func aLazyArrayIsPrintedAsTheArrayOfItsItems() {
        let items: [JSONNode] = (0..<5).map { .object(["n": .int($0), "s": .string("item \($0)")]) }
        #expect(Self.printed(.lazyArray(count: 5) { items[$0] }) == Self.printed(.array(items)))
        #expect(Self.printed(.lazyArray(count: 0) { _ in .int(0) }) == Self.printed(.array([])))
    }

    @Test func aSARIFURIKeepsUnreservedCharactersAndPercentEncodesTheRest() {
        #expect(SARIFRenderer.uri("specs/app-1.flow_spec~.yaml") == "specs/app-1.flow_spec~.yaml")
        #expect(SARIFRenderer.uri("my specs/a%b.yaml") == "my%20specs/a%25b.yaml")
        #expect(SARIFRenderer.uri("é:#?.yaml") == "%C3%A9%3A%23%3F.yaml")
        #expect(SARIFRenderer.uri("\u{0}\u{7F}") == "%00%7F")
    }
}
