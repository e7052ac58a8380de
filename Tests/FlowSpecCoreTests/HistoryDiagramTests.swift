import Foundation
import Testing

@testable import FlowSpecCore

/// History states in `flowspec graph` and `coverage` diagrams: a node `H` or `H*` inside its
/// compound state, which transitions into it point at, with one `default` edge and no resume
/// edges; never marked as not exercised; marked by the findings that name it.
@Suite("Flow diagrams of history states")
struct HistoryDiagramTests {
    /// `resume` (deep, no `default`: it enters `home`, where `area` starts) and `top` (shallow,
    /// `default: feed`) inside `area`; `reauth` targets both.
    static let spec = """
        flowspec: 1
        machines:
          M:
            initial: area
            on: { reset: area }
            states:
              area:
                initial: home
                on: { expired: reauth }
                states:
                  home: { kind: input, on: { next: feed } }
                  feed: { kind: input }
                  resume: { kind: history, deep: true }
                  top: { kind: history, default: feed }
              reauth: { kind: input, on: { again: resume, back: top } }
        """

    static func diagram(_ yaml: String = spec) throws -> FlowDiagram {
        FlowDiagram(graph: try NestedDiagramTests.graph(yaml))
    }

    @Test func aHistoryStateIsANodeInsideItsCompoundStateWithOnlyItsDefaultEdge() throws {
        let graph = try NestedDiagramTests.graph(Self.spec)
        // The graph also has a resume edge from each history state to each state it may resume.
        #expect(graph.edges(from: 3).filter(\.isResume).map(\.target) == [1, 2])
        let diagram = FlowDiagram(graph: graph)
        #expect(diagram.nodes.map(\.isHistory) == [false, false, false, true, true, false])
        #expect(diagram.nodes.map(\.isDeep) == [false, false, false, true, false, false])
        #expect(diagram.nodes.map(\.historySymbol)[3...4] == ["H*", "H"])
        #expect(diagram.nodes[3].parent == 0 && diagram.nodes[4].parent == 0)
        #expect(
            FlowDiagramTests.labels(diagram) == [
                "area -> reauth: expired", "home -> feed: next", "resume -> home: default", "top -> feed: default",
                "reauth -> resume: again", "reauth -> top: back", "* -> area: reset"
            ])
    }

    /// Effects on the way in are drawn where the way in is: on the arrow from a composite
    /// state's start to the state its `initial` enters, and on a history state's `default` edge
    /// (without a `default`, its compound state's `initial`'s).
    @Test func effectsOnTheWayInAreDrawnOnTheirArrows() throws {
        let yaml = Self.spec.replacingOccurrences(
            of: "initial: home", with: "initial: { to: home, effects: [greet] }"
        ).replacingOccurrences(
            of: "top: { kind: history, default: feed }",
            with: "top: { kind: history, default: { to: feed, effects: [restored] } }"
        ).replacingOccurrences(of: "    initial: area", with: "    initial: area\n    effects: [greet, restored]")
        let diagram = try Self.diagram(yaml)
        #expect(diagram.nodes[0].initialEffects == ["greet"])
        let labels = FlowDiagramTests.labels(diagram)
        #expect(labels.contains("resume -> home: default / greet"), "\(labels)")
        #expect(labels.contains("top -> feed: default / restored"), "\(labels)")
        let parsed = try MermaidSyntax.parse(MermaidRenderer.render(diagram))
        #expect(parsed.edges.contains(.init(from: "[*]", to: "s1", label: "/ greet", scope: "s0")), "\(parsed.edges)")
        #expect(DOTRenderer.render(diagram).contains("        s0 -> s1 [label=\"/ greet\"];\n"))
    }

    /// A history state beside a parallel state's regions is none of them: Mermaid draws it with
    /// the region before it, not as a concurrent region of its own.
    @Test func aParallelStatesHistoryIsNoRegionInMermaid() throws {
        let mermaid = MermaidRenderer.render(try Self.diagram(ParallelMachineTests.radio))
        _ = try MermaidSyntax.parse(mermaid)
        let separators = mermaid.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces) == "--" }
        #expect(separators.count == 1, "\(mermaid)")
        #expect(mermaid.contains("state \"H\" as"), "\(mermaid)")
    }

    @Test func mermaidDrawsAHistoryStateAsAStateLabelledHInItsCompositeState() throws {
        let mermaid = MermaidRenderer.render(try Self.diagram())
        let parsed = try MermaidSyntax.parse(mermaid)
        #expect(parsed.states["s3"] == ["H*"] && parsed.states["s4"] == ["H"])
        #expect(parsed.parents["s3"] == "s0" && parsed.parents["s4"] == "s0")
        #expect(parsed.classes["history"] == ["s3", "s4"])
        #expect(
            NestedDiagramTests.lines(mermaid, containing: "classDef history")
                == ["    classDef history fill:#ffffff,stroke:#111827,stroke-width:2px,font-weight:bold"])
        for edge in [
            MermaidSyntax.Edge(from: "s3", to: "s1", label: "default"), .init(from: "s4", to: "s2", label: "default"),
            .init(from: "s5", to: "s3", label: "again"), .init(from: "s5", to: "s4", label: "back")
        ] {
            #expect(parsed.edges.contains(edge), "\(edge)")
        }
        // A history state neither starts nor ends its composite state.
        #expect(
            parsed.edges.filter { $0.from == "[*]" || $0.to == "[*]" } == [
                .init(from: "[*]", to: "s1", scope: "s0"), .init(from: "[*]", to: "s0")
            ])
    }

    @Test func dotDrawsAHistoryStateAsASmallCircleInTheCluster() throws {
        let dot = DOTRenderer.render(try Self.diagram())
        let cluster = try #require(dot.range(of: "    subgraph cluster_s0 {\n"))
        let clusterEnd = try #require(dot.range(of: "\n    }\n", range: cluster.upperBound..<dot.endIndex))
        let inside = dot[cluster.upperBound..<clusterEnd.lowerBound]
        #expect(
            inside.contains(
                "        s3 [label=\"H*\", shape=circle, width=0.3, margin=0.02, fontsize=10, style=\"filled\", "
                    + "fillcolor=\"#ffffff\"];\n"))
        #expect(inside.contains("        s4 [label=\"H\", shape=circle,"))
        for line in [
            "    s3 -> s1 [label=\"default\"];", "    s4 -> s2 [label=\"default\"];",
            "    s5 -> s3 [label=\"again\"];", "    s5 -> s4 [label=\"back\"];"
        ] {
            #expect(dot.contains(line + "\n"), "\(line)")
        }
    }

    /// A default that is a compound state ends at its cluster's border, like any transition into it.
    @Test func aDefaultIntoACompoundStateEndsAtItsBorder() throws {
        let yaml = Self.spec.replacingOccurrences(
            of: "feed: { kind: input }", with: "feed: { states: { list: { kind: input } } }")
        let dot = DOTRenderer.render(try Self.diagram(yaml))
        // `list` inside `feed` is s3: `resume` is s4, `top` s5.
        #expect(dot.contains("    s5 -> s2 [label=\"default\", lhead=cluster_s2];\n"))
        #expect(dot.contains("    s4 -> s1 [label=\"default\"];\n"))
    }

    /// A history state's name, however hostile, is not in the DOT: its symbol is.
    @Test(Graphviz.required)
    func historyStatesRenderWithGraphvizWithTheirSymbols() throws {
        let hostile = #"say "hi" \N &lt;"#
        let yaml = Self.spec.replacingOccurrences(of: "resume", with: #""say \"hi\" \\N &lt;""#)
        let diagram = try Self.diagram(yaml)
        #expect(diagram.nodes[3].name == hostile)
        let dot = DOTRenderer.render(diagram)
        #expect(!dot.contains("say"))
        let output = try Graphviz.svg(dot, executable: try #require(Graphviz.executable))
        #expect(output.status == 0 && output.stderr.isEmpty, "\(output.stderr)")
        let texts = Graphviz.texts(inSVG: output.stdout)
        #expect(texts.contains("H*") && texts.contains("H") && texts.contains("default"))
    }

    @Test func aHistoryStateIsNeverMarkedAsNotExercised() throws {
        var diagram = try Self.diagram()
        diagram.mark(unexercised: [3: ["not entered"], 1: ["next"]])
        #expect(diagram.nodes[3].unexercised.isEmpty)
        #expect(diagram.nodes[1].unexercised == ["next"])
        let parsed = try MermaidSyntax.parse(MermaidRenderer.render(diagram))
        #expect(parsed.classes["unexercised"] == ["s1"])
    }

    /// The checker names history states in its findings (one no transition targets is
    /// unreachable; one a loop passes through is in it): the picture marks them where the
    /// author fixes them, and the loop's edges through them.
    @Test func findingsThatNameAHistoryStateMarkIt() throws {
        let diagram = try #require(
            FlowDiagramTests.diagrams(
                """
                flowspec: 1
                machines:
                  M:
                    initial: area
                    states:
                      area:
                        initial: work
                        timeout: { after: 1m, to: back }
                        states:
                          work: { kind: task, timeout: { after: 1s, to: again } }
                          again: { kind: history }
                          lonely: { kind: history, deep: true }
                      back: { kind: task, timeout: { after: 1s, to: again } }
                """, highlight: true
            ).first)
        #expect(
            diagram.nodes.map(\.findings) == [
                [], [.infiniteLoop], [.infiniteLoop], [.unreachableState], [.infiniteLoop]
            ])
        #expect(
            FlowDiagramTests.labels(diagram).enumerated().filter { diagram.edges[$0.offset].isInLoop }.map(\.element)
                == [
                    "area -> back: after 1m", "work -> again: after 1s", "again -> work: default",
                    "back -> again: after 1s"
                ])
        let parsed = try MermaidSyntax.parse(MermaidRenderer.render(diagram))
        #expect(parsed.states["s3"] == ["H*", "unreachable-state"])
        #expect(parsed.classes["finding"] == ["s1", "s2", "s3", "s4"])
        let dot = DOTRenderer.render(diagram)
        #expect(dot.contains("s3 [label=\"H*\\nunreachable-state\", shape=circle,"))
    }

    /// A history state outside a compound state (an `invalid-history` error) is drawn at the
    /// top level, with nothing to resume and so no `default` edge.
    @Test func aHistoryStateAtTheTopLevelIsDrawnWithoutADefault() throws {
        let result = SpecChecker().check(
            SourceFile(
                path: "t.yaml",
                text: """
                    flowspec: 1
                    machines:
                      M:
                        initial: a
                        states:
                          a: { kind: input, on: { go: h, in: c } }
                          h: { kind: history }
                          c: { states: { x: { kind: input, on: { out: a } } } }
                    """))
        #expect(result.diagnostics.contains { $0.rule == .invalidHistory })
        let diagram = FlowDiagram(graph: try #require(result.graphs.first))
        #expect(FlowDiagramTests.labels(diagram) == ["a -> h: go", "a -> c: in", "x -> a: out"])
        let parsed = try MermaidSyntax.parse(MermaidRenderer.render(diagram))
        #expect(parsed.states["s1"] == ["H"] && parsed.parents["s1"] == nil)
    }
}
