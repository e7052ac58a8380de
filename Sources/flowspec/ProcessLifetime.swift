import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the process keeps until it exits.
///
/// A large checked spec's model and graphs are dropped only when `flowspec` exits: freeing its
/// hundreds of thousands of states and transitions one by one, moments before the operating
/// system reclaims the whole process, would only cost time. (Small specs are freed as usual:
/// see ``CheckCommand/keptSpecSize``.)
///
/// A build with LeakSanitizer keeps nothing: the sanitizer cannot follow a pointer that Swift
/// stores with an enum's tag bits in it, so it would report what is kept as leaked, and it is
/// there to check that everything else is freed.
enum ProcessLifetime {
    private static let kept = Mutex<[any Sendable]>([])

    /// Whether LeakSanitizer is linked in (it checks the process when it exits).
    private static let isLeakChecked: Bool = {
        #if canImport(Darwin)
            let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
        #else
            let everywhere: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
        #endif
        return dlsym(everywhere, "__lsan_do_leak_check") != nil
    }()

    /// Keeps a value alive until the process exits (unless LeakSanitizer checks it).
    static func keep(_ value: some Sendable) {
        guard !isLeakChecked else { return }
        kept.withLock { $0.append(value) }
    }
}
