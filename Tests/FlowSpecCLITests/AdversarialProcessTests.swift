import Foundation
import Testing

/// Every spec of the adversarial corpus (`Tests/Fixtures/adversarial`) run through the real
/// executable: `flowspec check` must exit 0 or 1 as its golden says, never crash or hang, print
/// exactly the golden on standard output and nothing but its one-line summary on standard
/// error; `flowspec gen` must exit 0 or 1 the same way and write nothing when it refuses.
///
/// The suite's time limit is a watchdog, not a measure (each process has its own): a case's
/// time runs from when it is started, and in a full run on two cores the compile tests hold
/// the test threads for minutes.
@Suite("Adversarial corpus (process)", .timeLimit(.minutes(10)))
struct AdversarialProcessTests {
    static let folder = "Tests/Fixtures/adversarial"

    static let specs: [String] = {
        let url = CLI.packageRoot.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted().map { "\(folder)/\($0)" }
    }()

    /// The golden text output of a case, as bytes and as its findings' severities.
    struct Golden {
        var bytes: Data
        var errors = 0
        var warnings = 0

        init(spec: String) throws {
            bytes = try Data(
                contentsOf: CLI.packageRoot.appendingPathComponent(
                    String(spec.dropLast(".yaml".count)) + ".txt"))
            // A finding's first line is `path:line:column: severity: message [rule]`; messages
            // cannot hold a line break, so no other line starts with the path.
            let header = try Regex(
                "^\(NSRegularExpression.escapedPattern(for: spec)):[0-9]+:[0-9]+: (error|warning|note): ")
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
                guard let match = try header.prefixMatch(in: String(line)),
                    let severity = match.output[1].substring
                else { continue }
                if severity == "error" { errors += 1 }
                if severity == "warning" { warnings += 1 }
            }
        }

        var expectedStatus: Int32 { errors > 0 ? 1 : 0 }

        var summary: String {
            func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
            return "flowspec: 1 file checked: \(count(errors, "error")), \(count(warnings, "warning"))\n"
        }
    }

    @Test("the corpus is there")
    func corpusIsThere() {
        #expect(Self.specs.count >= 60)
    }

    @Test("check exits 0 or 1 as the golden says and prints exactly the golden", arguments: specs)
    func check(spec: String) throws {
        let golden = try Golden(spec: spec)
        let result = try ProcessOutcome.run(CLI.executable, ["check", spec], in: CLI.packageRoot)
        #expect(result.exited(with: [golden.expectedStatus]), "\(spec): \(result)")
        #expect(
            result.stdout == golden.bytes,
            "\(spec): standard output differs from the golden\n\(result.stdoutText.prefix(3_000))")
        // `check` writes a one-line summary to standard error in text format; nothing else
        // (no warning, no crash report) may appear there.
        #expect(result.stderrText == golden.summary, "\(spec): unexpected standard error")
    }

    @Test("gen exits 0 or 1, never crashes, and writes nothing when it refuses", arguments: specs)
    func gen(spec: String) throws {
        let golden = try Golden(spec: spec)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("flowspec-adversarial-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out")
        let result = try ProcessOutcome.run(
            CLI.executable, ["gen", spec, "--output", output.path],
            in: CLI.packageRoot)
        #expect(result.exited(with: [0, 1]), "\(spec): \(result)")
        #expect(
            result.status == golden.expectedStatus || result.signalled,
            "\(spec): gen exits \(result.status) but check finds \(golden.errors) errors")
        let written = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
        let beside = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != "out" }
        #expect(beside.isEmpty, "\(spec): gen wrote \(beside) beside the output directory")
        if result.status == 0, !result.signalled {
            #expect(
                !written.isEmpty && written.allSatisfy { $0.hasSuffix(".swift") && !$0.hasPrefix(".") },
                "\(spec): gen exited 0 and wrote \(written)")
        } else {
            #expect(written.isEmpty, "\(spec): gen failed but wrote \(written)")
        }
    }
}
