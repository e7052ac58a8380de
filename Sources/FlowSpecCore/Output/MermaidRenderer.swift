/// Draws a ``FlowDiagram`` as a Mermaid state diagram (`stateDiagram-v2`), which GitHub renders
/// in ```` ```mermaid ```` blocks.
///
/// - The machine's name is the diagram's title (front matter); the initial state has an entry
///   arrow from `[*]`, and every terminal state an arrow to `[*]`.
/// - States are `s0`, `s1`, … in source order, named in quoted labels; kinds are styled with
///   classes: `task` (blue), `choice` (amber), `terminal` (grey, thick border); `input` states
///   keep Mermaid's plain look. The grouped machine-wide node is `wide` (dashed).
/// - Highlighted states get the `finding` class (red, dashed) and their rule ids as a second
///   line; states where recorded runs missed something (`flowspec coverage`) get the
///   `unexercised` class (yellow, dashed) and what they missed. `flowspec diff` marks states
///   and edges added (green) or changed (purple), and draws removed states dashed and grey,
///   with removed transitions as notes on the state they left. (Mermaid state diagrams cannot style single transitions; DOT output also marks the
///   edges of a loop.)
/// - A compound state is a composite state (`state "signIn" as s1 { … }`) holding its states,
///   with a `[*]` arrow to the state it enters first and an arrow from each terminal state
///   inside to its `[*]`. Its own transitions (`on`, timeout, `done`) leave from it once;
///   what a leaf would show under its name (entry and exit effects, marks) is a note beside it,
///   since Mermaid rejects descriptions of composite states. Leaves show their entry and exit
///   effects under their name: `entry / trackSignInStarted`.
/// - A parallel state is a composite state whose regions, each a composite state (or a state)
///   with its own `[*]` arrow, are separated by `--`: Mermaid's concurrent regions.
/// - A history state, for which Mermaid has no pseudo-state, is a state labelled `H` (shallow)
///   or `H*` (deep) in its composite state, styled with the `history` class (white, bold, thick
///   border); it keeps its `sN` id, and its `default` is an edge labelled `default`.
/// - Spec names are escaped with Mermaid's `#code;` entities, so that any name gives a valid
///   diagram: only letters, digits, spaces, `_`, `-` and `.` are written as they are.
public enum MermaidRenderer {
    /// The diagram's text, ending with a line break.
    public static func render(_ diagram: FlowDiagram) -> String {
        var text = ""
        render(diagram, into: &text)
        return text
    }

    /// Writes the diagram's text, line by line, ending with a line break: a diagram of
    /// 100,000 states is never held whole.
    public static func render(_ diagram: FlowDiagram, into output: inout some TextOutputStream) {
        output.write("---\ntitle: \(yamlQuoted(diagram.machine))\n---\nstateDiagram-v2\n")
        writeStates(diagram, into: &output)
        writeEdges(diagram, into: &output)
        writeClasses(diagram, into: &output)
    }

    /// The node id of a diagram endpoint.
    static func id(_ endpoint: FlowDiagram.Endpoint) -> String {
        switch endpoint {
        case .state(let index): "s\(index)"
        case .machineWide: "wide"
        }
    }

    private static func writeStates(_ diagram: FlowDiagram, into output: inout some TextOutputStream) {
        var terminalsInside: [Int: [Int]] = [:]
        diagram.walkNesting(
            visit: { index, depth in
                let node = diagram.nodes[index]
                let indent = indentation(depth)
                let id = id(.state(index))
                // Regions after the first are set apart, as Mermaid draws concurrent regions (a
                // history state beside them is none: it stays with the region before it).
                if let parent = node.parent, diagram.nodes[parent].isParallel, parent + 1 != index, !node.isHistory {
                    output.write("\(indent)--\n")
                }
                output.write("\(indent)state \"\(label(node))\" as \(id)\(node.isCompound ? " {" : "")\n")
                if node.isCompound { return }
                for line in descriptions(node) { output.write("\(indent)\(id) : \(line)\n") }
                if node.kind == .terminal, let parent = node.parent {
                    terminalsInside[parent, default: []].append(index)
                }
            },
            close: { compound, depth in
                writeEnd(of: compound, terminals: terminalsInside[compound] ?? [], depth, diagram, into: &output)
            })
        for removed in diagram.removedTransitions {
            guard let state = removed.state, !diagram.nodes[state].isCompound else { continue }
            output.write("    \(id(.state(state))) : removed \(escape(removed.text))\n")
        }
        for (index, name) in diagram.removedStates.enumerated() {
            output.write("    state \"\(escape(name))\" as removed\(index)\n    removed\(index) : removed\n")
        }
        // Declared before its notes: a description first would become the node's label.
        let removedMachineWide = diagram.removedTransitions.filter { $0.state == nil }
        if diagram.hasMachineWideNode || !removedMachineWide.isEmpty {
            output.write("    state \"any input or task state\" as \(id(.machineWide))\n")
        }
        for label in diagram.machineWideInternalTransitions {
            output.write("    \(id(.machineWide)) : \(label.text(escapingNames: escape))\n")
        }
        for removed in removedMachineWide {
            output.write("    \(id(.machineWide)) : removed \(escape(removed.text))\n")
        }
    }

    /// The end of a composite state: the `[*]` arrow to the state it enters first, the arrows
    /// from its terminal states to its `[*]`, the closing brace, and its description as a note
    /// beside it (Mermaid rejects descriptions of composite states). Transitions that cross its
    /// border are written at the top level: Mermaid moves a state into the last composite
    /// state whose block names it.
    private static func writeEnd(
        of compound: Int, terminals: [Int], _ depth: Int, _ diagram: FlowDiagram,
        into output: inout some TextOutputStream
    ) {
        let node = diagram.nodes[compound]
        let indent = indentation(depth)
        let inner = indentation(depth + 1)
        if let initial = node.initialChild {
            let effects =
                node.initialEffects.isEmpty ? "" : " : / " + node.initialEffects.map(escape).joined(separator: ", ")
            output.write("\(inner)[*] --> \(id(.state(initial)))\(effects)\n")
        }
        for terminal in terminals { output.write("\(inner)\(id(.state(terminal))) --> [*]\n") }
        output.write("\(indent)}\n")
        let removed = diagram.removedTransitions.filter { $0.state == compound }.map { "removed " + escape($0.text) }
        let lines = descriptions(node) + removed
        guard !lines.isEmpty else { return }
        output.write("\(indent)note right of \(id(.state(compound)))\n")
        for line in lines { output.write("\(inner)\(line)\n") }
        output.write("\(indent)end note\n")
    }

    /// A state's quoted label: its name, or for a history state `H` or `H*`.
    static func label(_ node: FlowDiagram.Node) -> String {
        escape(node.isHistory ? node.historySymbol : node.name)
    }

    /// What is written under a state's name: its entry and exit effects, its activities, the rules of the
    /// findings that mark it, what runs did not exercise there, and its change mark.
    static func descriptions(_ node: FlowDiagram.Node) -> [String] {
        var lines: [String] = []
        if !node.entry.isEmpty { lines.append("entry / " + node.entry.map(escape).joined(separator: ", ")) }
        if !node.exit.isEmpty { lines.append("exit / " + node.exit.map(escape).joined(separator: ", ")) }
        if !node.activities.isEmpty { lines.append("do / " + node.activities.map(escape).joined(separator: ", ")) }
        lines += node.internalTransitions.map { $0.text(escapingNames: escape) }
        if !node.findings.isEmpty { lines.append(node.findings.map(\.rawValue).joined(separator: ", ")) }
        if !node.unexercised.isEmpty {
            // `#58;`: Mermaid (11.12 and before) rejects a second `:` in a description.
            lines.append("not exercised#58; " + node.unexercised.map(escape).joined(separator: ", "))
        }
        if let change = node.change { lines.append(change.rawValue) }
        return lines
    }

    /// Four spaces per level: the top level's statements, then each composite state's.
    static func indentation(_ depth: Int) -> String {
        String(repeating: " ", count: 4 * (depth + 1))
    }

    private static func writeEdges(_ diagram: FlowDiagram, into output: inout some TextOutputStream) {
        if let initial = diagram.initial {
            output.write("    [*] --> \(id(.state(initial)))\n")
        }
        for edge in diagram.edges {
            let label = edge.label.text(escapingNames: escape) + (edge.change.map { " (\($0.rawValue))" } ?? "")
            output.write("    \(id(edge.source)) --> \(id(.state(edge.target))) : \(label)\n")
        }
        // A terminal state inside a composite state leads to that state's `[*]`, written in its block.
        for (index, node) in diagram.nodes.enumerated()
        where node.kind == .terminal && node.parent == nil && !node.isCompound {
            output.write("    \(id(.state(index))) --> [*]\n")
        }
    }

    /// `classDef` and `class` lines for the styles in use: kinds first, findings last (so
    /// that their colours win).
    private static func writeClasses(_ diagram: FlowDiagram, into output: inout some TextOutputStream) {
        var groups: [(name: String, style: String, ids: [FlowDiagram.Endpoint])] = []
        for (kind, style) in kindStyles {
            let ids = diagram.nodes.indices.filter { diagram.nodes[$0].kind == kind && !diagram.nodes[$0].isCompound }
                .map(FlowDiagram.Endpoint.state)
            groups.append((kind.rawValue, style, ids))
        }
        let histories = diagram.nodes.indices.filter { diagram.nodes[$0].isHistory }.map(FlowDiagram.Endpoint.state)
        groups.append(("history", historyStyle, histories))
        groups.append(("machineWide", machineWideStyle, diagram.hasMachineWideNode ? [.machineWide] : []))
        let marked = diagram.nodes.indices.filter { !diagram.nodes[$0].findings.isEmpty }.map(
            FlowDiagram.Endpoint.state)
        for mark in [FlowDiagram.ChangeMark.added, .changed] {
            let ids = diagram.nodes.indices.filter { diagram.nodes[$0].change == mark }.map(FlowDiagram.Endpoint.state)
            groups.append((mark.rawValue, mark == .added ? addedStyle : changedStyle, ids))
        }
        let unexercised = diagram.nodes.indices.filter { !diagram.nodes[$0].unexercised.isEmpty }.map(
            FlowDiagram.Endpoint.state)
        groups.append(("unexercised", unexercisedStyle, unexercised))
        groups.append(("finding", findingStyle, marked))
        for group in groups where !group.ids.isEmpty {
            output.write("    classDef \(group.name) \(group.style)\n    class ")
            for (position, endpoint) in group.ids.enumerated() {
                output.write(position == 0 ? id(endpoint) : "," + id(endpoint))
            }
            output.write(" \(group.name)\n")
        }
        if !diagram.removedStates.isEmpty {
            let ids = diagram.removedStates.indices.map { "removed\($0)" }.joined(separator: ",")
            output.write("    classDef removed \(removedStyle)\n    class \(ids) removed\n")
        }
    }

    static let kindStyles: [(StateKind, String)] = [
        (.task, "fill:#dbeafe,stroke:#1d4ed8"),
        (.choice, "fill:#fef3c7,stroke:#b45309"),
        (.terminal, "fill:#e5e7eb,stroke:#111827,stroke-width:3px")
    ]
    static let historyStyle = "fill:#ffffff,stroke:#111827,stroke-width:2px,font-weight:bold"
    static let machineWideStyle = "fill:#ffffff,stroke:#6b7280,stroke-dasharray:4 4"
    static let addedStyle = "fill:#dcfce7,stroke:#16a34a,stroke-width:2px"
    static let changedStyle = "fill:#ede9fe,stroke:#7c3aed,stroke-width:2px"
    static let removedStyle = "fill:#f3f4f6,stroke:#6b7280,stroke-dasharray:6 3,color:#6b7280"
    static let unexercisedStyle = "fill:#fef9c3,stroke:#ca8a04,stroke-width:3px,stroke-dasharray:6 3"
    static let findingStyle = "fill:#fee2e2,stroke:#dc2626,stroke-width:3px,stroke-dasharray:6 3"

    /// Escapes a spec name for a quoted state label or a transition label.
    ///
    /// Mermaid turns `#60;` into `<` after parsing, so every character that could mean
    /// something to its parser or to HTML is written that way: ASCII punctuation other than
    /// `_`, `-` and `.`, whitespace other than a plain space, invisible characters, and the
    /// characters of Mermaid's internal entity markers (`ﬂ`, `¶`). A space after the word
    /// `direction` is escaped too (Mermaid reads `direction TB` anywhere in a line as a layout
    /// statement), and so is a space at either end of the name (Mermaid trims labels). Control
    /// characters are first written as `\u{…}`, as in text output.
    public static func escape(_ name: String) -> String {
        var result = ""
        var tail: [UInt8] = []
        let scalars = Array(TextRenderer.printable(name).unicodeScalars)
        for (position, scalar) in scalars.enumerated() {
            let trimmed = scalar == " " && (position == 0 || position == scalars.count - 1)
            if isLiteral(scalar), !trimmed, !(scalar == " " && tail == directionWord) {
                result.unicodeScalars.append(scalar)
            } else {
                result += "#\(scalar.value);"
            }
            tail = Array((tail + [scalar.isASCII ? UInt8(scalar.value) | 0x20 : 0]).suffix(directionWord.count))
        }
        return result
    }

    /// `direction`, which Mermaid's lexer matches in any case when whitespace follows it.
    private static let directionWord = Array("direction".utf8)

    /// Whether a character can stand for itself in a Mermaid label.
    static func isLiteral(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == " " || scalar == "_" || scalar == "-" || scalar == "."
        }
        if scalar == "\u{FB02}" || scalar == "\u{B6}" || scalar.properties.isWhitespace { return false }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .spaceSeparator, .privateUse,
            .surrogate, .unassigned:
            return false
        default:
            return true
        }
    }

    /// A YAML double-quoted scalar for the front matter's title. `#` and `%` are written as
    /// `\x23` and `\x25`, which YAML reads back, so that Mermaid's entity and comment handling
    /// of the raw text cannot touch the title.
    static func yamlQuoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "#": result += "\\x23"
            case "%": result += "\\x25"
            default:
                if isLiteral(scalar) || (scalar.isASCII && scalar.value >= 0x20 && scalar.value < 0x7F) {
                    result.unicodeScalars.append(scalar)
                } else {
                    result += yamlEscape(scalar)
                }
            }
        }
        return result + "\""
    }

}
