import FlowSpecRuntime
import FlowSpecTesting
import Testing

/// `FlowDriver` on a machine that runs another (`Tests/Fixtures/gen/golden/subflows.yaml`), on
/// the test clock: leaving the running state, by the parent's event or its timeout, stops the
/// sub-flow, whose work is cancelled and whose late result changes nothing; an outcome leads
/// where `done` says. (CI runs these under ThreadSanitizer with the rest of the runtime's.)
@MainActor
@Suite("Driver on sub-flows")
struct SubFlowDriverTests {
    let clock = FlowTestClock()

    /// A checkout in the sub-flow's task state, whose work waits 30 s on the test clock and
    /// sets `cancelled` when cancelled.
    func verifying(cancelled: Flag) -> FlowDriver<Checkout> {
        let driver = FlowDriver(Checkout.self, clock: clock, keepingSteps: true)
        let clock = self.clock
        driver.work(in: .verifyVerifying) {
            do {
                try await clock.sleep(for: .seconds(30))
            } catch {
                await cancelled.set()
            }
            return .verified
        }
        driver.start()
        driver.send(.pay)
        driver.send(.submit)
        return driver
    }

    @Test func leavingTheRunningStateCancelsTheSubFlowsWorkAndTimers() async {
        let cancelled = Flag()
        let driver = verifying(cancelled: cancelled)
        #expect(driver.state == .verifyVerifying)
        #expect(driver.machine.isIn(.verify))
        #expect(driver.machine.armedTimeouts.map(\.after) == [.seconds(120), .seconds(10)])
        driver.send(.back)
        #expect(driver.state == .cart)
        #expect(driver.machine.armedTimeouts.isEmpty)
        await settle(until: { driver.droppedResults == 1 }, "the cancelled work's late result")
        #expect(await cancelled.isSet)
        clock.advance(by: .seconds(120))
        await settle(driver)
        #expect(driver.state == .cart, "neither the sub-flow's timer nor the parent's fires once it is left")
        #expect(driver.trace.last == "back -> cart | effects: - | timeout: -")
        #expect(driver.problems.isEmpty, "\(driver.problems)")
    }

    @Test func theRunningStatesTimeoutBoundsTheWholeSubFlow() async {
        let cancelled = Flag()
        let driver = verifying(cancelled: cancelled)
        // The sub-flow's own timeout first: back to entering, the work cancelled.
        clock.advance(by: .seconds(10))
        await settle(until: { driver.state == .verifyEntering }, "the sub-flow's 10 s timeout")
        await settle(until: { driver.droppedResults == 1 }, "the cancelled work's late result")
        // The running state's, armed when it was entered, bounds the whole sub-flow.
        clock.advance(by: .seconds(110))
        await settle(until: { driver.state == .cart }, "the running state's 2 min timeout")
        #expect(driver.trace.last == "@timeout(verify) -> cart | effects: - | timeout: -")
        #expect(driver.machine.armedTimeouts.isEmpty)
    }

    @Test func anOutcomeLeadsWhereDoneSays() async {
        let log = EffectLog<Checkout.Effect>()
        let driver = FlowDriver(Checkout.self, clock: clock, keepingSteps: true, effects: { log.effects.append($0) })
        driver.work(in: .verifyVerifying) { .verified }
        driver.start()
        driver.send(.pay)
        driver.send(.submit)
        await settle(until: { driver.state == .receipt }, "the outcome `passed` to `receipt`")
        #expect(!driver.machine.isIn(.verify))
        #expect(driver.trace.last == "verified -> receipt | effects: showReceipt | timeout: -")
        #expect(log.effects == [.showReceipt])
    }
}
