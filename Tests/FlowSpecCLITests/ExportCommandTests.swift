import Foundation
import Testing

/// `flowspec export` as a process: the machine chosen, exactly the goldens of
/// `Tests/Fixtures/export`; exit codes 0 (printed), 1 (a spec with errors, nothing printed), 2
/// (unreadable file, bad command line, no such machine, a machine to choose).
@Suite("flowspec export (process)")
struct ExportCommandTests {
    @Test(arguments: ["FirstRun", "LaunchAuth", "Chapters", "App"])
    func printsTheMachineAsTheGolden(machine: String) throws {
        let output = try CLI.run(["export", "specs/app.yaml", "--format", "scxml", "--machine", machine])
        #expect(output.status == 0)
        #expect(output.stderr.isEmpty, "\(output.stderr)")
        let golden = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("Tests/Fixtures/export/app.\(machine).scxml"),
            encoding: .utf8)
        #expect(output.stdout == golden)
    }

    @Test(arguments: ["FirstRun", "LaunchAuth", "Chapters", "App"])
    func printsTheMachineAsTheXStateGolden(machine: String) throws {
        let output = try CLI.run(["export", "specs/app.yaml", "--format", "xstate", "--machine", machine])
        #expect(output.status == 0)
        #expect(output.stderr.isEmpty, "\(output.stderr)")
        let golden = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("Tests/Fixtures/export/app.\(machine).xstate.json"),
            encoding: .utf8)
        #expect(output.stdout == golden)
    }

    @Test func thePythonDatamodelIsChosenOnTheCommandLine() throws {
        let output = try CLI.run([
            "export", "specs/app.yaml", "--format", "scxml", "--machine", "LaunchAuth", "--datamodel", "python"
        ])
        #expect(output.status == 0)
        #expect(output.stdout.contains(#"datamodel="python""#))
        #expect(output.stdout.contains(#"<data id="firstLaunch" expr="False"/>"#))
    }

    @Test func aDatamodelForAnXStateConfigIsRefused() throws {
        let output = try CLI.run([
            "export", "specs/app.yaml", "--format", "xstate", "--machine", "LaunchAuth", "--datamodel", "python"
        ])
        #expect(output.status == 2)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains("--datamodel is for --format scxml; an XState config has no datamodel"))
    }

    @Test func aSpecOfSeveralMachinesNeedsOneChosen() throws {
        let output = try CLI.run(["export", "specs/app.yaml", "--format", "scxml"])
        #expect(output.status == 2)
        #expect(output.stdout.isEmpty)
        #expect(
            output.stderr.contains(
                "specs/app.yaml has 4 machines; choose one with --machine (FirstRun, LaunchAuth, Chapters, App)"))
        let unknown = try CLI.run(["export", "specs/app.yaml", "--format", "scxml", "--machine", "Nope"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("specs/app.yaml has no machine 'Nope'"))
    }

    @Test func aSpecWithErrorsIsNotExported() throws {
        let output = try CLI.run([
            "export", "Tests/Fixtures/graph/findings.yaml", "--format", "scxml", "--machine", "Loops"
        ])
        #expect(output.status == 1)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains("error"))
        #expect(output.stderr.contains("nothing was exported"))
    }

    @Test func theFormatIsRequiredAndChecked() throws {
        let missing = try CLI.run(["export", "specs/app.yaml", "--machine", "App"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("--format"))
        let wrong = try CLI.run(["export", "specs/app.yaml", "--machine", "App", "--format", "bpmn"])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("scxml") && wrong.stderr.contains("xstate"))
    }
}
