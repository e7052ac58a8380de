import Clocks
import FlowSpecRuntime
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

/// Lets the main actor run what is ready (timers the test clock fired, work that answered)
/// until `condition` holds; no time passes.
@MainActor
func settle(
    until condition: @MainActor () -> Bool, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
) async {
    // The flow's time is the test clock's; this real-time bound only ends a wait for tasks
    // that never come. It is long: the work and timers wait for a thread of the shared
    // executor, which other tests that block on processes can hold for a minute or more.
    let giveUp = ContinuousClock.now.advanced(by: .seconds(300))
    while ContinuousClock.now < giveUp {
        if condition() { return }
        await Task.yield()
    }
    Issue.record("never happened: \(what)", sourceLocation: sourceLocation)
}

/// Lets the main actor run whatever is ready, for checking that nothing happens.
@MainActor
func settle() async {
    for _ in 0..<500 { await Task.yield() }
}
