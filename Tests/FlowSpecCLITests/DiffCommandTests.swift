import FlowSpecTestSupport
import Foundation
import Testing

/// `flowspec diff`: the changes between two versions of a spec and what they break, in every
/// output format, from two files or from git.
@Suite("flowspec diff (process)")
struct DiffCommandTests {
    static let old = "Tests/Fixtures/diff/old.yaml"
    static let new = "Tests/Fixtures/diff/new.yaml"

    /// Compares `text` with `Tests/Fixtures/diff/NAME`, or writes it with `FLOWSPEC_RECORD_GOLDEN=1`.
    static func expectGolden(_ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = CLI.packageRoot.appendingPathComponent("Tests/Fixtures/diff/\(name)")
        if ProcessInfo.processInfo.environment["FLOWSPEC_RECORD_GOLDEN"] == "1" {
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let golden = try String(contentsOf: url, encoding: .utf8)
        #expect(
            text == golden, "differs from \(name); re-record with FLOWSPEC_RECORD_GOLDEN=1",
            sourceLocation: sourceLocation)
    }

    @Test(arguments: ["text", "json", "sarif", "github", "mermaid"])
    func eachFormatIsTheGolden(format: String) throws {
        let output = try CLI.run(["diff", Self.old, Self.new, "--format", format])
        #expect(output.status == 1, "three stored positions moved: errors")
        let ending = ["text": "txt", "mermaid": "mmd"][format] ?? format
        try Self.expectGolden(output.stdout, "release.\(ending)")
        let again = try CLI.run(["diff", Self.old, Self.new, "--format", format])
        #expect(again.stdout == output.stdout, "the same two files give the same output")
    }

    /// A transition that lost its target (it stays now) is a changed transition, and says so.
    @Test func aTransitionThatNowStaysIsChanged() throws {
        let spec = { (resend: String) in
            """
            flowspec: 1
            machines:
              Code:
                initial: code
                defaults: { kind: input }
                effects: [sendCode]
                states:
                  code: { on: { resend: \(resend), done: finished } }
                  finished: { kind: terminal }

            """
        }
        let directory = try CLI.temporaryDirectory(with: [
            "old.yaml": spec("{ to: code, effects: [sendCode] }"), "new.yaml": spec("{ effects: [sendCode] }")
        ])
        let output = try CLI.run(["diff", "old.yaml", "new.yaml"], in: directory)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stdout
                == "Code: 1 change\nnew.yaml:8:21: changed 'code' on 'resend': 'code' / sendCode -> (stays) / sendCode\n",
            "\(output.stdout)")
    }

    @Test func severitiesWorkAsForCheck() throws {
        let lowered = try CLI.run(["diff", Self.old, Self.new, "--severity", "stored-position-changed=warning"])
        #expect(lowered.status == 0, "\(lowered.stderr)")
        #expect(lowered.stdout.contains("warning: state 'firewall' of machine 'Chapters' moved"))
        let strict = try CLI.run([
            "diff", Self.old, Self.new, "--severity", "stored-position-changed=warning", "--warnings-as-errors"
        ])
        #expect(strict.status == 1)
        let unchanged = try CLI.run(["diff", Self.old, Self.old])
        #expect(unchanged.status == 0)
        #expect(unchanged.stdout.isEmpty)
        #expect(unchanged.stderr == "flowspec: 0 changes, 0 errors, 0 other findings\n")
    }

    @Test func aSpecSettingTheSeverityIsObeyed() throws {
        let spec = try String(contentsOf: CLI.packageRoot.appendingPathComponent(Self.new), encoding: .utf8)
        let directory = try CLI.temporaryDirectory(with: [
            "new.yaml": spec.replacingOccurrences(
                of: "flowspec: 1\n", with: "flowspec: 1\nseverity: { stored-position-changed: off }\n")
        ])
        let old = CLI.packageRoot.appendingPathComponent(Self.old).path
        let output = try CLI.run(["diff", old, "new.yaml"], in: directory)
        #expect(output.status == 0, "\(output.stdout)")
        #expect(!output.stdout.contains("stored-position-changed"))
    }

    /// A new version with errors is still compared where its machines can be read, after
    /// `check`'s findings for it; an unreadable file is exit 2.
    @Test func badInput() throws {
        let directory = try CLI.temporaryDirectory(with: [
            "old.yaml": "flowspec: 1\nmachines:\n  M:\n    initial: a\n    states:\n      a: { kind: terminal }\n",
            "new.yaml":
                "flowspec: 1\nmachines:\n  M:\n    initial: a\n    states:\n      a: { kind: input, on: { go: b } }\n"
        ])
        let output = try CLI.run(["diff", "old.yaml", "new.yaml"], in: directory)
        #expect(output.status == 1)
        #expect(output.stderr.contains("new.yaml:6:35: error: target 'b' is not a state of machine 'M'"))
        #expect(
            output.stdout.contains("new.yaml:6:18: warning: state 'a' of machine 'M' was terminal and is input now"))
        let brokenOld = try CLI.temporaryDirectory(with: ["old.yaml": "flowspec: 1\nmachines: [\n"])
        let newPath = directory.appendingPathComponent("new.yaml").path
        let invalid = try CLI.run(["diff", "old.yaml", newPath], in: brokenOld)
        #expect(invalid.status == 1)
        #expect(invalid.stderr.contains("old.yaml:3:1: error:"), "\(invalid.stderr)")
        #expect(invalid.stderr.contains("[yaml-syntax]"))
        #expect(invalid.stdout.contains("M: 1 change\n"), "the new version's machine is all additions")
        let missing = try CLI.run(["diff", "old.yaml", "gone.yaml"], in: directory)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("gone.yaml"))
        let one = try CLI.run(["diff", "old.yaml"], in: directory)
        #expect(one.status == 2)
        #expect(one.stderr.contains("diff compares two files (OLD NEW), or each file with --base REF; got 1"))
    }

    /// The old and new version of a nested fixture, `Tests/Fixtures/diff/nested/NAME.old.yaml`
    /// and `NAME.new.yaml`, compared, with the text output checked against `nested/NAME.txt`.
    static func nested(_ name: String, format: String = "text") throws -> CLI.Output {
        let output = try CLI.run([
            "diff", "Tests/Fixtures/diff/nested/\(name).old.yaml", "Tests/Fixtures/diff/nested/\(name).new.yaml",
            "--format", format
        ])
        try expectGolden(output.stdout, "nested/\(name).\(format == "text" ? "txt" : format)")
        return output
    }

    /// Steps wrapped in a compound state keep their stored positions (only leaves are stored,
    /// in the same order), and the diff lists what they now inherit from it.
    @Test func wrappingLeavesInACompoundStateMovesNoStoredPosition() throws {
        let output = try Self.nested("wrap")
        #expect(output.status == 0, "\(output.stdout)")
        #expect(!output.stdout.contains("stored-position-changed"), "\(output.stdout)")
        #expect(output.stdout.contains("changed parent of 'address': top level -> 'details'\n"))
        #expect(output.stdout.contains("added 'review' on 'cancel' inherited from 'details': 'cart'\n"))
        #expect(output.stdout.contains("added 'review' timeout inherited from 'details': 15m to 'cart'\n"))
    }

    /// A leaf that now holds states is never stored again: its stored name is reported like a
    /// removed state's, with the `migrate` entry that fixes it; with that entry, nothing breaks.
    @Test func aLeafThatNowHoldsStatesLosesItsStoredValue() throws {
        let output = try Self.nested("became-compound")
        #expect(output.status == 1)
        #expect(
            output.stdout.contains(
                "became-compound.old.yaml:9:7: error: state 'signIn' of machine 'Auth' now holds states, so it is "
                    + "never current and never stored, but users' devices may have stored it as signIn; that value "
                    + "now restores `initial`. Map it to a state inside with `migrate: { signIn: credentials }` "
                    + "[stored-state-removed]"), "\(output.stdout)")
        #expect(output.stdout.contains("changed kind of 'signIn': input -> compound\n"))
        #expect(!output.stdout.contains("state-kind-changed"), "a compound state has no kind")
        let json = try Self.nested("became-compound", format: "json")
        #expect(json.status == 1)

        let directory = CLI.packageRoot.appendingPathComponent("Tests/Fixtures/diff/nested")
        let new = try String(contentsOf: directory.appendingPathComponent("became-compound.new.yaml"), encoding: .utf8)
        let fixed = try CLI.temporaryDirectory(with: [
            "new.yaml": new.replacingOccurrences(
                of: "persist: { rawValue: string }",
                with: "persist: { rawValue: string, migrate: { signIn: credentials } }")
        ])
        let migrated = try CLI.run(
            ["diff", directory.appendingPathComponent("became-compound.old.yaml").path, "new.yaml"], in: fixed)
        #expect(migrated.status == 0, "the advice is a valid spec that fixes it: \(migrated.stderr)")
        #expect(!migrated.stdout.contains("stored-state-removed"), "\(migrated.stdout)")
    }

    /// A leaf moved into a compound state keeps its stored name: no finding; what it now
    /// inherits is listed, by the state that writes it.
    @Test func aLeafMovedIntoACompoundStateKeepsItsStoredName() throws {
        let output = try Self.nested("moved")
        #expect(output.status == 0)
        #expect(!output.stdout.contains("["), "no finding: \(output.stdout)")
        #expect(output.stdout.contains("moved.new.yaml:17:11: changed parent of 'code': top level -> 'signIn'\n"))
        #expect(output.stdout.contains("moved.old.yaml:17:53: removed 'code' on 'cancel': 'welcome'\n"))
        #expect(
            output.stdout.contains(
                "moved.new.yaml:11:15: added 'code' on 'cancel' inherited from 'signIn': 'welcome'\n"))
        #expect(
            output.stdout.contains(
                "moved.new.yaml:12:9: added 'code' timeout inherited from 'signIn': 5m to 'welcome'\n"))
    }

    /// What a state writes about entering, leaving and finishing is compared: `entry`, `exit`,
    /// `initial`, `done`, and the `done` a terminal leaf that moved now takes.
    @Test func entryExitInitialAndDoneChangesAreListed() throws {
        let output = try Self.nested("done-entry")
        #expect(output.status == 0)
        for line in [
            "done-entry.new.yaml:11:39: changed entry of 'welcome': none -> showBanner",
            "done-entry.new.yaml:14:17: changed entry of 'signIn': trackSignInStarted -> trackSignInStarted, showSpinner",
            "done-entry.new.yaml:12:7: changed exit of 'signIn': clearPassword -> none",
            "done-entry.new.yaml:13:18: changed initial of 'signIn': 'credentials' -> 'intro'",
            "done-entry.new.yaml:16:15: changed done of 'signIn': 'signedIn' -> 'onboarding'",
            "done-entry.new.yaml:16:15: added 'abandoned' done inherited from 'signIn': 'onboarding'"
        ] {
            #expect(output.stdout.contains(line + "\n"), "\(line)\n\(output.stdout)")
        }
    }

    /// A `done` that became candidates is listed with their conditions and effects.
    @Test func doneCandidatesAreListedWithTheirConditionsAndEffects() throws {
        let output = try Self.nested("done-candidates")
        #expect(output.status == 0)
        #expect(
            output.stdout.contains(
                "done-candidates.new.yaml:9:15: changed done of 'paying': 'plain' -> 'gold' if vip / celebrate, 'plain'\n"
            ), "\(output.stdout)")
    }

    /// Which activities each state runs is compared: listed where they changed, never a
    /// finding (nothing a device stored depends on them).
    @Test func activityChangesAreListed() throws {
        let output = try Self.nested("activities")
        #expect(output.status == 0)
        for line in [
            "activities.new.yaml:12:7: changed activities of 'signedIn': watchSession -> none",
            "activities.new.yaml:15:45: changed activities of 'feed': poll -> poll, watchSession",
            "activities.new.yaml:16:48: changed activities of 'profile': none -> watchSession"
        ] {
            #expect(output.stdout.contains(line + "\n"), "\(line)\n\(output.stdout)")
        }
        #expect(output.stderr == "flowspec: 3 changes, 0 errors, 0 other findings\n")
    }

    /// A history state is never a state the flow is in: added to a persisted `int` machine,
    /// before the states of its compound state and between them, it moves no stored position
    /// and is no stored state added; the diff lists it as a state of kind `history`.
    @Test func addingAHistoryStateMovesNoStoredPosition() throws {
        let output = try Self.nested("history-added")
        #expect(output.status == 0, "\(output.stdout)")
        #expect(!output.stdout.contains("["), "no finding: \(output.stdout)")
        #expect(output.stdout.contains("history-added.new.yaml:14:11: added state 'where': history\n"))
        #expect(output.stdout.contains("history-added.new.yaml:16:11: added state 'last': history\n"))
        #expect(output.stderr == "flowspec: 4 changes, 0 errors, 0 other findings\n")
    }

    /// What loses the place users' devices remembered for a compound state with history: a
    /// state moved out of it, the compound state renamed, its history state removed. Each is a
    /// warning at the line to look at, with what to do; severities work as for the others.
    @Test func aLostHistoryMemoryIsAWarning() throws {
        let output = try Self.nested("history-dropped")
        #expect(output.status == 0, "warnings only: \(output.stderr)")
        #expect(output.stderr == "flowspec: 17 changes, 0 errors, 3 other findings\n")
        for line in [
            "history-dropped.new.yaml:18:7: warning: state 'feed' of machine 'Browse' moved out of 'area', whose "
                + "history resumes where users left it: a memory of 'area' that recorded 'feed' (stored as feed) now "
                + "restores 'feed', outside 'area', and is dropped, so those users resume at the default of the "
                + "history state they return through ('home' or 'settings') instead [stored-history-dropped]",
            "history-dropped.new.yaml:18:7: note: keep 'feed' inside 'area' for its history to resume it; `migrate` "
                + "cannot map feed: a current state stores it",
            "history-dropped.old.yaml:22:7: warning: compound state 'steps' of machine 'Wizard' is gone, but it had "
                + "a history state: the memory of where users left 'steps', stored beside the flow's state under "
                + "`<key>.history.steps`, is ignored after the update [stored-history-dropped]",
            "history-dropped.old.yaml:22:7: note: to keep it, keep a compound state named 'steps' with a history "
                + "state (`kind: history`) directly inside; a history state elsewhere remembers its own compound "
                + "state, starting with nothing",
            "history-dropped.new.yaml:40:9: warning: compound state 'section' of machine 'Settings' no longer has a "
                + "history state directly inside: the memory of where users left 'section', stored beside the "
                + "flow's state under `<key>.history.section`, is ignored after the update [stored-history-dropped]"
        ] {
            #expect(output.stdout.contains(line + "\n"), "\(line)\n\(output.stdout)")
        }
        let json = try Self.nested("history-dropped", format: "json")
        #expect(json.status == 0)

        let old = "Tests/Fixtures/diff/nested/history-dropped.old.yaml"
        let new = "Tests/Fixtures/diff/nested/history-dropped.new.yaml"
        let strict = try CLI.run(["diff", old, new, "--warnings-as-errors"])
        #expect(strict.status == 1)
        let off = try CLI.run(["diff", old, new, "--severity", "stored-history-dropped=off"])
        #expect(off.status == 0)
        #expect(!off.stdout.contains("stored-history-dropped"), "\(off.stdout)")
        #expect(off.stderr == "flowspec: 17 changes, 0 errors, 0 other findings\n")
    }

    /// What loses the state users' devices stored for a region: the region renamed, a state
    /// moved out of it into another region, the region made a single state. Each is a warning
    /// at the line to look at; the flow's own value is not at stake.
    @Test func aLostRegionStateIsAWarning() throws {
        let output = try Self.nested("region-dropped")
        #expect(output.stderr == "flowspec: 13 changes, 2 errors, 3 other findings\n")
        for line in [
            "region-dropped.old.yaml:17:11: warning: region 'data' of machine 'Workspace' is gone: the state users "
                + "were in inside it, stored beside the flow's state under `<key>.region.data`, is ignored after the "
                + "update [stored-region-dropped]",
            "region-dropped.new.yaml:17:15: warning: state 'offline' of machine 'Workspace' moved out of region "
                + "'connectivity': the value users' devices stored for 'connectivity' when they were in 'offline' "
                + "(offline) now restores 'offline', outside 'connectivity', so those users enter 'connectivity' "
                + "through its `initial` [stored-region-dropped]",
            "region-dropped.new.yaml:37:11: warning: state 'volume' of machine 'Player' is no longer a region that "
                + "holds states: the state users were in inside it, stored beside the flow's state under "
                + "`<key>.region.volume`, is ignored after the update [stored-region-dropped]"
        ] {
            #expect(output.stdout.contains(line + "\n"), "\(line)\n\(output.stdout)")
        }
        // The two errors are the states gone with `volume`'s states: `stored-state-removed`.
        #expect(output.stdout.components(separatedBy: "[stored-state-removed]").count == 3)
    }

    /// A history state that became shallow, or changed its `default`, leads elsewhere but reads
    /// the same remembered state: listed as changes, never a finding. A history state added
    /// first inside a compound state with no `initial` changes nothing it enters.
    @Test func aChangedHistoryIsListedNotReported() throws {
        let output = try Self.nested("history-changed")
        #expect(output.status == 0)
        #expect(!output.stdout.contains("["), "no finding: \(output.stdout)")
        for line in [
            "history-changed.new.yaml:17:11: changed history of 'resume': deep -> shallow",
            "history-changed.new.yaml:17:45: changed default of 'resume': 'card' -> 'confirm'",
            "history-changed.new.yaml:18:42: changed default of 'top': 'confirm' -> 'card'"
        ] {
            #expect(output.stdout.contains(line + "\n"), "\(line)\n\(output.stdout)")
        }
        #expect(!output.stdout.contains("initial of 'payment'"), "\(output.stdout)")
        let back = try CLI.run([
            "diff", "Tests/Fixtures/diff/nested/history-changed.new.yaml",
            "Tests/Fixtures/diff/nested/history-changed.old.yaml"
        ])
        #expect(back.stdout.contains("history-changed.old.yaml:14:42: changed history of 'resume': shallow -> deep\n"))
        #expect(
            back.stdout.contains("history-changed.old.yaml:14:11: changed default of 'resume': 'confirm' -> 'card'\n"))
    }

    /// The effects of an `initial` or a history's `default` are part of what a state writes:
    /// changed ones are listed, at the new value (at the state when it has none), never a
    /// finding (nothing stored depends on them).
    @Test func changedEffectsOnTheWayInAreListed() throws {
        let output = try Self.nested("way-in")
        #expect(output.status == 0)
        #expect(!output.stdout.contains("["), "no finding: \(output.stdout)")
        for line in [
            "way-in.new.yaml:10:43: changed initial effects of 'verifying': none -> startAttempt, focus",
            "way-in.new.yaml:15:11: changed default effects of 'last': restored -> none"
        ] {
            #expect(output.stdout.contains(line + "\n"), "\(line)\n\(output.stdout)")
        }
    }

    /// `--base REF` reads the old version with git, in a real repository made here.
    @Test(
        .enabled(
            if: ExternalTool.find("git") != nil,
            Comment(
                rawValue: ExternalTool.notOnPath(
                    "git", for: "diff --base cannot be run", install: "apt-get install git"))))
    func theBaseComesFromGit() throws {
        let git = try #require(ExternalTool.find("git"))
        let old = try String(contentsOf: CLI.packageRoot.appendingPathComponent(Self.old), encoding: .utf8)
        let new = try String(contentsOf: CLI.packageRoot.appendingPathComponent(Self.new), encoding: .utf8)
        let directory = try CLI.temporaryDirectory(with: ["specs/app.yaml": old])
        func run(_ arguments: String...) throws {
            let result = try ProcessRunner.run(git, ["-C", directory.path] + arguments)
            try #require(result.status == 0, "git \(arguments): \(result.stderr)")
        }
        try run("init", "-q")
        try run("-c", "user.name=t", "-c", "user.email=t@example.com", "add", "specs/app.yaml")
        try run("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "v1")
        try new.write(to: directory.appendingPathComponent("specs/app.yaml"), atomically: true, encoding: .utf8)
        try "flowspec: 1\nmachines:\n  M:\n    initial: a\n    states:\n      a: { kind: terminal }\n".write(
            to: directory.appendingPathComponent("specs/added.yaml"), atomically: true, encoding: .utf8)

        let output = try CLI.run(["diff", "--base", "HEAD", "specs/app.yaml", "specs/added.yaml"], in: directory)
        #expect(output.status == 1)
        let direct = try CLI.run(["diff", Self.old, Self.new])
        #expect(
            output.stdout.contains("specs/app.yaml:158:7: error: state 'firewall' of machine 'Chapters' moved"),
            "\(output.stdout)")
        #expect(output.stdout.contains("HEAD:specs/app.yaml:38:7: removed state 'demoStub'"))
        #expect(
            output.stdout.contains("M: 1 change\nspecs/added.yaml:3:3: added machine\n"), "a new file is all additions")
        #expect(
            output.stdout.split(separator: "\n").filter { $0.contains("error:") }.count
                == direct.stdout.split(separator: "\n").filter { $0.contains("error:") }.count)

        // The file's own repository is asked, wherever flowspec runs: here, from a directory in
        // no repository, by an absolute path (as the package plugin gives) and a relative one;
        // the tag exists only in the spec's repository.
        try run("tag", "v1")
        let outside = try CLI.temporaryDirectory(with: ["a.yaml": old])
        let absolute = directory.appendingPathComponent("specs/app.yaml").path
        let relative = "../" + directory.lastPathComponent + "/specs/app.yaml"
        for path in [absolute, relative] {
            let elsewhere = try CLI.run(["diff", "--base", "v1", path], in: outside)
            #expect(elsewhere.status == 1, "\(elsewhere.stderr)")
            #expect(
                elsewhere.stdout.contains("error: state 'firewall' of machine 'Chapters' moved"),
                "\(path) is found in its repository: \(elsewhere.stdout)")
        }

        let badRef = try CLI.run(["diff", "--base", "nosuchref", "specs/app.yaml"], in: directory)
        #expect(badRef.status == 2)
        #expect(
            badRef.stderr.contains("--base nosuchref is not a commit of the git repository that holds specs/app.yaml"))
        let noRepository = try CLI.run(["diff", "--base", "HEAD", "a.yaml"], in: outside)
        #expect(noRepository.status == 2)
        #expect(noRepository.stderr.contains("--base needs a.yaml to be in a git repository, and it is not"))
    }
}
