import Foundation
import Testing

/// Severity overrides from the command line and from the spec, and warnings as errors.
@Suite("Severity configuration (process)")
struct SeverityTests {
    /// A spec whose only finding is an unused-name warning.
    static let warningOnly = """
        flowspec: 1
        machines:
          M:
            initial: a
            effects: [log]
            states:
              a:
                kind: terminal
        """

    @Test func warningsAloneExitZero() throws {
        let directory = try CLI.temporaryDirectory(with: ["spec.yaml": Self.warningOnly])
        let output = try CLI.run(["check", "spec.yaml"], in: directory)
        #expect(output.status == 0)
        #expect(
            output.stdout.hasPrefix("spec.yaml:5:15: warning: effect 'log' is declared but never used [unused-name]"))
    }

    @Test func warningsAsErrorsExitOne() throws {
        let directory = try CLI.temporaryDirectory(with: ["spec.yaml": Self.warningOnly])
        let output = try CLI.run(["check", "--warnings-as-errors", "spec.yaml"], in: directory)
        #expect(output.status == 1)
        #expect(output.stdout.hasPrefix("spec.yaml:5:15: error: effect 'log'"))
    }

    @Test func commandLineCanTurnARuleOffOrUp() throws {
        let directory = try CLI.temporaryDirectory(with: ["spec.yaml": Self.warningOnly])
        let off = try CLI.run(["check", "--severity", "unused-name=off", "spec.yaml"], in: directory)
        #expect(off.status == 0)
        #expect(off.stdout.isEmpty)
        let up = try CLI.run(["check", "--severity", "unused-name=error", "spec.yaml"], in: directory)
        #expect(up.status == 1)
    }

    @Test func specCanSetSeverityPerMachineAndCommandLineWins() throws {
        let spec = """
            flowspec: 1
            severity: { unused-name: error }
            machines:
              Strict:
                initial: a
                effects: [log]
                states: { a: { kind: terminal } }
              Relaxed:
                initial: a
                effects: [log]
                severity: { unused-name: off }
                states: { a: { kind: terminal } }
            """
        let directory = try CLI.temporaryDirectory(with: ["spec.yaml": spec])
        let output = try CLI.run(["check", "--format", "json", "spec.yaml"], in: directory)
        #expect(output.status == 1)
        struct Output: Decodable {
            struct Entry: Decodable {
                var machine: String?
                var severity: String
            }
            var diagnostics: [Entry]
        }
        let decoded = try JSONDecoder().decode(Output.self, from: Data(output.stdout.utf8))
        #expect(decoded.diagnostics.map(\.machine) == ["Strict"])
        #expect(decoded.diagnostics.map(\.severity) == ["error"])
        let overridden = try CLI.run(["check", "--severity", "unused-name=warning", "spec.yaml"], in: directory)
        #expect(overridden.status == 0)
        #expect(overridden.stdout.components(separatedBy: "warning: effect 'log'").count == 3)
    }
}
