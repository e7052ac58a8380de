/// Draws a ``FlowDiagram`` as a Graphviz `digraph` (render it with `dot -Tsvg`).
///
/// - The machine's name is the graph's title; a small filled point (`start`) has an arrow to
///   the initial state.
/// - Kinds have their own shapes: `input` a rounded box, `task` a filled blue box, `choice` an
///   amber diamond, `terminal` a double circle. The grouped machine-wide node (`wide`) is a
///   dashed rounded box.
/// - A retry's `then` edge is dashed.
/// - Highlighted states are red and dashed, with their rule ids on a second line; the edges of
///   an infinite loop are red and thick.
/// - A compound state is a cluster (`subgraph cluster_s1`) labelled with its name and its entry
///   and exit effects, holding its states; its own node (`s1`) is a start point inside the
///   cluster with an arrow to the state it enters first, and transitions to it end at the
///   cluster's border (`lhead`). Its own transitions leave once, from the cluster's border
///   (`ltail`), starting at an invisible exit point (`s1_exit`) kept below the states inside.
///   Leaves show their entry and exit effects under their name.
/// - A history state is a small circle labelled `H` (shallow) or `H*` (deep) inside its
///   compound state's cluster; its `default` is an edge labelled `default`.
/// - States are `s0`, `s1`, … in source order, with their names in quoted labels escaped for
///   DOT (`\"`, `\\`) and for Graphviz's entity decoding (`&amp;`).
public enum DOTRenderer {
    /// The graph's text, ending with a line break.
    public static func render(_ diagram: FlowDiagram) -> String {
        var text = ""
        render(diagram, into: &text)
        return text
    }

    /// Writes the graph's text, line by line, ending with a line break: a graph of 100,000
    /// states is never held whole.
    public static func render(_ diagram: FlowDiagram, into output: inout some TextOutputStream) {
        let title = escape(diagram.machine)
        // `compound=true` lets an edge end at a cluster's border (`lhead`, `ltail`); `newrank`
        // ranks the states of all clusters together, so that a compound state's transitions back
        // to an earlier state do not pull that state below the cluster.
        let nested = diagram.isNested
        output.write(
            "digraph \"\(title)\" {\n    graph [label=\"\(title)\", labelloc=t\(nested ? ", compound=true, newrank=true" : "")];\n"
        )
        writeNodes(diagram, into: &output)
        writeEdges(diagram, nested: nested, into: &output)
        output.write("}\n")
    }

    /// The node id of a diagram endpoint.
    static func id(_ endpoint: FlowDiagram.Endpoint) -> String {
        switch endpoint {
        case .state(let index): "s\(index)"
        case .machineWide: "wide"
        }
    }

    private static func writeNodes(_ diagram: FlowDiagram, into output: inout some TextOutputStream) {
        if diagram.initial != nil {
            output.write("    start [shape=point, width=0.15, label=\"\"];\n")
        }
        var children: [Int: [Int]] = [:]
        diagram.walkNesting(
            visit: { index, depth in
                let node = diagram.nodes[index]
                if let parent = node.parent { children[parent, default: []].append(index) }
                if node.isCompound {
                    writeClusterStart(index, depth, diagram, into: &output)
                } else {
                    output.write("\(indentation(depth))\(id(.state(index))) [\(attributes(node))];\n")
                }
            },
            close: { compound, depth in
                writeClusterEnd(compound, children: children[compound] ?? [], depth, diagram, into: &output)
            })
        if diagram.hasMachineWideNode {
            output.write(
                "    \(id(.machineWide)) [label=\"any input or task state"
                    + diagram.machineWideInternalTransitions.map { "\\n" + $0.text(escapingNames: escape) }.joined()
                    + "\", shape=box, "
                    + "style=\"rounded,dashed\", color=\"#6b7280\", fontcolor=\"#4b5563\"];\n")
        }
    }

    /// A compound state's cluster, up to the states inside it. The compound state's own node is
    /// its start point, where edges to it end (clipped at the cluster's border) and from which
    /// an arrow leads to the state it enters first; without a first state it is invisible.
    private static func writeClusterStart(
        _ compound: Int, _ depth: Int, _ diagram: FlowDiagram, into output: inout some TextOutputStream
    ) {
        let node = diagram.nodes[compound]
        let indent = indentation(depth)
        let inner = indentation(depth + 1)
        output.write("\(indent)subgraph \(cluster(compound)) {\n\(inner)graph [\(clusterAttributes(node))];\n")
        let look = node.initialChild == nil ? "style=invis, " : ""
        output.write("\(inner)\(id(.state(compound))) [shape=point, \(look)width=0.15, label=\"\"];\n")
    }

    /// The end of a compound state's cluster: the arrow to the state it enters first, and an
    /// invisible exit point below every state inside it, where the compound state's own
    /// transitions leave from (so that they leave the cluster at its bottom, as the flow goes).
    private static func writeClusterEnd(
        _ compound: Int, children: [Int], _ depth: Int, _ diagram: FlowDiagram,
        into output: inout some TextOutputStream
    ) {
        let inner = indentation(depth + 1)
        if let initial = diagram.nodes[compound].initialChild {
            let effects = diagram.nodes[compound].initialEffects
            let label = effects.isEmpty ? "" : " [label=\"/ \(effects.map(escape).joined(separator: ", "))\"]"
            output.write("\(inner)\(id(.state(compound))) -> \(id(.state(initial)))\(label);\n")
        }
        let exit = exitID(compound)
        output.write("\(inner)\(exit) [shape=point, style=invis, width=0, label=\"\"];\n")
        for child in children {
            output.write("\(inner)\(sourceID(.state(child), diagram)) -> \(exit) [style=invis];\n")
        }
        output.write("\(indentation(depth))}\n")
    }

    /// Four spaces per level: the graph's statements, then each cluster's.
    static func indentation(_ depth: Int) -> String {
        String(repeating: " ", count: 4 * (depth + 1))
    }

    /// The invisible point a compound state's transitions leave from.
    static func exitID(_ compound: Int) -> String { "s\(compound)_exit" }

    /// Where an edge from an endpoint starts: a state's node, or a compound state's exit point.
    static func sourceID(_ endpoint: FlowDiagram.Endpoint, _ diagram: FlowDiagram) -> String {
        if case .state(let index) = endpoint, diagram.nodes[index].isCompound { return exitID(index) }
        return id(endpoint)
    }

    /// The id of the cluster a compound state is drawn as.
    static func cluster(_ index: Int) -> String { "cluster_s\(index)" }

    /// A compound state's cluster: its label (name, effects, marks) and a rounded grey border,
    /// red and dashed when a finding marks it, yellow and dashed when runs did not exercise
    /// something there (as for a state's node).
    static func clusterAttributes(_ node: FlowDiagram.Node) -> String {
        let marked: (border: String, text: String)? =
            !node.unexercised.isEmpty ? ("#ca8a04", "#854d0e") : !node.findings.isEmpty ? ("#dc2626", "#991b1b") : nil
        var parts = ["label=\"\(label(node))\""]
        guard let marked else { return (parts + ["style=\"rounded\"", "color=\"#6b7280\""]).joined(separator: ", ") }
        parts += [
            "style=\"rounded,dashed\"", "color=\"\(marked.border)\"", "fontcolor=\"\(marked.text)\"", "penwidth=2"
        ]
        return parts.joined(separator: ", ")
    }

    /// A state's label: its name (`H` or `H*` for a history state), its entry and exit effects, its activities,
    /// the rules of the findings that mark it and what runs did not exercise there, one line
    /// each.
    static func label(_ node: FlowDiagram.Node) -> String {
        var label = node.isHistory ? node.historySymbol : escape(node.name)
        if !node.entry.isEmpty { label += "\\nentry / " + node.entry.map(escape).joined(separator: ", ") }
        if !node.exit.isEmpty { label += "\\nexit / " + node.exit.map(escape).joined(separator: ", ") }
        if !node.activities.isEmpty { label += "\\ndo / " + node.activities.map(escape).joined(separator: ", ") }
        for transition in node.internalTransitions { label += "\\n" + transition.text(escapingNames: escape) }
        if !node.findings.isEmpty { label += "\\n" + node.findings.map(\.rawValue).joined(separator: ", ") }
        if !node.unexercised.isEmpty {
            label += "\\nnot exercised: " + node.unexercised.map(escape).joined(separator: ", ")
        }
        return label
    }

    /// A node's label, shape and style: its kind's, overridden in red when a finding marks it,
    /// in yellow when runs did not exercise something there.
    static func attributes(_ node: FlowDiagram.Node) -> String {
        var (shape, styles, fill) = kindLook(node.kind)
        let label = label(node)
        var extra: [String] = []
        if !node.findings.isEmpty {
            styles = ["filled", "dashed"] + (styles.contains("rounded") ? ["rounded"] : [])
            fill = "#fee2e2"
            extra = ["color=\"#dc2626\"", "fontcolor=\"#991b1b\"", "penwidth=2"]
        }
        if !node.unexercised.isEmpty {
            styles = ["filled", "dashed"] + (styles.contains("rounded") ? ["rounded"] : [])
            fill = "#fef9c3"
            extra = ["color=\"#ca8a04\"", "fontcolor=\"#854d0e\"", "penwidth=2"]
        }
        var parts = ["label=\"\(label)\"", "shape=\(shape)"]
        // Small, as statecharts draw history: a pseudo-state, not a state the flow waits in.
        if node.isHistory { parts += ["width=0.3", "margin=0.02", "fontsize=10"] }
        if !styles.isEmpty { parts.append("style=\"\(styles.joined(separator: ","))\"") }
        if let fill { parts.append("fillcolor=\"\(fill)\"") }
        return (parts + extra).joined(separator: ", ")
    }

    private static func kindLook(_ kind: StateKind) -> (shape: String, styles: [String], fill: String?) {
        switch kind {
        case .input: ("box", ["rounded"], nil)
        case .task: ("box", ["filled"], "#dbeafe")
        case .choice: ("diamond", ["filled"], "#fef3c7")
        case .terminal: ("doublecircle", ["filled"], "#e5e7eb")
        case .history: ("circle", ["filled"], "#ffffff")
        }
    }

    private static func writeEdges(_ diagram: FlowDiagram, nested: Bool, into output: inout some TextOutputStream) {
        if let initial = diagram.initial {
            let ends = nested ? clusterEnds(from: nil, to: initial, in: diagram) : []
            output.write(
                "    start -> \(id(.state(initial)))\(ends.isEmpty ? "" : " [\(ends.joined(separator: ", "))]");\n")
        }
        for edge in diagram.edges {
            var parts = [attributes(edge)]
            if nested {
                let source: Int? = if case .state(let index) = edge.source { index } else { nil }
                parts += clusterEnds(from: source, to: edge.target, in: diagram)
            }
            output.write(
                "    \(sourceID(edge.source, diagram)) -> \(id(.state(edge.target))) [\(parts.joined(separator: ", "))];\n"
            )
        }
    }

    /// `ltail` and `lhead` for an edge that leaves or enters a compound state, so that it is
    /// drawn from or to the cluster's border; left out where the other end is inside that
    /// cluster (Graphviz cannot clip an edge at a cluster holding both ends).
    static func clusterEnds(from source: Int?, to target: Int, in diagram: FlowDiagram) -> [String] {
        var ends: [String] = []
        if let source, diagram.nodes[source].isCompound, !diagram.isWithin(target, source) {
            ends.append("ltail=\(cluster(source))")
        }
        if diagram.nodes[target].isCompound, !(source.map { diagram.isWithin($0, target) } ?? false) {
            ends.append("lhead=\(cluster(target))")
        }
        return ends
    }

    /// An edge's label and, for a retry's `then` or a loop, its style.
    static func attributes(_ edge: FlowDiagram.Edge) -> String {
        var parts = ["label=\"\(edge.label.text(escapingNames: escape))\""]
        if edge.isRetryFallback { parts.append("style=dashed") }
        if edge.isInLoop { parts += ["color=\"#dc2626\"", "fontcolor=\"#991b1b\"", "penwidth=2"] }
        return parts.joined(separator: ", ")
    }

    /// Escapes a spec name for a double-quoted DOT string used as a label: control characters
    /// become visible `\u{…}` (as in text output), then `\` and `"` are backslash-escaped and
    /// `&` becomes `&amp;` (Graphviz decodes entities such as `&lt;` in labels).
    /// Works on Unicode scalars, so that a quote followed by a combining mark is escaped too.
    public static func escape(_ name: String) -> String {
        var result = ""
        for scalar in TextRenderer.printable(name).unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "&": result += "&amp;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
