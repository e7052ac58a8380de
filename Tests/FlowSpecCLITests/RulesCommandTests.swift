import Foundation
import Testing

/// `flowspec rules` lists the rules of the documentation's rules table, in its order, with
/// the same defaults (the table itself is tied to the rules' definitions by `RuleHomeTests`).
@Suite("flowspec rules")
struct RulesCommandTests {
    @Test func listsEveryDocumentedRuleWithItsDefaultAndASummary() throws {
        let reference = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("docs/language.md"), encoding: .utf8)
        let start = try #require(reference.range(of: "| rule id | default | reported at | finding |\n"))
        let end =
            reference.range(of: "\n\n", range: start.upperBound..<reference.endIndex)?.lowerBound ?? reference.endIndex
        let documented = reference[start.upperBound..<end].split(separator: "\n")
            .filter { $0.hasPrefix("| `") }
            .map { line -> String in
                let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                return "\(cells[0].dropFirst().dropLast()) \(cells[1])"
            }
        let output = try CLI.run(["rules"])
        #expect(output.status == 0)
        let lines = output.stdout.split(separator: "\n")
        let listed = lines.map { line in
            line.split(separator: " ", omittingEmptySubsequences: true).prefix(2).joined(separator: " ")
        }
        #expect(listed == documented)
        for line in lines {
            #expect(line.split(separator: " ", omittingEmptySubsequences: true).count > 2, "no summary: \(line)")
        }
    }
}
