import Clocks
import FlowSpecRuntime
import Foundation
import Testing

/// A driver's trace is `flowspec simulate`'s format: the trace recorded here is kept as
/// `Tests/Fixtures/traces/launch-auth.trace`, which the CLI's tests replay with
/// `flowspec simulate --replay` against `specs/app.yaml`. Re-record deliberately with
/// `FLOWSPEC_RECORD_GOLDEN=1 swift test` and review the diff.
@MainActor
@Suite("Flow trace")
struct FlowTraceTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/traces/launch-auth.trace")

    final class Settings {
        var firstLaunch = false
    }

    @Test func aRecordedTraceIsTheFixtureTheCommandLineReplays() async throws {
        let clock = TestClock()
        let settings = Settings()
        let driver = FlowDriver(
            LaunchAuth.self, clock: clock, keepingSteps: true,
            conditions: { LaunchAuth.Conditions(firstLaunch: settings.firstLaunch) })
        driver.work(in: .splash) { .splashAnimationCompleted }
        driver.work(in: .authCheck) { .noSession }
        driver.work(in: .authLoading) { .networkError }
        driver.start()
        // No work for the onboarding check: its timeout leaves it.
        await settle(until: { driver.state == .onboardingCheck }, "the onboarding check")
        await clock.advance(by: .seconds(3))
        await settle(until: { driver.state == .unauthenticated }, "the login screen")
        driver.send(.loginAttempted)  // three retries, then the error screen
        await settle(until: { driver.state == .error }, "the retries used up")
        settings.firstLaunch = true
        driver.send(.hardReset)
        driver.send(.onboardingCheckSucceeded)
        driver.send(.userCompletedOnboarding)
        settings.firstLaunch = false
        driver.send(.validSession)
        let text = driver.trace.joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment["FLOWSPEC_RECORD_GOLDEN"] == "1" {
            try text.write(to: Self.fixture, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: Self.fixture, encoding: .utf8)
        #expect(text == expected, "re-record with FLOWSPEC_RECORD_GOLDEN=1 and review the diff")
    }
}
