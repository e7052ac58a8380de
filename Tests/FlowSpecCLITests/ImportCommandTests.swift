import Foundation
import Testing

/// `flowspec import` as a process: the spec on standard output or in `--output`, the report of
/// what was not imported and the findings on standard error, and the exit codes: 0 (imported,
/// checks clean), 1 (something not imported or findings; nothing written with `--strict`), 2
/// (a document that cannot be read, a bad command line).
@Suite("flowspec import (process)")
struct ImportCommandTests {
    static func temporary(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("flowspec-import-\(UUID().uuidString)-\(name)")
    }

    @Test func anExportComesBackCleanAndChecked() throws {
        let scxml = Self.temporary("LaunchAuth.scxml")
        let exported = try CLI.run(["export", "specs/app.yaml", "--format", "scxml", "--machine", "LaunchAuth"])
        try exported.stdout.write(to: scxml, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: scxml) }
        let output = try CLI.run(["import", scxml.path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.isEmpty, "\(output.stderr)")
        #expect(
            output.stdout.hasPrefix(
                "flowspec: 1\nmachines:\n  LaunchAuth:\n    summary: \"Launch, onboarding check and authentication, with a timeout on every async step.\"\n    initial: initial\n"
            ), "\(output.stdout)")

        let spec = Self.temporary("LaunchAuth.flowspec.yaml")
        defer { try? FileManager.default.removeItem(at: spec) }
        let written = try CLI.run(["import", scxml.path, "--output", spec.path])
        #expect(written.status == 0)
        #expect(written.stdout.isEmpty)
        #expect(try String(contentsOf: spec, encoding: .utf8) == output.stdout)
        let checked = try CLI.run(["check", spec.path])
        #expect(checked.status == 0, "\(checked.stdout)")
    }

    @Test func anXStateExportComesBackCleanAndChecked() throws {
        let json = Self.temporary("LaunchAuth.json")
        let exported = try CLI.run(["export", "specs/app.yaml", "--format", "xstate", "--machine", "LaunchAuth"])
        #expect(exported.status == 0)
        #expect(exported.stdout.hasPrefix("{\n  \"id\" : \"LaunchAuth\","), "\(exported.stdout)")
        try exported.stdout.write(to: json, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: json) }
        let output = try CLI.run(["import", json.path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.isEmpty, "\(output.stderr)")
        let scxml = try CLI.run(["export", "specs/app.yaml", "--format", "scxml", "--machine", "LaunchAuth"])
        let document = Self.temporary("LaunchAuth.scxml")
        try scxml.stdout.write(to: document, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: document) }
        // Both formats bring back the same spec.
        #expect(try CLI.run(["import", document.path]).stdout == output.stdout)
    }

    /// XState's named delays take their durations from `--delay NAME=DURATION`: each one given
    /// becomes a timeout, recorded at the top of the machine; one without is reported with the
    /// option that gives it; a name no delay has is warned about; a malformed one is refused.
    @Test func namedDelaysTakeTheirDurationsFromTheCommandLine() throws {
        let config = """
            {
              "id": "player",
              "initial": "playing",
              "states": {
                "playing": { "on": { "PAUSE": "paused" }, "after": { "IDLE_TIMEOUT": "stopped" } },
                "paused": { "on": { "PLAY": "playing" }, "after": { "PAUSE_LIMIT": "stopped" } },
                "stopped": { "type": "final" }
              }
            }
            """
        let directory = try CLI.temporaryDirectory(with: ["player.json": config])
        let none = try CLI.run(["import", "player.json"], in: directory)
        #expect(none.status == 1)
        #expect(
            none.stderr.contains(
                "player.json:5:74: warning: not imported: the delay 'IDLE_TIMEOUT', which the config names without its duration; give it with `--delay IDLE_TIMEOUT=30s`\n"
            ), "\(none.stderr)")

        let given = try CLI.run(
            ["import", "player.json", "--delay", "IDLE_TIMEOUT=30s", "--delay", "PAUSE_LIMIT=5m"], in: directory)
        #expect(given.status == 0, "\(given.stderr)")
        #expect(given.stderr.isEmpty, "\(given.stderr)")
        #expect(
            given.stdout == """
                flowspec: 1
                machines:
                  player:
                    # delay 'IDLE_TIMEOUT' is 30s, from --delay
                    # delay 'PAUSE_LIMIT' is 5m, from --delay
                    initial: playing
                    states:
                      playing: { kind: input, on: { PAUSE: paused }, timeout: { after: 30s, to: stopped } }
                      paused: { kind: input, on: { PLAY: playing }, timeout: { after: 5m, to: stopped } }
                      stopped: { kind: terminal }

                """, "\(given.stdout)")

        let typo = try CLI.run(
            ["import", "player.json", "--delay", "IDLE_TIMEOUT=30s", "--delay", "PAUSE_LIMIT=5m", "--delay", "IDLE=1s"],
            in: directory)
        #expect(typo.status == 0, "a name no delay has changes nothing imported")
        #expect(typo.stderr == "flowspec: warning: --delay IDLE: no delay of player.json is named 'IDLE'\n")
        #expect(typo.stdout == given.stdout)

        for (setting, message) in [
            ("IDLE_TIMEOUT", "--delay takes NAME=DURATION, such as IDLE_TIMEOUT=30s; got 'IDLE_TIMEOUT'"),
            (
                "IDLE_TIMEOUT=30",
                "the duration of delay 'IDLE_TIMEOUT' must be a whole number with a unit (ms, s, m or h), such as 30s; got '30'"
            )
        ] {
            let refused = try CLI.run(["import", "player.json", "--delay", setting], in: directory)
            #expect(refused.status == 2)
            #expect(refused.stdout.isEmpty)
            #expect(refused.stderr.hasPrefix("flowspec: error: \(message)\n"), "\(refused.stderr)")
        }
        let twice = try CLI.run(
            ["import", "player.json", "--delay", "IDLE_TIMEOUT=1s", "--delay", "IDLE_TIMEOUT=2s"], in: directory)
        #expect(twice.status == 2)
        #expect(twice.stderr.hasPrefix("flowspec: error: --delay gives delay 'IDLE_TIMEOUT' twice; give each once\n"))
    }

    @Test func whatIsNotImportedIsReportedWithItsPlace() throws {
        let path = "Tests/Fixtures/import/qt/mediaplayer.scxml"
        let output = try CLI.run(["import", path])
        #expect(output.status == 1)
        #expect(!output.stdout.isEmpty, "the spec is printed all the same")
        #expect(output.stderr.contains("\(path):"))
        #expect(output.stderr.contains(": warning: not imported: "))

        let spec = Self.temporary("strict.yaml")
        let strict = try CLI.run(["import", path, "--strict", "--output", spec.path])
        #expect(strict.status == 1)
        #expect(strict.stdout.isEmpty)
        #expect(strict.stderr.contains("with --strict nothing was written"))
        #expect(!FileManager.default.fileExists(atPath: spec.path))
    }

    /// A TypeScript file that defines a machine imports as its config: the code in it is
    /// reported at its line and column, and a spread refuses the import at its place.
    @Test func aMachineSourceFileImportsItsConfig() throws {
        let path = "Tests/Fixtures/import/xstate/source/stopwatchMachine.ts"
        let output = try CLI.run(["import", path])
        #expect(output.status == 1)
        #expect(output.stdout.hasPrefix("flowspec: 1\nmachines:\n  stopwatch:\n"), "\(output.stdout)")
        #expect(
            output.stderr.contains(
                "\(path):30:20: warning: not imported: an inline action, code (`assign({`); name it and implement it in `setup`"
            ), "\(output.stderr)")
        let directory = try CLI.temporaryDirectory(with: [
            "spread.js": "export const m = createMachine({\n  ...base,\n  states: { a: {} }\n});\n"
        ])
        let spread = try CLI.run(["import", "spread.js"], in: directory)
        #expect(spread.status == 2)
        #expect(spread.stderr.hasPrefix("spread.js:2:3: error: a spread (`...`)"), "\(spread.stderr)")
    }

    @Test func aDocumentOthersWroteImportsAsItsGoldenSpecWithItsNotes() throws {
        let path = "Tests/Fixtures/import/qt/trafficlight.scxml"
        let output = try CLI.run(["import", path])
        // Its timers outlive their states, which a timeout never does: noted, not refused.
        #expect(output.status == 1, "\(output.stderr)")
        let notes = output.stderr.split(separator: "\n")
        #expect(notes.count == 6 && notes.allSatisfy { $0.hasPrefix("\(path):") }, "\(output.stderr)")
        #expect(
            notes.first?.hasPrefix("\(path):16:17: warning: imported as a timeout, which ends when 'red' is left")
                == true)
        #expect(
            output.stdout
                == (try String(
                    contentsOf: CLI.packageRoot.appendingPathComponent(
                        "Tests/Fixtures/import/qt/trafficlight.flowspec.yaml"),
                    encoding: .utf8)))
    }

    @Test func anSCXMLSourceIsReadRelativeToItsDocument() throws {
        let folder = Self.temporary("invoke")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("flows"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try #"""
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" name="App" initial="signIn">
          <state id="signIn">
            <invoke id="auth" src="flows/signin.scxml" autoforward="true"/>
            <transition event="done.invoke.auth" target="home"/>
          </state>
          <state id="home"><transition event="signOut" target="signIn"/></state>
        </scxml>
        """#.write(to: folder.appendingPathComponent("app.scxml"), atomically: true, encoding: .utf8)
        try #"""
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" name="SignIn" initial="credentials">
          <state id="credentials"><transition event="submit" target="signedIn"/></state>
          <final id="signedIn"/>
        </scxml>
        """#.write(to: folder.appendingPathComponent("flows/signin.scxml"), atomically: true, encoding: .utf8)
        let output = try CLI.run(["import", folder.appendingPathComponent("app.scxml").path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("signIn: { run: SignIn, done: home }"), "\(output.stdout)")
        #expect(output.stdout.contains("  SignIn:\n    initial: credentials"), "\(output.stdout)")
    }

    @Test func theConfigsOfInvokedMachinesFollowOnTheCommandLine() throws {
        let parent = Self.temporary("app.json")
        let child = Self.temporary("signin.json")
        defer { for file in [parent, child] { try? FileManager.default.removeItem(at: file) } }
        try
            #"{"id": "app", "initial": "signIn", "states": {"signIn": {"invoke": {"src": "signInFlow", "onDone": "home"}}, "home": {"on": {"signOut": "signIn"}}}}"#
            .write(to: parent, atomically: true, encoding: .utf8)
        try
            #"{"id": "signInFlow", "initial": "a", "context": {"n": 0}, "states": {"a": {"on": {"submit": "b"}}, "b": {"type": "final"}}}"#
            .write(to: child, atomically: true, encoding: .utf8)
        let output = try CLI.run(["import", parent.path, child.path])
        #expect(output.status == 1, "\(output.stderr)")
        #expect(output.stdout.contains("signIn: { run: signInFlow, done: home }"), "\(output.stdout)")
        let notes = output.stderr.split(separator: "\n")
        #expect(notes.count == 2, "\(output.stderr)")
        #expect(
            notes.first?.hasPrefix("\(parent.path):1:68: warning: imported as a sub-flow") == true, "\(output.stderr)")
        #expect(
            notes.last?.hasPrefix("\(child.path):1:49: warning: not imported: the context") == true, "\(output.stderr)")

        try #"{"id": "signIn", "states": "#.write(to: child, atomically: true, encoding: .utf8)
        let broken = try CLI.run(["import", parent.path, child.path])
        #expect(broken.status == 2)
        #expect(broken.stderr.hasPrefix("\(child.path):1:"), "\(broken.stderr)")
    }

    @Test func aDocumentThatCannotBeReadExitsTwo() throws {
        let bomb = Self.temporary("bomb.scxml")
        try #"<?xml version="1.0"?><!DOCTYPE s [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><scxml>&b;</scxml>"#
            .write(to: bomb, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: bomb) }
        let output = try CLI.run(["import", bomb.path])
        #expect(output.status == 2)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains("\(bomb.path):1:22: error: a document type declaration (DTD) is not read"))

        let yaml = try CLI.run(["import", "specs/app.yaml"])
        #expect(yaml.status == 2)
        #expect(yaml.stderr.contains("specs/app.yaml:1:1: error: the input is neither SCXML"))
        let json = Self.temporary("broken.json")
        try #"{"states": {"a": {"on": {"go": "a",}}}}"#.write(to: json, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: json) }
        let broken = try CLI.run(["import", json.path])
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("\(json.path):1:35: error: a trailing ','"), "\(broken.stderr)")
        let missing = try CLI.run(["import", "no-such.scxml"])
        #expect(missing.status == 2)
    }

    // MARK: - Hostile inputs

    /// `--max-scalar-length` reaches the XML and JSON readers: a value over it is refused where
    /// it starts (exit 2), as one over the default, 1 MiB, is.
    @Test func theScalarLimitReachesTheReaders() throws {
        let document = Self.temporary("long.scxml")
        try (#"<scxml><state id="s" x=""# + String(repeating: "x", count: 200) + #""/></scxml>"#).write(
            to: document, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: document) }
        let limited = try CLI.run(["import", document.path, "--max-scalar-length", "100"])
        #expect(limited.status == 2)
        #expect(limited.stdout.isEmpty)
        #expect(
            limited.stderr
                == "\(document.path):1:24: error: an attribute value of 200 bytes is over the limit of 100 bytes (raise it with --max-scalar-length)\n"
        )
        #expect(try CLI.run(["import", document.path, "--max-scalar-length", "200"]).status == 1)

        let config = Self.temporary("long.json")
        try (#"{"states": {"a": {"description": ""# + String(repeating: "x", count: 2 << 20) + #""}}}"#).write(
            to: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: config) }
        let huge = try CLI.run(["import", config.path])
        #expect(huge.status == 2)
        #expect(
            huge.stderr
                == "\(config.path):1:34: error: a string of 2097152 bytes is over the limit of 1048576 bytes (raise it with --max-scalar-length)\n"
        )
    }

    /// A key holding a line break is one line of the report, and adds no state to the spec.
    @Test func aKeyWithALineBreakForgesNoReportLine() throws {
        let config = Self.temporary("evil.json")
        try
            ##"{"initial": "b", "states": {"a\n  evil: {kind: terminal}": {"on": {"go": "#x\nevil.json:1:1: error: forged"}}, "b": {"on": {"go": "a\n  evil: {kind: terminal}"}}}}"##
            .write(to: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: config) }
        let output = try CLI.run(["import", config.path])
        #expect(output.status == 1)
        let lines = output.stderr.split(separator: "\n")
        // One note, the target's; the rest are the check's findings on the spec.
        #expect(lines.filter { $0.contains(": warning: not imported") }.count == 1, "\(output.stderr)")
        #expect(!lines.contains { $0.hasPrefix("evil.json:1:1: error: forged") }, "\(output.stderr)")
        #expect(output.stdout.contains(#"      # XState key 'a\u{A}  evil: {kind: terminal}'"#), "\(output.stdout)")
        #expect(!output.stdout.contains("\n  evil"), "\(output.stdout)")
    }

    /// `<invoke src=".">` names a directory, and the note says so; a UTF-16 document with an odd
    /// number of bytes is refused as cut short, not as invalid UTF-8.
    @Test func aDirectoryOrHalfACharacterIsCalledWhatItIs() throws {
        let folder = Self.temporary("dir")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = folder.appendingPathComponent("app.scxml")
        try #"<scxml xmlns="http://www.w3.org/2005/07/scxml"><state id="s"><invoke src="."/></state></scxml>"#.write(
            to: app, atomically: true, encoding: .utf8)
        let output = try CLI.run(["import", app.path])
        #expect(
            output.stderr.contains(
                "\(app.path):1:62: warning: not imported: the invocation of '.': it cannot be read: '.' names the directory '\(folder.path)', not a document; give `src` the path of an SCXML file"
            ), "\(output.stderr)")

        let odd = folder.appendingPathComponent("odd.scxml")
        let text = "<scxml>\n<state id=\"s\"/></scxml>"
        try Data([0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } + [0x00]).write(to: odd)
        let cut = try CLI.run(["import", odd.path])
        #expect(cut.status == 2)
        #expect(
            cut.stderr
                == "\(odd.path):2:24: error: the document is UTF-16 (it starts with a UTF-16 byte-order mark) with an odd number of bytes: it is cut short, its last byte half a character; save it whole, or as UTF-8\n"
        )
    }
}
