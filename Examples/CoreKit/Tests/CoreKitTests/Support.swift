import Clocks
import FlowSpecRuntime
import FlowSpecTesting
import Testing

@testable import CoreKit

/// Permission dialogs whose user answers after a while on the test clock. Like the system's, a
/// dialog stays up when the task that asked is cancelled: its answer still comes, late.
///
/// A dialog's answer time is fixed when it shows, and the answers due are given by
/// ``answerDue()`` once the test has moved the clock: a sleep on the test clock would start
/// counting only when its task first runs, which on a busy machine can be after the test has
/// moved the clock on.
@MainActor
final class PermissionDialogs: NotificationPermission {
    /// What the user of one dialog does: answers `granted`, `after` it was shown.
    struct Answer {
        var granted: Bool
        var after: Duration
    }

    /// A dialog that is up: when its user answers, what, and the request waiting for it.
    private struct Showing {
        var due: TestClock<Duration>.Instant
        var granted: Bool
        var request: CheckedContinuation<Bool, Never>
    }

    /// The users of the dialogs, in turn; one beyond them does not answer within a day.
    var answers: [Answer] = []
    /// How many dialogs were shown.
    private(set) var shown = 0
    /// The dialogs (by position, from 0) whose asking task was cancelled.
    private(set) var cancelled: [Int] = []
    private var showing: [Showing] = []

    private let clock: TestClock<Duration>

    init(clock: TestClock<Duration>) {
        self.clock = clock
    }

    func request() async -> Bool {
        let index = shown
        shown += 1
        let answer = index < answers.count ? answers[index] : Answer(granted: true, after: .seconds(86_400))
        guard answer.after > .zero else { return answer.granted }
        let due = clock.now.advanced(by: answer.after)
        // Cancelling the asking task does not take the dialog down: it answers when due.
        return await withTaskCancellationHandler {
            await withCheckedContinuation { request in
                showing.append(Showing(due: due, granted: answer.granted, request: request))
            }
        } onCancel: {
            Task { @MainActor in self.cancelled.append(index) }
        }
    }

    /// The users whose time has come on the test clock answer, in the order their dialogs showed.
    func answerDue() {
        let now = clock.now
        let due = showing.filter { $0.due <= now }
        showing.removeAll { $0.due <= now }
        for dialog in due { dialog.request.resume(returning: dialog.granted) }
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

/// Lets the main actor run until every timer of `driver` whose deadline has come has ended,
/// for checking that nothing happens after moving the clock: a timer left armed by mistake
/// acts before the check, however late it runs. Fails the test if one never ends.
@MainActor
func settle<Spec: FlowSpec>(_ driver: FlowDriver<Spec>, sourceLocation: SourceLocation = #_sourceLocation) async {
    if await !FlowSettling.whatIsDue(of: driver) {
        Issue.record("a due timer never ended (\(driver.dueTimers) left)", sourceLocation: sourceLocation)
    }
}
