import Testing
@testable import FlowSpecCore

/// Large machines go through the whole pipeline without recursion-depth crashes. (Speed is
/// measured by the benchmark, not here.)
@Suite("Scale")
struct ScaleTests {
    /// A chain of `count` task states, each timing out into the next, ending in a terminal.
    static func chain(_ count: Int) -> String {
        var text = "flowspec: 1\nmachines:\n  Chain:\n    initial: s0\n    states:\n"
        for index in 0..<count {
            text += "      s\(index): { timeout: { after: 1s, to: s\(index + 1) } }\n"
        }
        text += "      s\(count): { kind: terminal }\n"
        return text
    }

    @Test func aHundredThousandStateChainChecksClean() {
        let result = SpecChecker().check(SourceFile(path: "chain.yaml", text: Self.chain(100_000)))
        #expect(result.diagnostics.isEmpty)
        #expect(result.graphs.first?.stateCount == 100_001)
    }

    @Test func aFortyThousandStateLoopIsOneFinding() {
        var text = "flowspec: 1\nmachines:\n  Ring:\n    initial: s0\n    states:\n"
        let count = 40_000
        for index in 0..<count {
            text += "      s\(index): { timeout: { after: 1s, to: s\((index + 1) % count) } }\n"
        }
        let result = SpecChecker().check(SourceFile(path: "ring.yaml", text: text))
        #expect(result.diagnostics.map(\.rule) == [.infiniteLoop])
        #expect(result.diagnostics.first?.subjects.count == count)
        #expect(result.diagnostics.first?.location == SourceLocation(line: 6, column: 7))
    }

    @Test func withinFollowsALongChainWithoutRecursion() {
        var text = Self.chain(50_000)
        text += "    require:\n      - within: { from: s0, to: [s50000], max: 10h }\n"
        let result = SpecChecker().check(SourceFile(path: "chain.yaml", text: text))
        #expect(result.diagnostics.map(\.rule) == [.requirementFailed])
        #expect(result.diagnostics.first?.message.contains("50000s") == true)
    }
}
