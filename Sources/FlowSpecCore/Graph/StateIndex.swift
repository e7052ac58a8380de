/// A machine's state names to their indices.
///
/// An open-addressing table of 32-bit state indices that compares with the states' own names,
/// so no name is kept twice: a quarter of the memory of a `[String: Int]` of a large machine.
/// When two states share a name, the first one is found.
public struct StateIndex: Sendable {
    private let states: [State]
    /// State indices by hash, -1 where empty; the count is a power of two.
    private let slots: [Int32]

    /// Indexes the states by name.
    init(_ states: [State]) {
        self.states = states
        // At most three quarters full, so that a probe for a missing name ends soon.
        var count = 4
        while count * 3 < states.count * 4 { count *= 2 }
        var slots = [Int32](repeating: -1, count: count)
        for index in states.indices {
            let found = Self.probe(states[index].name.value, slots: slots, states: states)
            if slots[found] < 0 { slots[found] = Int32(index) }
        }
        self.slots = slots
    }

    /// The index of the first state with this name, if there is one.
    public subscript(name: String) -> Int? {
        let slot = Self.probe(name, slots: slots, states: states)
        return slots[slot] < 0 ? nil : Int(slots[slot])
    }

    /// The slot of the state with this name, or the empty slot where it would go.
    private static func probe(_ name: String, slots: [Int32], states: [State]) -> Int {
        let mask = slots.count - 1
        var slot = name.hashValue & mask
        while slots[slot] >= 0, states[Int(slots[slot])].name.value != name {
            slot = (slot + 1) & mask
        }
        return slot
    }
}
