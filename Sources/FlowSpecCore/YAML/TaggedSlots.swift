/// The slots of an open-addressing hash table whose entries are kept elsewhere (a name
/// table's texts, a mapping's keys): 4 bytes a slot.
///
/// A slot holds an entry's position and, in the bits the position does not need, a tag of the
/// entry's hash, so that a probe looks at an entry only when the tags agree: the entries are
/// spread over memory, and each look is a wait on it. `-1` marks an empty slot.
struct TaggedSlots {
    private var slots: [Int32]
    private let positionBits: Int
    private let tagBits: Int

    /// Slots for positions below half of `capacity`, a power of two of at least 4 (or 0, for
    /// none: nothing is allocated); `maxTagBits` lets tests make tags collide.
    init(capacity: Int, maxTagBits: Int = 31) {
        positionBits = max(1, Int.bitWidth - capacity.leadingZeroBitCount - 2)
        tagBits = max(0, min(maxTagBits, 31 - positionBits))
        slots = capacity == 0 ? [] : [Int32](repeating: -1, count: capacity)
    }

    /// The smallest capacity that keeps `count` entries at most half full.
    static func capacity(for count: Int) -> Int {
        var capacity = 4
        while capacity < count * 2 { capacity *= 2 }
        return capacity
    }

    /// How many slots there are.
    var capacity: Int { slots.count }

    /// The slot of the entry with this hash that `isMatch` accepts (given its position), with
    /// that position; or the empty slot where such an entry would go. There must be slots.
    func find(hash: Int, isMatch: (Int) -> Bool) -> (slot: Int, position: Int?) {
        let mask = slots.count - 1
        let positionMask = Int32(truncatingIfNeeded: 1 << positionBits - 1)
        let tag = self.tag(hash)
        var slot = hash & mask
        while slots[slot] >= 0 {
            let position = Int(slots[slot] & positionMask)
            if slots[slot] & ~positionMask == tag, isMatch(position) { return (slot, position) }
            slot = (slot + 1) & mask
        }
        return (slot, nil)
    }

    /// Puts an entry's position in an empty slot that ``find(hash:isMatch:)`` gave for its hash.
    mutating func place(_ position: Int, hash: Int, at slot: Int) {
        slots[slot] = tag(hash) | Int32(position)
    }

    /// A hash's tag, in place above the position bits: its top bits (its low bits pick the slot).
    private func tag(_ hash: Int) -> Int32 {
        guard tagBits > 0 else { return 0 }
        return Int32(truncatingIfNeeded: UInt(bitPattern: hash) >> (UInt.bitWidth - tagBits)) << positionBits
    }
}

/// The scalar keys of one large mapping kept so far, for finding repeated keys: the kept pairs'
/// ordinals in ``TaggedSlots``, 4 bytes a slot rather than a dictionary of the keys' texts at
/// tens of bytes a key (a `states:` mapping has a key per state).
struct KeySet {
    private var slots: TaggedSlots

    /// A set for up to `pairs` keys (none allocated for 0); `maxTagBits` lets tests make tags
    /// collide.
    init(pairs: Int, maxTagBits: Int = 31) {
        slots = TaggedSlots(capacity: pairs == 0 ? 0 : TaggedSlots.capacity(for: pairs), maxTagBits: maxTagBits)
    }

    /// The ordinal of a kept key equal to this one (`isKept` says whether the key of an ordinal
    /// is), or `nil` after keeping this one as `ordinal`.
    mutating func firstOrInsert(ordinal: Int, hash: Int, isKept: (Int) -> Bool) -> Int? {
        let found = slots.find(hash: hash, isMatch: isKept)
        if let position = found.position { return position }
        slots.place(ordinal, hash: hash, at: found.slot)
        return nil
    }
}
