/// Waiting, in tests, for what a ``FlowDriver`` does on its own: the timers a test clock fired
/// and the work that finished run as tasks, and reach the main actor when it yields. No flow
/// time passes while waiting; only tasks run.
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

    /// Lets the main actor run whatever is ready, for checking that nothing happens.
    public static func whatIsReady() async {
        for _ in 0..<500 { await Task.yield() }
    }
}
