import FlowSpecTestSupport
import Foundation
import Testing

@testable import FlowSpecCore

/// What `flowspec graph` draws: labels, edges left out for targets that are not states, the
/// grouped machine-wide node, highlighted findings, and names escaped so that any name a spec
/// allows gives a valid Mermaid and DOT diagram.
@Suite("Flow diagrams")
struct FlowDiagramTests {
    static func diagrams(_ yaml: String, highlight: Bool = false) -> [FlowDiagram] {
        let result = SpecChecker().check(SourceFile(path: "test.yaml", bytes: Array(yaml.utf8)))
        let findings = SeverityPolicy().apply(to: result.diagnostics, spec: result.spec.severity)
        return result.graphs.map { FlowDiagram(graph: $0, findings: highlight ? findings : []) }
    }

    static func labels(_ diagram: FlowDiagram) -> [String] {
        diagram.edges.map { edge in
            let source = edge.source == .machineWide ? "*" : diagram.nodes[index(edge.source)].name
            return "\(source) -> \(diagram.nodes[edge.target].name): \(edge.label.text { $0 })"
        }
    }

    static func index(_ endpoint: FlowDiagram.Endpoint) -> Int {
        if case .state(let index) = endpoint { return index }
        return -1
    }

    // MARK: Labels

    @Test func labelsShowTriggerGuardsEffectsAndRetries() {
        let label = TransitionLabel(
            trigger: .event("go"), condition: "a", unlessCondition: "b", effects: ["x", "y"],
            retry: .bounded(max: 3))
        #expect(label.text { $0 } == "go [if a] [unless b] / x, y (retry ×3)")
        #expect(
            TransitionLabel(trigger: .timeout(.seconds(90)), retry: .exhausted(max: 1)).text { $0 }
                == "after 90s (after 1 retry)")
        #expect(TransitionLabel(trigger: .timeout(nil), retry: .bounded(max: nil)).text { $0 } == "timeout (retry)")
        #expect(
            TransitionLabel(trigger: .always, retry: .exhausted(max: nil)).text { $0 } == "always (after the retries)")
        #expect(TransitionLabel(trigger: .always, isLaterCandidate: true).text { $0 } == "always [else]")
        #expect(
            TransitionLabel(trigger: .event("e"), unlessCondition: "c", isLaterCandidate: true).text { $0 }
                == "e [else unless c]")
        #expect(
            TransitionLabel(trigger: .event("e"), exceptions: ["p", "q"]).text { "'\($0)'" } == "'e' (except 'p', 'q')")
    }

    @Test func edgesFollowSourceOrderAndSkipTargetsThatAreNotStates() throws {
        let diagram = try #require(
            Self.diagrams(
                """
                flowspec: 1
                machines:
                  M:
                    initial: a
                    states:
                      a:
                        kind: task
                        on:
                          go: [ { to: b, if: c }, { to: nowhere }, { to: a } ]
                          fail: { to: a, retry: { max: 2, then: gone } }
                        timeout: { after: 250ms, to: b, retry: { max: 0, then: b } }
                      b: { kind: choice, always: [ { to: missing } ] }
                      z: { kind: terminal }
                """
            ).first)
        #expect(
            Self.labels(diagram) == [
                "a -> b: go [if c]",
                "a -> a: go [else]",
                "a -> a: fail (retry ×2)",
                "a -> b: after 250ms (retry)",
                "a -> b: after 250ms (after the retries)"
            ])
        #expect(diagram.edges.map(\.isRetryFallback) == [false, false, false, false, true])
        #expect(diagram.initial == 0)
        #expect(diagram.nodes.map(\.kind) == [.task, .choice, .terminal])
    }

    @Test func machineWideTransitionsAreDrawnOnceFromTheGroupNode() throws {
        let diagram = try #require(
            Self.diagrams(
                """
                flowspec: 1
                machines:
                  M:
                    initial: a
                    on:
                      reset: { to: a, effects: [log] }
                      onlyChoices: a
                      stop: [ { to: end, if: c }, { to: a } ]
                    effects: [log]
                    conditions: [c]
                    states:
                      a: { kind: input, on: { reset: a, onlyChoices: end, stop: end } }
                      b: { kind: task, on: { onlyChoices: end }, timeout: { after: 1s, to: a } }
                      pick: { kind: choice, always: [a] }
                      end: { kind: terminal }
                """
            ).first)
        #expect(diagram.hasMachineWideNode)
        // `onlyChoices` is handled by every input and task state itself: no state inherits it;
        // `stop`, a candidate list, is handled by `a` and inherited by `b`.
        #expect(
            Self.labels(diagram).filter { $0.hasPrefix("*") } == [
                "* -> a: reset / log (except a)", "* -> end: stop [if c] (except a)", "* -> a: stop [else] (except a)"
            ])
        let none = try #require(
            Self.diagrams(
                """
                flowspec: 1
                machines:
                  M:
                    initial: a
                    on: { reset: a }
                    states:
                      a: { kind: choice, always: [end] }
                      end: { kind: terminal }
                """
            ).first)
        #expect(!none.hasMachineWideNode)
        #expect(!MermaidRenderer.render(none).contains("wide"))
        #expect(!DOTRenderer.render(none).contains("wide"))
    }

    @Test func highlightingMarksOnlyTheChosenRulesAndFollowsSeveritySettings() throws {
        let spec = """
            flowspec: 1
            machines:
              M:
                initial: a
                SEVERITY
                states:
                  a: { kind: input, on: { go: [b, d] } }
                  b: { kind: task, timeout: { after: 1s, to: c } }
                  c: { kind: task, timeout: { after: 1s, to: b } }
                  d: { kind: task }
                  e: { kind: input, on: { go: a } }
                  f: { kind: terminal }
            """
        let marked = try #require(
            Self.diagrams(spec.replacingOccurrences(of: "SEVERITY", with: ""), highlight: true).first)
        #expect(
            marked.nodes.map(\.findings) == [
                [], [.infiniteLoop, .noWayOut], [.infiniteLoop, .noWayOut], [.deadEnd, .noWayOut], [.unreachableState],
                [.unreachableState]
            ])
        #expect(marked.edges.filter(\.isInLoop).count == 2)
        // missing-timeout on `d` is a finding too, but not one the picture marks.
        #expect(!marked.nodes[3].findings.contains(.missingTimeout))

        let quiet = try #require(
            Self.diagrams(
                spec.replacingOccurrences(of: "SEVERITY", with: "severity: { no-way-out: off }"),
                highlight: true
            ).first)
        #expect(quiet.nodes[1].findings == [.infiniteLoop])
        let plain = try #require(Self.diagrams(spec.replacingOccurrences(of: "SEVERITY", with: "")).first)
        #expect(!plain.hasFindings && !plain.edges.contains(where: \.isInLoop))
        #expect(!MermaidRenderer.render(plain).contains("finding"))
    }

    @Test func aRetryOnALoopEdgeIsNotPartOfTheLoop() throws {
        let diagram = try #require(
            Self.diagrams(
                """
                flowspec: 1
                machines:
                  M:
                    initial: a
                    states:
                      a: { kind: task, on: { x: b, y: { to: a, retry: { max: 2, then: b } } }, timeout: { after: 1s, to: b } }
                      b: { kind: choice, always: [a] }
                """, highlight: true
            ).first)
        #expect(diagram.nodes.map(\.findings) == [[.infiniteLoop], [.infiniteLoop]])
        #expect(
            Self.labels(diagram).enumerated().filter { diagram.edges[$0.offset].isInLoop }.map(\.element)
                == ["a -> b: x", "a -> b: y (after 2 retries)", "a -> b: after 1s", "b -> a: always"])
    }

    // MARK: Escaping

    @Test func mermaidEscapingKeepsPlainNamesAndEncodesTheRest() {
        #expect(MermaidRenderer.escape("splash_2.final-step") == "splash_2.final-step")
        #expect(MermaidRenderer.escape("a:b;c\"d#e%f") == "a#58;b#59;c#34;d#35;e#37;f")
        #expect(MermaidRenderer.escape("<b> & `x`") == "#60;b#62; #38; #96;x#96;")
        #expect(MermaidRenderer.escape("[[fork]] <<choice>>") == "#91;#91;fork#93;#93; #60;#60;choice#62;#62;")
        // Only the space right after `direction` matters to Mermaid's `direction\s+TB` rule.
        #expect(MermaidRenderer.escape("DIRECTION  tb") == "DIRECTION#32; tb")
        #expect(MermaidRenderer.escape("my direction") == "my direction")
        #expect(MermaidRenderer.escape("line\nbreak\ttab") == "line#92;u#123;A#125;break#92;u#123;9#125;tab")
        #expect(
            MermaidRenderer.escape("nb\u{A0}sp zw\u{200B}j ls\u{2028}") == "nb#160;sp zw#8203;j ls#92;u#123;2028#125;")
        #expect(MermaidRenderer.escape("ﬂ°°60¶ß") == "#64258;°°60#182;ß")
        #expect(MermaidRenderer.escape("é 🚀 日本") == "é 🚀 日本")
        #expect(MermaidRenderer.escape("\"\u{301}") == "#34;\u{301}")
        #expect(MermaidRenderer.escape(" padded  name ") == "#32;padded  name#32;")
        #expect(MermaidRenderer.escape(" ") == "#32;")
    }

    @Test func mermaidTitlesAreYAMLStringsThatMermaidLeavesAlone() throws {
        let title = MermaidRenderer.yamlQuoted("Odd \"m\" \\ #1; 100% a\nb")
        #expect(title == #""Odd \"m\" \\ \x231; 100\x25 a\u000Ab""#)
        #expect(try MermaidSyntax.title("title: " + title) == "Odd \"m\" \\ #1; 100% a\nb")
    }

    @Test func dotEscapingHandlesQuotesBackslashesEntitiesAndCombiningMarks() {
        #expect(DOTRenderer.escape(#"say "hi" \N &lt;"#) == #"say \"hi\" \\N &amp;lt;"#)
        #expect(DOTRenderer.escape("\"\u{301}") == "\\\"\u{301}")
        #expect(DOTRenderer.escape("a\nb") == #"a\\u{A}b"#)
        #expect(DOTRenderer.escape("<b>{x}|y") == "<b>{x}|y")
    }

    @Test func theMermaidCheckerRejectsWhatMermaidWouldMisread() {
        let header = "---\ntitle: \"T\"\n---\nstateDiagram-v2\n    state \"a\" as s0\n    state \"b\" as s1\n"
        let bad = [
            "    state \"direction TB\" as s2", "    s0 --> s1 : a:b", "    s0 --> s1 : a;b", "    s0 --> s1 : x %% y",
            "    state \"[[fork]]\" as s2", "    state \"a \"b\" c\" as s2", "    s0 --> s1 : #notanentity",
            "    s0 --> s9 : go", "    s0 --> s1", "    s0 --> s1 : <b>", "    class s0 undefined",
            "    s0 --> s1 : tab\there", "    state \" a\" as s2"
        ]
        for line in bad {
            #expect(throws: MermaidSyntax.Problem.self, "accepted: \(line)") {
                try MermaidSyntax.parse(header + line + "\n")
            }
        }
        #expect(throws: Never.self) {
            try MermaidSyntax.parse(header + "    s0 --> s1 : a#58;b [if c] / d, e (retry ×3)\n")
        }
    }

    /// Names built from everything that means something to Mermaid, Graphviz, HTML, YAML or a
    /// terminal: the Mermaid diagram must pass the checker and show every name as written.
    @Test func randomHostileNamesGiveValidMermaid() throws {
        let names = Self.hostileNames(count: 60)
        let diagram = try #require(Self.diagrams(Self.chainSpec(names)).first)
        #expect(diagram.nodes.map(\.name) == names)

        let mermaid = try MermaidSyntax.parse(MermaidRenderer.render(diagram))
        for (index, name) in names.enumerated() {
            #expect(mermaid.states["s\(index)"] == [TextRenderer.printable(name)])
        }
        #expect(
            mermaid.edges.compactMap(\.label)
                == diagram.edges.map { $0.label.text(escapingNames: TextRenderer.printable) })
    }

    /// The same names drawn as DOT must pass Graphviz and show every name as written.
    @Test(Graphviz.required)
    func randomHostileNamesGiveValidDOT() throws {
        let names = Self.hostileNames(count: 60)
        let diagram = try #require(Self.diagrams(Self.chainSpec(names)).first)
        let output = try Graphviz.svg(DOTRenderer.render(diagram), executable: try #require(Graphviz.executable))
        #expect(output.status == 0, "\(output.stderr)")
        let texts = Set(Graphviz.texts(inSVG: output.stdout))
        for name in names where name.unicodeScalars.allSatisfy({ $0 != " " }) {
            // Graphviz writes runs of spaces as no-break spaces; names without spaces compare exactly.
            #expect(texts.contains(TextRenderer.printable(name)), "'\(name)' is not shown as written")
        }
    }

    static let hazards = [
        " ", "\t", "\n", "\r\n", "\"", "\\", "#", "#35;", ";", ":", "%", "%%", "<", ">", "&", "&lt;", "`", "'", "[",
        "]",
        "{", "}", "*", "[*]", "-->", "|", "direction", "direction TB", " lr", "ﬂ", "°", "¶", "ß", "é", "🚀", "\u{301}",
        "\u{200B}", "\u{200D}", "\u{A0}", "\u{2028}", "\u{7}", "\u{D4E}", "\u{1B}[31m", "a", "Z", "0", "_", ".",
        "style", "classDef", "default",
        "state", "end note", "<<choice>>", "[[fork]]", "\\N", "\\n", "fill:#f00;"
    ]

    /// Distinct random names from ``hazards`` (a fixed seed, so the test is repeatable).
    static func hostileNames(count: Int) -> [String] {
        var random = SplitMix(seed: 0xF105_BEC)
        var names: [String] = []
        while names.count < count {
            let parts = (0..<Int(random.next() % 5 + 1)).map { _ in hazards[Int(random.next() % UInt64(hazards.count))]
            }
            let name = parts.joined()
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// A machine whose states (input, then a terminal) are the names, each leading to the next
    /// through an event of the next state's name, with every name written as YAML escapes.
    static func chainSpec(_ names: [String]) -> String {
        var yaml = "flowspec: 1\nmachines:\n  M:\n    initial: \(yamlString(names[0]))\n    states:\n"
        for (index, name) in names.enumerated() {
            yaml += "      \(yamlString(name)):\n"
            if index + 1 < names.count {
                yaml +=
                    "        kind: input\n        on: { \(yamlString(names[index + 1])): \(yamlString(names[index + 1])) }\n"
            } else {
                yaml += "        kind: terminal\n"
            }
        }
        return yaml
    }

    static func yamlString(_ text: String) -> String {
        "\"" + text.unicodeScalars.map { String(format: "\\U%08X", $0.value) }.joined() + "\""
    }
}

/// The shared seeded generator (Tests/Support).
typealias SplitMix = SplitMix64

/// `flowspec diff --format mermaid`: the new version's diagram with what changed marked, still
/// valid Mermaid.
@Suite("Diff diagrams")
struct DiffDiagramTests {
    @Test func changesAreMarkedAndTheDiagramStaysValid() throws {
        let old = SpecChecker().check(
            SourceFile(
                path: "old.yaml",
                text: """
                    flowspec: 1
                    machines:
                      M:
                        initial: a
                        defaults: { kind: input }
                        states:
                          a: { on: { go: b, "odd: <name>": c } }
                          b: { on: { back: a } }
                          c: { kind: terminal }

                    """))
        let new = SpecChecker().check(
            SourceFile(
                path: "new.yaml",
                text: """
                    flowspec: 1
                    machines:
                      M:
                        initial: a
                        defaults: { kind: input }
                        states:
                          a: { on: { go: d } }
                          d: { on: { back: a } }

                    """))
        let diff = SpecDiff(old: old.spec, oldFile: "old.yaml", new: new.spec, newFile: "new.yaml")
        var diagram = FlowDiagram(graph: new.graphs[0])
        diagram.mark(diff.changes) { new.graphs[0].stateIndex[$0] }
        let parsed = try MermaidSyntax.parse(MermaidRenderer.render(diagram))
        #expect(parsed.classes["added"] == ["s1"])
        #expect(parsed.classes["removed"] == ["removed0", "removed1"])
        #expect(parsed.states["removed0"] == ["b", "removed"])
        #expect(parsed.states["s0"]?.contains("removed on 'odd: <name>' -> 'c'") == true, "\(parsed.states)")
        #expect(parsed.edges.contains(.init(from: "s0", to: "s1", label: "go (changed)")))
    }

    /// The group node is declared before its notes (Mermaid would take a first description for
    /// its label), even when no machine-wide transition is left.
    @Test(arguments: ["on: { reset: a }", ""])
    func aRemovedMachineWideTransitionIsANoteOnTheGroupNode(left: String) throws {
        let spec =
            "flowspec: 1\nmachines:\n  M:\n    initial: a\n    ON\n    states:\n"
            + "      a: { kind: input, on: { go: b } }\n      b: { kind: input, on: { back: a } }\n"
        let old = SpecChecker().check(
            SourceFile(path: "old.yaml", text: spec.replacingOccurrences(of: "ON", with: "on: { reset: a, stop: b }")))
        let new = SpecChecker().check(
            SourceFile(path: "new.yaml", text: spec.replacingOccurrences(of: "ON", with: left)))
        let diff = SpecDiff(old: old.spec, oldFile: "old.yaml", new: new.spec, newFile: "new.yaml")
        var diagram = FlowDiagram(graph: new.graphs[0])
        diagram.mark(diff.changes) { new.graphs[0].stateIndex[$0] }
        let parsed = try MermaidSyntax.parse(MermaidRenderer.render(diagram))
        #expect(parsed.states["wide"]?.first == "any input or task state")
        #expect(parsed.states["wide"]?.contains("removed on 'stop' -> 'b'") == true, "\(parsed.states)")
    }
}

/// Compound states in `flowspec graph`, `coverage` and `diff` diagrams: what a compound state
/// writes is drawn once, from it; it has its `[*]`; its effects and marks are shown on it; and
/// specs with nesting errors are still drawn.
@Suite("Flow diagrams of compound states")
struct NestedDiagramTests {
    /// `signIn` enters `code` first (not its first state), handles the machine-wide `reset`
    /// itself, and writes `cancel`, a timeout and `done` that `credentials` and `code` inherit.
    static let spec = """
        flowspec: 1
        machines:
          M:
            initial: welcome
            effects: [track, clear, sendCode]
            on: { reset: welcome }
            states:
              welcome: { kind: input, on: { start: signIn } }
              signIn:
                initial: code
                entry: [track]
                exit: [clear]
                on: { cancel: welcome, reset: welcome }
                timeout: { after: 5m, to: welcome }
                done: signedIn
                states:
                  credentials: { kind: input, on: { submit: code } }
                  code: { kind: input, entry: [sendCode], on: { submit: finished, back: credentials } }
                  finished: { kind: terminal }
              signedIn: { kind: input, on: { signOut: welcome } }
        """

    static func graph(_ yaml: String) throws -> MachineGraph {
        try #require(SpecChecker().check(SourceFile(path: "test.yaml", bytes: Array(yaml.utf8))).graphs.first)
    }

    static func lines(_ text: String, containing part: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { $0.contains(part) }
    }

    @Test func aCompoundStatesTransitionsAreDrawnOnceFromItNotPerState() throws {
        let graph = try Self.graph(Self.spec)
        // The graph gives each state inside its own copy of `cancel`, the timeout and `done`.
        #expect(graph.edges.filter { $0.isInherited && graph.label(of: $0) == "on 'cancel'" }.count == 2)
        let diagram = FlowDiagram(graph: graph)
        let labels = FlowDiagramTests.labels(diagram)
        #expect(labels.filter { $0.hasSuffix(": cancel") } == ["signIn -> welcome: cancel"])
        #expect(labels.filter { $0.hasSuffix(": after 5m") } == ["signIn -> welcome: after 5m"])
        #expect(labels.filter { $0.hasSuffix(": done") } == ["signIn -> signedIn: done"])

        let mermaid = MermaidRenderer.render(diagram)
        #expect(Self.lines(mermaid, containing: ": cancel") == ["    s1 --> s0 : cancel"])
        #expect(Self.lines(mermaid, containing: ": after 5m") == ["    s1 --> s0 : after 5m"])
        #expect(Self.lines(mermaid, containing: ": done") == ["    s1 --> s5 : done"])
        let dot = DOTRenderer.render(diagram)
        #expect(
            Self.lines(dot, containing: "\"cancel\"") == ["    s1_exit -> s0 [label=\"cancel\", ltail=cluster_s1];"])
        #expect(Self.lines(dot, containing: "\"done\"") == ["    s1_exit -> s5 [label=\"done\", ltail=cluster_s1];"])
        // Into the compound state: to it, not to the state it enters first.
        #expect(Self.lines(mermaid, containing: ": start") == ["    s0 --> s1 : start"])
        #expect(Self.lines(dot, containing: "\"start\"") == ["    s0 -> s1 [label=\"start\", lhead=cluster_s1];"])
    }

    @Test func aCompoundStateThatHandlesAMachineWideEventStandsForItsStates() throws {
        let diagram = FlowDiagram(graph: try Self.graph(Self.spec))
        #expect(
            FlowDiagramTests.labels(diagram).filter { $0.hasPrefix("*") } == ["* -> welcome: reset (except signIn)"])
    }

    @Test func aCompoundStateHasItsInitialArrow() throws {
        let diagram = FlowDiagram(graph: try Self.graph(Self.spec))
        #expect(diagram.nodes.map(\.isCompound) == [false, true, false, false, false, false])
        #expect(diagram.nodes[1].initialChild == 3)
        #expect(diagram.nodes.map(\.parent) == [nil, nil, 1, 1, 1, nil])

        let mermaid = MermaidRenderer.render(diagram)
        let parsed = try MermaidSyntax.parse(mermaid)
        #expect(parsed.composites == ["s1"])
        #expect(parsed.parents == ["s2": "s1", "s3": "s1", "s4": "s1"])
        #expect(
            parsed.edges.filter { $0.from == "[*]" || $0.to == "[*]" } == [
                .init(from: "[*]", to: "s3", scope: "s1"), .init(from: "s4", to: "[*]", scope: "s1"),
                .init(from: "[*]", to: "s0")
            ])
        let dot = DOTRenderer.render(diagram)
        #expect(dot.contains("    subgraph cluster_s1 {\n"))
        #expect(dot.contains("        s1 [shape=point, width=0.15, label=\"\"];\n"))
        #expect(dot.contains("        s1 -> s3;\n"))
        #expect(dot.contains("    start -> s0;\n"))
    }

    @Test func entryAndExitEffectsAreShownOnTheState() throws {
        let diagram = FlowDiagram(graph: try Self.graph(Self.spec))
        #expect(diagram.nodes[1].entry == ["track"] && diagram.nodes[1].exit == ["clear"])
        let parsed = try MermaidSyntax.parse(MermaidRenderer.render(diagram))
        // Mermaid rejects descriptions of composite states: a note beside it instead.
        #expect(parsed.states["s1"] == ["signIn"])
        #expect(parsed.notes["s1"] == ["entry / track", "exit / clear"])
        #expect(parsed.states["s3"] == ["code", "entry / sendCode"])
        let dot = DOTRenderer.render(diagram)
        #expect(dot.contains("graph [label=\"signIn\\nentry / track\\nexit / clear\", style=\"rounded\""))
        #expect(dot.contains("s3 [label=\"code\\nentry / sendCode\", shape=box"))
    }

    @Test func aTransitionOfACompoundStateClosesALoopThroughTheStatesInside() throws {
        let diagram = try #require(
            FlowDiagramTests.diagrams(
                """
                flowspec: 1
                machines:
                  M:
                    initial: idle
                    states:
                      idle: { kind: input, on: { go: busy } }
                      busy:
                        timeout: { after: 1m, to: backoff }
                        states:
                          work: { kind: task, timeout: { after: 10s, to: idle } }
                      backoff: { kind: task, timeout: { after: 5s, to: work } }
                """, highlight: true
            ).first)
        #expect(diagram.nodes.map(\.findings) == [[], [], [.infiniteLoop], [.infiniteLoop]])
        #expect(
            FlowDiagramTests.labels(diagram).enumerated().filter { diagram.edges[$0.offset].isInLoop }.map(\.element)
                == ["busy -> backoff: after 1m", "backoff -> work: after 5s"])
    }

    @Test func marksOnACompoundStateAreANoteInMermaidAndTheClusterInDOT() throws {
        var diagram = FlowDiagram(graph: try Self.graph(Self.spec))
        diagram.mark(unexercised: [1: ["done", "timeout"], 3: ["back"]])
        let parsed = try MermaidSyntax.parse(MermaidRenderer.render(diagram))
        #expect(parsed.notes["s1"] == ["entry / track", "exit / clear", "not exercised: done, timeout"])
        #expect(parsed.states["s3"] == ["code", "entry / sendCode", "not exercised: back"])
        #expect(parsed.classes["unexercised"] == ["s1", "s3"])
        let dot = DOTRenderer.render(diagram)
        #expect(
            dot.contains(
                "graph [label=\"signIn\\nentry / track\\nexit / clear\\nnot exercised: done, timeout\", "
                    + "style=\"rounded,dashed\", color=\"#ca8a04\""))
    }

    @Test func diffMarksAndRemovedTransitionsOfACompoundState() throws {
        let old = SpecChecker().check(SourceFile(path: "old.yaml", text: Self.spec))
        let changed = Self.spec.replacingOccurrences(
            of: "on: { cancel: welcome, reset: welcome }", with: "on: { cancel: signedIn, help: welcome }")
        let new = SpecChecker().check(SourceFile(path: "new.yaml", text: changed))
        let diff = SpecDiff(old: old.spec, oldFile: "old.yaml", new: new.spec, newFile: "new.yaml")
        var diagram = FlowDiagram(graph: new.graphs[0])
        diagram.mark(diff.changes) { new.graphs[0].stateIndex[$0] }
        let parsed = try MermaidSyntax.parse(MermaidRenderer.render(diagram))
        #expect(parsed.edges.contains(.init(from: "s1", to: "s5", label: "cancel (changed)")))
        #expect(parsed.edges.contains(.init(from: "s1", to: "s0", label: "help (added)")))
        #expect(parsed.notes["s1"]?.contains { $0.hasPrefix("removed on 'reset'") } == true, "\(parsed.notes)")
        #expect(parsed.states["s1"] == ["signIn"])
    }

    /// Nesting errors (an `initial` that is not inside, a `done` and a timeout to no state, a
    /// compound state with `always`, an empty `states`) are reported, and the machine is drawn.
    static let broken = """
        flowspec: 1
        machines:
          M:
            initial: outer
            states:
              outer:
                initial: elsewhere
                done: nowhere
                timeout: { after: 1s, to: missing }
                always: [elsewhere]
                states:
                  inner:
                    initial: outer
                    states:
                      leaf: { kind: input, on: { go: elsewhere } }
                  end: { kind: terminal }
              elsewhere: { kind: input, on: { back: inner }, states: {} }
        """

    @Test func aSpecWithNestingErrorsIsStillDrawn() throws {
        let result = SpecChecker().check(SourceFile(path: "broken.yaml", text: Self.broken))
        #expect(result.diagnostics.contains { $0.rule == .invalidNesting })
        let diagram = FlowDiagram(graph: try #require(result.graphs.first))
        #expect(diagram.nodes.filter(\.isCompound).map(\.initialChild) == [nil, nil])
        let parsed = try MermaidSyntax.parse(MermaidRenderer.render(diagram))
        #expect(parsed.edges.filter { $0.from == "[*]" } == [.init(from: "[*]", to: "s0")])
        #expect(
            DOTRenderer.render(diagram).contains("        s0 [shape=point, style=invis, width=0.15, label=\"\"];\n"))
    }

    /// Transitions between a compound state and the states inside it, in both directions, to
    /// itself, and between two levels: Graphviz cannot clip these at a border that holds both
    /// ends, so they keep no `lhead` or `ltail` there.
    static let edgeCases = """
        flowspec: 1
        machines:
          M:
            initial: outer
            on: { home: outer }
            states:
              outer:
                on: { again: outer, deeper: inner, first: a }
                states:
                  a: { kind: input, on: { up: outer, in: inner } }
                  inner:
                    on: { out: outer, self: inner, side: a }
                    timeout: { after: 1s, to: b }
                    states:
                      b: { kind: input, on: { top: outer, loop: inner } }
              other: { kind: input, on: { go: inner } }
        """

    @Test func edgesBetweenACompoundStateAndItsInsideKeepNoBorderEnds() throws {
        let diagram = FlowDiagram(graph: try Self.graph(Self.edgeCases))
        let dot = DOTRenderer.render(diagram)
        for line in [
            "    s0_exit -> s0 [label=\"again\"];", "    s0_exit -> s2 [label=\"deeper\", lhead=cluster_s2];",
            "    s1 -> s0 [label=\"up\"];", "    s2_exit -> s0 [label=\"out\", ltail=cluster_s2];",
            "    s2_exit -> s2 [label=\"self\"];", "    s2_exit -> s1 [label=\"side\", ltail=cluster_s2];",
            "    s3 -> s2 [label=\"loop\"];", "    wide -> s0 [label=\"home\", lhead=cluster_s0];"
        ] {
            #expect(dot.contains(line + "\n"), "\(line)")
        }
        let parsed = try MermaidSyntax.parse(MermaidRenderer.render(diagram))
        #expect(parsed.parents == ["s1": "s0", "s2": "s0", "s3": "s2"])
        #expect(parsed.edges.filter { $0.label != nil }.allSatisfy { $0.scope == nil })
    }

    @Test(Graphviz.required)
    func nestedDiagramsRenderWithGraphvizWithoutWarnings() throws {
        let dot = try #require(Graphviz.executable)
        for yaml in [Self.spec, Self.broken, Self.edgeCases] {
            let graph = try #require(SpecChecker().check(SourceFile(path: "t.yaml", text: yaml)).graphs.first)
            var diagram = FlowDiagram(graph: graph)
            diagram.mark(unexercised: [1: ["done"]])
            let output = try Graphviz.svg(DOTRenderer.render(diagram), executable: dot)
            #expect(output.status == 0 && output.stderr.isEmpty, "\(output.stderr)")
        }
    }

    @Test func theMermaidCheckerRejectsWhatMermaidDoesWithCompositeStates() {
        let header = "---\ntitle: \"T\"\n---\nstateDiagram-v2\n    state \"a\" as s0\n"
        let block = "    state \"b\" as s1 {\n        state \"c\" as s2\n"
        let bad = [
            // A description of a composite state: Mermaid throws.
            block + "    }\n    s1 : oops\n",
            // A block naming a state declared outside it moves that state into the block.
            block + "        s2 --> s0 : go\n    }\n", block + "        s0 : moved\n    }\n",
            block + "        [*] --> s0\n    }\n",
            // A note inside its own state's block makes the state its own parent.
            block + "        note right of s1\n            x\n        end note\n    }\n",
            // Not closed, or closed at the wrong indentation.
            block, block + "}\n", block + "    }\n    note right of s1\n    x\n    end note\n",
            block + "    }\n    note right of s1\n    end note\n"
        ]
        for text in bad {
            #expect(throws: MermaidSyntax.Problem.self, "accepted:\n\(text)") { try MermaidSyntax.parse(header + text) }
        }
        let good = block + "        [*] --> s2\n    }\n    note right of s1\n        entry / x#58; y\n    end note\n"
        #expect(throws: Never.self) { try MermaidSyntax.parse(header + good + "    s2 --> s0 : go\n") }
    }
}
