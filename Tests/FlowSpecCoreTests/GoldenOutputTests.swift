import Foundation
import Testing

@testable import FlowSpecCore

/// The complete output for the specs in `Tests/Fixtures/golden` is compared byte for byte with
/// the files beside them: `NAME.txt` (text) for every spec, and `NAME.json`, `NAME.sarif`,
/// `NAME.github` where present. Re-record deliberately with `FLOWSPEC_RECORD_GOLDEN=1 swift test`
/// and review the diff.
@Suite("Golden output")
struct GoldenOutputTests {
    static let specs = Fixtures.specs(under: "golden")

    static let cases: [(spec: String, format: OutputFormat)] = specs.flatMap { spec -> [(String, OutputFormat)] in
        let base = String(spec.dropLast(".yaml".count))
        let extra = [(OutputFormat.json, "json"), (.sarif, "sarif"), (.github, "github")].filter {
            FileManager.default.fileExists(atPath: Fixtures.packageRoot.appendingPathComponent("\(base).\($0.1)").path)
        }.map { (spec, $0.0) }
        return [(spec, .text)] + extra
    }

    @Test("output matches the golden file", arguments: cases.map { "\($0.spec) \($0.format.rawValue)" })
    func matchesGolden(testCase: String) throws {
        let parts = testCase.split(separator: " ").map(String.init)
        let spec = parts[0]
        let format = try #require(OutputFormat(rawValue: parts[1]))
        let file = try Fixtures.source(spec)
        let diagnostics = SpecChecker().check(file).diagnostics
        let output = DiagnosticRenderer.render(diagnostics, files: [file], format: format)
        let extensionName = format == .text ? "txt" : format.rawValue
        let golden = Fixtures.packageRoot.appendingPathComponent(
            String(spec.dropLast(".yaml".count)) + "." + extensionName)
        try Fixtures.expectGolden(output, at: golden)
    }

    @Test("every golden spec has its text output recorded")
    func everySpecHasGolden() {
        for spec in Self.specs {
            let golden = String(spec.dropLast(".yaml".count)) + ".txt"
            #expect(
                FileManager.default.fileExists(atPath: Fixtures.packageRoot.appendingPathComponent(golden).path),
                "missing \(golden): run FLOWSPEC_RECORD_GOLDEN=1 swift test")
        }
    }
}

/// A short line diff for failure messages.
enum GoldenDiff {
    static func lines(_ expected: String, _ actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var report: [String] = []
        for index in 0..<max(old.count, new.count) where report.count < 20 {
            let a = index < old.count ? String(old[index]) : "<none>"
            let b = index < new.count ? String(new[index]) : "<none>"
            if a != b { report.append("line \(index + 1):\n- \(a)\n+ \(b)") }
        }
        return report.joined(separator: "\n")
    }
}
