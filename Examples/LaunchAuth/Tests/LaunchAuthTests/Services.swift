import Clocks
import FlowSpecRuntime
import FlowSpecTesting
import Testing

@testable import LaunchAuth

/// Services for tests. `silent` ones never answer on their own (they wait on the test clock for
/// an hour, and stop when cancelled): the test sends the answers itself. Others answer as told.
struct TestServices: AuthServices {
    enum Answer: Sendable {
        /// Waits on the test clock for an hour; stops when cancelled.
        case silent
        /// Answers at once.
        case succeed
        /// Answers at once with `false` (a refused login, no session).
        case refuse
        /// Throws at once.
        case fail
        /// Waits on the test clock for this long, then succeeds; records a cancellation.
        case slow(Duration, Recorder)
    }

    struct Failure: Error {}

    let clock: TestClock<Duration>
    var splash = Answer.silent
    var onboarding = Answer.silent
    var session = Answer.silent
    var signIn = Answer.silent
    var mainApp = Answer.silent

    func playSplash() async throws { _ = try await answer(splash) }
    func checkOnboarding() async throws { _ = try await answer(onboarding) }
    func hasValidSession() async throws -> Bool { try await answer(session) }
    func signIn() async throws -> Bool { try await answer(signIn) }
    func loadMainApp() async throws { _ = try await answer(mainApp) }

    private func answer(_ answer: Answer) async throws -> Bool {
        switch answer {
        case .silent:
            try await clock.sleep(for: .seconds(3600))
            return true
        case .succeed: return true
        case .refuse: return false
        case .fail: throw Failure()
        case .slow(let duration, let recorder):
            do {
                try await clock.sleep(for: duration)
            } catch {
                await recorder.cancelled()
                throw error
            }
            await recorder.finished()
            return true
        }
    }
}

/// What slow work saw: whether it was cancelled, whether it ran to its end.
actor Recorder {
    private(set) var wasCancelled = false
    private(set) var ranToTheEnd = false
    func cancelled() { wasCancelled = true }
    func finished() { ranToTheEnd = true }
}

/// Lets the main actor run what is ready (timers the test clock fired, work that finished)
/// until `condition` holds, failing the test if it never does. No time passes: only tasks run.
@MainActor
func settle(
    until condition: @MainActor () -> Bool, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
) async {
    if await !FlowSettling.until(condition) { Issue.record("never happened: \(what)", sourceLocation: sourceLocation) }
}

/// Lets the main actor run until every timer of `driver` whose deadline has come has ended,
/// for checking that nothing happens after moving the clock: a timer left armed by mistake
/// acts before the check, however late it runs. Fails the test if one never ends.
@MainActor
func settle<Spec: FlowSpec>(_ driver: FlowDriver<Spec>, sourceLocation: SourceLocation = #_sourceLocation) async {
    if await !FlowSettling.whatIsDue(of: driver) {
        Issue.record("a due timer never ended (\(driver.dueTimers) left)", sourceLocation: sourceLocation)
    }
}
