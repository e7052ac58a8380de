import Foundation

/// The client's messages, read and decoded on a thread of their own: a client that writes
/// while a check runs is never blocked, edits that arrive meanwhile are waiting when the check
/// ends (so they are checked together), and a `$/cancelRequest` is seen before the request it
/// cancels is answered.
final class Inbox: @unchecked Sendable {
    /// One thing read from the client.
    enum Item {
        /// A JSON object: a request, a notification or a response.
        case message([String: Any])
        /// A framed message whose body is not a JSON object.
        case notJSON
        /// Reading stopped; nothing follows.
        case end(MessageReader.Failure)
    }

    private let condition = NSCondition()
    private var items: [Item] = []
    private var head = 0
    /// Requests read and not yet answered, and those of them the client cancelled.
    private var pending: Set<RequestID> = []
    private var cancelled: Set<RequestID> = []

    /// Starts reading `reader` on a new thread.
    init(reading reader: MessageReader) {
        let thread = Thread { [self] in
            var reader = reader
            self.read(&reader)
        }
        thread.start()
    }

    /// The next item, waiting for one if none has been read yet.
    func next() -> Item {
        condition.lock()
        defer { condition.unlock() }
        while head == items.count { condition.wait() }
        let item = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        }
        return item
    }

    /// Whether no item is waiting.
    var isEmpty: Bool {
        condition.lock()
        defer { condition.unlock() }
        return head == items.count
    }

    /// Whether the client cancelled the request `id` (before it was answered).
    func isCancelled(_ id: Any) -> Bool {
        guard let key = RequestID(id) else { return false }
        condition.lock()
        defer { condition.unlock() }
        return cancelled.contains(key)
    }

    /// Forgets request `id`: it has been answered, and a later cancel has nothing to cancel.
    func answered(_ id: Any) {
        guard let key = RequestID(id) else { return }
        condition.lock()
        defer { condition.unlock() }
        pending.remove(key)
        cancelled.remove(key)
    }

    /// Reads until the input ends or breaks. The messages a read brought are handed over
    /// together, so that a cancel read with its request is seen before the request is handled.
    private func read(_ reader: inout MessageReader) {
        while true {
            var batch: [Item] = []
            var ended = false
            repeat {
                do {
                    let bytes = try reader.next()
                    let object = try? JSONSerialization.jsonObject(with: Data(bytes))
                    batch.append((object as? [String: Any]).map(Item.message) ?? .notJSON)
                } catch {
                    batch.append(.end(error))
                    ended = true
                }
            } while !ended && reader.hasBufferedMessage
            deliver(batch)
            if ended { return }
        }
    }

    private func deliver(_ batch: [Item]) {
        condition.lock()
        defer { condition.unlock() }
        for item in batch {
            guard case .message(let message) = item else { continue }
            if message["method"] as? String == "$/cancelRequest" {
                if let key = (message["params"] as? [String: Any])?["id"].flatMap(RequestID.init), pending.contains(key)
                {
                    cancelled.insert(key)
                }
            } else if message["method"] != nil, let key = message["id"].flatMap(RequestID.init) {
                pending.insert(key)
            }
        }
        items += batch
        condition.signal()
    }
}

/// A JSON-RPC request id, a number or a string, as a key.
private enum RequestID: Hashable {
    case number(Int)
    case string(String)

    init?(_ id: Any) {
        if let number = id as? Int {
            self = .number(number)
        } else if let string = id as? String {
            self = .string(string)
        } else {
            return nil
        }
    }
}
