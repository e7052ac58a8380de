/// The effects an input ran, in order: a collection of the machine's `Effect` (compare it with
/// an array literal, iterate it, or make an `Array` of it). The effects of one transition are a
/// run of the spec's ``FlowSpec/effectList`` (two, for a step that resumes a history state: what
/// it runs before, then the entries of the state resumed), so sending an event allocates
/// nothing; only an input that runs the effects of several transitions (through choice states)
/// keeps them in an array.
public struct FlowEffects<Spec: FlowSpec>: RandomAccessCollection, Sendable, Hashable, ExpressibleByArrayLiteral,
    CustomStringConvertible
{
    // No default values (`Optional<…>` spelled out has none, where `…?` has `nil`): a stored
    // property's default is a function of this module, which an inlined initialiser would call
    // on every event.
    /// The run of the effect list, when `spilled` is `nil`. (A second run is rare and apart, so
    /// that a step's usual path, ``append(_:_:)``, stays as short as with one.)
    @usableFromInline internal var runStart: Int32
    @usableFromInline internal var runCount: Int32
    /// A second run, after the first (its effects are counted in `runCount` too).
    @usableFromInline internal var tailStart: Int32
    @usableFromInline internal var tailCount: Int32
    /// The effects, when they are not one run.
    @usableFromInline internal var spilled: Optional<[Spec.Effect]>

    /// No effects.
    @inlinable
    public init() {
        runStart = 0
        runCount = 0
        tailStart = 0
        tailCount = 0
        spilled = nil
    }

    /// The effects listed.
    @inlinable
    public init(arrayLiteral elements: Spec.Effect...) {
        self.init()
        if !elements.isEmpty { spilled = elements }
    }

    /// The first position, 0.
    @inlinable
    public var startIndex: Int { 0 }

    /// The number of effects.
    @inlinable
    public var endIndex: Int { spilled?.count ?? Int(runCount) }

    /// The effect at a position.
    @inlinable
    public subscript(position: Int) -> Spec.Effect {
        if let spilled { return spilled[position] }
        precondition(position >= 0 && position < Int(runCount), "Index out of range")
        let first = Int(runCount) - Int(tailCount)
        if position < first { return Spec.effectList[Int(runStart) + position] }
        return Spec.effectList[Int(tailStart) + position - first]
    }

    /// Appends the run of `count` effects from `start` in the effect list (one transition's
    /// effects).
    @inlinable
    internal mutating func append(_ start: Int, _ count: Int) {
        guard count > 0 else { return }
        if spilled == nil, runCount == 0 {
            runStart = Int32(start)
            runCount = Int32(count)
            return
        }
        var all = Array(self)
        for index in start..<(start + count) { all.append(Spec.effectList[index]) }
        spilled = all
    }

    /// Appends a second run after a first one without allocating (what a step that resumes a
    /// history state runs: before, then the entries of the state resumed); otherwise as
    /// ``append(_:_:)``.
    @inlinable
    internal mutating func appendSecond(_ start: Int, _ count: Int) {
        guard count > 0 else { return }
        if spilled == nil, runCount > 0, tailCount == 0 {
            tailStart = Int32(start)
            tailCount = Int32(count)
            runCount += Int32(count)
            return
        }
        append(start, count)
    }

    /// Equal when they hold the same effects in the same order, however they are stored.
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elementsEqual(rhs) }

    /// Hashes the effects in order.
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for effect in self { hasher.combine(effect) }
    }

    /// The effects as an array literal would print them.
    public var description: String { Array(self).description }
}
