import Clocks
import FlowSpecRuntime
import FlowSpecTesting
import Foundation
import Testing

/// Lets the main actor run what is ready (timers the test clock fired, work that finished)
/// until `condition` holds, failing the test if it never does. No time passes: only tasks run.
///
/// The bound on real time only ends a wait for work that never comes. Work runs on the shared
/// executor, whose threads (two on a two-core machine) the package's tests hold for as long as
/// they compute or wait on a process: work started at the beginning of the suite may get a
/// thread only near its end, so the bound is the length of a whole run of the suite, with room.
@MainActor
func settle(
    until condition: @MainActor () -> Bool, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
) async {
    if await !FlowSettling.until(condition, within: suiteLength) {
        Issue.record("never happened: \(what)", sourceLocation: sourceLocation)
    }
}

/// How long a run of the whole test suite may take on a two-core machine, with room; a run of
/// a few suites (the mutation harness, Tests/Mutations/run.sh) sets a shorter bound with
/// FLOWSPEC_SETTLE_SECONDS.
let suiteLength: Duration = .seconds(
    ProcessInfo.processInfo.environment["FLOWSPEC_SETTLE_SECONDS"].flatMap { Int($0) } ?? 1_200)

/// Lets the main actor run until every timer of `driver` whose deadline has come has ended,
/// for checking that nothing happens after moving the clock: a timer left armed by mistake
/// acts before the check, however late it runs. Fails the test if one never ends.
@MainActor
func settle<Spec: FlowSpec>(_ driver: FlowDriver<Spec>, sourceLocation: SourceLocation = #_sourceLocation) async {
    if await !FlowSettling.whatIsDue(of: driver, within: suiteLength) {
        Issue.record("a due timer never ended (\(driver.dueTimers) left)", sourceLocation: sourceLocation)
    }
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
