/// A name a transition refers to (an event, or a target state), interned in its machine's
/// ``NameTable``: the same text is the same `Name`. A name is 4 bytes where a `String` is 16
/// (and an allocation of its own when longer than 15 bytes), and comparing or hashing it is
/// comparing an integer.
public struct Name: Hashable, Sendable {
    /// The name's position in its table, in the order names were first met.
    public let index: Int32

    /// No name: the target of a transition that stays where it is, never in a table.
    public static let none = Name(index: -1)
}

/// The texts of a machine's names, each kept once, and the ``Name`` of each.
///
/// An open-addressing table (``TaggedSlots``) that compares with the texts themselves, so no
/// text is kept twice. Names are numbered in the order they were first interned, so nothing
/// about them depends on the process's hash seed.
public struct NameTable: Sendable {
    /// The texts, by ``Name/index``.
    public private(set) var texts: [String] = []
    /// The hash of each text, by ``Name/index``: growing places every name again, and hashing
    /// each text anew cost more than keeping 8 bytes a name.
    private var hashes: [Int] = []
    private var slots = TaggedSlots(capacity: 0)
    /// Which bits of a text's hash are kept (all but in tests that make hashes collide).
    private let hashMask: Int

    /// Creates an empty table.
    public init() {
        hashMask = -1
    }

    /// Creates an empty table that keeps only `hashBits` bits of each hash, so that tests can
    /// make every text share a slot and a tag.
    init(hashBits: Int) {
        hashMask = hashBits >= Int.bitWidth ? -1 : (1 << hashBits) - 1
    }

    /// How many names the table holds.
    public var count: Int { texts.count }

    /// The text of a name of this table.
    public subscript(name: Name) -> String { texts[Int(name.index)] }

    /// A located name's text, at the same place.
    public func text(_ name: Located<Name>) -> Located<String> {
        Located(texts[Int(name.value.index)], at: name.location)
    }

    /// The name with this text, if the table holds it.
    public func name(_ text: String) -> Name? {
        guard slots.capacity > 0 else { return nil }
        return find(text, hash: hash(text)).position.map { Name(index: Int32($0)) }
    }

    /// The name with this text, added if the table does not hold it yet.
    public mutating func intern(_ text: String) -> Name {
        let hash = self.hash(text)
        if slots.capacity > 0, let position = find(text, hash: hash).position { return Name(index: Int32(position)) }
        // At most half full, so that a probe for a missing name ends soon.
        if (texts.count + 1) * 2 > slots.capacity { grow() }
        let index = texts.count
        slots.place(index, hash: hash, at: find(text, hash: hash).slot)
        texts.append(text)
        hashes.append(hash)
        return Name(index: Int32(index))
    }

    private func find(_ text: String, hash: Int) -> (slot: Int, position: Int?) {
        slots.find(hash: hash) { texts[$0] == text }
    }

    /// Doubles the slots (16 to start) and places every name again, by its kept hash.
    private mutating func grow() {
        var larger = TaggedSlots(capacity: max(16, slots.capacity * 2))
        for (index, hash) in hashes.enumerated() {
            larger.place(index, hash: hash, at: larger.find(hash: hash) { _ in false }.slot)
        }
        slots = larger
    }

    private func hash(_ text: String) -> Int {
        TextHash.hash(text) & hashMask
    }
}
