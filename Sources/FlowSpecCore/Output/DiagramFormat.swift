/// The diagram languages `flowspec graph` can write.
public enum DiagramFormat: String, Sendable, CaseIterable {
    /// A Mermaid state diagram (GitHub renders it in ```` ```mermaid ```` blocks).
    case mermaid
    /// A Graphviz `digraph` (`dot -Tsvg`).
    case dot

    /// Draws one machine's diagram in this format.
    public func render(_ diagram: FlowDiagram) -> String {
        var text = ""
        render(diagram, into: &text)
        return text
    }

    /// Writes one machine's diagram in this format, line by line.
    public func render(_ diagram: FlowDiagram, into output: inout some TextOutputStream) {
        switch self {
        case .mermaid: MermaidRenderer.render(diagram, into: &output)
        case .dot: DOTRenderer.render(diagram, into: &output)
        }
    }
}
