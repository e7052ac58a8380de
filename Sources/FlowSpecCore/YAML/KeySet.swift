/// The scalar keys of one large mapping kept so far, for finding repeated keys: an
/// open-addressing set of the kept pairs' ordinals, 4 bytes a slot where a dictionary of the
/// keys' texts took about 50 bytes a key (a `states:` mapping has a key per state).
///
/// Each entry keeps a tag of its key's hash in the bits the ordinal does not need, so that a
/// probe reads a key's text only when the tags agree: the keys are spread over the document's
/// nodes, and each read is a wait on memory.
struct KeySet {
    /// `-1` where empty, else a tag above an ordinal; the count is a power of two.
    private var slots: [Int32]
    private let indexBits: Int
    private let tagBits: Int

    /// A set for up to `pairs` keys (none allocated for 0); `maxTagBits` lets tests make tags
    /// collide.
    init(pairs: Int, maxTagBits: Int = 31) {
        indexBits = max(1, Int.bitWidth - pairs.leadingZeroBitCount)
        tagBits = max(0, min(maxTagBits, 31 - indexBits))
        guard pairs > 0 else {
            slots = []
            return
        }
        // At most half full, so that a probe for a new key ends soon.
        var count = 4
        while count < pairs * 2 { count *= 2 }
        slots = [Int32](repeating: -1, count: count)
    }

    /// The ordinal of a kept key equal to this one (`isKept` says whether the key of an ordinal
    /// is), or `nil` after keeping this one as `ordinal`.
    mutating func firstOrInsert(ordinal: Int, hash: Int, isKept: (Int) -> Bool) -> Int? {
        let mask = slots.count - 1
        let indexMask = Int32(truncatingIfNeeded: 1 << indexBits - 1)
        let tag = tagBits == 0 ? 0 : Int32(truncatingIfNeeded: UInt(bitPattern: hash) >> (UInt.bitWidth - tagBits)) << indexBits
        var slot = hash & mask
        while slots[slot] >= 0 {
            if slots[slot] & ~indexMask == tag, isKept(Int(slots[slot] & indexMask)) { return Int(slots[slot] & indexMask) }
            slot = (slot + 1) & mask
        }
        slots[slot] = tag | Int32(ordinal)
        return nil
    }
}
