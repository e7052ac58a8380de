import Foundation
import Testing

/// Each machine-readable format is read back by a real decoder.
@Suite("Output formats (process)")
struct OutputFormatTests {
    struct JSONOutput: Decodable {
        struct Entry: Decodable {
            var rule: String
            var severity: String
            var message: String
            var file: String
            var line: Int
            var column: Int
            var machine: String?
            var subjects: [String]
        }
        var diagnostics: [Entry]
    }

    @Test func jsonDecodes() throws {
        let output = try CLI.run(["check", "--format", "json", "Tests/Fixtures/reference/auth-table-as-written.yaml"])
        #expect(output.status == 1)
        let decoded = try JSONDecoder().decode(JSONOutput.self, from: Data(output.stdout.utf8))
        #expect(decoded.diagnostics.count == 1)
        let entry = try #require(decoded.diagnostics.first)
        #expect(entry.rule == "unreachable-state")
        #expect(entry.severity == "error")
        #expect(entry.file == "Tests/Fixtures/reference/auth-table-as-written.yaml")
        #expect(entry.line == 103)
        #expect(entry.column == 7)
        #expect(entry.machine == "AuthAsWritten")
        #expect(entry.subjects == ["TIMEOUT"])
    }

    @Test func jsonOfACleanSpecIsAnEmptyList() throws {
        let output = try CLI.run(["check", "--format", "json", "specs/app.yaml"])
        #expect(output.status == 0)
        let decoded = try JSONDecoder().decode(JSONOutput.self, from: Data(output.stdout.utf8))
        #expect(decoded.diagnostics.isEmpty)
        #expect(output.stderr.isEmpty, "machine-readable formats print no summary")
    }

    struct SARIF: Decodable {
        struct Run: Decodable {
            struct Tool: Decodable {
                struct Driver: Decodable {
                    struct RuleDescriptor: Decodable { var id: String }
                    var name: String
                    var rules: [RuleDescriptor]
                }
                var driver: Driver
            }
            struct Result: Decodable {
                struct Message: Decodable { var text: String }
                struct Location: Decodable {
                    struct Physical: Decodable {
                        struct Artifact: Decodable { var uri: String }
                        struct Region: Decodable {
                            var startLine: Int
                            var startColumn: Int
                        }
                        var artifactLocation: Artifact
                        var region: Region
                    }
                    var physicalLocation: Physical
                }
                var ruleId: String
                var ruleIndex: Int
                var level: String
                var message: Message
                var locations: [Location]
            }
            var tool: Tool
            var results: [Result]
        }
        var version: String
        var runs: [Run]
    }

    @Test func sarifDecodesAsVersion210WithRulesAndLocations() throws {
        let output = try CLI.run(["check", "--format", "sarif", "Tests/Fixtures/golden/many-findings.yaml"])
        #expect(output.status == 1)
        let log = try JSONDecoder().decode(SARIF.self, from: Data(output.stdout.utf8))
        #expect(log.version == "2.1.0")
        let run = try #require(log.runs.first)
        #expect(run.tool.driver.name == "flowspec")
        #expect(run.tool.driver.rules.contains { $0.id == "infinite-loop" })
        #expect(!run.results.isEmpty)
        for result in run.results {
            #expect(run.tool.driver.rules[result.ruleIndex].id == result.ruleId)
            #expect(["error", "warning", "note"].contains(result.level))
            #expect(
                result.locations.first?.physicalLocation.artifactLocation.uri
                    == "Tests/Fixtures/golden/many-findings.yaml")
        }
        let loop = try #require(run.results.first { $0.ruleId == "infinite-loop" })
        #expect(loop.locations.first?.physicalLocation.region.startLine == 18)
        #expect(loop.locations.first?.physicalLocation.region.startColumn == 7)
    }

    @Test func githubAnnotationsParse() throws {
        let output = try CLI.run(["check", "--format", "github", "Tests/Fixtures/golden/many-findings.yaml"])
        #expect(output.status == 1)
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(!lines.isEmpty)
        for line in lines {
            // ::error file=F,line=L,col=C,title=T::message
            let command = try #require(
                line.wholeMatch(of: /::(error|warning|notice) file=([^,]+),line=(\d+),col=(\d+),title=([^:]+)::(.+)/),
                "\(line)")
            #expect(command.2 == "Tests/Fixtures/golden/many-findings.yaml")
            #expect(!command.6.contains("\n"))
        }
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "::error file=Tests/Fixtures/golden/many-findings.yaml,line=18,col=7,title=flowspec infinite-loop::"
                )
            })
    }

    /// Output is written in blocks as it is made (64 KiB each): a report many blocks long
    /// comes out whole, in order, in every format.
    @Test func aReportManyBlocksLongComesOutWhole() throws {
        let count = 3_000
        var spec = "flowspec: 1\nmachines:\n  M:\n    initial: start\n    states:\n      start: { kind: terminal }\n"
        for index in 0..<count { spec += "      lost\(index): { kind: terminal }\n" }
        let directory = try CLI.temporaryDirectory(with: ["many.yaml": spec])
        let path = directory.appendingPathComponent("many.yaml").path

        let json = try CLI.run(["check", "--format", "json", path])
        #expect(json.status == 1)
        #expect(json.stdout.utf8.count > 8 * 65_536)
        let decoded = try JSONDecoder().decode(JSONOutput.self, from: Data(json.stdout.utf8))
        #expect(decoded.diagnostics.map(\.subjects) == (0..<count).map { ["lost\($0)"] })

        let sarif = try CLI.run(["check", "--format", "sarif", path])
        let log = try JSONDecoder().decode(SARIF.self, from: Data(sarif.stdout.utf8))
        #expect(log.runs.first?.results.count == count)

        let text = try CLI.run(["check", path])
        let findings = text.stdout.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(findings.count == count)
        #expect(findings.last?.contains("'lost\(count - 1)'") == true)
        #expect(text.stderr.contains("\(count) errors"))

        let github = try CLI.run(["check", "--format", "github", path])
        #expect(github.stdout.split(separator: "\n").count == count)
    }
}
