/// The effects an input ran, in order: a collection of the machine's `Effect` (compare it with
/// an array literal, iterate it, or make an `Array` of it). The effects of one transition are
/// runs of the spec's ``FlowSpec/effectList``: one, or two for a step that resumes a history
/// state (what it runs before, then the entries of the state resumed), or, in a machine with
/// parallel states, one per state left and entered. Up to four runs are held in place, so
/// sending an event allocates nothing; only an input that runs more (several regions moving
/// at once, or choice states passed) keeps its effects in an array.
public struct FlowEffects<Spec: FlowSpec>: RandomAccessCollection, Sendable, Hashable, ExpressibleByArrayLiteral,
    CustomStringConvertible
{
    // No default values (`Optional<…>` spelled out has none, where `…?` has `nil`): a stored
    // property's default is a function of this module, which an inlined initialiser would call
    // on every event.
    /// The first run of the effect list, when `spilled` is `nil`. (The others are rare and
    /// apart, so that a step's usual path, ``append(_:_:)``, stays as short as with one.)
    @usableFromInline internal var runStart: Int32
    @usableFromInline internal var runCount: Int32
    /// The second, third and fourth runs, after the first (a count of 0: none).
    @usableFromInline internal var secondStart: Int32
    @usableFromInline internal var secondCount: Int32
    @usableFromInline internal var thirdStart: Int32
    @usableFromInline internal var thirdCount: Int32
    @usableFromInline internal var fourthStart: Int32
    @usableFromInline internal var fourthCount: Int32
    /// The effects, when they are more than four runs.
    @usableFromInline internal var spilled: Optional<[Spec.Effect]>

    /// No effects.
    @inlinable
    public init() {
        runStart = 0
        runCount = 0
        secondStart = 0
        secondCount = 0
        thirdStart = 0
        thirdCount = 0
        fourthStart = 0
        fourthCount = 0
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
    public var endIndex: Int {
        spilled?.count ?? Int(runCount) + Int(secondCount) + Int(thirdCount) + Int(fourthCount)
    }

    /// The effect at a position.
    @inlinable
    public subscript(position: Int) -> Spec.Effect {
        if let spilled { return spilled[position] }
        precondition(position >= 0 && position < endIndex, "Index out of range")
        var offset = position
        if offset < Int(runCount) { return Spec.effectList[Int(runStart) + offset] }
        offset -= Int(runCount)
        if offset < Int(secondCount) { return Spec.effectList[Int(secondStart) + offset] }
        offset -= Int(secondCount)
        if offset < Int(thirdCount) { return Spec.effectList[Int(thirdStart) + offset] }
        return Spec.effectList[Int(fourthStart) + offset - Int(thirdCount)]
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
        appendLater(start, count)
    }

    /// Appends a second run after a first one without allocating (what a step that resumes a
    /// history state runs: before, then the entries of the state resumed); otherwise as
    /// ``append(_:_:)``.
    @inlinable
    internal mutating func appendSecond(_ start: Int, _ count: Int) {
        append(start, count)
    }

    /// Appends a run after the first: in place up to four, in an array after that.
    @inlinable
    internal mutating func appendLater(_ start: Int, _ count: Int) {
        if spilled == nil {
            if secondCount == 0 {
                (secondStart, secondCount) = (Int32(start), Int32(count))
                return
            }
            if thirdCount == 0 {
                (thirdStart, thirdCount) = (Int32(start), Int32(count))
                return
            }
            if fourthCount == 0 {
                (fourthStart, fourthCount) = (Int32(start), Int32(count))
                return
            }
        }
        var all = Array(self)
        for index in start..<(start + count) { all.append(Spec.effectList[index]) }
        spilled = all
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
