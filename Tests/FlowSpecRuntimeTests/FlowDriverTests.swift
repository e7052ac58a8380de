import Clocks
import FlowSpecRuntime
import Observation
import Testing

/// The driver runs the generated `LaunchAuth` (specs/app.yaml) with a test clock: one timer,
/// the current visit's; task work started on entering a state and cancelled on leaving it;
/// effects in order; conditions read at each input.
@MainActor
@Suite("Flow driver")
struct FlowDriverTests {
    let clock = TestClock()

    /// A LaunchAuth driver whose splash and onboarding check finish at once (no first launch)
    /// and whose session check finds no session: it settles on the login screen.
    func loginScreen(effects log: EffectLog<LaunchAuth.Effect> = .init()) async -> FlowDriver<LaunchAuth> {
        let driver = FlowDriver(
            LaunchAuth.self, clock: clock, keepingSteps: true,
            effects: { log.effects.append($0) })
        driver.work(in: .splash) { .splashAnimationCompleted }
        driver.work(in: .onboardingCheck) { .onboardingCheckSucceeded }
        driver.work(in: .authCheck) { .noSession }
        driver.start()
        await settle(until: { driver.state == .unauthenticated }, "the login screen")
        return driver
    }

    @Test func startEntersTheInitialStateAndArmsOnlyItsVisitsTimer() async {
        let driver = FlowDriver(LaunchAuth.self, clock: clock)
        driver.start()
        // `initial` is a choice: the flow is on the splash, whose timeout is 2 s.
        #expect(driver.state == .splash)
        #expect(driver.machine.armedTimeout?.after == .seconds(2))
        await clock.advance(by: .milliseconds(1_999))
        await settle(driver)
        #expect(driver.state == .splash)
        await clock.advance(by: .milliseconds(1))
        await settle(until: { driver.state == .onboardingCheck }, "the splash's timeout")
        // The next visit's timer is its own: 3 s from now, not from the start.
        await clock.advance(by: .milliseconds(2_999))
        await settle(driver)
        #expect(driver.state == .onboardingCheck)
        await clock.advance(by: .milliseconds(1))
        await settle(until: { driver.state == .authCheck }, "the onboarding check's timeout")
    }

    @Test func leavingAStateCancelsItsTimer() async {
        let driver = FlowDriver(LaunchAuth.self, clock: clock)
        driver.start()
        driver.send(.splashAnimationCompleted)
        #expect(driver.state == .onboardingCheck)
        // The splash's 2 s timer would fire now; it was cancelled with its visit.
        await clock.advance(by: .seconds(2))
        await settle(driver)
        #expect(driver.state == .onboardingCheck)
        #expect(driver.lastStep?.input == .event(.splashAnimationCompleted))
        await clock.advance(by: .seconds(1))
        await settle(until: { driver.state == .authCheck }, "the onboarding check's own timeout")
    }

    @Test func workOfEachTaskStateRunsAndItsEventIsSent() async {
        let driver = await loginScreen()
        #expect(driver.steps.map(\.to) == [.splash, .onboardingCheck, .authCheck, .unauthenticated])
        #expect(driver.problems.isEmpty)
    }

    @Test func conditionsAreReadAtEachInput() async {
        let driver = FlowDriver(
            LaunchAuth.self, clock: clock, conditions: { LaunchAuth.Conditions(firstLaunch: true) })
        driver.work(in: .splash) { .splashAnimationCompleted }
        driver.work(in: .onboardingCheck) { .onboardingCheckSucceeded }
        driver.start()
        await settle(until: { driver.state == .onboarding }, "onboarding on a first launch")
    }

    /// The generated protocol's way in: `LaunchAuth.Work` has a requirement per task state.
    struct SlowSignIn: LaunchAuth.Work {
        let clock: TestClock<Duration>
        let cancelled: Flag

        func splash() async -> LaunchAuth.Event { .splashAnimationCompleted }
        func onboardingCheck() async -> LaunchAuth.Event { .onboardingCheckSucceeded }
        func authCheck() async -> LaunchAuth.Event { .noSession }
        func authenticated() async -> LaunchAuth.Event { .mainAppLoaded }
        /// Waits on the network for 30 s, where the spec gives it 10.
        func authLoading() async -> LaunchAuth.Event {
            do {
                try await clock.sleep(for: .seconds(30))
            } catch {
                await cancelled.set()
            }
            return .loginSucceeded
        }
    }

    @Test func aWorkConformerRunsEachTaskStateAndIsCancelledOnLeavingIt() async {
        let cancelled = Flag()
        let driver = FlowDriver(LaunchAuth.self, clock: clock)
        driver.work(SlowSignIn(clock: clock, cancelled: cancelled))
        driver.start()
        await settle(until: { driver.state == .unauthenticated }, "the login screen, through three task states' work")
        driver.send(.loginAttempted)
        await clock.advance(by: .seconds(10))
        await settle(until: { driver.state == .error }, "the sign-in timeout")
        await settle(until: { driver.droppedResults == 1 }, "the cancelled work's late result")
        #expect(await cancelled.isSet)
        #expect(driver.state == .error)
        #expect(driver.problems.isEmpty, "every task state has work: \(driver.problems)")
    }

    @Test func workStillRunningWhenTheTimeoutFiresIsCancelledAndItsLateResultChangesNothing() async {
        let log = EffectLog<LaunchAuth.Effect>()
        let driver = await loginScreen(effects: log)
        let cancelled = Flag()
        let clock = self.clock
        // Signing in waits on the network for 30 s; the spec gives it 10.
        driver.work(
            in: .authLoading,
            {
                do {
                    try await clock.sleep(for: .seconds(30))
                } catch {
                    await cancelled.set()
                    throw error
                }
                return .loginSucceeded
            }, onError: { _ in .loginFailed })
        driver.send(.loginAttempted)
        #expect(driver.state == .authLoading)
        await clock.advance(by: .seconds(10))
        await settle(until: { driver.state == .error }, "the sign-in timeout")
        await settle(until: { driver.droppedResults == 1 }, "the cancelled work's late result")
        #expect(await cancelled.isSet)
        #expect(log.effects == [.showError])
        // Its error (mapped to `loginFailed`) arrived after the visit ended: dropped.
        #expect(driver.state == .error)
        #expect(driver.lastStep?.input == .timeout)
    }

    @Test func workThatIgnoresCancellationDeliversLateAndIsDropped() async {
        let driver = await loginScreen()
        let gate = Gate()
        driver.work(in: .authLoading) {
            await gate.wait()
            return .loginSucceeded
        }
        driver.send(.loginAttempted)
        await clock.advance(by: .seconds(10))
        await settle(until: { driver.state == .error }, "the sign-in timeout")
        await gate.open()
        await settle(until: { driver.droppedResults == 1 }, "the late result")
        #expect(driver.state == .error)
    }

    @Test func aThrownErrorBecomesItsEvent() async {
        struct Offline: Error {}
        let driver = await loginScreen()
        driver.work(in: .authLoading, { throw Offline() }, onError: { _ in .loginFailed })
        driver.send(.loginAttempted)
        await settle(until: { driver.lastStep?.input == .event(.loginFailed) }, "the error's event")
        #expect(driver.state == .unauthenticated)
    }

    @Test func effectsAreCarriedOutInOrder() async {
        let log = EffectLog<LaunchAuth.Effect>()
        let driver = await loginScreen(effects: log)
        driver.work(in: .authLoading) { .networkError }
        driver.send(.loginAttempted)
        // networkError retries 3 times, then goes to `error`; the fourth try is the fallback.
        await settle(until: { driver.state == .error }, "the retries used up")
        #expect(driver.steps.suffix(5).map(\.to) == [.authLoading, .authLoading, .authLoading, .authLoading, .error])
        #expect(log.effects == [.showError], "the retries' fallback shows the error")
        driver.send(.retry)
        driver.send(.loginAttempted)
        driver.send(.forceReset)
        #expect(driver.state == .unauthenticated)
        #expect(log.effects == [.showError], "retrying, signing in and resetting show nothing")
        let failed = EffectLog<LaunchAuth.Effect>()
        let failing = FlowDriver(LaunchAuth.self, clock: clock, effects: { failed.effects.append($0) })
        failing.work(in: .splash) { .splashFailed }
        failing.start()
        await settle(until: { failing.state == .error }, "the splash failing")
        #expect(failed.effects == [.showError])
    }

    @Test func theStateIsObservable() async {
        let driver = FlowDriver(LaunchAuth.self, clock: clock)
        driver.start()
        let changed = EffectLog<Bool>()
        withObservationTracking {
            _ = driver.state
        } onChange: {
            MainActor.assumeIsolated { changed.effects.append(true) }
        }
        driver.send(.splashAnimationCompleted)
        #expect(changed.effects == [true])
    }

    @Test func stepObserversSeeEveryStep() async {
        let driver = FlowDriver(LaunchAuth.self, clock: clock)
        let seen = EffectLog<FlowStepRecord<LaunchAuth>>()
        driver.onStep { seen.effects.append($0) }
        driver.start()
        driver.send(.validSession)  // ignored on the splash
        driver.send(.splashAnimationCompleted)
        #expect(seen.effects.map(\.input) == [.start, .event(.validSession), .event(.splashAnimationCompleted)])
        #expect(seen.effects.map(\.ignored) == [false, true, false])
        #expect(seen.effects.last?.from == .splash)
        #expect(seen.effects.last?.armedTimeout?.after == .seconds(3))
    }

    @Test func theTraceIsSimulatesFormat() async {
        let first = FlowDriver(
            LaunchAuth.self, clock: clock, keepingSteps: true,
            conditions: { LaunchAuth.Conditions(firstLaunch: true) })
        first.start()
        first.send(.splashAnimationCompleted)
        first.send(.onboardingCheckSucceeded)
        first.send(.validSession)
        #expect(
            first.trace == [
                "+firstLaunch",
                "start -> splash | effects: - | timeout: 2000ms -> onboardingCheck",
                "splashAnimationCompleted -> onboardingCheck | effects: - | timeout: 3000ms -> authCheck",
                "onboardingCheckSucceeded -> onboarding | effects: - | timeout: -",
                "validSession -> onboarding (ignored) | effects: - | timeout: -"
            ])
    }

    @Test func workRegisteredWhileItsStateIsCurrentStartsAtOnce() async {
        let driver = FlowDriver(LaunchAuth.self, clock: clock)
        driver.start()
        #expect(driver.state == .splash)
        driver.work(in: .splash) { .splashAnimationCompleted }
        await settle(until: { driver.state == .onboardingCheck }, "the splash's work, registered late")
    }

    @Test func stopCancelsTheTimerAndTheWorkUntilTheNextInput() async {
        let driver = FlowDriver(LaunchAuth.self, clock: clock)
        let started = EffectLog<Bool>()
        let cancelled = Flag()
        let clock = self.clock
        driver.work(in: .splash) {
            await MainActor.run { started.effects.append(true) }
            do {
                try await clock.sleep(for: .seconds(60))
            } catch {
                await cancelled.set()
            }
            return .splashAnimationCompleted
        }
        driver.start()
        await settle(until: { started.effects == [true] }, "the splash's work running when stop() comes")
        driver.stop()
        await clock.advance(by: .seconds(2))
        await settle(until: { driver.droppedResults == 1 }, "the stopped work's result dropped")
        await settle(driver)
        #expect(driver.state == .splash, "the splash's timeout and work were cancelled")
        #expect(await cancelled.isSet)
        // The next input arms its visit's timer as usual.
        driver.send(.splashAnimationCompleted)
        await clock.advance(by: .seconds(3))
        await settle(until: { driver.state == .authCheck }, "the onboarding check's timeout")
    }

    @Test func misuseIsReportedNotTrapped() async {
        let driver = FlowDriver(LaunchAuth.self, clock: clock)
        driver.send(.retry)
        driver.work(in: .error) { .retry }
        driver.start()
        driver.start()
        // No work for the splash: reported once, and its timeout still leaves it.
        await clock.advance(by: .seconds(2))
        await settle(until: { driver.state == .onboardingCheck }, "the splash's timeout")
        #expect(
            driver.problems == [
                "event 'retry' was sent before start(); it was ignored",
                "work registered for input state 'error' never runs: only task states run work",
                "task state 'splash' has no work registered, so only its timeout can leave it; register it with work(in: …) before start()",
                "start() was called again; the flow is already running",
                "task state 'onboardingCheck' has no work registered, so only its timeout can leave it; register it with work(in: …) before start()"
            ])
    }
}
