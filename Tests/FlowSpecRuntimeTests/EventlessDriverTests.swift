import FlowSpecRuntime
import FlowSpecTesting
import Testing

/// `always` branches on states that wait, in the generated machine and the driver
/// (`Tests/Fixtures/gen/golden/eventless.yaml`): taken on entering a state and whenever the
/// conditions may have changed (the app says so, or an input comes), before the input's own
/// transitions; a state left at once arms no timer and starts no work.
@MainActor
@Suite("Always branches on states that wait")
struct EventlessDriverTests {
    let clock = FlowTestClock()

    /// The conditions the app holds, read by the driver at each input.
    @MainActor
    final class App {
        var sessionValid = false
        var online = true
        var conditions: SessionGate.Conditions { SessionGate.Conditions(sessionValid: sessionValid, online: online) }
    }

    @Test func aStateLeftAtOnceArmsNoTimerAndStartsNoWork() async {
        let app = App()
        app.sessionValid = true
        let driver = FlowDriver(SessionGate.self, clock: clock, keepingSteps: true, conditions: { app.conditions })
        let starts = StartCount()
        driver.work(in: .splash) {
            _ = await starts.add()
            return .splashDone
        }
        driver.start()
        #expect(driver.machine.states == [.feed, .connected])
        #expect(driver.lastStep?.armedTimeouts.isEmpty == true)
        await clock.advance(by: .seconds(3))
        await settle(driver)
        #expect(starts.count == 0)
        #expect(driver.trace == ["+sessionValid", "+online", "start -> feed, connected | effects: - | timeout: -"])
    }

    @Test func conditionsChangedTakesTheBranchThatNowHoldsAndCancelsTheTimer() async {
        let app = App()
        let driver = FlowDriver(SessionGate.self, clock: clock, keepingSteps: true, conditions: { app.conditions })
        let gate = Gate()
        driver.work(in: .splash) {
            // Never done while the test runs: leaving the state cancels it.
            await gate.wait()
            return .splashDone
        }
        driver.start()
        #expect(driver.state == .splash)
        // Nothing holds: nothing happens, and the step says so.
        driver.conditionsChanged()
        #expect(driver.lastStep?.input == .conditionsChanged && driver.lastStep?.ignored == true)
        app.sessionValid = true
        driver.conditionsChanged()
        #expect(driver.machine.states == [.feed, .connected])
        #expect(driver.lastStep?.ignored == false)
        // The splash screen's two seconds have no effect any more.
        await clock.advance(by: .seconds(3))
        await settle(driver)
        #expect(driver.lastStep?.input == .conditionsChanged)
        #expect(driver.problems.isEmpty)
        await gate.open()
    }

    @Test func conditionsThatChangedAreSeenBeforeTheEvent() {
        let app = App()
        let driver = FlowDriver(SessionGate.self, clock: clock, keepingSteps: true, conditions: { app.conditions })
        driver.start()
        driver.send(.splashDone)
        driver.send(.submit)
        #expect(driver.state == .code)
        // Resending stays on the code screen.
        driver.send(.resend)
        #expect(driver.state == .code && driver.lastStep?.effects == [.sendCode])
        // The session became valid without the app saying so: the next input sees it first,
        // leaves signing in, and `resend` then finds no state that handles it.
        app.sessionValid = true
        driver.send(.resend)
        #expect(driver.machine.states == [.feed, .connected])
        #expect(driver.lastStep?.effects == [.showHome])
        #expect(driver.lastStep?.ignored == false)
    }

    @Test func aRegionFollowsItsConditionOnItsOwn() {
        let app = App()
        app.sessionValid = true
        let driver = FlowDriver(SessionGate.self, clock: clock, keepingSteps: true, conditions: { app.conditions })
        driver.start()
        driver.send(.openSettings)
        #expect(driver.machine.states == [.settings, .connected])
        app.online = false
        driver.conditionsChanged()
        #expect(driver.machine.states == [.settings, .offline])
        #expect(driver.lastStep?.effects == [.showOffline])
        // Both regions move on one input: the screen on the event, the connection first.
        app.online = true
        driver.send(.back)
        #expect(driver.machine.states == [.feed, .connected])
        #expect(driver.lastStep?.effects == [.hideOffline])
        #expect(
            Array(driver.trace.suffix(4)) == [
                "-online", "@conditions -> settings, offline | effects: showOffline | timeout: -",
                "+online", "back -> feed, connected | effects: hideOffline | timeout: -"
            ])
    }

    @Test func theMachineAloneTakesTheSameSteps() {
        var machine = SessionGate.Machine.start(conditions: .init(sessionValid: false, online: true)).machine
        #expect(machine.state == .splash)
        let (effects, handled) = machine.conditionsChanged(conditions: .init(sessionValid: true, online: false))
        #expect(handled)
        #expect(Array(effects) == [.showOffline])
        #expect(machine.states == [.feed, .offline])
        // A machine that takes no branch says so, and changes nothing.
        let visit = machine.visit
        #expect(machine.conditionsChanged(conditions: .init(sessionValid: true, online: false)).handled == false)
        #expect(machine.visit == visit)
    }
}
