import Clocks
import FlowSpecRuntime
import FlowSpecTesting
import Testing

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
