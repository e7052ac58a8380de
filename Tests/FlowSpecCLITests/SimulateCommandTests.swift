import Foundation
import Testing

/// `flowspec simulate`: the reference semantics, printed as a trace.
@Suite("flowspec simulate (process)")
struct SimulateCommandTests {
    @Test func authFlowTimeoutsRetriesAndReset() throws {
        let output = try CLI.run([
            "simulate", "specs/app.yaml", "--machine", "LaunchAuth",
            "@timeout", "@timeout", "@timeout", "loginAttempted",
            "networkError", "networkError", "networkError", "networkError", "retry", "forceReset"
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stdout == """
                start -> splash | effects: - | timeout: 2000ms -> onboardingCheck
                @timeout -> onboardingCheck | effects: - | timeout: 3000ms -> authCheck
                @timeout -> authCheck | effects: - | timeout: 5000ms -> unauthenticated
                @timeout -> unauthenticated | effects: - | timeout: -
                loginAttempted -> authLoading | effects: - | timeout: 10000ms -> error
                networkError -> authLoading | effects: - | timeout: 10000ms -> error
                networkError -> authLoading | effects: - | timeout: 10000ms -> error
                networkError -> authLoading | effects: - | timeout: 10000ms -> error
                networkError -> error | effects: showError | timeout: -
                retry -> unauthenticated | effects: - | timeout: -
                forceReset -> unauthenticated | effects: - | timeout: -

                """)
    }

    /// `always` branches on states that wait: seen before an input's own transitions, and on
    /// `@conditions`, which a trace the driver recorded replays.
    @Test func alwaysBranchesOnStatesThatWait() throws {
        let spec = "Tests/Fixtures/gen/golden/eventless.yaml"
        let output = try CLI.run([
            "simulate", spec, "+online", "splashDone", "submit", "resend", "+sessionValid", "resend", "-online",
            "@conditions", "@conditions"
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stdout == """
                start -> splash | effects: - | timeout: splash 2000ms -> credentials
                splashDone -> credentials | effects: - | timeout: -
                submit -> code | effects: - | timeout: -
                resend -> code | effects: sendCode | timeout: -
                resend -> feed, connected | effects: showHome | timeout: -
                @conditions -> feed, offline | effects: showOffline | timeout: -
                @conditions -> feed, offline (ignored) | effects: - | timeout: -

                """)
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent(
            "eventless-\(UUID().uuidString).trace")
        defer { try? FileManager.default.removeItem(at: trace) }
        try """
        +online
        start -> splash | effects: - | timeout: splash 2000ms -> credentials
        splashDone -> credentials | effects: - | timeout: -
        +sessionValid
        @conditions -> feed, connected | effects: showHome | timeout: -
        -online
        openSettings -> settings, offline | effects: showOffline | timeout: -

        """.write(to: trace, atomically: true, encoding: .utf8)
        let replay = try CLI.run(["simulate", spec, "--replay", trace.path])
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
    }

    @Test func conditionsBeforeTheFirstEventApplyToTheStart() throws {
        let returning = try CLI.run([
            "simulate", "specs/app.yaml", "--machine", "FirstRun", "+onboardingCompleted", "startDemo"
        ])
        #expect(
            returning.stdout == """
                start -> demoCTA | effects: - | timeout: -
                startDemo -> demoStub | effects: - | timeout: -

                """)
        let fresh = try CLI.run([
            "simulate", "specs/app.yaml", "--machine", "FirstRun", "slideAdvance", "splashFinished"
        ])
        #expect(
            fresh.stdout == """
                start -> splash | effects: - | timeout: -
                slideAdvance -> splash (ignored) | effects: - | timeout: -
                splashFinished -> slide0 | effects: - | timeout: -

                """)
    }

    @Test(arguments: [("3", "firewall"), ("99", "eventHorizon"), ("-1", "handshake"), ("x", "handshake")])
    func restoringChapters(raw: String, state: String) throws {
        let output = try CLI.run(["simulate", "specs/app.yaml", "--machine", "Chapters", "--restore", raw])
        #expect(output.stdout == "restore(\(raw)) -> \(state) | effects: - | timeout: -\n")
    }

    @Test func unknownNamesAndAmbiguousMachinesExitTwo() throws {
        let event = try CLI.run(["simulate", "specs/app.yaml", "--machine", "FirstRun", "splashFinishd"])
        #expect(event.status == 2)
        #expect(event.stderr.contains("no event 'splashFinishd'; did you mean 'splashFinished'?"))
        let machine = try CLI.run(["simulate", "specs/app.yaml", "splashFinished"])
        #expect(machine.status == 2)
        #expect(machine.stderr.contains("choose one with --machine"))
        let noPersist = try CLI.run(["simulate", "specs/app.yaml", "--machine", "FirstRun", "--restore", "1"])
        #expect(noPersist.status == 2)
    }
}

/// `flowspec simulate` on a machine with compound states: every armed timeout in the trace,
/// `@timeout(NAME)` for a compound state's, `--format json` with the configuration, and the
/// trace replays.
@Suite("flowspec simulate on compound states (process)")
struct SimulateNestedTests {
    static let spec = "Tests/Fixtures/nested/sign-in.yaml"
    static let inputs = [
        "begin", "submit", "needsCode", "resend", "@timeout", "@timeout(signIn)", "begin", "submit", "@timeout",
        "submit", "ok", "@timeout(signIn)"
    ]

    @Test func theTraceNamesEveryTimerAndEntryAndExitEffects() throws {
        let output = try CLI.run(["simulate", Self.spec] + Self.inputs)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stdout == """
                start -> welcome | effects: - | timeout: -
                begin -> credentials | effects: trackSignInStarted | timeout: signIn 300000ms -> welcome
                submit -> verifying | effects: - | timeout: signIn 300000ms -> welcome, 10000ms -> credentials
                needsCode -> code | effects: - | timeout: signIn 300000ms -> welcome
                resend -> code | effects: sendCode | timeout: signIn 300000ms -> welcome
                @timeout -> code (ignored) | effects: - | timeout: signIn 300000ms -> welcome
                @timeout(signIn) -> welcome | effects: clearPassword | timeout: -
                begin -> credentials | effects: trackSignInStarted | timeout: signIn 300000ms -> welcome
                submit -> verifying | effects: - | timeout: signIn 300000ms -> welcome, 10000ms -> credentials
                @timeout -> credentials | effects: - | timeout: signIn 300000ms -> welcome
                submit -> verifying | effects: - | timeout: signIn 300000ms -> welcome, 10000ms -> credentials
                ok -> signedIn | effects: clearPassword | timeout: -
                @timeout(signIn) -> signedIn (ignored) | effects: - | timeout: -

                """)
        // The trace replays as it was printed.
        let directory = try CLI.temporaryDirectory(with: ["trace.txt": output.stdout])
        let replay = try CLI.run(
            ["simulate", CLI.packageRoot.appendingPathComponent(Self.spec).path, "--replay", "trace.txt"],
            in: directory)
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
    }

    @Test func jsonStepsCarryTheConfiguration() throws {
        let output = try CLI.run(["simulate", Self.spec, "--format", "json", "begin", "submit"])
        #expect(output.status == 0, "\(output.stderr)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let steps = try #require(document["steps"] as? [[String: Any]])
        #expect(document["machine"] as? String == "Auth")
        #expect(steps.map { $0["input"] as? String } == ["start", "begin", "submit"])
        #expect(steps.map { $0["configuration"] as? [String] } == [["welcome"], ["credentials"], ["verifying"]])
        #expect(steps[2]["active"] as? [String] == ["signIn", "verifying"])
        #expect(steps[1]["effects"] as? [String] == ["trackSignInStarted"])
        #expect(steps[1]["ignored"] as? Bool == false)
        let timeouts = try #require(steps[2]["timeouts"] as? [[String: Any]])
        #expect(timeouts.map { $0["compound"] as? String } == ["signIn", nil])
        #expect(timeouts.map { $0["milliseconds"] as? Int } == [300_000, 10_000])
    }

    /// In a machine that runs others, a `#` line before a step names each sub-flow it starts,
    /// ends at an outcome or stops (a transition out of the running state, or into it again);
    /// the trace still replays, and JSON steps list the sub-flows running.
    @Test func theTraceNamesTheMachineEachSubFlowRuns() throws {
        let inputs = ["signIn", "splashAnimationCompleted", "onboardingCheckSucceeded", "validSession", "mainAppLoaded"]
        let output = try CLI.run(
            ["simulate", "specs/app.yaml", "--machine", "App"] + inputs + ["signOut", "forceReset"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stdout == """
                # firstRun runs FirstRun
                start -> firstRun.splash | effects: - | timeout: -
                # firstRun: FirstRun stopped
                # launch runs LaunchAuth
                signIn -> launch.splash | effects: - | timeout: 2000ms -> launch.onboardingCheck
                splashAnimationCompleted -> launch.onboardingCheck | effects: - | timeout: 3000ms -> launch.authCheck
                onboardingCheckSucceeded -> launch.authCheck | effects: - | timeout: 5000ms -> launch.unauthenticated
                validSession -> launch.authenticated | effects: - | timeout: 2000ms -> launch.error
                # launch: LaunchAuth ended at mainApp
                # story runs Chapters
                mainAppLoaded -> story.handshake | effects: - | timeout: -
                # story: Chapters stopped
                # launch runs LaunchAuth
                signOut -> launch.splash | effects: - | timeout: 2000ms -> launch.onboardingCheck
                # launch: LaunchAuth stopped
                # launch runs LaunchAuth
                forceReset -> launch.unauthenticated | effects: - | timeout: -

                """)
        let directory = try CLI.temporaryDirectory(with: ["trace.txt": output.stdout])
        let spec = CLI.packageRoot.appendingPathComponent("specs/app.yaml").path
        let replay = try CLI.run(["simulate", spec, "--machine", "App", "--replay", "trace.txt"], in: directory)
        #expect(replay.status == 0, "\(replay.stdout)\(replay.stderr)")
        let json = try CLI.run(["simulate", "specs/app.yaml", "--machine", "App", "--format", "json"] + inputs)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let steps = try #require(document["steps"] as? [[String: Any]])
        let machines = steps.map { ($0["subFlows"] as? [[String: String]])?.compactMap { $0["machine"] } }
        #expect(machines.first == ["FirstRun"] && machines.last == ["Chapters"], "\(machines)")
    }

    /// A machine with history states: each step says what the compound states with a history
    /// state inside remember (none before the first is left); other machines' steps say nothing.
    @Test func jsonStepsOfAMachineWithHistorySayWhatIsRemembered() throws {
        let spec = "Tests/Fixtures/gen/golden/history.yaml"
        let output = try CLI.run(["simulate", spec, "--format", "json", "signIn", "open", "expired", "signedInAgain"])
        #expect(output.status == 0, "\(output.stderr)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let steps = try #require(document["steps"] as? [[String: Any]])
        #expect(
            steps.map { $0["remembered"] as? [String: String] } == [
                [:], [:], [:], ["area": "general"], ["area": "general"]
            ])
        #expect(steps.last?["configuration"] as? [String] == ["general"])
        let flat = try CLI.run(["simulate", Self.spec, "--format", "json", "begin"])
        #expect(!flat.stdout.contains("remembered"))
    }

    @Test func anUnknownCompoundStateIsAnErrorWithASuggestion() throws {
        let output = try CLI.run(["simulate", Self.spec, "begin", "@timeout(signin)"])
        #expect(output.status == 2, "a bad input, as an unknown event is")
        #expect(output.stderr.contains("has no compound state 'signin'"), "\(output.stderr)")
        #expect(output.stderr.contains("signIn"))
    }
}
