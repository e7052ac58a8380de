import FlowSpecTestSupport
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

    /// Each vertex's depth is its shortest path's length, measured for all at once: on random
    /// graphs from one or several sources, with vertices no source reaches (`-1`).
    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func depthsAreTheLengthsOfTheShortestPaths(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed))
        // Random edges among 0..<150; 0 → 150 → 151 → 152 (only that way: depth 3); 160..<200
        // never reached.
        let count = 200
        let edges = (0..<300).map { _ in (random.below(150), random.below(150)) } + [(0, 150), (150, 151), (151, 152)]
        let graph = digraph(count, edges)
        let sources = [0] + (0..<seed % 3).map { _ in random.below(150) }
        let parents = graph.breadthFirst(from: sources)
        let depths = parents.depths()
        var disagreements = Disagreements()
        for vertex in 0..<count {
            let expected = parents[vertex] == nil ? -1 : Digraph.path(to: vertex, parents: parents).count - 1
            disagreements.check(Int(depths[vertex]) == expected, "vertex \(vertex): \(depths[vertex]), not \(expected)")
        }
        #expect(disagreements.count == 0, "\(disagreements.summary)")
        #expect(depths[152] == 3 && depths[199] == -1)
    }

    @Test func aThreeHundredThousandStateChainHasNoStackTrouble() {
        let count = 300_000
        let graph = digraph(count, (0..<count - 1).map { ($0, $0 + 1) })
        #expect(graph.stronglyConnectedComponents().count == count)
        let parents = graph.breadthFirst(from: [0])
        #expect(parents.allSatisfy { $0 != nil })
        let depths = parents.depths()
        #expect(depths.last == Int32(count - 1) && depths.first == 0)
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
    /// States of these names, interned in `table` as a decoder would.
    static func states(_ names: [String], in table: inout NameTable) -> [StateSpec] {
        names.map { StateSpec(name: Located(table.intern($0), at: .start), kind: .input) }
    }

    static func index(_ names: [String], table: NameTable = NameTable()) -> StateIndex {
        var table = table
        let states = Self.states(names, in: &table)
        return StateIndex(states, names: table)
    }

    @Test func findsEveryStateAndNothingElse() {
        let names = (0..<5_000).map { "s\($0)" }
        let index = Self.index(names)
        var disagreements = Disagreements()
        for (position, name) in names.enumerated() { disagreements.check(index[name] == position, name) }
        #expect(disagreements.count == 0, "\(disagreements.summary)")
        #expect(index["s5000"] == nil && index[""] == nil && index["S0"] == nil)
        #expect(Self.index([])["a"] == nil)
    }

    /// Short random names from a small alphabet: many repeats, many names sharing a slot, and
    /// with tags of 0 to 2 bits many sharing a tag. Every lookup, present or absent, agrees with
    /// a dictionary of first positions.
    @Test(arguments: [1, 2, 3, 100, 20_000], [0, 1, 2, 31])
    func agreesWithADictionary(count: Int, tagBits: Int) {
        var random = SplitMix64(seed: UInt64(count))
        // `é` written two ways: equal names, one state.
        let pieces = ["a", "b", "\u{E9}", "e\u{301}"]
        func name() -> String { (0..<random.next() % 4 + 1).map { _ in pieces[Int(random.next() % 4)] }.joined() }
        let names = (0..<count).map { _ in name() }
        var first: [String: Int] = [:]
        for (position, name) in names.enumerated() where first[name] == nil { first[name] = position }
        // A table that keeps `tagBits` bits of each hash: with few, many names share a hash.
        let index = Self.index(names, table: NameTable(hashBits: tagBits))
        var disagreements = Disagreements()
        for _ in 0..<count * 2 {
            let probe = name()
            disagreements.check(index[probe] == first[probe], "looking up \(probe)")
        }
        #expect(disagreements.count == 0, "\(disagreements.summary)")
    }

    /// A decoded machine's table holds names that are not states (an undefined target) beside
    /// the states' names, in any order: states are found by their `Name` and by their text.
    @Test func findsStatesByTheirNameInTheMachinesTable() {
        var table = NameTable()
        let missing = table.intern("nowhere")
        let second = table.intern("b")
        let index = Self.index(["a", "b"], table: table)
        #expect(index[second] == 1 && index[missing] == nil)
        #expect(index["a"] == 0 && index["b"] == 1 && index["nowhere"] == nil)
        #expect(index[Name(index: 99)] == nil)
    }

    @Test func theFirstOfARepeatedNameWinsAndEquivalentSpellingsAreOneName() {
        let index = Self.index(["caf\u{E9}", "b", "cafe\u{301}", "b"])
        #expect(index["caf\u{E9}"] == 0)
        #expect(index["cafe\u{301}"] == 0)
        #expect(index["b"] == 1)
    }
}

/// An edge stores no event name and no location: ``MachineGraph`` finds them through the
/// edge's candidate. Every kind of edge gives the place its transition is written, and whether
/// it is conditional, bounded by a retry or inherited.
@Suite("Edges")
struct EdgeTests {
    static let spec = """
        flowspec: 1
        machines:
          M:
            initial: a
            conditions: [x]
            on: { reset: { to: a } }
            states:
              a:
                on:
                  go: b
                  try: { to: c, retry: { max: 2, then: d } }
              b:
                kind: choice
                always: [{ to: c, if: x }, { to: a, unless: x }, { to: d }]
              c:
                kind: task
                timeout: { after: 2s, to: d, retry: { max: 1, then: a } }
              d: { kind: terminal }

        """

    @Test func everyEdgeKnowsItsTriggerAndWhereItIsWritten() throws {
        let result = SpecChecker().check(SourceFile(path: "spec.yaml", text: Self.spec))
        let graph = try #require(result.graphs.first)
        let described = graph.edges.map { edge in
            "\(graph.name(edge.source)) -> \(graph.name(edge.target)) \(graph.label(of: edge)) at \(graph.location(of: edge))"
                + (edge.isInherited ? " inherited" : "") + (edge.isBounded ? " bounded" : "")
                + (edge.isConditional ? " conditional" : "")
        }
        #expect(
            described == [
                // A bare target is written where its name is; a long form at its `{`, its retry's
                // `then` at the retry's `{`.
                "a -> b on 'go' at 10:15",
                "a -> c on 'try' at 11:16 bounded",
                "a -> d on 'try' (retries used up) at 11:32",
                "a -> a on 'reset' at 6:18 inherited",
                // `if:` and `unless:` make an edge conditional; the fallback after them is not.
                "b -> c always at 14:18 conditional",
                "b -> a always at 14:36 conditional",
                "b -> d always at 14:58",
                "c -> a on 'reset' at 6:18 inherited",
                "c -> d after 2s at 17:18 bounded",
                "c -> a after 2s (retries used up) at 17:45"
            ])
    }

    /// A machine's graph of some of its edges, forwards or reversed, is made without first
    /// making the whole graph: it has exactly the edges chosen, in the same order as the whole
    /// graph's, and the reversed one agrees with reversing the forward one.
    @Test(arguments: [0, 1, 2, 3])
    func graphsOfSomeEdgesHaveExactlyThoseEdges(filter: Int) throws {
        let result = SpecChecker().check(SourceFile(path: "spec.yaml", text: Self.spec))
        let graph = try #require(result.graphs.first)
        let include: (Edge) -> Bool = [{ _ in true }, { _ in false }, { $0.isBounded }, { $0.source != 0 }][filter]
        func adjacency(_ digraph: Digraph) -> [[Int32]] {
            (0..<digraph.count).map { Array(digraph.successors(of: $0)) }
        }
        let expected = (0..<graph.stateCount).map { state in
            graph.edges(from: state).filter(include).map { Int32($0.target) }
        }
        let forward = graph.digraph(including: include)
        #expect(adjacency(forward) == expected)
        #expect(adjacency(graph.reversedDigraph(including: include)) == adjacency(forward.reversed()))
        if filter == 0 { #expect(adjacency(graph.digraph()) == expected) }
    }
}
