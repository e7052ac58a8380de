#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes to the terminal's streams.
enum Console {
    /// Writes text to standard output as is.
    static func output(_ text: String) {
        write(text, to: STDOUT_FILENO)
    }

    /// Writes a line to standard error.
    static func error(_ line: String) {
        write(line + "\n", to: STDERR_FILENO)
    }

    /// Writes all of `text` to a file descriptor, retrying short writes.
    private static func write(_ text: String, to descriptor: Int32) {
        write(Array(text.utf8)[...], to: descriptor)
    }

    /// Writes all of `bytes` to a file descriptor, retrying short writes.
    fileprivate static func write(_ bytes: ArraySlice<UInt8>, to descriptor: Int32) {
        var bytes = bytes
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Standard output as a stream that writes in blocks, so that a long output (the findings
    /// of a huge spec) is never held whole; ``StandardOutput/flush()`` writes the rest.
    struct StandardOutput: TextOutputStream {
        private var buffer: [UInt8] = []
        private static let blockSize = 1 << 16

        init() {
            buffer.reserveCapacity(Self.blockSize * 2)
        }

        mutating func write(_ text: String) {
            buffer.append(contentsOf: text.utf8)
            if buffer.count >= Self.blockSize { flush() }
        }

        /// Writes what is buffered.
        mutating func flush() {
            Console.write(buffer[...], to: STDOUT_FILENO)
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// Writes text to standard error as is.
    static func errorText(_ text: String) {
        write(text, to: STDERR_FILENO)
    }

    /// Whether standard error is a terminal that wants colour.
    static var wantsColourOnError: Bool { wantsColour(on: STDERR_FILENO) }

    /// Whether standard output is a terminal that wants colour.
    static var wantsColour: Bool { wantsColour(on: STDOUT_FILENO) }

    /// Whether a descriptor is a terminal that wants colour: not with `NO_COLOR` set, nor
    /// with `TERM` unset or `dumb`.
    private static func wantsColour(on descriptor: Int32) -> Bool {
        isatty(descriptor) == 1 && getenv("NO_COLOR") == nil
            && (getenv("TERM").map { String(cString: $0) != "dumb" } ?? false)
    }
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
