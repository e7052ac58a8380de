/// A machine's state names to their indices.
///
/// An open-addressing table of 32-bit entries that compares with the states' own names, so no
/// name is kept twice: a quarter of the memory of a `[String: Int]` of a large machine.
/// When two states share a name, the first one is found.
///
/// The bits of an entry that the state's index does not need hold a few bits of the name's hash
/// (its tag): a probe reads a state's name only when the tags agree. On a large machine the
/// states do not fit in the processor's caches, and each name read is a wait on memory.
public struct StateIndex: Sendable {
    /// How an entry holds a state's index (its low bits) and a tag (the bits above, below the
    /// sign: an entry is never negative, and -1 marks an empty slot).
    private struct Entry: Sendable {
        let indexBits: Int
        let tagBits: Int

        var indexMask: Int32 { Int32(truncatingIfNeeded: 1 << indexBits - 1) }

        /// A hash's tag, in place above the index bits: its top bits (its low bits pick the slot).
        func tag(_ hash: Int) -> Int32 {
            guard tagBits > 0 else { return 0 }
            return Int32(truncatingIfNeeded: UInt(bitPattern: hash) >> (UInt.bitWidth - tagBits)) << indexBits
        }
    }

    private let states: [State]
    /// Entries by hash, -1 where empty; the count is a power of two.
    private let slots: [Int32]
    private let entry: Entry

    /// Indexes the states by name; `maxTagBits` lets tests make tags collide.
    init(_ states: [State], maxTagBits: Int = 31) {
        self.states = states
        let indexBits = max(1, Int.bitWidth - states.count.leadingZeroBitCount)
        let entry = Entry(indexBits: indexBits, tagBits: min(maxTagBits, 31 - indexBits))
        // At most three quarters full, so that a probe for a missing name ends soon.
        var count = 4
        while count * 3 < states.count * 4 { count *= 2 }
        var slots = [Int32](repeating: -1, count: count)
        for index in states.indices {
            let name = states[index].name.value
            let hash = name.hashValue
            let found = Self.probe(name, hash: hash, slots: slots, states: states, entry: entry)
            if slots[found] < 0 { slots[found] = entry.tag(hash) | Int32(index) }
        }
        self.slots = slots
        self.entry = entry
    }

    /// The index of the first state with this name, if there is one.
    public subscript(name: String) -> Int? {
        let slot = Self.probe(name, hash: name.hashValue, slots: slots, states: states, entry: entry)
        return slots[slot] < 0 ? nil : Int(slots[slot] & entry.indexMask)
    }

    /// The slot of the state with this name, or the empty slot where it would go.
    private static func probe(_ name: String, hash: Int, slots: [Int32], states: [State], entry: Entry) -> Int {
        let mask = slots.count - 1
        let tag = entry.tag(hash)
        let indexMask = entry.indexMask
        var slot = hash & mask
        while slots[slot] >= 0 {
            if slots[slot] & ~indexMask == tag, states[Int(slots[slot] & indexMask)].name.value == name { break }
            slot = (slot + 1) & mask
        }
        return slot
    }
}
