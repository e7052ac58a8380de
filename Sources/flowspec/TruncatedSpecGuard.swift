#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns a spec file that shrinks while it is read into an error rather than a crash.
///
/// A large spec is mapped, not copied (see `SpecFileReader`). If another program truncates
/// it meanwhile, reading a page past its new end raises SIGBUS; this handler then says what
/// happened and exits with status 2, as for any file that cannot be read.
enum TruncatedSpecGuard {
    /// Installs the handler; call it before reading any spec.
    static func install() {
        signal(SIGBUS) { _ in
            // Only async-signal-safe calls here: write(2) of a static text, then _exit.
            let message: StaticString = """
                flowspec: error: a spec file shrank while it was being read (another program \
                was writing it); run flowspec again once it is written

                """
            message.withUTF8Buffer { _ = write(2, $0.baseAddress, $0.count) }
            _exit(2)
        }
    }
}
