import Foundation
import Testing

@testable import FlowSpecCore

/// The malformed and odd specs in `Tests/Fixtures/adversarial` (see its README): each one's text
/// output is compared byte for byte with the `NN-name.txt` beside it. Re-record deliberately with
/// `FLOWSPEC_RECORD_GOLDEN=1 swift test --filter AdversarialCorpusTests` and review every changed
/// golden: each one is a promise about what a user sees. The files with bytes an editor would
/// mangle are written by `make-binary-cases.py` in the same folder.
@Suite("Adversarial corpus")
struct AdversarialCorpusTests {
    static let folder = "Tests/Fixtures/adversarial"
    static let specs = Fixtures.specs(under: "adversarial")

    /// Valid specs with a UTF-8 byte-order mark and CRLF or CR line endings (the second also
    /// with tabs in its comments): they must check clean.
    static let validWithBOM = [
        "\(folder)/076-bom-crlf-clean.yaml",
        "\(folder)/077-bom-cr-tabs-comments-clean.yaml"
    ]

    static func goldenURL(_ spec: String) -> URL {
        Fixtures.packageRoot.appendingPathComponent(String(spec.dropLast(".yaml".count)) + ".txt")
    }

    static func check(_ spec: String) throws -> (file: SourceFile, diagnostics: [Diagnostic]) {
        let file = try Fixtures.source(spec)
        return (file, SpecChecker().check(file).diagnostics)
    }

    @Test("text output matches the golden file", arguments: specs)
    func matchesGolden(spec: String) throws {
        let (file, diagnostics) = try Self.check(spec)
        let output = DiagnosticRenderer.render(diagnostics, files: [file], format: .text)
        let golden = Self.goldenURL(spec)
        try Fixtures.expectGolden(output, at: golden)
    }

    @Test("the corpus has at least 60 cases, each named NN-name.yaml with its golden, and no stray golden")
    func corpusIsComplete() throws {
        #expect(Self.specs.count >= 60, "only \(Self.specs.count) adversarial cases")
        let pattern = try Regex("^[0-9]{2,3}-[a-z0-9]+(-[a-z0-9]+)*\\.yaml$")
        for spec in Self.specs {
            let name = URL(fileURLWithPath: spec).lastPathComponent
            #expect(name.wholeMatch(of: pattern) != nil, "\(name) is not named NN-short-name.yaml")
            #expect(
                FileManager.default.fileExists(atPath: Self.goldenURL(spec).path),
                "missing \(Self.goldenURL(spec).lastPathComponent): run FLOWSPEC_RECORD_GOLDEN=1 swift test")
        }
        let folder = Fixtures.packageRoot.appendingPathComponent(Self.folder)
        let goldens = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".txt") }
        for golden in goldens {
            let spec = "\(Self.folder)/\(golden.dropLast(".txt".count)).yaml"
            #expect(Self.specs.contains(spec), "\(golden) has no spec beside it")
        }
        let prefixes = Self.specs.map { URL(fileURLWithPath: $0).lastPathComponent.prefix { $0 != "-" } }
        #expect(Set(prefixes).count == prefixes.count, "two cases share a number")
        let readme = try String(contentsOf: folder.appendingPathComponent("README.md"), encoding: .utf8)
        for spec in Self.specs {
            let name = URL(fileURLWithPath: spec).lastPathComponent
            #expect(readme.contains("`\(name)`"), "README.md does not describe \(name)")
        }
    }

    @Test("valid specs with a byte-order mark and CRLF or CR line endings check clean", arguments: validWithBOM)
    func bomAndLineEndingsAreClean(spec: String) throws {
        let (file, diagnostics) = try Self.check(spec)
        #expect(file.bytes.starts(with: [0xEF, 0xBB, 0xBF]), "\(spec) does not start with a byte-order mark")
        #expect(file.bytes.contains(UInt8(ascii: "\r")), "\(spec) has no CR line ending")
        #expect(diagnostics.isEmpty, "\(diagnostics.map { "\($0.location): \($0.message) [\($0.rule.rawValue)]" })")
        #expect(try String(contentsOf: Self.goldenURL(spec), encoding: .utf8).isEmpty)
    }

    @Test("every finding has a position, and every error points inside the file", arguments: specs)
    func findingsAreLocated(spec: String) throws {
        let (file, diagnostics) = try Self.check(spec)
        let lines = Self.lineCount(file.bytes)
        for diagnostic in diagnostics {
            let where_ =
                "\(spec):\(diagnostic.location) [\(diagnostic.rule.rawValue)] \(diagnostic.message.prefix(200))"
            #expect(diagnostic.location.line >= 1 && diagnostic.location.column >= 1, "\(where_)")
            if diagnostic.severity == .error {
                #expect(diagnostic.location.line <= lines + 1, "\(where_): the file has \(lines) lines")
            }
            for note in diagnostic.notes {
                guard let location = note.location else { continue }
                #expect(
                    location.line >= 1 && location.column >= 1 && location.line <= lines + 1,
                    "\(where_): note at \(location)")
            }
        }
    }

    /// Lines as an editor counts them: LF, CRLF and a lone CR each end one.
    static func lineCount(_ bytes: [UInt8]) -> Int {
        var count = 0
        var index = 0
        var atLineStart = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                if byte == UInt8(ascii: "\r"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") {
                    index += 1
                }
                count += 1
                atLineStart = true
            } else {
                atLineStart = false
            }
            index += 1
        }
        return count + (atLineStart ? 0 : 1)
    }
}
