import Testing

@testable import FlowSpecCore

/// The worst-case search behind `require: within` counts a bounded retry only where a path can
/// take it twice (on a cycle of automatic transitions), and gives up past its bounds.
@Suite("Worst-case time")
struct WorstCaseTimeTests {
    func graph(_ states: String) throws -> MachineGraph {
        let yaml = "flowspec: 1\nmachines:\n  M:\n    initial: a\n    states:\n" + states
        return try #require(SpecChecker().check(SourceFile(path: "m.yaml", text: yaml)).graphs.first)
    }

    func outcome(_ graph: MachineGraph, from: String, to: String, maxCounters: Int = 20_000_000) -> String {
        var search = WorstCaseTime(graph: graph, goals: [graph.stateIndex[to]!])
        search.maxCounters = maxCounters
        switch search.compute(from: graph.stateIndex[from]!) {
        case .bounded(let time, let path):
            return "bounded \(time.specDescription): \(WorstCaseTime.describe(path, graph: graph))"
        case .unbounded: return "unbounded"
        case .stuck(_, let reason): return "stuck: \(reason)"
        case .tooComplex: return "too complex"
        case .undetermined: return "undetermined"
        }
    }

    /// Off any cycle, a retry is taken once on a path: its fallback is never taken (it has no
    /// counter, and needs none).
    @Test func aRetryOffEveryCycleNeverUsesItsFallback() throws {
        let graph = try graph(
            """
                  a: { timeout: { after: 1s, to: b, retry: { max: 1, then: trap } } }
                  b: { timeout: { after: 2s, to: goal, retry: { max: 1, then: trap } } }
                  trap: { timeout: { after: 1h, to: goal } }
                  goal: { kind: input, on: { go: end } }
                  end: { kind: terminal }

            """)
        #expect(outcome(graph, from: "a", to: "goal") == "bounded 3s: a → b (after 1s) → goal (after 2s); 3s in all")
    }

    /// On a cycle, each pass counts: the timeout of `a` is taken twice, then its fallback.
    @Test func aRetryOnACycleIsCountedUntilItsFallback() throws {
        let graph = try graph(
            """
                  a: { timeout: { after: 1s, to: b, retry: { max: 2, then: goal } } }
                  b: { timeout: { after: 1s, to: a } }
                  goal: { kind: input, on: { go: end } }
                  end: { kind: terminal }

            """)
        #expect(
            outcome(graph, from: "a", to: "goal")
                == "bounded 5s: a → b (after 1s) → a (after 1s) → b (after 1s) → a (after 1s) → goal (after 1s (retries used up)); 5s in all"
        )
    }

    /// Past its bound on counters held in all, the search gives up rather than grow: a loop of
    /// ten retries makes configurations of eleven numbers, and 100 numbers hold nine of them.
    @Test func theSearchGivesUpPastItsBoundOnCounters() throws {
        var states = ""
        for index in 0..<10 {
            let name = index == 0 ? "a" : "s\(index)"
            let next = index == 9 ? "a" : "s\(index + 1)"
            states += "      \(name): { timeout: { after: 1s, to: \(next), retry: { max: 1, then: goal } } }\n"
        }
        states += "      goal: { kind: input, on: { go: end } }\n      end: { kind: terminal }\n"
        let graph = try graph(states)
        #expect(outcome(graph, from: "a", to: "goal").hasPrefix("bounded 11s: "))
        #expect(outcome(graph, from: "a", to: "goal", maxCounters: 100) == "too complex")
    }
}
