@testable import LaunchAuth

/// A clock for tests: time moves only when `advance(by:)` says so, and the actions that fall
/// due run in order of their deadlines (then of scheduling), each at its own instant, so an
/// action may schedule another that falls due within the same advance.
final class ManualClock: FlowScheduler {
    private struct Entry {
        let id: Int
        let deadline: Duration
        let action: () -> Void
    }

    /// Time since the clock was made.
    private(set) var now: Duration = .zero
    /// How many actions have run.
    private(set) var ranActions = 0
    /// Whether cancelling an action removes it. A clock that does not cancel lets every timer
    /// fire late, as a sloppy timer implementation would.
    let honorsCancellation: Bool

    private var entries: [Entry] = []
    private var nextID = 0

    init(honorsCancellation: Bool = true) {
        self.honorsCancellation = honorsCancellation
    }

    /// How many actions wait to run.
    var pending: Int { entries.count }

    func schedule(after delay: Duration, _ action: @escaping () -> Void) -> Cancellation {
        let id = nextID
        nextID += 1
        entries.append(Entry(id: id, deadline: now + delay, action: action))
        guard honorsCancellation else { return Cancellation {} }
        return Cancellation { [weak self] in
            self?.entries.removeAll { $0.id == id }
        }
    }

    /// Moves time forward by `duration`, running every action that falls due on the way.
    func advance(by duration: Duration) {
        let end = now + duration
        while let due = entries.filter({ $0.deadline <= end }).min(by: { ($0.deadline, $0.id) < ($1.deadline, $1.id) })
        {
            entries.removeAll { $0.id == due.id }
            now = due.deadline
            ranActions += 1
            due.action()
        }
        now = end
    }
}
