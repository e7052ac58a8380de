import Synchronization

/// What the process keeps until it exits.
///
/// A checked spec's model and graphs are dropped only when `flowspec` exits: freeing a large
/// spec's hundreds of thousands of states and transitions one by one, moments before the
/// operating system reclaims the whole process, would only cost time.
enum ProcessLifetime {
    private static let kept = Mutex<[any Sendable]>([])

    /// Keeps a value alive until the process exits.
    static func keep(_ value: some Sendable) {
        kept.withLock { $0.append(value) }
    }
}
