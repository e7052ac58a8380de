/// A client of ``YAMLReader`` that takes finished subtrees out of the document while it is
/// read, so that a large file is never held as one tree: the reader offers each collection at
/// ``path`` once it is complete, and a taken one is replaced by a node of kind
/// ``YAMLNode/Kind/taken`` that keeps the number ``take(_:keys:in:)`` returned.
///
/// Only subtrees no alias can refer into are offered: ones that define no anchor and do not
/// sit inside an anchored collection.
public protocol YAMLSubtreeTaker {
    /// The keys leading from the root mapping to the values offered: a string matches a
    /// scalar key with that text, `nil` any scalar key.
    var path: [String?] { get }

    /// Keys that may follow ``path`` again and again, each repetition leading to values
    /// offered too (`[["states"], nil]`: states inside states); each is the texts a key may
    /// have, or `nil` for any scalar key; empty for none.
    var repeatingPath: [Set<String>?] { get }

    /// Offered a finished collection `value` at ``path``; `keys` are the key nodes along the
    /// path. Returns the number its placeholder keeps, or `nil` to leave it in the document.
    mutating func take(
        _ value: YAMLDocument.NodeID, keys: [YAMLDocument.NodeID],
        in document: YAMLDocument
    ) -> Int32?
}

extension YAMLSubtreeTaker {
    /// No repetition: only values at ``path`` are offered.
    public var repeatingPath: [Set<String>?] { [] }
}

/// The taker that takes nothing: the reader builds the whole document.
public struct NoSubtreeTaker: YAMLSubtreeTaker {
    /// No path: nothing is offered.
    public var path: [String?] { [] }

    /// Creates the taker.
    public init() {}

    /// Never called (the path is empty); leaves everything in the document.
    public mutating func take(
        _ value: YAMLDocument.NodeID, keys: [YAMLDocument.NodeID],
        in document: YAMLDocument
    ) -> Int32? { nil }
}
