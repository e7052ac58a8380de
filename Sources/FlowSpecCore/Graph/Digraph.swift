/// A directed graph over states `0..<count` in compressed adjacency form, with the
/// iterative algorithms the checks need (no recursion, linear time).
public struct Digraph: Sendable {
    /// `targets[offsets[v]..<offsets[v + 1]]` are the successors of `v`.
    let offsets: [Int32]
    let targets: [Int32]

    /// The number of vertices.
    public var count: Int { offsets.count - 1 }

    /// The successors of a vertex.
    public func successors(of vertex: Int) -> ArraySlice<Int32> {
        targets[Int(offsets[vertex])..<Int(offsets[vertex + 1])]
    }

    /// The same graph with every edge reversed.
    public func reversed() -> Digraph {
        Self.reversing(count: count) { edge in
            for source in 0..<count {
                for target in successors(of: source) { edge(source, Int(target)) }
            }
        }
    }

    /// The graph over `count` vertices with an edge from `target` to `source` for each edge
    /// `edges` gives (it is asked twice: to count each vertex's edges, then to place them), so
    /// that its arrays are made once and exactly as large as needed.
    static func reversing(count: Int, edges: ((_ source: Int, _ target: Int) -> Void) -> Void) -> Digraph {
        var offsets = [Int32](repeating: 0, count: count + 1)
        edges { _, target in offsets[target + 1] += 1 }
        for vertex in 0..<count { offsets[vertex + 1] += offsets[vertex] }
        var next = offsets
        var sources = [Int32](repeating: 0, count: Int(offsets[count]))
        edges { source, target in
            sources[Int(next[target])] = Int32(source)
            next[target] += 1
        }
        return Digraph(offsets: offsets, targets: sources)
    }

    /// Breadth-first search from `sources`. Returns, per vertex, the vertex it was first
    /// reached from (`-1` for a source, `nil` where unreached), so shortest paths can be read back.
    public func breadthFirst(from sources: some Sequence<Int>) -> BreadthFirstParents {
        breadthFirst(from: sources) { _, _ in }
    }

    /// ``breadthFirst(from:)`` where reaching a vertex also reaches the vertices `alsoReached`
    /// gives it (through `reach`, in order), as if by edges the graph does not hold: the other
    /// regions of a parallel state, entered with the state a transition targets in one.
    public func breadthFirst(
        from sources: some Sequence<Int>, alsoReached: (_ vertex: Int, _ reach: (Int) -> Void) -> Void
    ) -> BreadthFirstParents {
        var parent = [Int32](repeating: BreadthFirstParents.unreached, count: count)
        var queue: [Int32] = []
        queue.reserveCapacity(count)
        for source in sources where parent[source] == BreadthFirstParents.unreached {
            parent[source] = -1
            queue.append(Int32(source))
        }
        var head = 0
        while head < queue.count {
            let vertex = Int(queue[head])
            head += 1
            for next in successors(of: vertex) where parent[Int(next)] == BreadthFirstParents.unreached {
                parent[Int(next)] = Int32(vertex)
                queue.append(next)
            }
            alsoReached(vertex) { next in
                guard parent[next] == BreadthFirstParents.unreached else { return }
                parent[next] = Int32(vertex)
                queue.append(Int32(next))
            }
        }
        return BreadthFirstParents(parent)
    }

    /// The shortest path to `vertex` recorded by ``breadthFirst(from:)``, source first.
    public static func path(to vertex: Int, parents: BreadthFirstParents) -> [Int] {
        var path = [vertex]
        var current = vertex
        while let parent = parents[current], parent >= 0 {
            current = Int(parent)
            path.append(current)
        }
        return path.reversed()
    }

    /// Strongly connected components (Tarjan's algorithm, iterative), restricted to the
    /// vertices for which `include` is true. Each component lists its vertices in ascending
    /// order; components come in reverse topological order. With `cyclicOnly`, only the
    /// components that hold a cycle (more than one vertex, or one with an edge to itself) are
    /// listed, and no array is made for the others.
    public func stronglyConnectedComponents(
        including include: (Int) -> Bool = { _ in true },
        cyclicOnly: Bool = false
    ) -> [[Int]] {
        let unvisited = Int32(-1)
        var index = [Int32](repeating: unvisited, count: count)
        var lowLink = [Int32](repeating: 0, count: count)
        var onStack = [Bool](repeating: false, count: count)
        var stack: [Int32] = []
        var callStack: [(vertex: Int32, next: Int32)] = []
        var nextIndex: Int32 = 0
        var components: [[Int]] = []

        for root in 0..<count where include(root) && index[root] == unvisited {
            callStack.append((Int32(root), offsets[root]))
            index[root] = nextIndex
            lowLink[root] = nextIndex
            nextIndex += 1
            stack.append(Int32(root))
            onStack[root] = true
            while let frame = callStack.last {
                let vertex = Int(frame.vertex)
                if frame.next < offsets[vertex + 1] {
                    callStack[callStack.count - 1].next += 1
                    let successor = Int(targets[Int(frame.next)])
                    guard include(successor) else { continue }
                    if index[successor] == unvisited {
                        index[successor] = nextIndex
                        lowLink[successor] = nextIndex
                        nextIndex += 1
                        stack.append(Int32(successor))
                        onStack[successor] = true
                        callStack.append((Int32(successor), offsets[successor]))
                    } else if onStack[successor] {
                        lowLink[vertex] = min(lowLink[vertex], index[successor])
                    }
                    continue
                }
                callStack.removeLast()
                if let caller = callStack.last {
                    lowLink[Int(caller.vertex)] = min(lowLink[Int(caller.vertex)], lowLink[vertex])
                }
                if lowLink[vertex] == index[vertex] {
                    // The component is the top of the stack, down to the vertex.
                    var start = stack.count - 1
                    while stack[start] != frame.vertex { start -= 1 }
                    for member in stack[start...] { onStack[Int(member)] = false }
                    if !cyclicOnly || start < stack.count - 1 || hasSelfLoop(vertex) {
                        components.append(stack[start...].map(Int.init).sorted())
                    }
                    stack.removeSubrange(start...)
                }
            }
        }
        return components
    }

    /// Whether the vertex has an edge to itself.
    public func hasSelfLoop(_ vertex: Int) -> Bool {
        successors(of: vertex).contains(Int32(vertex))
    }
}

/// What ``Digraph/breadthFirst(from:)`` found: per vertex, the vertex it was first reached
/// from, `-1` for a source and `nil` where unreached, in 4 bytes a vertex.
public struct BreadthFirstParents: RandomAccessCollection, Sendable {
    fileprivate static let unreached: Int32 = -2
    private let parents: [Int32]

    fileprivate init(_ parents: [Int32]) {
        self.parents = parents
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { parents.count }

    /// The vertex `vertex` was first reached from: `-1` for a source, `nil` if unreached.
    public subscript(vertex: Int) -> Int32? {
        parents[vertex] == Self.unreached ? nil : parents[vertex]
    }

    /// How many edges each vertex's shortest path from a source has (`-1` where unreached),
    /// every vertex's in one pass: each climbs only to the first ancestor already measured.
    /// (Measuring each path on its own costs the sum of their lengths: quadratic for the states
    /// along one long chain.)
    public func depths() -> [Int32] {
        var depth = [Int32](repeating: -1, count: parents.count)
        var climbed: [Int] = []
        for vertex in parents.indices where parents[vertex] != Self.unreached && depth[vertex] < 0 {
            var current = vertex
            while depth[current] < 0, parents[current] >= 0 {
                climbed.append(current)
                current = Int(parents[current])
            }
            if depth[current] < 0 { depth[current] = 0 }  // a source
            var next = depth[current]
            while let descendant = climbed.popLast() {
                next += 1
                depth[descendant] = next
            }
        }
        return depth
    }
}
