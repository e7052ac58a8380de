import Foundation
import Testing

@testable import FlowSpecCore

// The YAML front end against the official YAML test suite (github.com/yaml/yaml-test-suite),
// read from `../shared/conformance/yaml-test-suite` next to the package. Without that folder
// (a fresh clone) every test here is skipped.
//
// Each case folder holds `in.yaml`, and `error` when the input is invalid, or `in.json` (one
// JSON value per YAML document) when its data can be written as JSON. The test checks that:
// - every invalid case is rejected by `YAMLReader` with a located `yaml-syntax` or
//   `limit-exceeded` finding;
// - every valid case is read without findings and, with `in.json`, to the same data under the
//   YAML 1.2 core schema (`YAMLNode.scalarValue`);
// - every case libyaml 0.2.5 is known to get wrong (`libyaml-0.2.5-known-failures.txt`) still
//   fails the way it is known to, so that a fixed libyaml shows up here as a failure to update;
// - every case flowspec fails on purpose (`YAMLConformance.allowList`) fails exactly that way.
//
// flowspec reads ONE document per file. A valid stream of several documents is reported at its
// second document (`a spec file holds one YAML document; a second one starts here`); for those
// cases the test checks that finding's place against the source, then reads each document on its
// own (the input from the reported line on, again and again) and compares every document's data
// with `in.json`.

/// Where the suite is, its cases, and the failures expected of it.
enum YAMLConformance {
    static let conformanceFolder = Fixtures.packageRoot
        .appendingPathComponent("../shared/conformance").standardizedFileURL
    static let suiteFolder = conformanceFolder.appendingPathComponent("yaml-test-suite")
    static let knownFailuresFile = conformanceFolder.appendingPathComponent("libyaml-0.2.5-known-failures.txt")

    /// What is missing of the suite and libyaml's known failures; empty when both are there.
    static let missing: [String] = {
        var isFolder: ObjCBool = false
        var missing: [String] = []
        if !(FileManager.default.fileExists(atPath: suiteFolder.path, isDirectory: &isFolder) && isFolder.boolValue) {
            missing.append("the folder \(suiteFolder.path)")
        }
        if !FileManager.default.fileExists(atPath: knownFailuresFile.path) {
            missing.append("the file \(knownFailuresFile.path)")
        }
        return missing
    }()

    /// Whether the suite and libyaml's known failures are there.
    static var isAvailable: Bool { missing.isEmpty }

    static var skipMessage: Comment {
        Comment(
            rawValue:
                "\(missing.joined(separator: " and ")) \(missing.count == 1 ? "is" : "are") missing (../shared/conformance "
                + "next to the package holds the YAML test suite and libyaml's known failures): YAML conformance skipped"
        )
    }

    /// Every case, as its folder relative to the suite (`229Q`, `4MUZ/00`), sorted.
    static let caseIDs: [String] = {
        // The enumerator does not go into a symbolic link: start from the real folder.
        let root = suiteFolder.resolvingSymlinksInPath()
        guard isAvailable,
            let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        else { return [] }
        let base = root.path + "/"
        var ids: [String] = []
        for case let url as URL in enumerator where url.lastPathComponent == "in.yaml" {
            let folder = url.deletingLastPathComponent().resolvingSymlinksInPath().path
            if folder.hasPrefix(base) { ids.append(String(folder.dropFirst(base.count))) }
        }
        return ids.sorted()
    }()

    /// How libyaml 0.2.5 gets a case wrong: the section of the known-failures file.
    enum LibYAMLFailure: String, Sendable, CaseIterable {
        /// libyaml reads the input but to the wrong events.
        case eventMismatch = "event_mismatch"
        /// libyaml rejects valid input.
        case falseError = "false_error"
        /// libyaml accepts invalid input.
        case missedError = "missed_error"
    }

    /// The cases of `libyaml-0.2.5-known-failures.txt`: `# section (count)` lines, then one case
    /// id a line. Problems with the file itself are in `knownFailureProblems`.
    static let (knownFailures, knownFailureProblems): ([String: LibYAMLFailure], [String]) = {
        guard isAvailable, let text = try? String(contentsOf: knownFailuresFile, encoding: .utf8) else {
            return ([:], [])
        }
        var failures: [String: LibYAMLFailure] = [:]
        var problems: [String] = []
        var section: LibYAMLFailure?
        var announced: [LibYAMLFailure: Int] = [:]
        var listed: [LibYAMLFailure: Int] = [:]
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                let words = line.dropFirst().split(separator: " ")
                section = words.first.flatMap { LibYAMLFailure(rawValue: String($0)) }
                if section == nil { problems.append("unknown section '\(line)'") }
                if let section, words.count > 1 {
                    announced[section] = Int(words[1].trimmingCharacters(in: CharacterSet(charactersIn: "()")))
                }
                continue
            }
            guard let section else {
                problems.append("'\(line)' comes before any section")
                continue
            }
            if failures.updateValue(section, forKey: line) != nil { problems.append("'\(line)' is listed twice") }
            listed[section, default: 0] += 1
        }
        for (section, count) in announced where listed[section, default: 0] != count {
            problems.append(
                "section \(section.rawValue) announces \(count) cases but lists \(listed[section, default: 0])")
        }
        return (failures, problems)
    }()

    /// How each false error of libyaml 0.2.5 shows: where libyaml stops and the start of its
    /// message (flowspec may add a note, such as its hint about tabs). Observed with 0.2.5; a
    /// change here means libyaml changed: check the case, then update the pin.
    static let pinnedFalseErrors: [String: String] = [
        "2JQS": "1:1 did not find expected key",  // Block Mapping with Missing Keys
        "2LFX": "1:5 found unknown directive name",  // Spec Example 6.13. Reserved Directives [1.3]
        "2SXE": "1:8 mapping values are not allowed in this context",  // Anchors With Colon in Name
        "4ABK": "4:14 found unexpected ':'",  // Flow Mapping Separate Values
        "4MUZ/00": "2:1 did not find expected ',' or '}'",  // Flow mapping colon on line after key
        "4MUZ/01": "2:1 did not find expected ',' or '}'",  // Flow mapping colon on line after key
        "4MUZ/02": "2:1 did not find expected ',' or '}'",  // Flow mapping colon on line after key
        "58MP": "1:5 did not find expected node content",  // Flow mapping edge cases
        "5MUD": "3:3 did not find expected ',' or '}'",  // Colon and adjacent value on next line
        "5T43": "2:11 did not find expected node content",  // Colon at the beginning of adjacent flow scalar
        "6BCT": "3:4 found character that cannot start any token",  // Spec Example 6.3. Separation Spaces
        "6CA3": "1:1 found character that cannot start any token",  // Tab indented top flow
        "6LVF": "1:5 found unknown directive name",  // Spec Example 6.13. Reserved Directives
        "6M2F": "3:1 did not find expected key",  // Aliases in Explicit Block Mapping
        "7Z25": "4:1 did not find expected <document start>",  // Bare document after document end marker
        "8XYN": "2:4 did not find expected alphabetic or numeric character",  // Anchor with unicode character
        // Leading tab content in literals
        "96NN/00": "2:2 found a tab character where an indentation space is expected",
        // Leading tab content in literals
        "96NN/01": "2:2 found a tab character where an indentation space is expected",
        "9SA2": "4:8 did not find expected ',' or '}'",  // Multiline double quoted flow mapping key
        "A2M4": "2:4 found character that cannot start any token",  // Spec Example 6.2. Indentation Indicators
        "BEC7": "1:1 found incompatible YAML document",  // Spec Example 6.14. “YAML” directive
        "CFD4": "1:5 did not find expected node content",  // Empty implicit key in single pair flow sequences
        "DBG4": "8:5 did not find expected node content",  // Spec Example 7.10. Plain Characters
        // Zero indented block scalar with line that looks like a comment
        "DK3J": "2:1 did not find expected <document start>",
        "DK95/00": "2:2 found character that cannot start any token",  // Tabs that look like indentation
        "DK95/03": "1:2 found character that cannot start any token",  // Tabs that look like indentation
        "DK95/04": "2:1 found a tab character that violates indentation",  // Tabs that look like indentation
        "FP8R": "2:1 did not find expected <document start>",  // Zero indented block scalar
        "FRK4": "2:9 found unexpected ':'",  // Spec Example 7.3. Completely Empty Flow Nodes
        "HM87/00": "1:2 did not find expected node content",  // Scalars in flow start with syntax char
        "HWV9": "1:1 did not find expected node content",  // Document-end marker
        "K3WX": "3:3 did not find expected ',' or '}'",  // Colon and adjacent value after comment on next line
        "M2N8/00": "1:5 did not find expected key",  // Question mark edge cases
        "M7A3": "6:1 did not find expected <document start>",  // Spec Example 9.3. Bare Documents
        "MUS6/05": "1:5 found unknown directive name",  // Directive variants
        "MUS6/06": "1:7 found unknown directive name",  // Directive variants
        "NHX8": "1:1 did not find expected key",  // Empty Lines at End of Document
        "NJ66": "4:7 did not find expected ',' or '}'",  // Multiline plain flow mapping key
        "NKF9": "3:1 did not find expected key",  // Empty keys in block and flow mapping
        // Tab at beginning of line followed by a flow mapping
        "Q5MG": "1:1 found character that cannot start any token",
        "QT73": "2:1 did not find expected node content",  // Comment and document-end marker
        // Spec Example 8.2. Block Indentation Indicator
        "R4YG": "10:2 found a tab character where an indentation space is expected",
        "S3PD": "2:1 did not find expected key",  // Spec Example 8.18. Implicit Block Mapping Entries
        "SM9W/01": "1:1 did not find expected key",  // Single character streams
        "UKK6/00": "1:3 did not find expected key",  // Syntax character edge cases
        "UT92": "3:3 did not find expected ',' or '}'",  // Spec Example 9.4. Explicit Documents
        "VJP3/01": "3:2 did not find expected ',' or '}'",  // Flow collections over many lines
        "W4TN": "3:2 could not find expected directive name",  // Spec Example 9.5. Directives Documents
        "W5VH": "1:5 did not find expected alphabetic or numeric character",  // Allowed characters in alias
        "Y79Y/001": "2:2 found a tab character where an indentation space is expected",  // Tabs in various contexts
        "Y79Y/010": "1:2 found character that cannot start any token"  // Tabs in various contexts
    ]

    /// What libyaml 0.2.5 reads each case of wrong events as (in.json says otherwise).
    static let pinnedMisreadings: [String: String] = [
        // `{ ?foo: bar }`: libyaml takes `?` as the explicit-key indicator, not part of the key.
        "652Z": #"[{"bar": 42, "foo": "bar"}]"#,
        // `[?x]`: the same in a flow sequence; a single-pair mapping with the key `x`.
        "HM87/01": #"[[{"x": null}]]"#,
        // `- |+` followed by a line of spaces and no line break: libyaml loses the kept line break.
        "JEF9/02": #"[[""]]"#,
        // A literal scalar ending in a line of spaces without a line break: the last break lost.
        "L24T/01": #"[{"foo": "x\n "}]"#,
        // `&an:chor value`: libyaml ends the anchor name at `:`, so the value is `:chor value`.
        "Y2GN": #"[{"key": ":chor value"}]"#
    ]

    /// Why flowspec fails a case on purpose.
    enum Deliberate: Sendable, Equatable {
        /// A valid stream of several documents: flowspec reads one document per file and reports
        /// the second one where it starts. Checked: that finding and its place, and the data of
        /// every document (each read on its own) against `in.json`.
        case oneDocumentPerFile
    }

    /// The cases flowspec fails on purpose, each with the reason; each must fail exactly that way.
    ///
    /// Reasons that do not occur in this suite: recursive aliases (flowspec rejects them; no
    /// valid case has one) and resource limits (`YAMLLimits`' defaults are far above every case).
    /// Valid multi-document cases that libyaml 0.2.5 already rejects (7Z25, M7A3, NKF9, UT92,
    /// W4TN: false errors) are expected failures instead; once libyaml reads them they belong here.
    static let allowList: [String: Deliberate] = [
        // One document per file (see `Deliberate.oneDocumentPerFile`).
        "35KP": .oneDocumentPerFile,  // Tags for Root Objects: 3 documents
        "5TYM": .oneDocumentPerFile,  // Spec Example 6.21. Local Tag Prefix: 2 documents, %TAG each
        "6WLZ": .oneDocumentPerFile,  // Spec Example 6.18. Primary Tag Handle [1.3]: 2 documents
        "6XDY": .oneDocumentPerFile,  // Two document start markers: 2 empty documents
        "6ZKB": .oneDocumentPerFile,  // Spec Example 9.6. Stream: 3 documents
        "9DXL": .oneDocumentPerFile,  // Spec Example 9.6. Stream [1.3]: 3 documents
        "9KAX": .oneDocumentPerFile,  // Various combinations of tags and anchors: 8 documents
        "9WXW": .oneDocumentPerFile,  // Spec Example 6.18. Primary Tag Handle: 2 documents
        "JHB9": .oneDocumentPerFile,  // Spec Example 2.7. Two Documents in a Stream
        "KSS4": .oneDocumentPerFile,  // Scalars on --- line: 2 documents
        "L383": .oneDocumentPerFile,  // Two scalar docs with trailing comments
        "PUW8": .oneDocumentPerFile,  // Document start on last line: 2 documents, the second empty
        "RZT7": .oneDocumentPerFile,  // Spec Example 2.28. Log File: 3 documents
        "U9NS": .oneDocumentPerFile  // Spec Example 2.8. Play by Play Feed from a Game: 2 documents
    ]
}

/// One suite case: its files and how `YAMLReader` fares on it.
struct SuiteCase {
    let id: String
    let name: String
    let source: [UInt8]
    let isError: Bool
    /// The JSON documents of `in.json`, `nil` without that file.
    let expectedJSON: [SuiteValue]?
    /// How many documents `test.event` has (`+DOC` lines).
    let eventDocuments: Int?

    init(id: String) throws {
        let folder = YAMLConformance.suiteFolder.appendingPathComponent(id)
        func file(_ name: String) -> URL { folder.appendingPathComponent(name) }
        func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: file(name).path) }
        self.id = id
        name =
            (try? String(contentsOf: file("==="), encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        source = Array(try Data(contentsOf: file("in.yaml")))
        isError = exists("error")
        expectedJSON = exists("in.json") ? try SuiteValue.documents(Array(try Data(contentsOf: file("in.json")))) : nil
        eventDocuments = (try? String(contentsOf: file("test.event"), encoding: .utf8)).map { events in
            events.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("+DOC") }.count
        }
    }
}

/// What a case came to, and why.
struct SuiteJudgement {
    var verdict: SuiteVerdict
    /// What is wrong (the verdict is then `.failed`).
    var problems: [String]
    /// What happened, for the verbose report.
    var notes: [String]
    /// How many documents matched in.json.
    var matchedDocuments: Int
    /// Whether the reader reported a duplicate key.
    var duplicateKeys: Bool
}

/// What a case came to.
enum SuiteVerdict: Equatable {
    /// Read as the suite says.
    case passed
    /// Fails as libyaml 0.2.5 is known to.
    case expectedFailure(YAMLConformance.LibYAMLFailure)
    /// Fails as flowspec means to.
    case allowListed(YAMLConformance.Deliberate)
    /// Not as expected; the problems say how.
    case failed
}

// MARK: - Reading

/// One run of `YAMLReader` over some bytes.
struct SuiteReaderRun {
    let document: YAMLDocument?
    let diagnostics: [Diagnostic]

    init(_ bytes: ArraySlice<UInt8>) {
        let sink = DiagnosticCollector(file: "in.yaml")
        document = YAMLReader().read(Array(bytes), into: sink)
        diagnostics = sink.diagnostics
    }

    /// The finding that stopped the read, when it stopped (the reader reports it last).
    var stop: Diagnostic? { document == nil ? diagnostics.last : nil }
}

/// Who a finding that stops a read comes from.
enum SuiteStopKind: Equatable, CustomStringConvertible {
    /// libyaml's own error (a parser, scanner or reader error).
    case libyaml
    /// flowspec's one-document rule.
    case secondDocument
    /// flowspec's check of aliases: one with no anchor, or one inside its own anchor.
    case unknownAlias, recursiveAlias
    /// One of `YAMLLimits`.
    case limit
    /// Something else (a finding the test does not know).
    case other

    init(_ diagnostic: Diagnostic) {
        switch diagnostic.rule {
        case .limitExceeded: self = .limit
        case .yamlSyntax:
            if diagnostic.message.hasPrefix("a spec file holds one YAML document") {
                self = .secondDocument
            } else if diagnostic.message.hasPrefix("the alias '*") {
                self = diagnostic.message.contains("recursive") ? .recursiveAlias : .unknownAlias
            } else {
                self = .libyaml
            }
        default: self = .other
        }
    }

    var description: String {
        switch self {
        case .libyaml: "libyaml's error"
        case .secondDocument: "flowspec's one-document finding"
        case .unknownAlias: "flowspec's unknown-alias finding"
        case .recursiveAlias: "flowspec's recursive-alias finding"
        case .limit: "a limit"
        case .other: "an unexpected finding"
        }
    }
}

/// A whole stream read document by document: flowspec's own read, then, each time it reports a
/// second document at a line, the input up to that line read alone (the document) and the input
/// from that line on read again (the rest of the stream).
///
/// Reading a later document as the start of a stream is a little more lenient than libyaml
/// reading the whole stream: a bare document after `...` is accepted there (libyaml 0.2.5
/// rejects it in the middle of a stream). The first read, flowspec's own, is exact.
struct SuiteStreamRun {
    /// flowspec's own read of the file.
    let first: SuiteReaderRun
    /// Each document read, in order (a stream of only comments has none).
    private(set) var documents: [YAMLDocument] = []
    /// Where flowspec reported a second document, in lines of the whole file, once per split.
    private(set) var splits: [FlowSpecCore.SourceLocation] = []
    /// The finding that stopped the stream (not a second document), placed in the whole file.
    private(set) var stop: Diagnostic?
    /// Findings that did not stop a read (duplicate keys), placed in the whole file.
    private(set) var warnings: [Diagnostic] = []
    /// Problems with the splitting itself.
    private(set) var problems: [String] = []

    init(_ source: [UInt8]) {
        first = SuiteReaderRun(source[...])
        let lineStarts = Self.lineStarts(source)
        var startLine = 1
        var run = first
        for _ in 0..<1_000 {
            func placed(_ diagnostic: Diagnostic) -> Diagnostic {
                var placed = diagnostic
                placed.location.line += startLine - 1
                return placed
            }
            guard let stop = run.stop else {
                if let document = run.document, document.root != nil { documents.append(document) }
                warnings += run.diagnostics.map(placed)
                return
            }
            guard SuiteStopKind(stop) == .secondDocument, stop.location.line > 1,
                startLine - 1 + stop.location.line - 1 < lineStarts.count
            else {
                self.stop = placed(stop)
                return
            }
            let splitLine = startLine - 1 + stop.location.line
            splits.append(FlowSpecCore.SourceLocation(line: splitLine, column: stop.location.column))
            let piece = source[lineStarts[startLine - 1]..<lineStarts[splitLine - 1]]
            let alone = SuiteReaderRun(piece)
            if let document = alone.document {
                if document.root != nil { documents.append(document) }
                warnings += alone.diagnostics.map(placed)
            } else {
                problems.append(
                    "the document before line \(splitLine), read alone, fails: "
                        + (alone.stop.map { "\($0.location): \($0.message)" } ?? "no finding"))
                return
            }
            startLine = splitLine
            run = SuiteReaderRun(source[lineStarts[splitLine - 1]...])
        }
        problems.append("more than 1000 documents")
    }

    /// The byte offset where each line starts (line breaks: LF, CRLF, CR, as libyaml counts them
    /// for positions).
    static func lineStarts(_ source: [UInt8]) -> [Int] {
        var starts = [0]
        var index = 0
        while index < source.count {
            let byte = source[index]
            if byte == UInt8(ascii: "\n") {
                starts.append(index + 1)
            } else if byte == UInt8(ascii: "\r") {
                if index + 1 < source.count, source[index + 1] == UInt8(ascii: "\n") { index += 1 }
                starts.append(index + 1)
            }
            index += 1
        }
        return starts
    }
}

// MARK: - Data

/// A JSON-like value: what `in.json` holds, and what a YAML document means under the core schema.
indirect enum SuiteValue: Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int)
    /// An integer outside `Int`, as written.
    case bigInt(String)
    case float(Double)
    case string(String)
    case array([SuiteValue])
    case object([String: SuiteValue])

    static func == (lhs: SuiteValue, rhs: SuiteValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.int(a), .int(b)): a == b
        case let (.bigInt(a), .bigInt(b)): a == b
        case let (.float(a), .float(b)): a == b || (a.isNaN && b.isNaN)
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a == b
        default: false
        }
    }

    /// Whether data read from YAML (`self`) is what `in.json` says (`expected`). Exact, but for
    /// one thing: the suite writes a YAML float with a whole value as a JSON integer (`450.00`
    /// as `450`), so a float read matches an integer of in.json of the same value. An integer
    /// read never matches a JSON number written with a fraction or exponent.
    func matches(_ expected: SuiteValue) -> Bool {
        switch (self, expected) {
        case let (.float(read), .int(json)): Double(exactly: json) == read
        case let (.array(read), .array(json)):
            read.count == json.count && zip(read, json).allSatisfy { $0.matches($1) }
        case let (.object(read), .object(json)):
            read.count == json.count && read.allSatisfy { key, value in json[key].map(value.matches) ?? false }
        default: self == expected
        }
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .int(let value): "\(value)"
        case .bigInt(let text): text
        case .float(let value): "\(value)"
        case .string(let text): Self.quoted(text)
        case .array(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .object(let members):
            "{"
                + members.sorted { $0.key < $1.key }
                .map { "\(Self.quoted($0.key)): \($0.value)" }.joined(separator: ", ") + "}"
        }
    }

    private static func quoted(_ text: String) -> String {
        "\""
            + text.unicodeScalars.map { scalar -> String in
                switch scalar {
                case "\"": "\\\""
                case "\\": "\\\\"
                case "\n": "\\n"
                case "\t": "\\t"
                case "\r": "\\r"
                default: scalar.value < 0x20 ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
                }
            }.joined() + "\""
    }

    struct Unreadable: Error, CustomStringConvertible {
        let description: String
    }

    // MARK: From JSON

    /// The JSON values of a file holding zero or more of them, one after another.
    static func documents(_ bytes: [UInt8]) throws -> [SuiteValue] {
        try split(bytes).map { slice in
            try SuiteValue(json: JSONSerialization.jsonObject(with: Data(slice), options: [.fragmentsAllowed]))
        }
    }

    /// Splits concatenated JSON values (`{…} […] "…" 1 null`) apart.
    static func split(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        var values: [ArraySlice<UInt8>] = []
        var index = 0
        while true {
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            guard index < bytes.count else { return values }
            let start = index
            var depth = 0
            var inString = false
            var escaped = false
            scan: while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                        if depth == 0 { break scan }
                    }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    depth -= 1
                    if depth == 0 { break scan }
                default:
                    if depth == 0, index < bytes.count, isSpace(bytes[index]) { break scan }
                }
            }
            values.append(bytes[start..<index])
        }
    }

    /// A value from `JSONSerialization`: `1` is an integer, `1.0` a float (the number's type
    /// tells them apart), `true` a boolean (an `NSNumber` of type `c`), not the integer 1.
    init(json: Any) throws {
        switch json {
        case is NSNull: self = .null
        case let text as String: self = .string(text)
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c", "B": self = .bool(number.boolValue)
            case "d", "f": self = .float(number.doubleValue)
            case "Q" where number.uint64Value > UInt64(Int.max): self = .bigInt(number.stringValue)
            default: self = .int(number.intValue)
            }
        case let items as [Any]: self = .array(try items.map(SuiteValue.init(json:)))
        case let members as [String: Any]:
            self = .object(try members.mapValues(SuiteValue.init(json:)))
        default: throw Unreadable(description: "a JSON value of type \(type(of: json))")
        }
    }

    // MARK: From YAML

    /// The meaning of a document's root under the core schema; `nil` for an empty stream.
    init?(_ document: YAMLDocument) throws {
        guard let root = document.root else { return nil }
        self = try SuiteValue(document, root, depth: 0)
    }

    init(_ document: YAMLDocument, _ id: YAMLDocument.NodeID, depth: Int) throws {
        guard depth < 1_000 else { throw Unreadable(description: "nesting deeper than 1000") }
        let node = document[id]
        switch node.kind {
        case .scalar:
            self = SuiteValue(node.scalarValue)
        case .sequence:
            self = .array(try document.children(of: id).map { try SuiteValue(document, $0, depth: depth + 1) })
        case .taken:
            throw Unreadable(description: "a subtree taken while reading (this reader takes none)")
        case .mapping:
            var members: [String: SuiteValue] = [:]
            for (key, value) in document.pairs(of: id) {
                let keyNode = document[key]
                guard keyNode.kind == .scalar else {
                    throw Unreadable(description: "a \(keyNode.kind) as a key at \(keyNode.location)")
                }
                guard case .string(let name) = keyNode.scalarValue else {
                    throw Unreadable(
                        description: "the key \(SuiteValue(keyNode.scalarValue)) at \(keyNode.location) is not a string"
                    )
                }
                if members.updateValue(try SuiteValue(document, value, depth: depth + 1), forKey: name) != nil {
                    throw Unreadable(description: "the key \(Self.quoted(name)) twice at \(keyNode.location)")
                }
            }
            self = .object(members)
        }
    }

    init(_ scalar: ScalarValue) {
        switch scalar {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .int(let value): self = .int(value)
        case .bigInt(let text): self = .bigInt(text)
        case .float(let value): self = .float(value)
        case .string(let text): self = .string(text)
        }
    }
}

// MARK: - Judging a case

extension SuiteCase {
    /// Judges the case: the verdict, and what is wrong when it is `.failed` (or an expectation
    /// that no longer holds).
    func judge() -> SuiteJudgement {
        let stream = SuiteStreamRun(source)
        var problems = stream.problems
        var notes: [String] = []
        let first = stream.first
        let firstStop = first.stop.map(SuiteStopKind.init)
        func describe(_ diagnostic: Diagnostic?) -> String {
            guard let diagnostic else { return "no finding" }
            return "\(diagnostic.rule.rawValue) at \(diagnostic.location): \(diagnostic.message)"
        }
        /// The documents' data, or why they have none.
        func data() -> Result<[SuiteValue], SuiteValue.Unreadable> {
            Result { try stream.documents.compactMap { try SuiteValue($0) } }
                .mapError { $0 as? SuiteValue.Unreadable ?? .init(description: "\($0)") }
        }
        var matchedDocuments = 0
        func checkData() {
            guard let expected = expectedJSON else { return }
            switch data() {
            case .success(let actual)
            where actual.count == expected.count
                && zip(actual, expected).allSatisfy({ $0.matches($1) }):
                matchedDocuments = expected.count
            case .success(let actual):
                problems.append("data differs from in.json: expected \(expected), read \(actual)")
            case .failure(let error):
                problems.append("data cannot be compared with in.json: \(error)")
            }
        }
        func checkLocated(_ diagnostic: Diagnostic) {
            let lines = SuiteStreamRun.lineStarts(source).count
            if diagnostic.location.line < 1 || diagnostic.location.column < 1 || diagnostic.location.line > lines {
                problems.append("the finding is not placed in the file: \(describe(diagnostic))")
            }
        }

        func finish(_ verdict: SuiteVerdict) -> SuiteJudgement {
            SuiteJudgement(
                verdict: problems.isEmpty ? verdict : .failed, problems: problems, notes: notes,
                matchedDocuments: matchedDocuments,
                duplicateKeys: (first.diagnostics + stream.warnings).contains { $0.rule == .duplicateKey })
        }

        if let known = YAMLConformance.knownFailures[id] {
            switch known {
            case .falseError:
                // Valid input that libyaml rejects: its own error stops flowspec's read.
                if firstStop == .libyaml, let stop = first.stop {
                    checkLocated(stop)
                    notes.append("libyaml: \(describe(stop))")
                    if let pin = YAMLConformance.pinnedFalseErrors[id] {
                        let (place, message) =
                            pin.firstIndex(of: " ").map { (pin[..<$0], pin[$0...].dropFirst()) } ?? (pin[...], "")
                        if "\(stop.location)" != place || !stop.message.hasPrefix(message) {
                            problems.append(
                                "libyaml 0.2.5 is known to reject this valid input with '\(pin)', "
                                    + "now it is \(describe(stop)); check the case, then update the pin")
                        }
                    } else {
                        problems.append(
                            "no pinned error for this known false error: add \"\(id)\": "
                                + "\"\(stop.location) \(stop.message)\" to pinnedFalseErrors")
                    }
                } else {
                    problems.append(
                        "libyaml 0.2.5 is known to reject this valid input, but flowspec's read "
                            + "ends with \(firstStop.map { "\($0): \(describe(first.stop))" } ?? "a document"); "
                            + "update libyaml-0.2.5-known-failures.txt and this test")
                }
            case .missedError:
                // Invalid input that libyaml accepts: no libyaml error in any document.
                if let stop = stream.stop {
                    problems.append(
                        "libyaml 0.2.5 is known to accept this invalid input, but it now stops: "
                            + "\(describe(stop)); update libyaml-0.2.5-known-failures.txt")
                } else if firstStop == .secondDocument {
                    notes.append("accepted by libyaml; flowspec still rejects it: \(describe(first.stop))")
                } else {
                    notes.append("accepted by libyaml and by flowspec")
                }
            case .eventMismatch:
                // Valid input that libyaml reads to the wrong events: read, to other data.
                if let stop = stream.stop {
                    problems.append(
                        "libyaml 0.2.5 is known to read this input to wrong events, but it now "
                            + "stops: \(describe(stop)); update libyaml-0.2.5-known-failures.txt")
                } else if case .success(let actual) = data() {
                    let read = SuiteValue.array(actual).description
                    notes.append(
                        "read as \(read), in.json says \(expectedJSON.map { "\(SuiteValue.array($0))" } ?? "nothing")")
                    if let pin = YAMLConformance.pinnedMisreadings[id] {
                        if read != pin {
                            problems.append(
                                "libyaml 0.2.5 is known to read this input as \(pin), now it reads "
                                    + "\(read)\(read == expectedJSON.map { "\(SuiteValue.array($0))" } ? " as in.json says" : ""); "
                                    + "check the case, then update libyaml-0.2.5-known-failures.txt and the pin")
                        }
                    } else {
                        problems.append(
                            "no pinned data for this known misreading: add \"\(id)\": \(read) to pinnedMisreadings")
                    }
                } else {
                    problems.append(
                        "libyaml 0.2.5 is known to read this input to wrong events, but its data "
                            + "cannot be compared any more: \(data())")
                }
            }
            return finish(.expectedFailure(known))
        }

        if let deliberate = YAMLConformance.allowList[id] {
            switch deliberate {
            case .oneDocumentPerFile:
                if isError { problems.append("allow-listed as a valid multi-document stream, but the case is invalid") }
                if firstStop != .secondDocument {
                    problems.append(
                        "expected flowspec's one-document finding at the second document, "
                            + "got \(firstStop.map { "\($0): \(describe(first.stop))" } ?? "a document")")
                } else if let stop = first.stop {
                    checkLocated(stop)
                    if let place = secondDocumentProblem(at: stop.location) { problems.append(place) }
                    notes.append("second document at \(stop.location)")
                }
                if let stop = stream.stop { problems.append("a later document fails: \(describe(stop))") }
                if let eventDocuments, eventDocuments != stream.documents.count {
                    problems.append("read \(stream.documents.count) documents, test.event has \(eventDocuments)")
                }
                if !stream.warnings.isEmpty {
                    problems += stream.warnings.map { "unexpected finding: \(describe($0))" }
                }
                checkData()
            }
            return finish(.allowListed(deliberate))
        }

        if isError {
            if let stop = first.stop, stop.rule == .yamlSyntax || stop.rule == .limitExceeded {
                checkLocated(stop)
                notes.append(
                    "rejected by \(SuiteStopKind(stop)): \(describe(stop))"
                        + (SuiteStopKind(stop) == .secondDocument
                            ? "; reading on, libyaml stops at \(describe(stream.stop))" : ""))
            } else {
                problems.append(
                    "invalid input is not rejected: "
                        + (first.document == nil
                            ? describe(first.stop) : "read, with findings \(first.diagnostics.map(describe))"))
            }
            return finish(.passed)
        }

        // Valid input: one document (or none), read without findings, to the data of in.json.
        if let stop = first.stop {
            problems.append(
                "valid input is rejected by \(SuiteStopKind(stop)): \(describe(stop))"
                    + (SuiteStopKind(stop) == .secondDocument
                        ? " (a multi-document stream missing from the allow-list?)" : ""))
        } else {
            problems += first.diagnostics.map { "unexpected finding: \(describe($0))" }
            if let eventDocuments, eventDocuments != stream.documents.count {
                problems.append("read \(stream.documents.count) documents, test.event has \(eventDocuments)")
            }
            checkData()
        }
        return finish(.passed)
    }

    /// Whether a place is where a document starts: a line starting with `---` or a directive
    /// (`%`), or the first thing after a `...` line; `nil` when it is, else what is wrong.
    func secondDocumentProblem(at location: FlowSpecCore.SourceLocation) -> String? {
        let starts = SuiteStreamRun.lineStarts(source)
        func line(_ number: Int) -> String {
            let end = number < starts.count ? starts[number] : source.count
            return String(decoding: source[starts[number - 1]..<end], as: UTF8.self)
                .trimmingCharacters(in: .newlines)
        }
        guard location.line > 1, location.line <= starts.count else {
            return "the second document is reported at \(location), not on a later line"
        }
        let text = line(location.line)
        let indent = text.prefix { $0 == " " }.count
        if location.column != indent + 1 {
            return "the second document is reported at \(location), not at the start of '\(text)'"
        }
        if text.hasPrefix("---") || text.hasPrefix("%") { return nil }
        // A bare document: the last line before it that is not blank or a comment is `...`.
        for number in stride(from: location.line - 1, through: 1, by: -1) {
            let previous = line(number).trimmingCharacters(in: .whitespaces)
            if previous.isEmpty || previous.hasPrefix("#") { continue }
            if previous.hasPrefix("...") { return nil }
            break
        }
        return "the second document is reported at \(location), but '\(text)' does not start a document"
    }
}

// MARK: - Tests

@Suite("YAML test suite conformance", .enabled(if: YAMLConformance.isAvailable, YAMLConformance.skipMessage))
struct YAMLConformanceTests {
    /// Each case, judged on its own.
    @Test("case", arguments: YAMLConformance.caseIDs)
    func conformance(caseID: String) throws {
        let testCase = try SuiteCase(id: caseID)
        for problem in testCase.judge().problems {
            Issue.record("\(caseID) (\(testCase.name)): \(problem)")
        }
    }

    /// The lists are consistent with the suite, and the numbers of the run.
    @Test func tally() throws {
        let clock = ContinuousClock()
        let started = clock.now
        let ids = YAMLConformance.caseIDs
        #expect(ids.count > 300, "only \(ids.count) cases found in \(YAMLConformance.suiteFolder.path)")
        #expect(
            YAMLConformance.knownFailureProblems.isEmpty,
            "libyaml-0.2.5-known-failures.txt: \(YAMLConformance.knownFailureProblems)")
        let known = Set(ids)
        for id in YAMLConformance.knownFailures.keys.sorted() where !known.contains(id) {
            Issue.record("the known failure \(id) is not a case of the suite")
        }
        for id in YAMLConformance.allowList.keys.sorted() {
            if !known.contains(id) { Issue.record("the allow-listed \(id) is not a case of the suite") }
            if YAMLConformance.knownFailures[id] != nil {
                Issue.record("\(id) is both allow-listed and a known libyaml failure")
            }
        }
        for id in YAMLConformance.pinnedFalseErrors.keys.sorted() where YAMLConformance.knownFailures[id] != .falseError
        {
            Issue.record("\(id) has a pinned libyaml error but is not a known false error")
        }
        for id in YAMLConformance.pinnedMisreadings.keys.sorted()
        where YAMLConformance.knownFailures[id] != .eventMismatch {
            Issue.record("\(id) has pinned data but is not a known event mismatch")
        }

        var counts: [String: Int] = [:]
        var lines: [String] = []
        var rejectedByOneDocumentRule: [String] = []
        var withDuplicateKeys: [String] = []
        var missedButRejected: [String] = []
        var matchedCases = 0
        var matchedDocuments = 0
        for id in ids {
            let testCase = try SuiteCase(id: id)
            let judgement = testCase.judge()
            let (verdict, problems, notes) = (judgement.verdict, judgement.problems, judgement.notes)
            if judgement.matchedDocuments > 0 {
                matchedCases += 1
                matchedDocuments += judgement.matchedDocuments
            }
            if judgement.duplicateKeys { withDuplicateKeys.append(id) }
            if verdict == .expectedFailure(.missedError),
                notes.contains(where: { $0.contains("flowspec still rejects") })
            {
                missedButRejected.append(id)
            }
            let label: String
            switch verdict {
            case .passed: label = "passed"
            case .expectedFailure(let failure): label = "expected failure (\(failure.rawValue))"
            case .allowListed: label = "allow-listed"
            case .failed: label = "FAILED"
            }
            counts[label, default: 0] += 1
            if testCase.isError, notes.contains(where: { $0.contains("\(SuiteStopKind.secondDocument)") }) {
                rejectedByOneDocumentRule.append(id)
            }
            if Self.verbose || verdict == .failed {
                lines.append("\(id) [\(label)] \(testCase.name)" + (notes + problems).map { "\n    \($0)" }.joined())
            }
        }
        let elapsed = clock.now - started
        var report = "YAML test suite: \(ids.count) cases in \(elapsed)\n"
        for (label, count) in counts.sorted(by: { $0.key < $1.key }) { report += "  \(label): \(count)\n" }
        report += "  data matched in.json: \(matchedDocuments) documents of \(matchedCases) cases\n"
        report += "  invalid cases rejected only by the one-document rule: \(rejectedByOneDocumentRule)\n"
        report += "  known libyaml missed errors flowspec rejects anyway (one-document rule): \(missedButRejected)\n"
        report += "  cases with duplicate keys: \(withDuplicateKeys)\n"
        if !lines.isEmpty { report += lines.joined(separator: "\n") + "\n" }
        print(report)
    }

    /// Set `FLOWSPEC_YAML_CONFORMANCE_VERBOSE=1` to print every case's verdict and notes.
    static var verbose: Bool {
        ProcessInfo.processInfo.environment["FLOWSPEC_YAML_CONFORMANCE_VERBOSE"] == "1"
    }
}
