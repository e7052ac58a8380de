import Foundation

/// Reads JSON-RPC messages framed the LSP way: `Content-Length: N` headers, an empty line, then
/// N bytes of JSON.
struct MessageReader {
    /// Why reading stopped.
    enum Failure: Error, CustomStringConvertible {
        /// The client closed its end.
        case endOfInput
        /// The header is not LSP's: no `Content-Length`, or one that is not a number.
        case badHeader(String)
        /// A message larger than the server accepts.
        case tooLarge(Int)

        var description: String {
            switch self {
            case .endOfInput: "the client closed the connection"
            case .badHeader(let header): "not an LSP header: \(header.debugDescription)"
            case .tooLarge(let size): "a message of \(size) bytes, over the limit of \(MessageReader.maxMessageSize)"
            }
        }
    }

    /// The largest message read: a spec over it is not checked in the editor either.
    static let maxMessageSize = 64 << 20

    let input: Int32
    private var buffer: [UInt8] = []
    private var start = 0

    init(input: Int32) {
        self.input = input
    }

    /// Whether a whole message is already buffered (more input waits to be read together).
    var hasBufferedMessage: Bool {
        guard let end = headerEnd() else { return false }
        guard let length = try? contentLength(buffer[start..<end]) else { return true }
        return buffer.count - (end + 4) >= length
    }

    /// The next message's JSON bytes.
    mutating func next() throws(Failure) -> [UInt8] {
        while true {
            if let end = headerEnd() {
                let length = try contentLength(buffer[start..<end])
                guard length <= Self.maxMessageSize else { throw .tooLarge(length) }
                let body = end + 4
                while buffer.count - body < length { try fill() }
                let message = Array(buffer[body..<(body + length)])
                start = body + length
                if start > 1 << 20 {
                    buffer.removeFirst(start)
                    start = 0
                }
                return message
            }
            if buffer.count - start > 8_192 {
                throw .badHeader(String(decoding: buffer[start..<(start + 80)], as: UTF8.self))
            }
            try fill()
        }
    }

    private func headerEnd() -> Int? {
        guard buffer.count - start >= 4 else { return nil }
        var index = start
        while index + 3 < buffer.count {
            if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 {
                return index
            }
            index += 1
        }
        return nil
    }

    private func contentLength(_ header: ArraySlice<UInt8>) throws(Failure) -> Int {
        let text = String(decoding: header, as: UTF8.self)
        for line in text.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { throw .badHeader(String(line)) }
            if parts[0].lowercased() == "content-length" {
                guard let length = Int(parts[1].trimmingCharacters(in: .whitespaces)), length >= 0 else {
                    throw .badHeader(String(line))
                }
                return length
            }
        }
        throw .badHeader(text)
    }

    private mutating func fill() throws(Failure) {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = read(input, &chunk, chunk.count)
        guard count > 0 else { throw .endOfInput }
        buffer += chunk[..<count]
    }
}

/// Writes JSON-RPC messages with their `Content-Length` header to standard output.
struct MessageWriter {
    func send(_ message: [String: Any]) {
        guard let body = try? JSONSerialization.data(withJSONObject: message, options: [.sortedKeys]) else { return }
        var data = Data("Content-Length: \(body.count)\r\n\r\n".utf8)
        data += body
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(1, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
