import Foundation
import Testing

/// `flowspec simulate --replay` checks a trace a FlowDriver recorded (the runtime's tests keep
/// one as `Tests/Fixtures/traces/launch-auth.trace`) against the spec, step by step.
@Suite("flowspec simulate --replay (process)")
struct ReplayCommandTests {
    static let trace = "Tests/Fixtures/traces/launch-auth.trace"

    static func recorded() throws -> String {
        try String(contentsOf: CLI.packageRoot.appendingPathComponent(trace), encoding: .utf8)
    }

    @Test func theDriversTraceAgreesWithTheSpec() throws {
        let output = try CLI.run(["simulate", "specs/app.yaml", "--machine", "LaunchAuth", "--replay", Self.trace])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        let steps = try Self.recorded().split(separator: "\n").filter { $0.contains(" -> ") }.count
        #expect(output.stdout == "\(Self.trace): \(steps) steps agree with machine 'LaunchAuth'\n")
    }

    /// A log whose step differs from the spec (a state shown that the spec would not reach)
    /// is located at that step's line.
    /// A persisted machine with parallel regions relaunched: the restore line names the
    /// regions' stored states (as `FlowDriver` writes them) and replays; a region stored
    /// elsewhere than the flow was disagrees at that line.
    @Test func aRelaunchWithRegionsReplays() throws {
        let spec = CLI.packageRoot.appendingPathComponent("Tests/Fixtures/gen/golden/parallel.yaml").path
        let run = try CLI.run(["simulate", spec, "--machine", "Workspace", "start", "open", "lost"])
        #expect(run.status == 0, "\(run.stderr)")
        let relaunch =
            "restore(settings, data=syncing, connectivity=offline) -> settings, syncing, offline | effects: trackSignedIn, showSettings, showOffline | timeout: signedIn 1800000ms -> welcome, syncing 20000ms -> idle, offline 5000ms -> online\n"
        let directory = try CLI.temporaryDirectory(with: [
            "relaunched.trace": run.stdout + relaunch,
            "elsewhere.trace": run.stdout
                + relaunch.replacingOccurrences(of: "connectivity=offline", with: "connectivity=online")
        ])
        let replay = try CLI.run(
            ["simulate", spec, "--machine", "Workspace", "--replay", "relaunched.trace"], in: directory)
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        #expect(replay.stdout == "relaunched.trace: 5 steps agree with machine 'Workspace'\n")
        let elsewhere = try CLI.run(
            ["simulate", spec, "--machine", "Workspace", "--replay", "elsewhere.trace"], in: directory)
        #expect(elsewhere.status == 1)
        #expect(
            elsewhere.stdout.hasPrefix("elsewhere.trace:5:1: error: the log and the spec disagree:"),
            "\(elsewhere.stdout)")
    }

    @Test func theFirstStepThatDisagreesIsLocated() throws {
        var lines = try Self.recorded().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let index = try #require(lines.firstIndex { $0.hasPrefix("loginAttempted -> ") })
        let original = lines[index]
        lines[index] = original.replacingOccurrences(
            of: "loginAttempted -> authLoading", with: "loginAttempted -> mainApp")
        #expect(lines[index] != original)
        let directory = try CLI.temporaryDirectory(with: ["device.trace": lines.joined(separator: "\n")])
        let spec = CLI.packageRoot.appendingPathComponent("specs/app.yaml").path
        let output = try CLI.run(
            ["simulate", spec, "--machine", "LaunchAuth", "--replay", "device.trace"], in: directory)
        #expect(output.status == 1)
        #expect(
            output.stdout == """
                device.trace:\(index + 1):1: error: the log and the spec disagree:
                  log:  \(lines[index])
                  spec: \(original)

                """)
    }

    @Test(arguments: [
        (
            "splash -> splash | effects: - | timeout: -\n",
            "1:1: error: a trace begins with `start -> …` or `restore(VALUE) -> …`, not 'splash'"
        ),
        (
            "start -> splash | effects: - | timeout: 2000ms -> onboardingCheck\nsplashDone -> x\n",
            "2:1: error: machine 'LaunchAuth' has no event 'splashDone'"
        ),
        (
            "+firstLaunch\n+firstLaunh\n",
            "2:1: error: machine 'LaunchAuth' has no condition 'firstLaunh'; did you mean 'firstLaunch'?"
        ),
        (
            "start -> splash | effects: - | timeout: 2000ms -> onboardingCheck\nnonsense\n",
            "2:1: error: this is not a line of a trace"
        ),
        ("# nothing\n\n", "1:1: error: the trace has no steps"),
        (
            "start -> splash | effects: - | timeout: 2000ms -> onboardingCheck\nstart -> splash | effects: - | timeout: -\n",
            "2:1: error: the flow starts only once in a trace"
        ),
        ("restore(3) -> splash | effects: - | timeout: -\n", "1:1: error: machine 'LaunchAuth' has no `persist`")
    ])
    func badTracesAreLocated(text: String, message: String) throws {
        let directory = try CLI.temporaryDirectory(with: ["bad.trace": text])
        let spec = CLI.packageRoot.appendingPathComponent("specs/app.yaml").path
        let output = try CLI.run(["simulate", spec, "--machine", "LaunchAuth", "--replay", "bad.trace"], in: directory)
        #expect(output.status == 1)
        #expect(output.stdout.hasPrefix("bad.trace:" + message), "\(output.stdout)")
    }

    @Test func aMissingTraceOrInputsBesideItCannotBeRun() throws {
        let missing = try CLI.run(["simulate", "specs/app.yaml", "--machine", "LaunchAuth", "--replay", "nowhere.trace"]
        )
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot read 'nowhere.trace'"))
        let both = try CLI.run(
            ["simulate", "specs/app.yaml", "--machine", "LaunchAuth", "--replay", Self.trace, "loginAttempted"])
        #expect(both.status == 2)
        #expect(both.stderr.contains("leave out the inputs and --restore"))
    }
}
