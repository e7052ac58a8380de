#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Drives the Swift generated from specs/app.yaml through the rules of the reference flows
// (../shared/design/reference-flows.md). Compiled with the generated code by
// ReferenceFlowBehaviourTests; prints each failed expectation and exits 1 if any failed.

nonisolated(unsafe) var failures = 0
nonisolated(unsafe) var checks = 0

func expect<T: Equatable>(_ actual: T, _ expected: T, _ what: String, line: Int = #line) {
    checks += 1
    if actual != expected {
        failures += 1
        print("FAILED line \(line): \(what): expected \(expected), got \(actual)")
    }
}

// 1. First run: splash, three slides, the CTA; returning users go straight to the CTA.
do {
    var (flow, effects) = FirstRun.Machine.start(conditions: .init(onboardingCompleted: false))
    expect(flow.state, .splash, "a first launch starts on the splash")
    expect(effects, [], "starting runs no effect")
    expect(flow.armedTimeout == nil, true, "the splash has no timer")
    expect(flow.send(.slideAdvance), [], "the splash cannot be dismissed by swiping")
    expect(flow.state, .splash, "the splash leaves only through splashFinished")
    flow.send(.splashFinished)
    for (index, slide) in [FirstRun.State.slide0, .slide1, .slide2].enumerated() {
        expect(flow.state, slide, "slide \(index) in order")
        expect(FirstRun.position(of: flow.state, in: .slides), index, "slide \(index)'s position")
        expect(FirstRun.length(of: .slides), 3, "three slides")
        if index < 2 { flow.send(.slideAdvance) }
    }
    expect(flow.send(.slideAdvance), [], "no fourth slide")
    expect(flow.state, .slide2, "the last slide stays on slideAdvance")
    let completed = flow.send(.onboardingComplete)
    expect(completed, [.persistOnboardingCompleted], "completing persists the flag")
    // `Effects` is a collection: as an array, counted, hashed and printed like the literal.
    expect(Array(completed), [FirstRun.Effect.persistOnboardingCompleted], "the effects as an array")
    expect(completed.count, 1, "one effect")
    expect(Set([completed, [.persistOnboardingCompleted]]).count, 1, "equal effects hash alike")
    expect(completed.description, ([.persistOnboardingCompleted] as FirstRun.Effects).description, "effects print like the literal")
    expect(completed == [], false, "the effects are not empty")
    expect(flow.state, .demoCTA, "completing leads to the CTA")
    expect(FirstRun.position(of: .demoCTA, in: .slides), nil, "the CTA is not a slide")
    flow.send(.startDemo)
    expect(flow.state, .demoStub, "startDemo pushes the demo stub")
    flow.send(.returnFromDemo)
    expect(flow.state, .demoCTA, "returnFromDemo pops back to the CTA")

    let returning = FirstRun.Machine.start(conditions: .init(onboardingCompleted: true))
    expect(returning.machine.state, .demoCTA, "a returning user starts on the CTA")
}

// 2. Launch and authentication: timeouts everywhere, three automatic retries, reset anywhere.
do {
    var (flow, _) = LaunchAuth.Machine.start()
    expect(flow.state, .splash, "launch shows the splash")
    expect(flow.armedTimeout?.after, .seconds(2), "the splash times out after 2 s")
    expect(flow.armedTimeout?.target, .onboardingCheck, "…into the onboarding check")
    let splashVisit = flow.visit
    flow.fireTimeout(visit: splashVisit)
    expect(flow.state, .onboardingCheck, "the splash timeout leads to the onboarding check")
    expect(flow.fireTimeout(visit: splashVisit), [], "a stale splash timeout does nothing")
    expect(flow.state, .onboardingCheck, "…and leaves the state alone")
    expect(flow.armedTimeout?.after, .seconds(3), "the onboarding check times out after 3 s")

    var first = flow
    first.send(.onboardingCheckSucceeded, conditions: .init(firstLaunch: true))
    expect(first.state, .onboarding, "a first launch goes to onboarding")
    expect(first.armedTimeout == nil, true, "onboarding is user-driven: no timeout")
    first.send(.userCompletedOnboarding)
    expect(first.state, .unauthenticated, "completing onboarding leads at once to the login screen")

    flow.send(.onboardingCheckSucceeded, conditions: .init(firstLaunch: false))
    expect(flow.state, .authCheck, "a returning launch checks the session")
    expect(flow.armedTimeout?.after, .seconds(5), "the session check times out after 5 s")
    flow.fireTimeout(visit: flow.visit)
    expect(flow.state, .unauthenticated, "a slow session check falls back to the login screen")

    flow.send(.loginAttempted)
    expect(flow.state, .authLoading, "a login attempt loads")
    expect(flow.armedTimeout?.after, .seconds(10), "the login times out after 10 s")
    expect(flow.armedTimeout?.target, .error, "…into the error screen")
    for attempt in 1...3 {
        flow.send(.networkError)
        expect(flow.state, .authLoading, "network error \(attempt) retries automatically")
    }
    expect(flow.send(.networkError), [.showError], "the fourth network error shows the error")
    expect(flow.state, .error, "…and gives up on the error screen after 3 retries")
    flow.send(.retry)
    expect(flow.state, .unauthenticated, "retry from the error screen returns to login")
    flow.send(.loginAttempted)
    flow.send(.networkError)
    expect(flow.state, .authLoading, "the retry count started again at the login screen")

    for state in LaunchAuth.State.allCases where LaunchAuth.kind(of: state) == .task || LaunchAuth.kind(of: state) == .input {
        expect(LaunchAuth.kind(of: state) != .task || LaunchAuth.timeout(of: state) != nil, true,
               "task state \(state) has a timeout")
    }
    var reset = flow
    reset.send(.forceReset)
    expect(reset.state, .unauthenticated, "force-reset from the login load")
    var fromError = LaunchAuth.Machine.start().machine
    fromError.send(.splashFailed)
    expect(fromError.state, .error, "a failed splash shows the error screen")
    fromError.send(.forceReset)
    expect(fromError.state, .unauthenticated, "force-reset from the error screen")

    var signedIn = flow
    signedIn.send(.loginSucceeded)
    expect(signedIn.state, .authenticated, "a successful login authenticates")
    signedIn.send(.mainAppLoaded)
    expect(signedIn.state, .mainApp, "…and loads the main app")
    expect(LaunchAuth.isTerminal(.mainApp), true, "the main app ends the flow")
    expect(signedIn.send(.forceReset), [], "the main app ignores a reset")
    expect(signedIn.state, .mainApp, "…and stays")
}

// 3. Six chapters: forward-only, a no-op at the end, a clamped integer checkpoint.
do {
    let order: [Chapters.State] = [.handshake, .packetRun, .cipher, .firewall, .blueprint, .eventHorizon]
    expect(Chapters.State.allCases, order, "six chapters in order")
    expect(order.map(\.rawValue), [0, 1, 2, 3, 4, 5], "raw values 0 through 5")
    var (flow, _) = Chapters.Machine.start()
    expect(flow.state, .handshake, "the game starts at the handshake")
    for (index, chapter) in order.enumerated().dropFirst() {
        expect(flow.send(.completeCurrentChapter), [.saveCheckpoint], "completing chapter \(index - 1) saves the checkpoint")
        expect(flow.state, chapter, "…and advances to chapter \(index)")
        expect(Chapters.position(of: chapter, in: .chapters), index, "chapter \(index)'s position")
    }
    expect(Chapters.length(of: .chapters), 6, "six chapters in the sequence")
    expect(flow.send(.completeCurrentChapter), [], "completing the last chapter again is a no-op")
    expect(flow.state, .eventHorizon, "…that stays at the event horizon")
    expect(Chapters.isTerminal(.eventHorizon), true, "the event horizon is terminal")

    expect(Chapters.Machine.restore(from: 3).machine.state, .firewall, "restoring 3 resumes at the firewall")
    expect(Chapters.Machine.restore(from: 99).machine.state, .eventHorizon, "a value above range clamps to the last chapter")
    expect(Chapters.Machine.restore(from: -1).machine.state, .handshake, "a value below range clamps to the first chapter")
    expect(Chapters.Machine.restore(from: nil).machine.state, .handshake, "no stored value starts at the handshake")
    expect(Chapters.restoredState(from: Int.max), .eventHorizon, "even Int.max restores without trapping")
    expect(Chapters.restoredState(from: Int.min), .handshake, "even Int.min restores without trapping")
}

print("\(checks) checks, \(failures) failed")
exit(failures > 0 ? 1 : 0)
