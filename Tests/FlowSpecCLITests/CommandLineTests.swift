import FlowSpecTestSupport
import Foundation
import Testing

/// The command line itself: how options and arguments are read, what a wrong one says, and
/// the help of the tool and of each command.
@Suite("Command line (process)")
struct CommandLineTests {
    /// A spec with one warning (an unused event), so that the output shows which options took.
    static let spec = """
        flowspec: 1
        machines:
          M:
            initial: a
            events: [go, spare]
            states:
              a: { kind: input, on: { go: b } }
              b: { kind: terminal }
        """

    @Test(arguments: [
        (["check", "--fromat", "json", "spec.yaml"], "unknown option '--fromat'; did you mean '--format'?", "check"),
        (
            ["check", "--format", "jsn", "spec.yaml"],
            "--format <format> must be one of text, json, github, sarif; got 'jsn'; did you mean 'json'?", "check"
        ),
        (
            ["check", "--max-states", "many", "spec.yaml"], "--max-states <count> takes a whole number; got 'many'",
            "check"
        ),
        (["check", "--max-states", "-1", "spec.yaml"], "--max-states must be at least 1; got -1", "check"),
        (["check", "spec.yaml", "--format"], "--format <format> needs a value", "check"),
        (
            ["check", "--warnings-as-errors=yes", "spec.yaml"],
            "--warnings-as-errors takes no value; got '--warnings-as-errors=yes'", "check"
        ),
        (
            ["check", "--severity", "unused-nam=off", "spec.yaml"],
            "there is no rule 'unused-nam'; did you mean 'unused-name'?", "check"
        ),
        (
            ["check", "--severity", "loudness=off", "spec.yaml"],
            "there is no rule 'loudness'; run 'flowspec rules' to list them", "check"
        ),
        (["check"], "missing <files>", "check"),
        (["gen", "spec.yaml"], "missing --output <output>", "gen"),
        (["gen", "spec.yaml", "other.yaml", "-o", "Out.swift"], "unexpected argument 'other.yaml'", "gen"),
        (["graph", "--format", "dot"], "missing <spec>", "graph"),
        (["rules", "extra"], "unexpected argument 'extra'", "rules")
    ])
    func aWrongCommandLineSaysWhatIsWrongAndExitsTwo(arguments: [String], message: String, command: String) throws {
        let directory = try CLI.temporaryDirectory(with: ["spec.yaml": Self.spec])
        let output = try CLI.run(arguments, in: directory)
        #expect(output.status == 2)
        #expect(output.stdout.isEmpty)
        let lines = output.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "flowspec: error: \(message)")
        #expect(lines.dropFirst().first?.hasPrefix("Usage: flowspec \(command)") == true)
        #expect(lines.last == "  See 'flowspec \(command) --help' for more information.")
        #expect(lines.count == 3)
    }

    @Test func anUnknownCommandIsNamedWithTheClosestOne() throws {
        let output = try CLI.run(["chek", "specs/app.yaml"])
        #expect(output.status == 2)
        #expect(
            output.stderr == """
                flowspec: error: unknown command 'chek'; did you mean 'check'?
                Usage: flowspec <command>
                  See 'flowspec --help' for the commands.

                """)
    }

    @Test func optionsMayComeAnywhereAndTakeTheirValueAfterAnEqualsSign() throws {
        let directory = try CLI.temporaryDirectory(with: ["spec.yaml": Self.spec])
        let spaced = try CLI.run(["check", "--format", "json", "spec.yaml"], in: directory)
        let joined = try CLI.run(["check", "spec.yaml", "--format=json"], in: directory)
        #expect(spaced.status == 0)
        #expect(spaced.stdout.hasPrefix("{"))
        #expect(joined.stdout == spaced.stdout)
        // Given twice, the last value counts; a repeated option keeps every value.
        let twice = try CLI.run(["check", "--format", "json", "--format", "github", "spec.yaml"], in: directory)
        #expect(twice.stdout.hasPrefix("::warning file=spec.yaml,"))
        let severities = try CLI.run(
            [
                "check", "--severity", "unused-name=off", "--severity=unused-name=error",
                "spec.yaml"
            ], in: directory)
        #expect(severities.status == 1)
        #expect(severities.stdout.contains("error: event 'spare' is declared but never used"))
        let flag = try CLI.run(["check", "spec.yaml", "--warnings-as-errors"], in: directory)
        #expect(flag.status == 1)
    }

    @Test func afterADoubleDashEveryWordIsAFile() throws {
        let directory = try CLI.temporaryDirectory(with: ["--format": Self.spec])
        let output = try CLI.run(["check", "--", "--format"], in: directory)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("--format:5:18: warning: "))
    }

    @Test func simulateTakesAnUnknownDashWordAsAnInput() throws {
        let output = try CLI.run([
            "simulate", "specs/app.yaml", "--machine", "FirstRun", "-onboardingCompleted", "splashFinished"
        ])
        #expect(output.status == 0, "\(output.stderr)")
        // With the condition cleared, the first run's slides start (set, they are skipped).
        #expect(output.stdout.contains("splashFinished -> slide0 "))
    }

    @Test func helpListsTheCommandsAndEachCommandsOptions() throws {
        let tool = try CLI.run([])
        #expect(tool.status == 0)
        for command in ["check", "gen", "simulate", "graph", "export", "rules"] {
            #expect(tool.stdout.contains("\n  \(command) "), "\(command)")
        }
        #expect(try CLI.run(["--help"]).stdout == tool.stdout)
        #expect(try CLI.run(["help"]).stdout == tool.stdout)
        #expect(try CLI.run(["help", "--help"]).stdout == tool.stdout)

        let expected = [
            "check": [
                "<files>", "--format <format>", "--warnings-as-errors", "--severity <rule=error|warning|note|off>",
                "--color <color>", "(values: text, json, github, sarif; default: text)"
            ],
            "gen": [
                "<spec>", "-o, --output <output>", "--access-level <access-level>", "--shape <shape>", "--check",
                "(values: auto, switch, table; default: auto)"
            ],
            "simulate": ["<spec>", "<inputs>", "--machine <machine>", "--restore <restore>"],
            "graph": ["<spec>", "--format <format>", "--machine <machine>", "--highlight", "(values: mermaid, dot)"],
            "export": [
                "<spec>", "--format <format>", "--machine <machine>", "--datamodel <datamodel>",
                "(values: ecmascript, python; default: ecmascript)"
            ]
        ]
        let limits = [
            "--max-file-size <bytes>", "--max-depth <levels>", "--max-alias-expansion <nodes>",
            "--max-scalar-length <bytes>", "--max-states <count>", "--max-transitions <count>",
            "--max-composed-states <count>"
        ]
        for (command, entries) in expected {
            let help = try CLI.run([command, "--help"])
            #expect(help.status == 0)
            #expect(help.stdout.hasPrefix("OVERVIEW: "))
            // Long entries wrap: compared with every run of spaces and line breaks as one space.
            let text = help.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
            for entry in entries + limits { #expect(text.contains(entry), "\(command): \(entry)") }
            #expect(try CLI.run(["help", command]).stdout == help.stdout)
            #expect(try CLI.run([command, "-h"]).stdout == help.stdout)
            #expect(help.stdout.split(separator: "\n").allSatisfy { $0.count <= 80 || $0.hasPrefix("USAGE: ") })
        }
    }

    @Test func helpAndVersionWinOverEverythingElseButComeAfterADoubleDash() throws {
        let help = try CLI.run(["check", "--format", "nonsense", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("OVERVIEW: Check spec files"))
        let version = try CLI.run(["gen", "--version"])
        #expect(version.status == 0)
        #expect(version.stdout == "0.1.0\n")
        let file = try CLI.run(["check", "--", "--help"])
        #expect(file.status == 2)
        #expect(file.stderr.contains("--help"))
    }

    /// The tool starts without Foundation: the Swift runtime and libyaml only. (Loading
    /// FoundationEssentials, with the argument parser that needed it, was most of the start-up
    /// of a small check; `Benchmarks/run.sh` measures the time, this keeps it from coming back.)
    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ldd"),
            "/usr/bin/ldd is not an executable file (glibc's, on Linux), so the libraries flowspec loads cannot be listed"
        ))
    func theToolLoadsNoFoundation() throws {
        let libraries = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/ldd"), [CLI.executable.path])
        #expect(libraries.status == 0)
        #expect(libraries.stdout.contains("libyaml"))
        #expect(!libraries.stdout.contains("Foundation"), "\(libraries.stdout)")
    }
}
