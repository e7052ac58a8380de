import Foundation
import Testing

@testable import FlowSpecCore

/// `flowspec graph` output for every machine of `specs/app.yaml` and of the fixtures in
/// `Tests/Fixtures/graph` (`findings.yaml` with `--highlight`, `names.yaml` with names that
/// mean something to Mermaid, Graphviz or HTML, `nested.yaml` with compound states and history
/// states, and
/// `nested-findings.yaml` with findings on compound states, with `--highlight`), compared byte
/// for byte with the goldens beside
/// them: `SPEC.MACHINE[.highlight].mmd` and `.dot`. Re-record deliberately with
/// `FLOWSPEC_RECORD_GOLDEN=1 swift test` and review the diff. Every DOT golden must render with
/// Graphviz, and every Mermaid golden must pass ``MermaidSyntax`` and show each name as written.
@Suite("Graph diagrams (golden)")
struct GraphGoldenTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var spec: String
        var machine: String
        var machineIndex: Int
        var format: DiagramFormat
        var highlight: Bool

        /// `Tests/Fixtures/graph/BASE.MACHINE[.highlight].mmd|dot`; a machine whose name is not
        /// plain letters, digits and `_` is named `machineN` by its position.
        var golden: String {
            let base = (spec as NSString).lastPathComponent.replacingOccurrences(of: ".yaml", with: "")
            let plain = machine.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            let name = plain && !machine.isEmpty ? machine : "machine\(machineIndex)"
            let ext = format == .mermaid ? "mmd" : "dot"
            return "Tests/Fixtures/graph/\(base).\(name)\(highlight ? ".highlight" : "").\(ext)"
        }

        var testDescription: String { golden }
    }

    static let specs: [(path: String, highlight: Bool)] = [
        ("specs/app.yaml", false),
        ("Tests/Fixtures/graph/findings.yaml", true),
        ("Tests/Fixtures/graph/names.yaml", false),
        ("Tests/Fixtures/graph/nested.yaml", false),
        ("Tests/Fixtures/graph/nested-findings.yaml", true)
    ]

    static let cases: [Case] = specs.flatMap { spec, highlight -> [Case] in
        let machines = (try? check(spec).graphs.map(\.machine.name.value)) ?? []
        return DiagramFormat.allCases.flatMap { format in
            machines.enumerated().map {
                Case(spec: spec, machine: $1, machineIndex: $0, format: format, highlight: highlight)
            }
        }
    }

    static func check(_ spec: String) throws -> SpecChecker.Checked {
        SpecChecker().check(try Fixtures.source(spec))
    }

    /// What `flowspec graph SPEC --format F --machine M [--highlight]` prints.
    static func render(_ testCase: Case) throws -> (text: String, diagram: FlowDiagram) {
        let result = try check(testCase.spec)
        let findings = SeverityPolicy().apply(to: result.diagnostics, spec: result.spec.severity)
        let graph = try #require(result.graphs.first { $0.machine.name.value == testCase.machine })
        let diagram = FlowDiagram(graph: graph, findings: testCase.highlight ? findings : [])
        return (testCase.format.render(diagram), diagram)
    }

    static func read(_ relativePath: String) throws -> String {
        try String(contentsOf: Fixtures.packageRoot.appendingPathComponent(relativePath), encoding: .utf8)
    }

    @Test("the fixtures have the machines the goldens are for")
    func casesAreComplete() {
        #expect(Self.cases.count == 2 * (4 + 2 + 2 + 3 + 1))
        #expect(
            Self.cases.filter { $0.spec == "specs/app.yaml" }.map(\.machine)
                == ["FirstRun", "LaunchAuth", "Chapters", "App", "FirstRun", "LaunchAuth", "Chapters", "App"])
    }

    @Test("output matches the golden file", arguments: cases)
    func matchesGolden(_ testCase: Case) throws {
        let output = try Self.render(testCase).text
        try Fixtures.expectGolden(output, at: Fixtures.packageRoot.appendingPathComponent(testCase.golden))
    }

    @Test("no golden is left without a case")
    func noStrayGoldens() throws {
        let folder = Fixtures.root.appendingPathComponent("graph")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".mmd") || $0.hasSuffix(".dot") }
            .map { "Tests/Fixtures/graph/\($0)" }
        #expect(Set(files) == Set(Self.cases.map(\.golden)))
    }

    @Test(
        "every DOT golden renders with Graphviz (dot -Tsvg)", Graphviz.required,
        arguments: cases.filter { $0.format == .dot })
    func dotGoldenRenders(_ testCase: Case) throws {
        let dot = try #require(Graphviz.executable)
        let output = try Graphviz.svg(try Self.read(testCase.golden), executable: dot)
        #expect(output.status == 0, "dot -Tsvg failed on \(testCase.golden):\n\(output.stderr)")
        #expect(output.stdout.contains("</svg>"))
        #expect(output.stderr.isEmpty, "dot warned about \(testCase.golden):\n\(output.stderr)")
    }

    @Test(
        "every Mermaid golden is well-formed and shows each name as written",
        arguments: cases.filter { $0.format == .mermaid })
    func mermaidGoldenIsWellFormed(_ testCase: Case) throws {
        let parsed = try MermaidSyntax.parse(try Self.read(testCase.golden))
        let diagram = try Self.render(testCase).diagram
        #expect(parsed.title == diagram.machine)
        for (index, node) in diagram.nodes.enumerated() {
            let id = "s\(index)"
            let lines = Self.describedLines(node)
            #expect(parsed.states[id] == [Self.shownName(node)] + (node.isCompound ? [] : lines))
            #expect(parsed.notes[id] == (node.isCompound && !lines.isEmpty ? lines : nil))
            #expect(parsed.parents[id] == node.parent.map { "s\($0)" })
        }
        #expect(parsed.composites == diagram.nodes.indices.filter { diagram.nodes[$0].isCompound }.map { "s\($0)" })
        // The machine-wide transitions without a target, under the machine-wide node's name.
        #expect(
            parsed.states["wide"].map { Array($0.dropFirst()) } ?? []
                == diagram.machineWideInternalTransitions.map { $0.text(escapingNames: TextRenderer.printable) })
        let histories = diagram.nodes.indices.filter { diagram.nodes[$0].isHistory }.map { "s\($0)" }
        #expect(parsed.classes["history"] == (histories.isEmpty ? nil : histories))
        let labels = parsed.edges.compactMap(\.label)
        #expect(labels == diagram.edges.map { $0.label.text(escapingNames: TextRenderer.printable) })
        // The machine's `[*]` and each composite state's lead to the state entered first.
        let starts = parsed.edges.filter { $0.from == "[*]" }.map { "\($0.scope ?? "root") -> \($0.to)" }
        let entered =
            (diagram.initial.map { ["root -> s\($0)"] } ?? [])
            + diagram.nodes.indices.compactMap { index in
                diagram.nodes[index].initialChild.map { "s\(index) -> s\($0)" }
            }
        #expect(starts.sorted() == entered.sorted())
        // Each terminal state leads to the `[*]` of the composite state around it, or the machine's.
        #expect(
            parsed.edges.filter { $0.to == "[*]" }.map { "\($0.from) in \($0.scope ?? "root")" }.sorted()
                == diagram.nodes.indices.filter { diagram.nodes[$0].kind == .terminal && !diagram.nodes[$0].isCompound }
                .map { "s\($0) in \(diagram.nodes[$0].parent.map { "s\($0)" } ?? "root")" }.sorted())
    }

    /// What a diagram shows as a state's name: the name as written, or `H` or `H*` for a
    /// history state.
    static func shownName(_ node: FlowDiagram.Node) -> String {
        node.isHistory ? node.historySymbol : TextRenderer.printable(node.name)
    }

    /// What a diagram shows under a state's name (in a note beside a compound state), with
    /// names as written: entry and exit effects, activities, then the findings' rules.
    static func describedLines(_ node: FlowDiagram.Node) -> [String] {
        var lines: [String] = []
        if !node.entry.isEmpty {
            lines.append("entry / " + node.entry.map(TextRenderer.printable).joined(separator: ", "))
        }
        if !node.exit.isEmpty {
            lines.append("exit / " + node.exit.map(TextRenderer.printable).joined(separator: ", "))
        }
        if !node.activities.isEmpty {
            lines.append("do / " + node.activities.map(TextRenderer.printable).joined(separator: ", "))
        }
        lines += node.internalTransitions.map { $0.text(escapingNames: TextRenderer.printable) }
        if !node.findings.isEmpty { lines.append(node.findings.map(\.rawValue).joined(separator: ", ")) }
        return lines
    }

    @Test(
        "every DOT golden shows each name as written once Graphviz has read it", Graphviz.required,
        arguments: cases.filter { $0.format == .dot })
    func dotGoldenShowsNames(_ testCase: Case) throws {
        let dot = try #require(Graphviz.executable)
        let texts = Graphviz.texts(inSVG: try Graphviz.svg(try Self.read(testCase.golden), executable: dot).stdout)
        let diagram = try Self.render(testCase).diagram
        for node in diagram.nodes {
            #expect(texts.contains(Self.shownName(node)), "'\(node.name)' is not shown as written")
        }
        for edge in diagram.edges {
            let label = edge.label.text(escapingNames: TextRenderer.printable)
            #expect(texts.contains(label), "edge label '\(label)' is not shown as written")
        }
    }
}
