import FlowSpecTestSupport
import Foundation
import Testing

/// The oracle for the statecharts' semantics (``StatechartOracle``, the W3C algorithm written
/// literally) must itself agree with an engine it did not come from: random statecharts, with
/// nesting, shallow and deep history, final states and their `done.state` events, internal
/// transitions, conditions and entry, exit and transition effects, are written as SCXML and
/// run in python-statemachine. After the start and after every event, both must hold the same
/// states and have run the same effects, in the same order.
///
/// Parallel states are checked on examples worked by hand from the recommendation instead:
/// python-statemachine 3.2.2 departs from its algorithm there. It enters the regions' states
/// in an order other than document order, and a transition of a parallel state into a history
/// state can run its content twice.
@Suite("The statecharts' oracle agrees with python-statemachine (process)")
struct StatechartOracleTests {
    typealias Chart = StatechartOracle.Chart
    static let events = ["e0", "e1", "e2", "e3"]

    @Test(
        .enabled(if: EngineDifferentialTests.python != nil, Comment(rawValue: EngineDifferentialTests.missingMessage)))
    func randomChartsRunAlikeStepByStep() throws {
        let python = try #require(EngineDifferentialTests.python)
        var random = SplitMix64(seed: 0x57A7_EC4A)
        var runs: [[String: Any]] = []
        var expected: [String: [String]] = [:]
        var features: [String: Int] = [:]
        for index in 0..<300 {
            let chart = ChartDrawer.draw(&random, parallel: false)
            ChartDrawer.count(chart, into: &features)
            for run in 0..<3 {
                let key = "chart\(index)#\(run)"
                let start = [random.percent(50), random.percent(50)]
                var conditions = start
                var oracle = try StatechartOracle(chart, conditions: start)
                var lines = [Self.line("start", &oracle)]
                var steps: [[Any]] = []
                for _ in 0..<15 {
                    if random.percent(20) {
                        let which = random.below(2)
                        conditions[which].toggle()
                        oracle.conditions = conditions
                        steps.append(["condition", which, conditions[which]])
                        continue
                    }
                    let event = random.pick(Self.events)
                    try oracle.send(event)
                    steps.append(["event", event])
                    lines.append(Self.line(event, &oracle))
                }
                expected[key] = lines
                runs.append([
                    "key": key, "scxml": SCXMLWriter.document(chart, conditions: start),
                    "steps": steps
                ])
            }
        }
        // The draw exercises every feature the oracle is meant to be checked on.
        for feature in ["compound", "final", "shallow history", "deep history", "done.state", "internal"] {
            #expect(features[feature, default: 0] > 20, "few random charts have \(feature)")
        }
        let actual = try EngineDifferentialTests.run(runs, python: python)
        var comparison = TraceComparison(expectedSide: "oracle", actualSide: "engine")
        for (key, lines) in expected.sorted(by: { $0.key < $1.key }) {
            let got = actual[key] ?? []
            comparison.compare(key, expected: lines, actual: got)
            guard got != lines else { continue }
            if let directory = ProcessInfo.processInfo.environment["FLOWSPEC_ORACLE_DUMP"],
                let run = runs.first(where: { $0["key"] as? String == key })
            {
                // For a look at a disagreement: the document and the inputs of the run.
                try? (run["scxml"] as? String)?.write(
                    toFile: "\(directory)/\(key).scxml", atomically: true, encoding: .utf8)
                try? "\(run["steps"] ?? [])".write(
                    toFile: "\(directory)/\(key).steps", atomically: true, encoding: .utf8)
            }
        }
        #expect(comparison.compared > 10_000, "only \(comparison.compared) steps were compared")
        #expect(comparison.disagreements.count == 0, "\(comparison.disagreements.summary)")
    }

    /// `INPUT -> IDS | effects: …`, as the engine's driver prints it, with the log since the
    /// last line.
    private static func line(_ input: String, _ oracle: inout StatechartOracle) -> String {
        let ids = oracle.configuration.map { oracle.chart.nodes[$0].id }.sorted().joined(separator: ",")
        let effects = oracle.takeLog()
        return "\(input) -> \(ids) | effects: \(effects.isEmpty ? "-" : effects.joined(separator: ", "))"
    }
}

/// Draws random statecharts that are valid SCXML and whose every macrostep ends: there are no
/// eventless transitions; initial states are never final; a `done.state` transition leads to
/// a state that is neither final nor history, so it cannot complete a state again at once.
enum ChartDrawer {
    typealias Chart = StatechartOracle.Chart

    /// A chart; with `parallel`, some of its states are parallel.
    static func draw(_ random: inout SplitMix64, parallel: Bool) -> Chart {
        var chart = Chart()
        chart.nodes.append(Chart.Node(id: "root", kind: .root, parent: nil))
        let count = 2 + random.below(3)
        for position in 0..<count {
            add(under: 0, depth: 1, first: position == 0, parallel: parallel, &chart, &random)
        }
        chart.nodes[0].initial = [chart.nodes[0].children[0]]
        for index in chart.nodes.indices { addTransitions(from: index, &chart, &random) }
        chart.addInitialTransitions()
        return chart
    }

    /// Adds a node and its subtree under `parent`, in document order.
    @discardableResult
    private static func add(
        under parent: Int, depth: Int, first: Bool, parallel: Bool, _ chart: inout Chart, _ random: inout SplitMix64
    ) -> Int {
        let parentKind = chart.nodes[parent].kind
        let roll = random.below(100)
        var kind: Chart.Kind = .atomic
        if depth < 4 {
            if roll < 25 {
                kind = .compound
            } else if roll < 37, parallel {
                kind = .parallel
            } else if roll < 50, !first, parentKind != .parallel {
                kind = .final
            }
        } else if roll < 15, !first, parentKind != .parallel {
            kind = .final
        }
        let index = chart.nodes.count
        chart.nodes.append(Chart.Node(id: "n\(index)", kind: kind, parent: parent))
        chart.nodes[parent].children.append(index)
        if random.percent(40) { chart.nodes[index].onentry = [.log("en.n\(index)")] }
        if random.percent(40) && kind != .final { chart.nodes[index].onexit = [.log("ex.n\(index)")] }
        switch kind {
        case .compound:
            var history: Int?
            if random.percent(35) {
                history = chart.nodes.count
                chart.nodes.append(
                    Chart.Node(id: "n\(history!)", kind: .history(deep: random.percent(50)), parent: index))
                chart.nodes[index].children.append(history!)
            }
            let children = 2 + random.below(2)
            var states: [Int] = []
            for position in 0..<children {
                states.append(
                    add(under: index, depth: depth + 1, first: position == 0, parallel: parallel, &chart, &random))
            }
            let startable = states.filter { chart.nodes[$0].kind != .final }
            // Always written: python-statemachine does not take the first child state when a
            // history state comes before it.
            chart.nodes[index].initial = [random.pick(startable)]
            if let history {
                chart.transitions.append(
                    Chart.Transition(source: history, event: nil, targets: [random.pick(startable)]))
                chart.nodes[history].transitions = [chart.transitions.count - 1]
            }
        case .parallel:
            for position in 0..<(2 + random.below(2)) {
                add(under: index, depth: depth + 1, first: position == 0, parallel: parallel, &chart, &random)
            }
        default: break
        }
        return index
    }

    private static func addTransitions(from source: Int, _ chart: inout Chart, _ random: inout SplitMix64) {
        let kind = chart.nodes[source].kind
        guard kind == .atomic || kind == .compound || kind == .parallel else { return }
        let candidates = chart.nodes.indices.filter { chart.nodes[$0].kind != .root }
        let settled = candidates.filter {
            if case .history = chart.nodes[$0].kind { return false }
            return chart.nodes[$0].kind != .final
        }
        for _ in 0..<random.below(3) {
            var transition = Chart.Transition(
                source: source, event: random.pick(StatechartOracleTests.events), targets: [])
            let completes = (kind == .compound || kind == .parallel) && random.percent(25)
            if completes { transition.event = "done.state.\(chart.nodes[source].id)" }
            if random.percent(30) { transition.guards = [.condition(random.below(2))] }
            if !random.percent(10) {
                transition.targets = [random.pick(completes ? settled : candidates)]
                if kind == .compound, isDescendant(transition.targets[0], of: source, chart), random.percent(50) {
                    transition.isInternal = true
                }
            }
            if random.percent(30) { transition.content = [.log("t\(chart.transitions.count)")] }
            chart.transitions.append(transition)
            chart.nodes[source].transitions.append(chart.transitions.count - 1)
        }
    }

    private static func isDescendant(_ node: Int, of ancestor: Int, _ chart: Chart) -> Bool {
        var current = chart.nodes[node].parent
        while let parent = current {
            if parent == ancestor { return true }
            current = chart.nodes[parent].parent
        }
        return false
    }

    /// Counts what a chart exercises, for the test's check that the draw covers everything.
    static func count(_ chart: Chart, into features: inout [String: Int]) {
        var found: Set<String> = []
        for node in chart.nodes {
            switch node.kind {
            case .compound: found.insert("compound")
            case .parallel: found.insert("parallel")
            case .final: found.insert("final")
            case .history(let deep): found.insert(deep ? "deep history" : "shallow history")
            default: break
            }
        }
        for transition in chart.transitions {
            if transition.event?.hasPrefix("done.state.") == true { found.insert("done.state") }
            if transition.isInternal { found.insert("internal") }
        }
        for feature in found { features[feature, default: 0] += 1 }
    }
}

/// Parallel states in the oracle, on examples worked by hand from the W3C algorithm.
@Suite("The statecharts' oracle on parallel states")
struct StatechartOracleParallelTests {
    /// root: `out` (initial), and `p` parallel with regions `r1` { a1, a2, af (final) } and
    /// `r2` { b1, b2, bf (final) }, every state logging its entry and exit; `z` after `p`.
    static func chart(_ transitions: [(from: String, event: String, to: String?, effect: String?)]) -> ChartBuilder {
        var b = ChartBuilder()
        b.node("out", .atomic, in: "root")
        b.node("p", .parallel, in: "root")
        b.node("r1", .compound, in: "p", initial: "a1")
        for id in ["a1", "a2"] { b.node(id, .atomic, in: "r1") }
        b.node("af", .final, in: "r1")
        b.node("r2", .compound, in: "p", initial: "b1")
        for id in ["b1", "b2"] { b.node(id, .atomic, in: "r2") }
        b.node("bf", .final, in: "r2")
        b.node("z", .atomic, in: "root")
        b.initial(of: "root", "out")
        for t in transitions { b.transition(from: t.from, on: t.event, to: t.to, effect: t.effect) }
        return b
    }

    @Test func aTargetInOneRegionEntersEveryRegionInDocumentOrder() throws {
        var oracle = try StatechartOracle(Self.chart([("out", "go", "a2", "t")]).build(), conditions: [])
        _ = oracle.takeLog()
        try oracle.send("go")
        #expect(oracle.takeLog() == ["ex.out", "t", "en.p", "en.r1", "en.a2", "en.r2", "en.b1"])
        #expect(oracle.activeIDs == ["a2", "b1", "p", "r1", "r2"])
    }

    @Test func regionsTakeTheSameEventTogetherExitingInReverseDocumentOrder() throws {
        var oracle = try StatechartOracle(
            Self.chart([("out", "go", "p", nil), ("a1", "e", "a2", "ta"), ("b1", "e", "b2", "tb")]).build(),
            conditions: [])
        try oracle.send("go")
        _ = oracle.takeLog()
        try oracle.send("e")
        #expect(oracle.takeLog() == ["ex.b1", "ex.a1", "ta", "tb", "en.a2", "en.b2"])
        #expect(oracle.activeIDs == ["a2", "b2", "p", "r1", "r2"])
    }

    @Test func aTransitionLeavingTheParallelStatePreemptsALaterRegionsTransition() throws {
        var oracle = try StatechartOracle(
            Self.chart([("out", "go", "p", nil), ("a1", "e", "z", "ta"), ("b1", "e", "b2", "tb")]).build(),
            conditions: [])
        try oracle.send("go")
        _ = oracle.takeLog()
        try oracle.send("e")
        #expect(oracle.takeLog() == ["ex.b1", "ex.r2", "ex.a1", "ex.r1", "ex.p", "ta", "en.z"])
        #expect(oracle.activeIDs == ["z"])
    }

    @Test func theParallelStateIsDoneWhenEveryRegionIs() throws {
        var oracle = try StatechartOracle(
            Self.chart([
                ("out", "go", "p", nil), ("a1", "e1", "af", nil), ("b1", "e2", "bf", nil),
                ("r1", "done.state.r1", nil, "r1done"), ("p", "done.state.p", "z", "pdone")
            ]).build(), conditions: [])
        try oracle.send("go")
        try oracle.send("e1")
        #expect(oracle.takeLog().suffix(3) == ["ex.a1", "en.af", "r1done"], "one region done: the state is not")
        #expect(oracle.activeIDs == ["af", "b1", "p", "r1", "r2"])
        try oracle.send("e2")
        #expect(
            oracle.takeLog() == ["ex.b1", "en.bf", "ex.bf", "ex.r2", "ex.af", "ex.r1", "ex.p", "pdone", "en.z"])
        #expect(oracle.activeIDs == ["z"])
    }
}

/// Builds a chart by name, for examples written by hand. Every state logs `en.ID` on entry and
/// `ex.ID` on exit.
struct ChartBuilder {
    typealias Chart = StatechartOracle.Chart
    private var chart = Chart(nodes: [Chart.Node(id: "root", kind: .root, parent: nil)])

    private func index(_ id: String) -> Int { chart.nodes.firstIndex { $0.id == id }! }

    mutating func node(_ id: String, _ kind: Chart.Kind, in parent: String, initial: String? = nil) {
        let parentIndex = index(parent)
        chart.nodes.append(
            Chart.Node(id: id, kind: kind, parent: parentIndex, onentry: [.log("en.\(id)")], onexit: [.log("ex.\(id)")])
        )
        chart.nodes[parentIndex].children.append(chart.nodes.count - 1)
        if let initial { pendingInitials.append((id, initial)) }
    }

    private var pendingInitials: [(String, String)] = []

    mutating func initial(of state: String, _ target: String) { pendingInitials.append((state, target)) }

    mutating func transition(from source: String, on event: String, to target: String?, effect: String?) {
        chart.transitions.append(
            Chart.Transition(
                source: index(source), event: event, targets: target.map { [index($0)] } ?? [],
                content: effect.map { [.log($0)] } ?? []))
        chart.nodes[index(source)].transitions.append(chart.transitions.count - 1)
    }

    func build() -> Chart {
        var built = chart
        for (state, target) in pendingInitials { built.nodes[index(state)].initial = [index(target)] }
        built.addInitialTransitions()
        return built
    }
}
