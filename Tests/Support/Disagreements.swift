/// The cases of a long loop that disagree with what was expected: how many, and the first.
///
/// A test that compares thousands of cases with a reference (a dictionary, say) checks them
/// through this and then expects none, so that a broken build fails with one finding that
/// names the first case, not with thousands: each finding keeps its expression, and thousands
/// of them once exhausted the test process's memory.
public struct Disagreements: Sendable {
    /// How many cases disagreed.
    public private(set) var count = 0
    /// The first case that disagreed.
    public private(set) var first: String?

    public init() {}

    /// Counts a case that does not agree, keeping its description if it is the first.
    public mutating func check(_ agrees: Bool, _ description: @autoclosure () -> String) {
        guard !agrees else { return }
        count += 1
        if first == nil { first = description() }
    }

    /// What a failed expectation says: the count and the first case.
    public var summary: String { "\(count) cases disagree; the first: \(first ?? "none")" }
}
