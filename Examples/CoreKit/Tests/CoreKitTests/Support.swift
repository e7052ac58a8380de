import Clocks
import FlowSpecTesting
import Testing

@testable import CoreKit

/// Permission dialogs whose user answers after a while on the test clock. Like the system's, a
/// dialog stays up when the task that asked is cancelled: its answer still comes, late.
@MainActor
final class PermissionDialogs: NotificationPermission {
    /// What the user of one dialog does: answers `granted`, `after` it was shown.
    struct Answer {
        var granted: Bool
        var after: Duration
    }

    /// The users of the dialogs, in turn; one beyond them does not answer within a day.
    var answers: [Answer] = []
    /// How many dialogs were shown.
    private(set) var shown = 0
    /// The dialogs (by position, from 0) whose asking task was cancelled.
    private(set) var cancelled: [Int] = []

    private let clock: TestClock<Duration>

    init(clock: TestClock<Duration>) {
        self.clock = clock
    }

    func request() async -> Bool {
        let index = shown
        shown += 1
        let answer = index < answers.count ? answers[index] : Answer(granted: true, after: .seconds(86_400))
        // A test clock's sleep of zero still waits for the clock to move.
        guard answer.after > .zero else { return answer.granted }
        let clock = clock
        // The user answers `after` the dialog was shown: the deadline is fixed now, since the
        // task below may start only after the test has moved the clock on. The user waits in a
        // task of their own, which cancelling the asking task does not reach.
        let answered = clock.now.advanced(by: answer.after)
        let user = Task { try? await clock.sleep(until: answered) }
        await withTaskCancellationHandler {
            await user.value
        } onCancel: {
            Task { @MainActor in self.cancelled.append(index) }
        }
        return answer.granted
    }
}

/// Lets the main actor run what is ready (timers the test clock fired, work that finished)
/// until `condition` holds, failing the test if it never does. No time passes: only tasks run.
@MainActor
func settle(
    until condition: @MainActor () -> Bool, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
) async {
    if await !FlowSettling.until(condition) { Issue.record("never happened: \(what)", sourceLocation: sourceLocation) }
}

/// Lets the main actor run whatever is ready, for checking that nothing happens.
@MainActor
func settle() async {
    await FlowSettling.whatIsReady()
}
