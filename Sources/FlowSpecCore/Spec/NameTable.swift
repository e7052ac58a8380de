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
/// An open-addressing table whose slots hold a name's position and 32 bits of its hash: a
/// probe compares texts only when the hashes agree, and the table grows without hashing a
/// text again. Names are numbered in the order they were first interned, so nothing about
/// them depends on the process's hash seed.
public struct NameTable: Sendable {
    /// The texts, by ``Name/index``.
    public private(set) var texts: [String] = []
    /// `0` where empty, else the hash's low 32 bits above the position plus one.
    private var slots: [UInt64] = []
    /// Which bits of a text's hash are kept (all 32 but in tests that make hashes collide).
    private let hashMask: UInt32

    /// Creates an empty table.
    public init() {
        hashMask = .max
    }

    /// Creates an empty table that keeps only `hashBits` bits of each hash, so that tests can
    /// make every text share a slot.
    init(hashBits: Int) {
        hashMask = hashBits >= 32 ? .max : UInt32(1 << hashBits - 1)
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
        return slots[slot] == 0 ? nil : Name(index: Self.position(slots[slot]))
    }

    /// The name with this text, added if the table does not hold it yet.
    public mutating func intern(_ text: String) -> Name {
        let hash = self.hash(text)
        if !slots.isEmpty {
            let slot = probe(text, hash: hash)
            if slots[slot] != 0 { return Name(index: Self.position(slots[slot])) }
        }
        // At most half full, so that a probe for a missing name ends soon.
        if (texts.count + 1) * 2 > slots.count { grow() }
        let slot = probe(text, hash: hash)
        let index = Int32(texts.count)
        texts.append(text)
        slots[slot] = UInt64(hash) << 32 | UInt64(index + 1)
        return Name(index: index)
    }

    /// The slot that holds the text, or the empty slot where it would go.
    private func probe(_ text: String, hash: UInt32) -> Int {
        let mask = slots.count - 1
        var slot = Int(hash) & mask
        while slots[slot] != 0 {
            if UInt32(truncatingIfNeeded: slots[slot] >> 32) == hash, texts[Int(Self.position(slots[slot]))] == text {
                break
            }
            slot = (slot + 1) & mask
        }
        return slot
    }

    /// Doubles the slots (16 to start), placing each entry again by the hash it keeps.
    private mutating func grow() {
        var larger = [UInt64](repeating: 0, count: max(16, slots.count * 2))
        let mask = larger.count - 1
        for entry in slots where entry != 0 {
            var slot = Int(UInt32(truncatingIfNeeded: entry >> 32)) & mask
            while larger[slot] != 0 { slot = (slot + 1) & mask }
            larger[slot] = entry
        }
        slots = larger
    }

    private func hash(_ text: String) -> UInt32 {
        UInt32(truncatingIfNeeded: text.hashValue) & hashMask
    }

    private static func position(_ entry: UInt64) -> Int32 {
        Int32(truncatingIfNeeded: entry & 0xFFFF_FFFF) - 1
    }
}
