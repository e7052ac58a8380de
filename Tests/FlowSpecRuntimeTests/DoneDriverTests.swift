import FlowSpecRuntime
import FlowSpecTesting
import Testing

/// `done` with conditions and effects, in the generated machine and the driver
/// (`Tests/Fixtures/gen/golden/done.yaml`): a compound state's, a parallel state's once every
/// region has ended, and each outcome's of a sub-flow take their first candidate whose
/// condition holds, running its effects between the exits and the entries.
@MainActor
@Suite("Done with conditions and effects")
struct DoneDriverTests {
    let clock = FlowTestClock()

    /// The conditions the app holds, read by the driver at each input.
    @MainActor
    final class App {
        var vip = false
        var retryAllowed = false
        var conditions: Purchase.Conditions { Purchase.Conditions(vip: vip, retryAllowed: retryAllowed) }
    }

    private func driver(_ app: App) -> FlowDriver<Purchase> {
        let driver = FlowDriver(Purchase.self, clock: clock, keepingSteps: true, conditions: { app.conditions })
        driver.start()
        return driver
    }

    @Test func aCompoundStatesDoneTakesItsFirstCandidateThatHoldsWithItsEffects() {
        let app = App()
        let plain = driver(app)
        plain.send(.order)
        plain.send(.addressGiven)
        #expect(plain.state == .payingCard)
        #expect(plain.lastStep?.effects == [.thank])
        app.vip = true
        let vip = driver(app)
        vip.send(.order)
        vip.send(.addressGiven)
        #expect(vip.machine.states == [.fetching, .checking])
        #expect(vip.lastStep?.effects == [.celebrate])
    }

    @Test func aParallelStatesDoneChoosesOnceEveryRegionHasEnded() {
        let app = App()
        app.vip = true
        let gold = driver(app)
        for event: Purchase.Event in [.order, .addressGiven, .downloaded] { gold.send(event) }
        #expect(gold.machine.states == [.fetched, .checking], "one region ended, the other goes on")
        gold.send(.licensed)
        #expect(gold.state == .gold)
        #expect(gold.lastStep?.effects == [.logSynced])
        app.retryAllowed = true
        let paying = driver(app)
        for event: Purchase.Event in [.order, .addressGiven, .downloaded, .licensed] { paying.send(event) }
        #expect(paying.state == .payingCard)
        #expect(paying.lastStep?.effects == [])
    }

    @Test func eachOutcomeOfASubFlowLeadsByItsOwnCandidates() {
        let app = App()
        let cancelled = driver(app)
        for event: Purchase.Event in [.order, .addressGiven, .cancel] { cancelled.send(event) }
        #expect(cancelled.state == .plain)
        app.retryAllowed = true
        let retried = driver(app)
        for event: Purchase.Event in [.order, .addressGiven, .cancel] { retried.send(event) }
        #expect(retried.state == .basket)
        #expect(retried.lastStep?.effects == [.showRetry])
        #expect(retried.trace.last == "cancel -> basket | effects: showRetry | timeout: -")
        app.retryAllowed = false
        app.vip = true
        let paid = driver(app)
        for event: Purchase.Event in [.order, .addressGiven, .downloaded, .licensed] { paid.send(event) }
        #expect(paid.state == .gold, "a VIP's sync ends in gold at once")
    }

    @Test func aVipWhosePaymentEndsGoesToGold() {
        let app = App()
        let flow = driver(app)
        for event: Purchase.Event in [.order, .addressGiven] { flow.send(event) }
        app.vip = true
        flow.send(.pay)
        #expect(flow.state == .gold, "the condition is read when the sub-flow ends")
    }
}
