import Testing
@testable import FlowSpecCore

/// The graph algorithms are iterative and linear: they must handle very long chains and very
/// large strongly connected groups without overflowing the stack.
@Suite("Graph algorithms")
struct GraphAlgorithmTests {
    func digraph(_ count: Int, _ edges: [(Int, Int)]) -> Digraph {
        var adjacency = [[Int32]](repeating: [], count: count)
        for (from, to) in edges { adjacency[from].append(Int32(to)) }
        var offsets: [Int32] = [0]
        var targets: [Int32] = []
        for list in adjacency {
            targets += list
            offsets.append(Int32(targets.count))
        }
        return Digraph(offsets: offsets, targets: targets)
    }

    @Test func stronglyConnectedComponents() {
        // 0 → 1 → 2 → 0, 2 → 3, 3 → 3, 4 alone
        let graph = digraph(5, [(0, 1), (1, 2), (2, 0), (2, 3), (3, 3)])
        let components = graph.stronglyConnectedComponents().map { $0.sorted() }.sorted { $0[0] < $1[0] }
        #expect(components == [[0, 1, 2], [3], [4]])
        #expect(graph.hasSelfLoop(3))
        #expect(!graph.hasSelfLoop(4))
    }

    @Test func cyclicComponentsLeaveOutSingleVerticesWithoutASelfLoop() {
        // 0 → 1 → 2 → 0, 2 → 3, 3 → 3, 3 → 4, 4 alone
        let graph = digraph(5, [(0, 1), (1, 2), (2, 0), (2, 3), (3, 3), (3, 4)])
        let components = graph.stronglyConnectedComponents(cyclicOnly: true).sorted { $0[0] < $1[0] }
        #expect(components == [[0, 1, 2], [3]])
        #expect(graph.stronglyConnectedComponents(including: { $0 != 3 }, cyclicOnly: true) == [[0, 1, 2]])
    }

    @Test func componentsRespectTheVertexFilter() {
        let graph = digraph(3, [(0, 1), (1, 2), (2, 0)])
        let components = graph.stronglyConnectedComponents { $0 != 1 }
        #expect(components.map(\.count) == [1, 1])
    }

    @Test func breadthFirstGivesShortestPaths() {
        let graph = digraph(5, [(0, 1), (1, 2), (2, 3), (0, 3), (3, 4)])
        let parents = graph.breadthFirst(from: [0])
        #expect(Digraph.path(to: 4, parents: parents) == [0, 3, 4])
        #expect(graph.reversed().breadthFirst(from: [4])[0] != nil)
    }

    @Test func aThreeHundredThousandStateChainHasNoStackTrouble() {
        let count = 300_000
        let graph = digraph(count, (0..<count - 1).map { ($0, $0 + 1) })
        #expect(graph.stronglyConnectedComponents().count == count)
        #expect(graph.breadthFirst(from: [0]).allSatisfy { $0 != nil })
    }

    @Test func aFortyThousandStateCycleIsOneComponent() {
        let count = 40_000
        let graph = digraph(count, (0..<count).map { ($0, ($0 + 1) % count) })
        let components = graph.stronglyConnectedComponents()
        #expect(components.count == 1)
        #expect(components.first?.count == count)
    }
}

/// ``StateIndex`` finds every state by its name, as a dictionary would: names compare as Swift
/// strings (canonically equivalent spellings are one name) and the first of a repeated name wins.
@Suite("State index")
struct StateIndexTests {
    static func states(_ names: [String]) -> [State] {
        names.map { State(name: Located($0, at: .start), kind: .input) }
    }

    @Test func findsEveryStateAndNothingElse() {
        let names = (0..<5_000).map { "s\($0)" }
        let index = StateIndex(Self.states(names))
        for (position, name) in names.enumerated() { #expect(index[name] == position) }
        #expect(index["s5000"] == nil && index[""] == nil && index["S0"] == nil)
        #expect(StateIndex([])["a"] == nil)
    }

    @Test func theFirstOfARepeatedNameWinsAndEquivalentSpellingsAreOneName() {
        let index = StateIndex(Self.states(["caf\u{E9}", "b", "cafe\u{301}", "b"]))
        #expect(index["caf\u{E9}"] == 0)
        #expect(index["cafe\u{301}"] == 0)
        #expect(index["b"] == 1)
    }
}
