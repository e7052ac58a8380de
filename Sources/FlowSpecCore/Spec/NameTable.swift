/// A name a transition refers to (an event, or a target state), interned in its machine's
/// ``NameTable``: the same text is the same `Name`. A name is 4 bytes where a `String` is 16
/// (and an allocation of its own when longer than 15 bytes), and comparing or hashing it is
/// comparing an integer.
public struct Name: Hashable, Sendable {
    /// The name's position in its table, in the order names were first met.
    public let index: Int32
}

/// The texts of a machine's names, each kept once, and the ``Name`` of each.
///
/// An open-addressing table of 32-bit slots that compares with the texts themselves, so no
/// text is kept twice. A slot holds a name's position and, in the bits the position does not
/// need, a tag of its text's hash: a probe compares texts only when the tags agree. Names are
/// numbered in the order they were first interned, so nothing about them depends on the
/// process's hash seed.
public struct NameTable: Sendable {
    /// The texts, by ``Name/index``.
    public private(set) var texts: [String] = []
    /// `-1` where empty, else a tag above a position; the count is a power of two (or 0).
    private var slots: [Int32] = []
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
        guard !slots.isEmpty else { return nil }
        let slot = probe(text, hash: hash(text))
        return slots[slot] < 0 ? nil : Name(index: slots[slot] & positionMask)
    }

    /// The name with this text, added if the table does not hold it yet.
    public mutating func intern(_ text: String) -> Name {
        let hash = self.hash(text)
        if !slots.isEmpty {
            let slot = probe(text, hash: hash)
            if slots[slot] >= 0 { return Name(index: slots[slot] & positionMask) }
        }
        // At most half full, so that a probe for a missing name ends soon.
        if (texts.count + 1) * 2 > slots.count { grow() }
        let slot = probe(text, hash: hash)
        let index = Int32(texts.count)
        texts.append(text)
        slots[slot] = tag(hash) | index
        return Name(index: index)
    }

    /// Positions take the low bits of a slot: fewer than half the slots' count.
    private var positionBits: Int { max(1, Int.bitWidth - slots.count.leadingZeroBitCount - 1) }
    private var positionMask: Int32 { Int32(truncatingIfNeeded: 1 << positionBits - 1) }

    /// A hash's tag, in place above the position bits: its top bits (its low bits pick the slot).
    private func tag(_ hash: Int) -> Int32 {
        let tagBits = 31 - positionBits
        guard tagBits > 0 else { return 0 }
        return Int32(truncatingIfNeeded: UInt(bitPattern: hash) >> (UInt.bitWidth - tagBits)) << positionBits
    }

    /// The slot that holds the text, or the empty slot where it would go.
    private func probe(_ text: String, hash: Int) -> Int {
        let mask = slots.count - 1
        let tag = self.tag(hash)
        let positionMask = self.positionMask
        var slot = hash & mask
        while slots[slot] >= 0 {
            if slots[slot] & ~positionMask == tag, texts[Int(slots[slot] & positionMask)] == text { break }
            slot = (slot + 1) & mask
        }
        return slot
    }

    /// Doubles the slots (16 to start) and places every name again, hashing its text anew: a
    /// table of n names hashes about 2n texts in all, and keeps no hash.
    private mutating func grow() {
        slots = [Int32](repeating: -1, count: max(16, slots.count * 2))
        for index in texts.indices {
            let hash = self.hash(texts[index])
            let slot = probe(texts[index], hash: hash)
            slots[slot] = tag(hash) | Int32(index)
        }
    }

    private func hash(_ text: String) -> Int {
        text.hashValue & hashMask
    }
}
