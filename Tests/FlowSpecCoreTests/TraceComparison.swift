import FlowSpecTestSupport

/// Traces of runs compared line by line with what was expected: how many lines were compared,
/// and the runs that differ, each named with its first line that differs.
struct TraceComparison {
    /// The names of the two sides, for the messages: `flowspec` and `engine`, say.
    let expectedSide: String
    let actualSide: String
    private(set) var compared = 0
    private(set) var disagreements = Disagreements()

    /// Compares one run's lines; `context` (its inputs, say) is added to the message.
    mutating func compare(_ run: String, expected: [String], actual: [String], context: String = "") {
        compared += expected.count
        let sides = (expectedSide, actualSide)
        disagreements.check(actual == expected, Self.message(run, expected, actual, context, sides))
    }

    private static func message(
        _ run: String, _ expected: [String], _ actual: [String], _ context: String,
        _ sides: (expected: String, actual: String)
    ) -> String {
        let (expectedSide, actualSide) = sides
        let step = zip(actual, expected).prefix { $0 == $1 }.count
        let width = max(expectedSide.count, actualSide.count) + 1
        func side(_ name: String) -> String { (name + ":").padding(toLength: width, withPad: " ", startingAt: 0) }
        return "\(run), line \(step)\(context.isEmpty ? "" : ": \(context)")\n"
            + "  \(side(expectedSide)) \(step < expected.count ? expected[step] : "<end>")\n"
            + "  \(side(actualSide)) \(step < actual.count ? actual[step] : "<end>")"
    }
}
