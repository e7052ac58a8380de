import FlowSpecTestSupport
import Foundation
import Testing

/// util-linux's `script`, which runs a command on a pseudo-terminal.
private let terminalMaker = ExternalTool.find("script")

/// Colour comes by default only where someone sees it: on a terminal, unless `NO_COLOR` is set
/// or `TERM` is `dumb`, judged for standard output and standard error each on its own. The
/// terminal is a pseudo-terminal made by util-linux's `script`.
@Suite(
    .enabled(
        if: terminalMaker != nil,
        Comment(
            rawValue: ExternalTool.notOnPath(
                "script", for: "flowspec cannot be run on a terminal",
                install: "util-linux; apt-get install bsdutils on Debian; .ci/run installs it"))))
struct TerminalColourTests {
    static let spec = "Tests/Fixtures/golden/many-findings.yaml"
    static let escape = "\u{1B}["

    /// What `flowspec` with these arguments (and redirections, for the shell) writes to a
    /// terminal, run from the package root with `TERM` and `NO_COLOR` as given (`nil`: unset);
    /// `status` is the exit status expected.
    static func onTerminal(
        _ command: String, term: String? = "xterm", noColor: String? = nil,
        status: Int32 = 1
    ) throws -> String {
        var environment = ["env", "-u", "NO_COLOR", "-u", "TERM"]
        if let term { environment.append("TERM=\(term)") }
        if let noColor { environment.append("NO_COLOR=\(noColor)") }
        let line = (environment + [CLI.executable.path]).joined(separator: " ") + " " + command
        let output = try ProcessRunner.run(
            terminalMaker!, ["-qec", line, "/dev/null"],
            in: CLI.packageRoot)
        #expect(output.status == status, "\(line): \(output.stderr)")
        return output.stdout
    }

    @Test func findingsOnATerminalAreColoured() throws {
        let output = try Self.onTerminal("check \(Self.spec)")
        #expect(output.contains("\u{1B}[1;31merror:\u{1B}[0m"))
    }

    @Test func noColourWhenAskedNotToOrOnADumbTerminal() throws {
        #expect(!(try Self.onTerminal("check \(Self.spec)", noColor: "1")).contains(Self.escape))
        #expect(
            !(try Self.onTerminal("check \(Self.spec)", noColor: "")).contains(Self.escape),
            "NO_COLOR set, even empty")
        #expect(!(try Self.onTerminal("check \(Self.spec)", term: "dumb")).contains(Self.escape))
        #expect(!(try Self.onTerminal("check \(Self.spec)", term: nil)).contains(Self.escape))
    }

    @Test func eachStreamIsJudgedOnItsOwn() throws {
        let directory = try CLI.temporaryDirectory(with: [:])
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("out.txt").path

        // Standard output to a file: plain there, though standard error is a terminal.
        _ = try Self.onTerminal("check \(Self.spec) > \(file)")
        let redirected = try String(contentsOfFile: file, encoding: .utf8)
        #expect(redirected.contains("error:") && !redirected.contains(Self.escape))

        // `graph` writes its findings to standard error: coloured on the terminal while the
        // diagram goes to a file, plain when standard error is the file.
        let graph = "graph --format dot \(Self.spec)"
        #expect(try Self.onTerminal("\(graph) > \(file)", status: 0).contains("\u{1B}[1;35mwarning:\u{1B}[0m"))
        _ = try Self.onTerminal("\(graph) 2> \(file)", status: 0)
        let findings = try String(contentsOfFile: file, encoding: .utf8)
        #expect(findings.contains("warning:") && !findings.contains(Self.escape))
    }
}
