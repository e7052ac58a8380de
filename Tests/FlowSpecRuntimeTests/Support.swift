import Clocks
import FlowSpecRuntime
import Testing

/// Lets the main actor run what is ready (timers a test clock has fired, work that finished)
/// until `condition` holds, failing the test if it never does. No time passes: only tasks run.
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

/// Lets the main actor run whatever is ready, for when a test checks that nothing happens.
@MainActor
func settle() async {
    for _ in 0..<500 { await Task.yield() }
}

/// What the app saw: the effects carried out, in order.
@MainActor
final class EffectLog<Effect> {
    var effects: [Effect] = []
}

/// A flag set from any executor (work that saw its cancellation).
actor Flag {
    private(set) var isSet = false
    func set() { isSet = true }
}

/// A one-shot gate that work waits on until the test opens it, ignoring cancellation: work
/// that does not stop when cancelled, whose late result must change nothing.
actor Gate {
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var isOpen = false

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }
}
