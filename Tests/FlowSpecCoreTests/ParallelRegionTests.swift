import Testing

@testable import FlowSpecCore

/// Parallel regions, as far as `check` reads them: the model the decoder builds, the graph
/// (entering a parallel state enters every region; a parallel state's `done` follows the
/// terminal states of its regions), what the rules say inside regions (the fixtures under
/// `Tests/Fixtures/rules` hold each finding), and the refusal of the commands that run a
/// machine, which do not run regions yet.
@Suite("Parallel regions")
struct ParallelRegionTests {
    static let spec = """
        flowspec: 1
        machines:
          App:
            initial: welcome
            defaults: { kind: input }
            events: [start, open, back, finish, lost, found, expire, again]
            effects: [enterArea, leaveArea]
            states:
              welcome: { on: { start: area } }
              area:
                entry: [enterArea]
                exit: [leaveArea]
                on: { expire: reauth }
                timeout: { after: 30m, to: welcome }
                done: welcome
                parallel:
                  navigation:
                    initial: home
                    states:
                      home: { on: { open: settings, finish: navigationDone } }
                      settings: { on: { back: home } }
                      resume: { kind: history, deep: true }
                      navigationDone: { kind: terminal }
                  connectivity:
                    initial: online
                    on: { found: online }
                    states:
                      online: { on: { lost: offline, finish: connectivityDone } }
                      offline: {}
                      connectivityDone: { kind: terminal }
              reauth: { on: { again: resume } }
        """

    static func checked(_ text: String = spec) -> SpecChecker.Checked {
        SpecChecker().check(SourceFile(path: "spec.yaml", text: text))
    }

    static func index(_ name: String, _ machine: MachineSpec) throws -> Int {
        try #require(machine.states.indices.first { machine.name(of: $0) == name })
    }

    @Test func theDecoderReadsRegionsAsTheStatesInsideAParallelState() throws {
        let result = Self.checked()
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
        let machine = try #require(result.spec.machines.first)
        let area = try Self.index("area", machine)
        #expect(machine.isParallel(area))
        #expect(machine.nesting.hasParallel)
        #expect(machine.isCompound(area))
        #expect(machine.nesting.children(of: area).map(machine.name(of:)) == ["navigation", "connectivity"])
        #expect(machine.nesting.details[area]?.parallelLocation == SourceLocation(line: 16, column: 9))
        #expect(machine.nesting.details[area]?.statesLocation == nil)
        #expect(machine.nesting.entry(of: area).map(\.value) == ["enterArea"])
        // Regions are compound states, not parallel ones; the states inside know their region.
        let navigation = try Self.index("navigation", machine)
        #expect(!machine.isParallel(navigation) && machine.isCompound(navigation))
        let offline = try Self.index("offline", machine)
        let regions = machine.nesting.regions(around: offline)
        #expect(regions.map { machine.name(of: $0.parallel) } == ["area"])
        #expect(regions.map { machine.name(of: $0.region) } == ["connectivity"])
        #expect(machine.nesting.regions(around: navigation).map(\.region) == [navigation])
        #expect(machine.nesting.regions(around: try Self.index("welcome", machine)).isEmpty)
        // A parallel state waits for nothing itself.
        #expect(!machine.isLeaf(area))
    }

    /// A machine parallel at its top decodes as one parallel state named after the machine, at
    /// its `parallel` key, entered first; its regions are held to `--max-states` before they are
    /// read, as a machine's states are.
    @Test func aMachineParallelAtItsTopIsOneParallelStateOfItsName() throws {
        let text =
            "flowspec: 1\nmachines:\n  P:\n    parallel:\n      a: { kind: input, on: { go: a } }\n"
            + "      b: { kind: input, on: { go: b } }\n"
        let result = SpecChecker().check(SourceFile(path: "p.yaml", text: text))
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
        let machine = try #require(result.spec.machines.first)
        #expect(machine.parallelAtTop == SourceLocation(line: 4, column: 5))
        #expect(machine.states.indices.map(machine.name(of:)) == ["P", "a", "b"])
        #expect(machine.isParallel(0) && machine.initial?.value == "P" && machine.entersAtTop(machine.initial!))
        var limits = YAMLLimits()
        limits.maxStates = 1
        let limited = SpecChecker(limits: limits).check(SourceFile(path: "p.yaml", text: text))
        #expect(
            limited.diagnostics.map { "\($0.location) \($0.rule.rawValue) \($0.message)" } == [
                "4:5 limit-exceeded machine 'P' has 2 states, over the limit of 1 (raise it with --max-states)"
            ])
    }

    @Test func aFlatOrNestedMachineHasNoParallelState() throws {
        let result = Self.checked(
            """
            flowspec: 1
            machines:
              M:
                initial: a
                defaults: { kind: input }
                states:
                  a: { on: { go: b } }
                  b: { states: { c: { on: { go: a } } } }
            """)
        let machine = try #require(result.spec.machines.first)
        #expect(!machine.nesting.hasParallel)
        #expect(!machine.states.indices.contains(where: machine.isParallel))
        #expect(
            try #require(SpecGeneration.programs(result, diagnostics: result.diagnostics)).first?.hasParallel == false)
    }

    @Test func enteringAParallelStateEntersEveryRegion() throws {
        let result = Self.checked()
        let graph = try #require(result.graphs.first)
        let machine = graph.machine
        let area = try Self.index("area", machine)
        let initial = graph.edges(from: area).filter { graph.trigger(of: $0) == .initial }
        #expect(initial.map { graph.name($0.target) } == ["navigation", "connectivity"])
        #expect(initial.allSatisfy { !$0.isResume })
        // Every state inside the regions is reached from `initial`.
        let analysis = MachineAnalysis(graph: graph)
        for state in machine.states.indices where !machine.isHistory(state) {
            #expect(analysis.isReachable(state), "\(machine.name(of: state))")
        }
    }

    @Test func theTerminalStatesOfRegionsLeadToTheParallelStatesDone() throws {
        let graph = try #require(Self.checked().graphs.first)
        let machine = graph.machine
        for name in ["navigationDone", "connectivityDone"] {
            let edges = Array(graph.edges(from: try Self.index(name, machine)))
            #expect(edges.count == 1)
            let edge = try #require(edges.first)
            #expect(graph.trigger(of: edge) == .done)
            #expect(graph.name(edge.target) == "welcome")
            #expect(graph.declaringState(of: edge) == (try Self.index("area", machine)))
            #expect(graph.location(of: edge) == SourceLocation(line: 15, column: 15))
        }
        // The states inside regions inherit the parallel state's `on` and timeout, and their
        // region's `on`.
        let offline = Array(graph.edges(from: try Self.index("offline", machine)))
        #expect(
            offline.map { "\(graph.label(of: $0)) → \(graph.name($0.target))" } == [
                "on 'found' → online", "on 'expire' → reauth", "after 30m → welcome"
            ])
    }

    @Test func aRegionThatIsReachedOnlyThroughAnotherRegionIsStillReached() throws {
        // Regions are entered together: a region no transition names is reached with its
        // parallel state, and a state inside it no transition names is not.
        let result = Self.checked(
            """
            flowspec: 1
            machines:
              M:
                initial: p
                defaults: { kind: input }
                events: [go]
                states:
                  p:
                    parallel:
                      a: { states: { a1: { on: { go: a2 } }, a2: { on: { go: a1 } } } }
                      b: { states: { b1: { on: { go: b1 } }, b2: { on: { go: b1 } } } }
            """)
        #expect(result.diagnostics.map(\.rule) == [.unreachableState])
        #expect(result.diagnostics.first?.subjects == ["b2"])
    }

    /// Mermaid draws regions as concurrent parts of their parallel state's composite state,
    /// split by `--`; each region has its own `[*]` arrow, the parallel state none.
    @Test func graphsDrawRegionsApart() throws {
        let graph = try #require(Self.checked().graphs.first)
        let diagram = FlowDiagram(graph: graph)
        let area = try Self.index("area", graph.machine)
        #expect(diagram.nodes[area].isParallel && diagram.nodes[area].initialChild == nil)
        let mermaid = MermaidRenderer.render(diagram)
        let parsed = try MermaidSyntax.parse(mermaid)
        #expect(parsed.regionSeparators == ["s\(area)": 1])
        #expect(mermaid.contains("        }\n        --\n        state \"connectivity\" as s"))
        #expect(!mermaid.contains("[*] --> s\(area + 1)"))
        let dot = DOTRenderer.render(diagram)
        #expect(dot.contains("subgraph cluster_s\(area + 1) {") && dot.contains("graph [label=\"connectivity\""))
    }

    @Test func aMachineWithAParallelStateSaysWhereItIs() throws {
        let result = Self.checked()
        let machine = try #require(result.spec.machines.first)
        let parallel = machine.states.indices.filter(machine.isParallel)
        #expect(parallel.map(machine.name(of:)) == ["area"])
        #expect(machine.nesting.details[parallel[0]]?.parallelLocation == SourceLocation(line: 16, column: 9))
        #expect(
            try #require(SpecGeneration.programs(result, diagnostics: result.diagnostics)).first?.hasParallel == true)
    }

    @Test func editorsCompleteTheKeysOfRegionsAndTheStatesInsideThem() {
        #expect(SpecKeys.keys(of: .state).contains("parallel"))
        #expect(!SpecKeys.keys(of: .historyState).contains("parallel"))
        let area = ["machines", "App", "states", "area"]
        #expect(SpecKeys.place(of: area) == .state)
        #expect(SpecKeys.place(of: area + ["parallel", "navigation"]) == .state)
        #expect(SpecKeys.place(of: area + ["parallel", "navigation", "states", "home"]) == .state)
        #expect(SpecKeys.place(of: area + ["parallel", "navigation", "states", "home", "on"]) == .events)
        #expect(SpecKeys.place(of: area + ["parallel", "navigation", "timeout"]) == .timeout)
        #expect(SpecKeys.place(of: area + ["parallel"]) == nil)
    }

    @Test func aStateWithBothStatesAndParallelIsReadAsParallel() throws {
        let result = Self.checked(
            """
            flowspec: 1
            machines:
              M:
                initial: p
                defaults: { kind: input }
                events: [go]
                states:
                  p:
                    states: { x: { on: { go: x } } }
                    parallel:
                      a: { on: { go: a } }
                      b: { on: { go: b } }
            """)
        let machine = try #require(result.spec.machines.first)
        #expect(machine.isParallel(0))
        #expect(machine.states.map { machine.names[$0.name.value] } == ["p", "a", "b"])
        #expect(machine.states[0].isMalformed && machine.states[0].hasLostTransitions)
        #expect(result.diagnostics.map(\.rule) == [.invalidParallel])
        #expect(result.diagnostics.first?.location == SourceLocation(line: 9, column: 9))
    }

    /// Regions written as something else than a mapping are one finding, not also "empty".
    @Test func unreadableRegionsAreOneFinding() {
        let result = Self.checked(
            """
            flowspec: 1
            machines:
              M:
                initial: p
                states:
                  p: { parallel: [a, b] }
            """)
        #expect(result.diagnostics.map(\.rule) == [.invalidValue])
    }

    /// Every valid spec of today reads as it did: a `parallel` key is the only way to write a
    /// parallel state, and a machine without one has none.
    @Test func noFixtureWithoutParallelHasAParallelState() {
        for path in ["rules", "input", "golden", "graph", "reference", "nested", "gen"].flatMap(Fixtures.specs(under:))
        {
            guard let source = try? Fixtures.source(path),
                !String(decoding: source.bytes, as: UTF8.self).contains("parallel:")
            else { continue }
            let result = SpecChecker().check(source)
            #expect(!result.spec.machines.contains { $0.nesting.hasParallel }, "\(path)")
        }
    }
}
