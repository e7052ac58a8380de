/// The effects an input ran, in order: a collection of the machine's `Effect` (compare it with
/// an array literal, iterate it, or make an `Array` of it). The effects of one transition are
/// runs of the spec's ``FlowSpec/effectList``: one, or two for a step that resumes a history
/// state (what it runs before, then the entries of the state resumed), or, with parallel
/// states, one per state left and entered. Up to three runs are held in place, so sending an
/// event allocates nothing; only an input that runs more (several regions moving at once, or
/// choice states passed) keeps its effects in an array.
public struct FlowEffects<Spec: FlowSpec>: RandomAccessCollection, Sendable, Hashable, ExpressibleByArrayLiteral,
    CustomStringConvertible
{
    // No default values (`Optional<…>` spelled out has none, where `…?` has `nil`): a stored
    // property's default is a function of this module, which an inlined initialiser would call
    // on every event.
    //
    // Three runs and the array are seven fields in 32 bytes, which Swift returns in registers:
    // with a fourth run (two fields more, in the same 32 bytes) `send` on a flat machine took
    // 2.5 times as long, its result going through memory.
    /// The first run of the effect list, when `spilled` is `nil`: its start, and the count of
    /// every run held (the first's is what the later ones leave). The later runs are rare and
    /// apart, so that a step's usual path, ``append(_:_:)``, stays as short as with one.
    @usableFromInline internal var runStart: Int32
    @usableFromInline internal var runCount: Int32
    /// The second and third runs (a count of 0: none).
    @usableFromInline internal var tailStart: Int32
    @usableFromInline internal var thirdStart: Int32
    @usableFromInline internal var tailCount: UInt16
    @usableFromInline internal var thirdCount: UInt16
    /// The effects, when they are more than the runs held.
    @usableFromInline internal var spilled: Optional<[Spec.Effect]>

    /// No effects.
    @inlinable
    public init() {
        runStart = 0
        runCount = 0
        tailStart = 0
        tailCount = 0
        thirdStart = 0
        thirdCount = 0
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
        let first = Int(runCount) - Int(tailCount) - Int(thirdCount)
        if position < first { return Spec.effectList[Int(runStart) + position] }
        let later = position - first
        if later < Int(tailCount) { return Spec.effectList[Int(tailStart) + later] }
        return Spec.effectList[Int(thirdStart) + later - Int(tailCount)]
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

    /// Appends a run that follows another in one input (the entries of the state a history
    /// state resumes; with parallel states, the runs of each state left and entered): held in
    /// place while there is room for it (two runs after the first, of up to 65,535 effects
    /// each), otherwise as ``append(_:_:)``.
    @inlinable
    internal mutating func appendSecond(_ start: Int, _ count: Int) {
        guard count > 0 else { return }
        if spilled == nil, runCount > 0, count <= UInt16.max {
            if tailCount == 0 {
                tailStart = Int32(start)
                tailCount = UInt16(count)
                runCount += Int32(count)
                return
            }
            if thirdCount == 0 {
                thirdStart = Int32(start)
                thirdCount = UInt16(count)
                runCount += Int32(count)
                return
            }
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
