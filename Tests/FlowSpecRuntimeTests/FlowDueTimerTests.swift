import FlowSpecRuntime
import FlowSpecTesting
import Foundation
import Testing

/// `FlowDriver.dueTimers`, which "nothing happens" checks wait on: it counts exactly the timers
/// whose deadline has come and whose task has not ended, cancelled or not.
///
/// `FlowTestClock.advance(by:)` does not suspend, and a timer's task ends on the main actor,
/// where these tests run: between two suspensions of a test, no timer task can end, so each
/// count read there is exact.
@MainActor
@Suite("Due timers")
struct FlowDueTimerTests {
    let clock = FlowTestClock()

    @Test func aTimerBeforeItsDeadlineIsNotDue() async {
        let driver = FlowDriver(LaunchAuth.self, clock: clock)
        driver.start()
        #expect(driver.machine.armedTimeout?.after == .seconds(2))
        #expect(driver.dueTimers == 0)
        clock.advance(by: .milliseconds(1_999))
        #expect(driver.dueTimers == 0)
        #expect(await FlowSettling.whatIsDue(of: driver, within: .seconds(10)))
        #expect(driver.state == .splash)
    }

    @Test func aTimerWhoseDeadlineHasComeCountsUntilItHasFired() async {
        let driver = FlowDriver(LaunchAuth.self, clock: clock)
        driver.start()
        clock.advance(by: .seconds(2))
        #expect(driver.dueTimers == 1)
        #expect(driver.state == .splash, "the timer has not run yet: the test holds the main actor")
        #expect(await FlowSettling.whatIsDue(of: driver, within: .seconds(10)))
        #expect(driver.state == .onboardingCheck, "once it no longer counts, it has acted")
        #expect(driver.lastStep?.input == .timeout)
        #expect(driver.dueTimers == 0, "the next visit's timer is not due")
    }

    @Test func aCancelledTimerCountsOnceDueUntilItsTaskEnds() async {
        let driver = FlowDriver(LaunchAuth.self, clock: clock)
        driver.start()
        driver.send(.splashAnimationCompleted)
        clock.advance(by: .seconds(2))
        // The splash's timer was cancelled, but its task has not run: it could still act.
        #expect(driver.dueTimers == 1)
        #expect(await FlowSettling.whatIsDue(of: driver, within: .seconds(10)))
        #expect(driver.dueTimers == 0, "its task ended, and took its record with it")
        #expect(driver.state == .onboardingCheck, "without acting")
        #expect(driver.lastStep?.input == .event(.splashAnimationCompleted))
    }

    @Test func stopLeavesNoTimerToWaitFor() async {
        let driver = FlowDriver(LaunchAuth.self, clock: clock)
        driver.start()
        driver.stop()
        clock.advance(by: .seconds(60))
        #expect(await FlowSettling.whatIsDue(of: driver, within: .seconds(10)))
        #expect(driver.state == .splash)
        #expect(driver.dueTimers == 0)
    }

    @Test func theWaitSaysSoWhenADueTimerNeverEnds() async {
        let clock = StuckClock()
        let driver = FlowDriver(LaunchAuth.self, clock: clock)
        driver.start()
        await settle(until: { clock.sleepers == 1 }, "the timer asleep on the clock")
        clock.base.advance(by: .seconds(2))
        #expect(!(await FlowSettling.whatIsDue(of: driver, within: .milliseconds(50))))
        #expect(driver.dueTimers == 1)
        driver.stop()
        #expect(await FlowSettling.whatIsDue(of: driver, within: .seconds(10)), "cancelled, it ends")
        #expect(driver.state == .splash)
    }
}

/// A clock whose time is a test clock's, but whose sleepers wake only when cancelled: a timer
/// on it becomes due and never ends on its own.
private final class StuckClock: Clock, Sendable {
    let base = FlowTestClock()
    private let asleep = Counter()

    var now: FlowTestClock.Instant { base.now }
    var minimumResolution: Duration { .zero }

    /// How many sleepers are asleep.
    var sleepers: Int { asleep.value }

    func sleep(until deadline: FlowTestClock.Instant, tolerance: Duration?) async throws {
        let (stream, continuation) = AsyncStream<Never>.makeStream()
        asleep.add(1)
        // Nothing is ever sent: iterating ends only when the task is cancelled.
        for await _ in stream {}
        continuation.finish()
        asleep.add(-1)
        throw CancellationError()
    }
}

/// A count changed from any executor.
private final class Counter: @unchecked Sendable {
    // Guards `count`.
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }

    func add(_ amount: Int) { lock.withLock { count += amount } }
}
