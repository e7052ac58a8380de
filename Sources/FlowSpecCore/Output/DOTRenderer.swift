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
        output.write("digraph \"\(title)\" {\n    graph [label=\"\(title)\", labelloc=t];\n")
        writeNodes(diagram, into: &output)
        writeEdges(diagram, into: &output)
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
        for (index, node) in diagram.nodes.enumerated() {
            output.write("    \(id(.state(index))) [\(attributes(node))];\n")
        }
        if diagram.hasMachineWideNode {
            output.write(
                "    \(id(.machineWide)) [label=\"any input or task state\", shape=box, "
                    + "style=\"rounded,dashed\", color=\"#6b7280\", fontcolor=\"#4b5563\"];\n")
        }
    }

    /// A node's label, shape and style: its kind's, overridden in red when a finding marks it,
    /// in yellow when runs did not exercise something there.
    static func attributes(_ node: FlowDiagram.Node) -> String {
        var (shape, styles, fill) = kindLook(node.kind)
        var label = escape(node.name)
        var extra: [String] = []
        if !node.findings.isEmpty {
            label += "\\n" + node.findings.map(\.rawValue).joined(separator: ", ")
            styles = ["filled", "dashed"] + (styles.contains("rounded") ? ["rounded"] : [])
            fill = "#fee2e2"
            extra = ["color=\"#dc2626\"", "fontcolor=\"#991b1b\"", "penwidth=2"]
        }
        if !node.unexercised.isEmpty {
            label += "\\nnot exercised: " + node.unexercised.map(escape).joined(separator: ", ")
            styles = ["filled", "dashed"] + (styles.contains("rounded") ? ["rounded"] : [])
            fill = "#fef9c3"
            extra = ["color=\"#ca8a04\"", "fontcolor=\"#854d0e\"", "penwidth=2"]
        }
        var parts = ["label=\"\(label)\"", "shape=\(shape)"]
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
        }
    }

    private static func writeEdges(_ diagram: FlowDiagram, into output: inout some TextOutputStream) {
        if let initial = diagram.initial {
            output.write("    start -> \(id(.state(initial)));\n")
        }
        for edge in diagram.edges {
            output.write("    \(id(edge.source)) -> \(id(.state(edge.target))) [\(attributes(edge))];\n")
        }
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
