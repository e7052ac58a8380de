import Foundation
import Testing

@testable import FlowSpecCore

/// Every fixture under `Tests/Fixtures/rules`, `input` and `reference` lists the findings it
/// must produce in `# expect: rule line:column` comments; the checker must report exactly
/// those, no more and no fewer. A fixture without expectations must check clean.
@Suite("Rule fixtures")
struct RuleFixtureTests {
    static let fixtures =
        Fixtures.specs(under: "rules") + Fixtures.specs(under: "input")
        + Fixtures.specs(under: "reference")

    @Test("findings match the fixture's expectations", arguments: fixtures)
    func fixtureFindings(path: String) throws {
        let file = try Fixtures.source(path)
        let expected = Fixtures.expectations(in: file)
        let actual = Fixtures.findings(file)
        #expect(actual == expected, "\(path)")
    }

    @Test("each rule has fixtures where it is found and where it is not", arguments: Rule.allCases)
    func ruleIsCovered(rule: Rule) throws {
        // A `flowspec diff` rule's fixture is a pair: `NAME.old.yaml` and `NAME.yaml`.
        let isDiffRule = rule.home is any DiffRule.Type
        let paths = Fixtures.specs(under: "rules/\(rule.rawValue)").filter { !$0.hasSuffix(".old.yaml") }
        var found = 0
        var clean = 0
        for path in paths {
            let source = try Fixtures.source(path)
            let expectations =
                isDiffRule ? DiffFixtureTests.expectations(in: source) : Fixtures.expectations(in: source)
            if expectations.contains(where: { $0.hasPrefix(rule.rawValue + " ") }) {
                found += 1
            } else {
                clean += 1
            }
        }
        #expect(found > 0, "no fixture in Tests/Fixtures/rules/\(rule.rawValue) expects \(rule.rawValue)")
        #expect(clean > 0, "no fixture in Tests/Fixtures/rules/\(rule.rawValue) shows the rule not firing")
    }
}

/// Every `NAME.old.yaml` under `Tests/Fixtures/rules` and the `NAME.yaml` beside it are two
/// versions of a spec: `NAME.yaml` lists what `flowspec diff` must report between them in
/// `# expect-diff: rule old|new line:column` comments, exactly.
@Suite("Diff fixtures")
struct DiffFixtureTests {
    static let pairs = Fixtures.specs(under: "rules").filter { $0.hasSuffix(".old.yaml") }

    /// The `# expect-diff:` lines of a fixture, sorted.
    static func expectations(in file: SourceFile) -> [String] {
        let text = String(decoding: file.bytes, as: UTF8.self)
        return text.split(whereSeparator: \.isNewline).compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("# expect-diff:") else { return nil }
            return trimmed.dropFirst("# expect-diff:".count).trimmingCharacters(in: .whitespaces)
        }.sorted()
    }

    @Test("diff findings match the fixture's expectations", arguments: pairs)
    func diffFindings(oldPath: String) throws {
        let newPath = String(oldPath.dropLast(".old.yaml".count)) + ".yaml"
        let (old, new) = (try Fixtures.source(oldPath), try Fixtures.source(newPath))
        let diff = SpecDiff(
            old: SpecChecker().check(old).composed, oldFile: oldPath, new: SpecChecker().check(new).composed,
            newFile: newPath)
        let actual = diff.findings.map {
            "\($0.rule.rawValue) \($0.file == oldPath ? "old" : "new") \($0.location)"
        }.sorted()
        #expect(actual == Self.expectations(in: new), "\(newPath)")
        #expect(Fixtures.findings(old).isEmpty && Fixtures.findings(new).isEmpty, "both versions check clean")
    }
}
