/// SplitMix64: a small, fast, seeded random number generator that gives the same numbers on
/// every platform, for the tests that draw random specs and inputs.
public struct SplitMix64: Sendable {
    /// The generator's state.
    public var state: UInt64

    /// A generator starting from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A whole number in `0..<bound`.
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// A whole number in `range`.
    public mutating func inRange(_ range: ClosedRange<Int>) -> Int { range.lowerBound + below(range.count) }

    /// True with the given chance in percent.
    public mutating func percent(_ chance: Int) -> Bool { below(100) < chance }

    /// True with probability `probability`.
    public mutating func chance(_ probability: Double) -> Bool {
        Double(next() >> 11) / Double(UInt64(1) << 53) < probability
    }

    /// One of `items`.
    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// `items` in a random order.
    public mutating func shuffled<T>(_ items: [T]) -> [T] {
        var items = items
        for index in stride(from: items.count - 1, to: 0, by: -1) { items.swapAt(index, below(index + 1)) }
        return items
    }

    /// `count` distinct items of `items`, in random order.
    public mutating func distinct<T>(_ count: Int, of items: [T]) -> [T] {
        var pool = items
        var chosen: [T] = []
        for _ in 0..<min(count, pool.count) {
            chosen.append(pool.remove(at: below(pool.count)))
        }
        return chosen
    }
}
