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
        let paths = Fixtures.specs(under: "rules/\(rule.rawValue)")
        var found = 0
        var clean = 0
        for path in paths {
            let expectations = Fixtures.expectations(in: try Fixtures.source(path))
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
