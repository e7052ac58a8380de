import Foundation
import Testing

/// `flowspec check` as a user meets it: a process with real exit codes and output.
@Suite("flowspec check (process)")
struct CheckCommandTests {
    static let brokenSpec = "Tests/Fixtures/golden/many-findings.yaml"

    @Test func referenceSpecChecksCleanWithExitZero() throws {
        let output = try CLI.run(["check", "specs/app.yaml"])
        #expect(output.status == 0)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains("1 file checked: 0 errors, 0 warnings"))
    }

    @Test func errorsExitOneWithCompilerStyleText() throws {
        let output = try CLI.run(["check", "Tests/Fixtures/reference/auth-table-as-written.yaml"])
        #expect(output.status == 1)
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "Tests/Fixtures/reference/auth-table-as-written.yaml:103:7: error: state 'TIMEOUT' can never be reached from the initial state 'INITIAL' [unreachable-state]"
        )
        #expect(lines.dropFirst().first == "      TIMEOUT:")
        #expect(lines.dropFirst(2).first == "      ^")
        #expect(!output.stdout.contains("\u{1B}["), "no colour when not on a terminal")
    }

    /// Several files in one run: findings in the order of the files, each with its excerpt,
    /// and every file counted, with findings or without (an unreadable one is not).
    @Test func severalFilesAreCheckedInOrderAndCounted() throws {
        let output = try CLI.run([
            "check", "specs/app.yaml", Self.brokenSpec, "no/such/spec.yaml",
            "Tests/Fixtures/reference/auth-table-as-written.yaml", "specs/app.yaml"
        ])
        #expect(output.status == 2)
        let findings = output.stdout.split(separator: "\n").filter {
            $0.contains(": error: ") || $0.contains(": warning: ")
        }
        let files = findings.map { String($0.prefix { $0 != ":" }) }
        let firstOther = try #require(files.firstIndex(of: "Tests/Fixtures/reference/auth-table-as-written.yaml"))
        #expect(files[..<firstOther].allSatisfy { $0 == Self.brokenSpec } && firstOther > 0)
        #expect(files[firstOther...].allSatisfy { $0 == "Tests/Fixtures/reference/auth-table-as-written.yaml" })
        #expect(output.stdout.contains("      TIMEOUT:\n      ^\n"), "the excerpt of the last file with findings")
        #expect(output.stderr.contains("flowspec: 4 files checked: "))
    }

    @Test func missingFileExitsTwo() throws {
        let output = try CLI.run(["check", "no/such/spec.yaml"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("cannot read 'no/such/spec.yaml': No such file or directory"))
    }

    @Test func directoryExitsTwo() throws {
        let output = try CLI.run(["check", "specs"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("is a directory"))
    }

    @Test(arguments: [
        ["check"],
        ["check", "--format", "xml", "specs/app.yaml"],
        ["check", "--severity", "no-such-rule=error", "specs/app.yaml"],
        ["check", "--severity", "unused-name=loud", "specs/app.yaml"],
        ["frobnicate"]
    ])
    func badCommandLineExitsTwo(arguments: [String]) throws {
        let output = try CLI.run(arguments)
        #expect(output.status == 2, "\(arguments): \(output.stderr)")
        #expect(!output.stderr.isEmpty)
    }

    @Test func helpAndVersionExitZero() throws {
        #expect(try CLI.run(["--help"]).status == 0)
        let version = try CLI.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
    }

    @Test func severalFilesInOneRunAndAMissingOneStillReportsTheOthers() throws {
        let output = try CLI.run([
            "check", "specs/app.yaml", "missing.yaml",
            "Tests/Fixtures/reference/auth-table-as-written.yaml"
        ])
        #expect(output.status == 2)
        #expect(output.stdout.contains("auth-table-as-written.yaml:103:7: error:"))
        #expect(output.stderr.contains("cannot read 'missing.yaml'"))
    }

    @Test func outputIsByteIdenticalAcrossRuns() throws {
        for format in ["text", "json", "github", "sarif"] {
            let first = try CLI.run(["check", "--format", format, Self.brokenSpec])
            let second = try CLI.run(["check", "--format", format, Self.brokenSpec])
            #expect(first.stdout == second.stdout, "\(format)")
            #expect(!first.stdout.contains(CLI.packageRoot.path), "no absolute paths in \(format)")
        }
    }

    @Test func colourOnlyWhenAsked() throws {
        let output = try CLI.run(["check", "--color", "always", Self.brokenSpec])
        #expect(output.stdout.contains("\u{1B}[1;31merror:\u{1B}[0m"))
    }
}
