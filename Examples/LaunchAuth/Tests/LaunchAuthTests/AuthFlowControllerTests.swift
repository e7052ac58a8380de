import Clocks
import FlowSpecRuntime
import Testing

@testable import LaunchAuth

/// The launch and authentication flow's rules (reference flow 2), through the app-side
/// controller, its services as the task states' work, and a test clock.
@MainActor
@Suite("Launch and authentication")
struct AuthFlowControllerTests {
    let clock = TestClock()

    /// A controller at a cold launch, taken through `events` (sent by the test: the services
    /// answer nothing unless told to).
    func launch(
        firstLaunch: Bool = false, services: TestServices? = nil, _ events: [LaunchAuth.Event] = []
    ) async -> AuthFlowController {
        let flow = AuthFlowController(
            firstLaunch: firstLaunch, services: services ?? TestServices(clock: clock), clock: clock)
        flow.start()
        for event in events { flow.send(event) }
        await settle(flow.flow)
        return flow
    }

    /// 100 ms before `after` nothing happens; at `after` the flow has moved to `target`.
    func expectTimeout(
        _ flow: AuthFlowController, after: Duration, to target: LaunchAuth.State,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let waiting = flow.state
        await clock.advance(by: after - .milliseconds(100))
        await settle(flow.flow)
        #expect(flow.state == waiting, "nothing happens before the timeout", sourceLocation: sourceLocation)
        await clock.advance(by: .milliseconds(100))
        await settle(until: { flow.state == target }, "the timeout to \(target)", sourceLocation: sourceLocation)
    }

    // MARK: Every async step has a timeout

    @Test func aColdLaunchShowsTheSplash() async {
        let flow = await launch()
        #expect(flow.state == .splash)
        #expect(flow.screen == .splash)
        #expect(flow.flow.machine.armedTimeout?.after == .seconds(2), "the splash's timer is armed")
    }

    @Test func theSplashTimesOutAfterTwoSecondsIntoTheOnboardingCheck() async {
        let flow = await launch()
        await expectTimeout(flow, after: .seconds(2), to: .onboardingCheck)
        #expect(flow.screen == .checking)
    }

    @Test func theOnboardingCheckTimesOutAfterThreeSecondsIntoTheAuthCheck() async {
        let flow = await launch([.splashAnimationCompleted])
        await expectTimeout(flow, after: .seconds(3), to: .authCheck)
    }

    @Test func theAuthCheckTimesOutAfterFiveSecondsToTheLoginScreen() async {
        let flow = await launch([.splashAnimationCompleted, .onboardingCheckSucceeded])
        await expectTimeout(flow, after: .seconds(5), to: .unauthenticated)
        #expect(flow.screen == .login)
        #expect(flow.errorBanner == nil, "no session is not an error")
    }

    @Test func aLoginThatHangsForTenSecondsIsCancelledAndShowsTheErrorWithItsActions() async {
        let recorder = Recorder()
        var services = TestServices(clock: clock)
        services.signIn = .slow(.seconds(30), recorder)
        let flow = await launch(services: services, [.splashAnimationCompleted, .onboardingCheckSucceeded, .noSession])
        // The three checks the test answered itself were cancelled as it answered: their own
        // answers came too late, and were dropped.
        await settle(until: { flow.flow.droppedResults == 3 }, "the answered checks' late results")
        flow.send(.loginAttempted)
        #expect(flow.screen == .signingIn)
        await expectTimeout(flow, after: .seconds(10), to: .error)
        #expect(flow.screen == .error)
        #expect(flow.errorBanner == ErrorBanner(message: "Signing in failed.", actions: [.retry, .startOver]))
        await settle(until: { flow.flow.droppedResults == 4 }, "the cancelled sign-in's late answer")
        #expect(await recorder.wasCancelled, "the sign-in was cancelled when its 10 s were up")
        #expect(!(await recorder.ranToTheEnd))
        #expect(flow.state == .error, "and its late answer changed nothing")
    }

    @Test func loadingTheMainAppTimesOutAfterTwoSecondsIntoTheError() async {
        let flow = await launch([.splashAnimationCompleted, .onboardingCheckSucceeded, .validSession])
        #expect(flow.screen == .loadingMainApp)
        await expectTimeout(flow, after: .seconds(2), to: .error)
        #expect(flow.errorBanner?.message == "The app could not be loaded.")
    }

    @Test func aLaunchWithNoAnswersAtAllReachesTheLoginScreenInTenSeconds() async {
        let flow = await launch()
        for (seconds, state) in [(2, LaunchAuth.State.onboardingCheck), (3, .authCheck), (5, .unauthenticated)] {
            await clock.advance(by: .seconds(seconds))
            await settle(until: { flow.state == state }, "\(state) after \(seconds) s more")
        }
        #expect(flow.flow.machine.armedTimeout == nil, "the login screen waits for the user")
    }

    @Test func statesThatWaitForTheUserHaveNoTimer() async {
        let onboarding = await launch(firstLaunch: true, [.splashAnimationCompleted, .onboardingCheckSucceeded])
        #expect(onboarding.state == .onboarding)
        #expect(onboarding.flow.machine.armedTimeout == nil)
        await clock.advance(by: .seconds(3600))
        await settle(onboarding.flow)
        #expect(onboarding.state == .onboarding)
    }

    // MARK: The services drive the flow

    @Test func servicesThatAnswerTakeAReturningUserToTheMainApp() async {
        let services = TestServices(
            clock: clock, splash: .succeed, onboarding: .succeed, session: .succeed, signIn: .silent, mainApp: .succeed)
        let flow = await launch(services: services)
        await settle(until: { flow.state == .mainApp }, "the main app")
        #expect(flow.flow.problems.isEmpty)
    }

    @Test func aRefusedLoginGoesBackToTheLoginScreenAndANetworkFailureRetries() async {
        var services = TestServices(clock: clock, splash: .succeed, onboarding: .succeed, session: .refuse)
        services.signIn = .refuse
        let refused = await launch(services: services)
        await settle(until: { refused.state == .unauthenticated }, "the login screen")
        refused.send(.loginAttempted)
        await settle(until: { refused.flow.lastStep?.input == .event(.loginFailed) }, "the refusal")
        #expect(refused.state == .unauthenticated)
        services.signIn = .fail
        let offline = await launch(services: services)
        await settle(until: { offline.state == .unauthenticated }, "the login screen")
        offline.send(.loginAttempted)
        // Three automatic retries on network errors, then the error screen.
        await settle(until: { offline.state == .error }, "the retries used up")
        #expect(offline.flow.steps.isEmpty, "steps are not kept unless asked")
        #expect(offline.errorBanner == ErrorBanner(message: "Signing in failed.", actions: [.retry, .startOver]))
    }

    @Test(
        arguments: [
            ("splash", "The app could not start."), ("onboarding", "Setting up the app failed."),
            ("session", "Your session could not be checked."), ("signIn", "Signing in failed."),
            ("mainApp", "The app could not be loaded.")
        ])
    func aServiceThatFailsShowsItsErrorBanner(service: String, message: String) async {
        var services = TestServices(clock: clock, splash: .succeed, onboarding: .succeed, session: .succeed)
        switch service {
        case "splash": services.splash = .fail
        case "onboarding": services.onboarding = .fail
        case "session": services.session = .fail
        case "signIn":
            // No session, so the user signs in; every attempt fails with a network error.
            services.session = .refuse
            services.signIn = .fail
        default: services.mainApp = .fail
        }
        let flow = await launch(services: services)
        if service == "signIn" {
            await settle(until: { flow.state == .unauthenticated }, "the login screen")
            flow.send(.loginAttempted)
        }
        await settle(until: { flow.state == .error }, "the error screen")
        #expect(flow.errorBanner == ErrorBanner(message: message, actions: [.retry, .startOver]))
        #expect(flow.flow.machine.armedTimeout == nil, "the error waits for the user to choose")
    }

    // MARK: First and returning launches

    @Test func aFirstLaunchGoesThroughOnboardingToTheLoginScreen() async {
        let flow = await launch(firstLaunch: true, [.splashAnimationCompleted, .onboardingCheckSucceeded])
        #expect(flow.screen == .onboarding)
        flow.send(.userCompletedOnboarding)
        #expect(flow.state == .unauthenticated, "onboarding complete leaves at once for the login screen")
        #expect(flow.screen == .login)
    }

    @Test func aReturningLaunchSkipsOnboardingAndAValidSessionOpensTheMainApp() async {
        let flow = await launch(firstLaunch: false, [.splashAnimationCompleted, .onboardingCheckSucceeded])
        #expect(flow.state == .authCheck)
        flow.send(.validSession)
        #expect(flow.state == .authenticated)
        flow.send(.mainAppLoaded)
        #expect(flow.screen == .mainApp)
        #expect(flow.flow.machine.armedTimeout == nil)
    }

    @Test func aLoginFromTheLoginScreenOpensTheMainApp() async {
        let flow = await launch([
            .splashAnimationCompleted, .onboardingCheckSucceeded, .noSession, .loginAttempted, .loginSucceeded
        ])
        #expect(flow.state == .authenticated)
        flow.send(.mainAppLoaded)
        #expect(flow.state == .mainApp)
    }

    // MARK: Every error has a visible UI and an action

    @Test(
        arguments: [
            ([], LaunchAuth.Event.splashFailed, "The app could not start."),
            ([.splashAnimationCompleted], .onboardingCheckFailed, "Setting up the app failed."),
            (
                [.splashAnimationCompleted, .onboardingCheckSucceeded], .authCheckFailed,
                "Your session could not be checked."
            ),
            (
                [.splashAnimationCompleted, .onboardingCheckSucceeded, .validSession], .mainAppLoadFailed,
                "The app could not be loaded."
            )
        ] as [([LaunchAuth.Event], LaunchAuth.Event, String)])
    func aFailureShowsTheErrorBanner(path: [LaunchAuth.Event], failure: LaunchAuth.Event, message: String) async {
        let flow = await launch(path)
        flow.send(failure)
        #expect(flow.screen == .error)
        #expect(flow.errorBanner == ErrorBanner(message: message, actions: [.retry, .startOver]))
        #expect(flow.flow.machine.armedTimeout == nil, "the error waits for the user to choose")
    }

    @Test func aFailedOnboardingShowsTheErrorBanner() async {
        let flow = await launch(
            firstLaunch: true, [.splashAnimationCompleted, .onboardingCheckSucceeded, .onboardingFailed])
        #expect(flow.errorBanner?.message == "Setting up the app failed.")
    }

    @Test func retryFromTheErrorGoesToTheLoginScreen() async {
        let flow = await launch([.splashFailed])
        flow.perform(.retry)
        #expect(flow.screen == .login)
        #expect(flow.errorBanner == nil, "the banner goes with the error screen")
    }

    @Test func startingOverFromTheErrorChecksOnboardingAgainWithItsTimeout() async {
        let flow = await launch([.splashFailed])
        flow.perform(.startOver)
        #expect(flow.state == .onboardingCheck)
        #expect(flow.errorBanner == nil)
        await expectTimeout(flow, after: .seconds(3), to: .authCheck)
    }

    // MARK: At most 3 automatic retries

    @Test func aLoginRetriesThreeTimesOnNetworkErrorsAndTheFourthShowsTheError() async {
        let flow = await launch([.splashAnimationCompleted, .onboardingCheckSucceeded, .noSession, .loginAttempted])
        for attempt in 1...3 {
            flow.send(.networkError)
            #expect(flow.state == .authLoading, "automatic retry \(attempt)")
        }
        flow.send(.networkError)
        #expect(flow.state == .error)
        #expect(flow.screen == .error)
        // The retry's fallback (`then: error`) enters `error`, whose `entry: [showError]` shows the banner.
        #expect(flow.errorBanner == ErrorBanner(message: "Signing in failed.", actions: [.retry, .startOver]))
    }

    @Test func eachAutomaticRetryGetsItsOwnTenSeconds() async {
        let flow = await launch([.splashAnimationCompleted, .onboardingCheckSucceeded, .noSession, .loginAttempted])
        await clock.advance(by: .seconds(9))
        await settle(flow.flow)
        flow.send(.networkError)
        await clock.advance(by: .seconds(9))
        await settle(flow.flow)
        #expect(flow.state == .authLoading, "at 18 s: the first attempt's 10 s are long gone, the retry's are not")
        await clock.advance(by: .seconds(1))
        await settle(until: { flow.state == .error }, "at 19 s: the retry's own 10 s are up")
    }

    @Test func theRetryCountStartsAgainBackAtTheLoginScreen() async {
        let flow = await launch([.splashAnimationCompleted, .onboardingCheckSucceeded, .noSession, .loginAttempted])
        for _ in 1...3 { flow.send(.networkError) }
        flow.send(.loginFailed)
        #expect(flow.screen == .login)
        flow.send(.loginAttempted)
        for _ in 1...3 { flow.send(.networkError) }
        #expect(flow.state == .authLoading, "three more automatic retries")
        flow.send(.networkError)
        #expect(flow.state == .error)
        flow.perform(.retry)
        flow.send(.loginAttempted)
        for _ in 1...3 { flow.send(.networkError) }
        #expect(flow.state == .authLoading, "and three more after the error screen's retry")
    }

    // MARK: The user can always force-reset to the login screen

    /// A way into a state that is neither terminal nor a choice.
    struct Path: Sendable, CustomTestStringConvertible {
        let state: LaunchAuth.State
        let firstLaunch: Bool
        let events: [LaunchAuth.Event]
        var testDescription: String { "from \(state.rawValue)" }
    }

    nonisolated static let resettable: [Path] = [
        Path(state: .splash, firstLaunch: false, events: []),
        Path(state: .onboardingCheck, firstLaunch: false, events: [.splashAnimationCompleted]),
        Path(state: .onboarding, firstLaunch: true, events: [.splashAnimationCompleted, .onboardingCheckSucceeded]),
        Path(state: .authCheck, firstLaunch: false, events: [.splashAnimationCompleted, .onboardingCheckSucceeded]),
        Path(
            state: .authLoading, firstLaunch: false,
            events: [
                .splashAnimationCompleted, .onboardingCheckSucceeded, .noSession, .loginAttempted, .networkError,
                .networkError
            ]),
        Path(
            state: .authenticated, firstLaunch: false,
            events: [.splashAnimationCompleted, .onboardingCheckSucceeded, .validSession]),
        Path(
            state: .unauthenticated, firstLaunch: false,
            events: [.splashAnimationCompleted, .onboardingCheckSucceeded, .noSession]),
        Path(state: .error, firstLaunch: false, events: [.splashFailed])
    ]

    @Test func theResetPathsCoverEveryStateThatIsNeitherTerminalNorAChoice() {
        let waiting = LaunchAuth.State.allCases.filter { ![.terminal, .choice].contains(LaunchAuth.kind(of: $0)) }
        #expect(Set(Self.resettable.map(\.state)) == Set(waiting))
    }

    @Test(arguments: resettable)
    func aForceResetGoesToTheLoginScreen(path: Path) async {
        let flow = await launch(firstLaunch: path.firstLaunch, path.events)
        #expect(flow.state == path.state)
        flow.send(.forceReset)
        #expect(flow.state == .unauthenticated)
        #expect(flow.screen == .login)
        #expect(flow.errorBanner == nil)
        #expect(flow.flow.machine.armedTimeout == nil, "the login screen has no timer")
        await clock.advance(by: .seconds(60))
        await settle(flow.flow)
        #expect(flow.state == .unauthenticated, "the timer of the state it left was cancelled")
    }

    @Test func aForceResetMidRetryStartsTheRetryCountAgain() async {
        let flow = await launch([.splashAnimationCompleted, .onboardingCheckSucceeded, .noSession, .loginAttempted])
        for _ in 1...3 { flow.send(.networkError) }
        flow.send(.forceReset)
        flow.send(.loginAttempted)
        for _ in 1...3 { flow.send(.networkError) }
        #expect(flow.state == .authLoading)
    }

    // MARK: A late timer never acts on a later visit

    @Test func theTimerOfAStateLeftEarlyNeverFires() async {
        let flow = await launch()
        await clock.advance(by: .seconds(1))
        await settle(flow.flow)
        flow.send(.splashAnimationCompleted)
        #expect(flow.state == .onboardingCheck)
        let visit = flow.flow.machine.visit
        await clock.advance(by: .seconds(1))
        await settle(flow.flow)
        #expect(flow.state == .onboardingCheck, "the splash's 2 s passed, and its timer was cancelled")
        #expect(flow.flow.machine.visit == visit, "and changed nothing")
        await clock.advance(by: .seconds(2))
        await settle(until: { flow.state == .authCheck }, "the onboarding check's own timer at 1 s + 3 s")
    }

    @Test func aLaterVisitOfTheSameStateGetsAFreshTimer() async {
        let flow = await launch([.splashAnimationCompleted])
        await clock.advance(by: .seconds(2))
        await settle(flow.flow)
        flow.send(.onboardingCheckFailed)
        flow.perform(.startOver)
        #expect(flow.state == .onboardingCheck, "the same state, a later visit")
        // The earlier visit's timer would fire 1 s from now; the new visit's in 3.
        await clock.advance(by: .seconds(1))
        await settle(flow.flow)
        #expect(flow.state == .onboardingCheck)
        await clock.advance(by: .seconds(2))
        await settle(until: { flow.state == .authCheck }, "the current visit's timeout")
    }

    // MARK: The main app is the end

    @Test func theMainAppIsTerminalAndIgnoresEveryEvent() async {
        let flow = await launch([.splashAnimationCompleted, .onboardingCheckSucceeded, .validSession, .mainAppLoaded])
        #expect(LaunchAuth.isTerminal(flow.state))
        let end = flow.flow.machine
        for event in LaunchAuth.Event.allCases {
            flow.send(event)
            #expect(flow.flow.machine == end, "\(event.rawValue) is ignored")
        }
        #expect(flow.flow.problems.count == LaunchAuth.Event.allCases.count, "each one said, not trapped")
        await clock.advance(by: .seconds(3600))
        await settle(flow.flow)
        #expect(flow.flow.machine == end)
        #expect(flow.screen == .mainApp)
    }
}
