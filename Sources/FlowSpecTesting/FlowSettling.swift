import FlowSpecRuntime

/// Waiting, in tests, for what a ``FlowDriver`` does on its own: the timers a test clock fired
/// and the work that finished run as tasks, and reach the main actor when it yields. No flow
/// time passes while waiting; only tasks run.
///
/// Every wait ends on something the test can observe, never on a number of yields: what
/// should happen with ``until(_:within:)``, and "nothing happens" with
/// ``whatIsDue(of:within:)``, which waits for exactly the driver's timers that are due.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
public enum FlowSettling {
    /// Lets the main actor run what is ready until `condition` holds; `false` if it still does
    /// not after `limit` of real time.
    ///
    /// The flow's time is the test clock's; this real-time bound only ends a wait for tasks
    /// that never come. It is long by default: timers and work wait for a thread of the shared
    /// executor, which other tests that block on processes can hold for a minute or more.
    public static func until(_ condition: @MainActor () -> Bool, within limit: Duration = .seconds(300)) async
        -> Bool
    {
        let giveUp = ContinuousClock.now.advanced(by: limit)
        while ContinuousClock.now < giveUp {
            if condition() { return true }
            await Task.yield()
        }
        return condition()
    }

    /// Lets the main actor run until every timer of `driver` whose deadline has come has ended
    /// (``FlowDriver/dueTimers`` is zero), for checking that nothing happens after the test
    /// moved the clock; `false` if one has not ended after `limit` of real time.
    ///
    /// Deterministic, unlike a number of yields: a timer left armed by mistake (not cancelled
    /// when its visit ended) is waited for, fires, and fails the check that follows however
    /// long it waited for a thread. Timers whose deadline has not come are not waited for, nor
    /// is task work: wait for what work does with ``until(_:within:)``.
    public static func whatIsDue<Spec: FlowSpec>(of driver: FlowDriver<Spec>, within limit: Duration = .seconds(300))
        async -> Bool
    {
        await until({ driver.dueTimers == 0 }, within: limit)
    }
}
