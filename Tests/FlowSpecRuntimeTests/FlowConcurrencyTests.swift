import Clocks
import FlowSpecRuntime
import Testing

/// Work that finishes on other executors, many flows at once, while their timers fire: run
/// under ThreadSanitizer by `.ci/run` (`swift test --sanitize=thread --filter FlowSpecRuntimeTests`).
@MainActor
@Suite("Flow concurrency")
struct FlowConcurrencyTests {
    @Test func workFinishingOnOtherExecutorsWhileTimersFire() async {
        let clock = TestClock()
        var drivers: [FlowDriver<LaunchAuth>] = []
        for index in 0..<40 {
            let driver = FlowDriver(LaunchAuth.self, clock: clock)
            // Each check runs detached, on the global executor, and some outlive their timeout.
            driver.work(in: .splash) {
                await Task.detached { (0..<1_000).reduce(0, &+) }.value > 0 ? .splashAnimationCompleted : .splashFailed
            }
            driver.work(in: .onboardingCheck) {
                if index.isMultiple(of: 2) { try? await clock.sleep(for: .seconds(10)) }
                return .onboardingCheckSucceeded
            }
            driver.work(in: .authCheck) {
                await Task.detached { index.isMultiple(of: 3) ? LaunchAuth.Event.validSession : .noSession }.value
            }
            driver.work(in: .authenticated) { .mainAppLoaded }
            drivers.append(driver)
            driver.start()
        }
        // Every quick flow ends before time moves (a valid session's main app loads before its
        // 2 s are up); every slow one waits in its onboarding check.
        func settled(_ index: Int, _ driver: FlowDriver<LaunchAuth>) -> Bool {
            if index.isMultiple(of: 2) { return driver.state == .onboardingCheck }
            return driver.state == (index.isMultiple(of: 3) ? .mainApp : .unauthenticated)
        }
        await settle(until: { drivers.enumerated().allSatisfy(settled) }, "the quick flows done, the slow ones waiting")
        await clock.advance(by: .seconds(3))  // the slow checks' timeout (3 s) fires first
        for (index, driver) in drivers.enumerated() {
            let expected: LaunchAuth.State = index.isMultiple(of: 3) ? .mainApp : .unauthenticated
            await settle(until: { driver.state == expected }, "flow \(index) at \(expected)")
        }
        await clock.advance(by: .seconds(10))  // the slow checks end long after their visit
        // Each slow check's result arrives after its visit: dropped, and nothing else is.
        let expectedDrops = drivers.indices.map { $0.isMultiple(of: 2) ? 1 : 0 }
        await settle(until: { drivers.map(\.droppedResults) == expectedDrops }, "the late results dropped")
        for (index, driver) in drivers.enumerated() {
            #expect(driver.state == (index.isMultiple(of: 3) ? .mainApp : .unauthenticated))
            #expect(driver.problems.isEmpty)
        }
    }
}
