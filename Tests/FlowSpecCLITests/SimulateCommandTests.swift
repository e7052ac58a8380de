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
