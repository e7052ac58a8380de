/// Runs an action once after a delay: the clock the flow's timeouts run on.
///
/// Injected into `AuthFlowController`, so tests drive time with a manual clock. An app
/// implements it on its main run loop or main actor; everything here is single-threaded.
public protocol FlowScheduler {
    /// Runs `action` once, `delay` from now, unless the returned cancellation is used first.
    func schedule(after delay: Duration, _ action: @escaping () -> Void) -> Cancellation
}

/// Cancels one scheduled action. Cancelling twice, or after the action ran, does nothing.
public struct Cancellation {
    private let onCancel: () -> Void

    /// A cancellation that runs `onCancel` when used.
    public init(_ onCancel: @escaping () -> Void) {
        self.onCancel = onCancel
    }

    /// Cancels the action.
    public func cancel() {
        onCancel()
    }
}
