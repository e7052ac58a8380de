import Testing

@testable import LaunchAuth

/// The launch and authentication flow's rules (reference flow 2), through the app-side
/// controller and a manual clock.
@Suite("Launch and authentication")
struct AuthFlowControllerTests {
    let clock = ManualClock()

    /// A controller at a cold launch on `clock`, taken through `events`.
    func launch(firstLaunch: Bool = false, _ events: [LaunchAuth.Event] = []) -> AuthFlowController {
        let flow = AuthFlowController(firstLaunch: firstLaunch, scheduler: clock)
        for event in events { flow.send(event) }
        return flow
    }

    /// 100 ms before `after` nothing happens; at `after` the flow has moved to `target`.
    func expectTimeout(
        _ flow: AuthFlowController, after: Duration, to target: LaunchAuth.State,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let waiting = flow.state
        clock.advance(by: after - .milliseconds(100))
        #expect(flow.state == waiting, "nothing happens before the timeout", sourceLocation: sourceLocation)
        clock.advance(by: .milliseconds(100))
        #expect(flow.state == target, sourceLocation: sourceLocation)
    }

    // MARK: Every async step has a timeout

    @Test func aColdLaunchShowsTheSplash() {
        let flow = launch()
        #expect(flow.state == .splash)
        #expect(flow.screen == .splash)
        #expect(clock.pending == 1, "the splash's timer is armed")
    }

    @Test func theSplashTimesOutAfterTwoSecondsIntoTheOnboardingCheck() {
        let flow = launch()
        clock.advance(by: .milliseconds(1900))
        #expect(flow.state == .splash)
        clock.advance(by: .milliseconds(100))
        #expect(flow.state == .onboardingCheck)
        #expect(flow.screen == .checking)
    }

    @Test func theOnboardingCheckTimesOutAfterThreeSecondsIntoTheAuthCheck() {
        let flow = launch([.splashAnimationCompleted])
        expectTimeout(flow, after: .seconds(3), to: .authCheck)
    }

    @Test func theAuthCheckTimesOutAfterFiveSecondsToTheLoginScreen() {
        let flow = launch([.splashAnimationCompleted, .onboardingCheckSucceeded])
        expectTimeout(flow, after: .seconds(5), to: .unauthenticated)
        #expect(flow.screen == .login)
        #expect(flow.errorBanner == nil, "no session is not an error")
    }

    @Test func aLoginThatHangsForTenSecondsShowsTheErrorWithItsActions() {
        let flow = launch([.splashAnimationCompleted, .onboardingCheckSucceeded, .noSession, .loginAttempted])
        #expect(flow.screen == .signingIn)
        expectTimeout(flow, after: .seconds(10), to: .error)
        #expect(flow.screen == .error)
        #expect(flow.errorBanner == ErrorBanner(message: "Signing in failed.", actions: [.retry, .startOver]))
    }

    @Test func loadingTheMainAppTimesOutAfterTwoSecondsIntoTheError() {
        let flow = launch([.splashAnimationCompleted, .onboardingCheckSucceeded, .validSession])
        #expect(flow.screen == .loadingMainApp)
        expectTimeout(flow, after: .seconds(2), to: .error)
        #expect(flow.errorBanner?.message == "The app could not be loaded.")
    }

    @Test func aLaunchWithNoAnswersAtAllReachesTheLoginScreenInTenSeconds() {
        let flow = launch()
        clock.advance(by: .seconds(10))
        #expect(flow.state == .unauthenticated, "splash 2 s, onboarding check 3 s, auth check 5 s")
        #expect(clock.ranActions == 3)
        #expect(clock.pending == 0, "the login screen waits for the user")
    }

    @Test func statesThatWaitForTheUserHaveNoTimer() {
        let onboarding = launch(firstLaunch: true, [.splashAnimationCompleted, .onboardingCheckSucceeded])
        #expect(onboarding.state == .onboarding)
        #expect(clock.pending == 0)
        clock.advance(by: .seconds(3600))
        #expect(onboarding.state == .onboarding)
    }

    // MARK: First and returning launches

    @Test func aFirstLaunchGoesThroughOnboardingToTheLoginScreen() {
        let flow = launch(firstLaunch: true, [.splashAnimationCompleted, .onboardingCheckSucceeded])
        #expect(flow.screen == .onboarding)
        flow.send(.userCompletedOnboarding)
        #expect(flow.state == .unauthenticated, "onboarding complete leaves at once for the login screen")
        #expect(flow.screen == .login)
    }

    @Test func aReturningLaunchSkipsOnboardingAndAValidSessionOpensTheMainApp() {
        let flow = launch(firstLaunch: false, [.splashAnimationCompleted, .onboardingCheckSucceeded])
        #expect(flow.state == .authCheck)
        flow.send(.validSession)
        #expect(flow.state == .authenticated)
        flow.send(.mainAppLoaded)
        #expect(flow.screen == .mainApp)
        #expect(clock.pending == 0)
    }

    @Test func aLoginFromTheLoginScreenOpensTheMainApp() {
        let flow = launch([
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
    func aFailureShowsTheErrorBanner(path: [LaunchAuth.Event], failure: LaunchAuth.Event, message: String) {
        let flow = launch(path)
        flow.send(failure)
        #expect(flow.screen == .error)
        #expect(flow.errorBanner == ErrorBanner(message: message, actions: [.retry, .startOver]))
        #expect(clock.pending == 0, "the error waits for the user to choose")
    }

    @Test func aFailedOnboardingShowsTheErrorBanner() {
        let flow = launch(firstLaunch: true, [.splashAnimationCompleted, .onboardingCheckSucceeded, .onboardingFailed])
        #expect(flow.errorBanner?.message == "Setting up the app failed.")
    }

    @Test func retryFromTheErrorGoesToTheLoginScreen() {
        let flow = launch([.splashFailed])
        flow.perform(.retry)
        #expect(flow.screen == .login)
        #expect(flow.errorBanner == nil, "the banner goes with the error screen")
    }

    @Test func startingOverFromTheErrorChecksOnboardingAgainWithItsTimeout() {
        let flow = launch([.splashFailed])
        flow.perform(.startOver)
        #expect(flow.state == .onboardingCheck)
        #expect(flow.errorBanner == nil)
        expectTimeout(flow, after: .seconds(3), to: .authCheck)
    }

    // MARK: At most 3 automatic retries

    @Test func aLoginRetriesThreeTimesOnNetworkErrorsAndTheFourthShowsTheError() {
        let flow = launch([.splashAnimationCompleted, .onboardingCheckSucceeded, .noSession, .loginAttempted])
        for attempt in 1...3 {
            flow.send(.networkError)
            #expect(flow.state == .authLoading, "automatic retry \(attempt)")
        }
        flow.send(.networkError)
        #expect(flow.state == .error)
        #expect(flow.screen == .error)
        // The spec's fallback (`retry: { max: 3, then: error }`) runs the effects of the
        // `networkError` transition, and it has none: this error screen comes without a
        // `showError` banner message.
        #expect(flow.errorBanner == nil)
    }

    @Test func eachAutomaticRetryGetsItsOwnTenSeconds() {
        let flow = launch([.splashAnimationCompleted, .onboardingCheckSucceeded, .noSession, .loginAttempted])
        clock.advance(by: .seconds(9))
        flow.send(.networkError)
        clock.advance(by: .seconds(9))
        #expect(flow.state == .authLoading, "at 18 s: the first attempt's 10 s are long gone, the retry's are not")
        clock.advance(by: .seconds(1))
        #expect(flow.state == .error, "at 19 s: the retry's own 10 s are up")
    }

    @Test func theRetryCountStartsAgainBackAtTheLoginScreen() {
        let flow = launch([.splashAnimationCompleted, .onboardingCheckSucceeded, .noSession, .loginAttempted])
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

    static let resettable: [Path] = [
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
    func aForceResetGoesToTheLoginScreen(path: Path) {
        let flow = launch(firstLaunch: path.firstLaunch, path.events)
        #expect(flow.state == path.state)
        flow.send(.forceReset)
        #expect(flow.state == .unauthenticated)
        #expect(flow.screen == .login)
        #expect(flow.errorBanner == nil)
        #expect(clock.pending == 0, "the timer of the state it left is cancelled")
        clock.advance(by: .seconds(60))
        #expect(flow.state == .unauthenticated)
    }

    @Test func aForceResetMidRetryStartsTheRetryCountAgain() {
        let flow = launch([.splashAnimationCompleted, .onboardingCheckSucceeded, .noSession, .loginAttempted])
        for _ in 1...3 { flow.send(.networkError) }
        flow.send(.forceReset)
        flow.send(.loginAttempted)
        for _ in 1...3 { flow.send(.networkError) }
        #expect(flow.state == .authLoading)
    }

    // MARK: A late timer never acts on a later visit

    @Test func aTimerThatIsNotCancelledAndFiresLateChangesNothing() {
        let sloppy = ManualClock(honorsCancellation: false)
        let flow = AuthFlowController(firstLaunch: false, scheduler: sloppy)
        sloppy.advance(by: .seconds(1))
        flow.send(.splashAnimationCompleted)
        #expect(flow.state == .onboardingCheck)
        let visit = flow.machine.visit
        sloppy.advance(by: .seconds(1))
        #expect(sloppy.ranActions == 1, "the splash's timer went off at 2 s")
        #expect(flow.state == .onboardingCheck)
        #expect(flow.machine.visit == visit, "and changed nothing")
        sloppy.advance(by: .seconds(2))
        #expect(flow.state == .authCheck, "the onboarding check's own timer fires at 1 s + 3 s")
    }

    @Test func aTimeoutOfAnEarlierVisitOfTheSameStateChangesNothing() {
        let flow = launch([.splashAnimationCompleted])
        let earlier = flow.machine.visit
        flow.send(.onboardingCheckFailed)
        flow.perform(.startOver)
        #expect(flow.state == .onboardingCheck, "the same state, a later visit")
        let before = flow.machine
        flow.fireTimeout(visit: earlier)
        #expect(flow.machine == before)
        flow.fireTimeout(visit: flow.machine.visit)
        #expect(flow.state == .authCheck, "the current visit's timeout still works")
    }

    // MARK: The main app is the end

    @Test func theMainAppIsTerminalAndIgnoresEveryEvent() {
        let flow = launch([.splashAnimationCompleted, .onboardingCheckSucceeded, .validSession, .mainAppLoaded])
        #expect(LaunchAuth.isTerminal(flow.state))
        let end = flow.machine
        for event in LaunchAuth.Event.allCases {
            flow.send(event)
            #expect(flow.machine == end, "\(event.rawValue) is ignored")
        }
        flow.fireTimeout(visit: end.visit)
        clock.advance(by: .seconds(3600))
        #expect(flow.machine == end)
        #expect(flow.screen == .mainApp)
    }
}
