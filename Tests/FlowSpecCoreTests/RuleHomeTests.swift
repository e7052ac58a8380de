import Foundation
import Testing

@testable import FlowSpecCore

/// Each rule has one home (``Rule/home``) that declares its definition; the checks, the
/// documentation's rules table and the README's table all follow from those definitions, so
/// adding a rule cannot miss a place.
@Suite("Rule homes")
struct RuleHomeTests {
    @Test("each rule's home declares that rule", arguments: Rule.allCases)
    func homeDeclaresItsRule(_ rule: Rule) {
        #expect(rule.home.definition.rule == rule)
    }

    @Test func everyCheckIsTheHomeOfItsOwnRuleAndOnlyOne() {
        let checked = CheckRegistry.all.map { type(of: $0).definition.rule }
        #expect(Set(checked).count == checked.count, "two checks declare the same rule")
        for check in CheckRegistry.all {
            let rule = type(of: check).definition.rule
            #expect(
                ObjectIdentifier(rule.home) == ObjectIdentifier(type(of: check)),
                "\(type(of: check)) declares \(rule.rawValue), whose home is \(rule.home)")
        }
        #expect(checked == checked.sorted(), "checks run in the order of the rules table")
    }

    @Test func everyRuleWhoseHomeIsACheckIsRun() {
        let checked = Set(CheckRegistry.all.map { type(of: $0).definition.rule })
        for rule in Rule.allCases where rule.home is any MachineCheck.Type {
            #expect(checked.contains(rule), "\(rule.home) is not in CheckRegistry.all")
        }
    }

    @Test func theLanguageReferenceTableIsTheRulesDefinitions() throws {
        let text = try String(
            contentsOf: Fixtures.packageRoot.appendingPathComponent("docs/language.md"), encoding: .utf8)
        let start = try #require(text.range(of: "| rule id | default | reported at | finding |\n"))
        let end = text.range(of: "\n\n", range: start.lowerBound..<text.endIndex)?.lowerBound ?? text.endIndex
        let table = String(text[start.lowerBound..<end]) + "\n"
        #expect(
            table == Rule.documentationTable,
            """
            docs/language.md's rules table differs from the rules' definitions; replace it with:
            \(Rule.documentationTable)
            """)
    }

    @Test func theReadmeTableListsEveryRuleWithItsDefault() throws {
        let text = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        // The table whose header starts `| rule | default |`, to the blank line after it.
        let start = try #require(text.range(of: "\n| rule | default |"))
        let end = text.range(of: "\n\n", range: start.upperBound..<text.endIndex)?.lowerBound ?? text.endIndex
        var listed: [String: String] = [:]
        for line in text[start.upperBound..<end].split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            for index in cells.indices.dropLast() where cells[index].hasPrefix("`") && cells[index].hasSuffix("`") {
                listed[String(cells[index].dropFirst().dropLast())] = cells[index + 1]
            }
        }
        let expected = Dictionary(
            uniqueKeysWithValues: Rule.allCases.map { ($0.rawValue, $0.defaultSeverity.rawValue) })
        #expect(listed == expected)
    }
}
