import Foundation

/// A chart of the oracle's (``StatechartOracle/Chart``) as an SCXML document, for running it
/// in an engine flowspec did not write (python-statemachine, through `Tests/Engines`). The
/// datamodel holds condition N as `fs_cN`, counter N as `fs_rN` and the effects logged as the
/// list `fs_trace`; the root's children are the document's top-level states.
enum SCXMLWriter {
    typealias Chart = StatechartOracle.Chart

    /// The document of `chart`, its conditions starting as `conditions`, with `counters`
    /// counters at 0.
    static func document(_ chart: Chart, conditions: [Bool], counters: Int = 0) -> String {
        let initial = chart.nodes[chart.nodes[0].initial[0]].id
        var lines = [
            #"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="\#(initial)" datamodel="python">"#,
            "<datamodel>"
        ]
        for (index, value) in conditions.enumerated() {
            lines.append(#"<data id="fs_c\#(index)" expr="\#(value ? "True" : "False")"/>"#)
        }
        for counter in 0..<counters { lines.append(#"<data id="fs_r\#(counter)" expr="0"/>"#) }
        lines += [#"<data id="fs_trace" expr="[]"/>"#, "</datamodel>"]
        for child in chart.nodes[0].children { write(child, chart, &lines) }
        lines.append("</scxml>")
        return lines.joined(separator: "\n")
    }

    private static func write(_ index: Int, _ chart: Chart, _ lines: inout [String]) {
        let node = chart.nodes[index]
        if case .history(let deep) = node.kind {
            lines.append(#"<history id="\#(node.id)" type="\#(deep ? "deep" : "shallow")">"#)
            lines += transition(node.transitions[0], chart)
            lines.append("</history>")
            return
        }
        let element = node.kind == .parallel ? "parallel" : node.kind == .final ? "final" : "state"
        // An initial transition with content is an `<initial>` element; else the attribute.
        let entering = chart.initialTransitions[index].map { chart.transitions[$0] }
        let written = entering.map { !$0.content.isEmpty } ?? false
        let initial = node.initial.isEmpty || written ? "" : #" initial="\#(chart.nodes[node.initial[0]].id)""#
        lines.append(#"<\#(element) id="\#(node.id)"\#(initial)>"#)
        if let entering, written {
            let target = entering.targets.map { chart.nodes[$0].id }.joined(separator: " ")
            lines += [#"<initial><transition target="\#(target)">"#] + entering.content.map(content)
            lines.append("</transition></initial>")
        }
        if !node.onentry.isEmpty { lines += ["<onentry>"] + node.onentry.map(content) + ["</onentry>"] }
        if !node.onexit.isEmpty { lines += ["<onexit>"] + node.onexit.map(content) + ["</onexit>"] }
        for child in node.children { write(child, chart, &lines) }
        for transition in node.transitions { lines += self.transition(transition, chart) }
        lines.append("</\(element)>")
    }

    private static func transition(_ index: Int, _ chart: Chart) -> [String] {
        let t = chart.transitions[index]
        var attributes = ""
        if let event = t.event { attributes += #" event="\#(event)""# }
        if !t.guards.isEmpty {
            attributes += #" cond="\#(escaped(t.guards.map { condition($0, chart) }.joined(separator: " and ")))""#
        }
        if !t.targets.isEmpty {
            attributes += #" target="\#(t.targets.map { chart.nodes[$0].id }.joined(separator: " "))""#
        }
        if t.isInternal { attributes += #" type="internal""# }
        return [#"<transition\#(attributes)>"#] + t.content.map(content) + ["</transition>"]
    }

    private static func condition(_ term: Chart.Guard, _ chart: Chart) -> String {
        switch term {
        case .condition(let index): "fs_c\(index)"
        case .not(let index): "not fs_c\(index)"
        case .below(let counter, let bound): "fs_r\(counter) < \(bound)"
        case .atLeast(let counter, let bound): "fs_r\(counter) >= \(bound)"
        case .inState(let node): "In('\(chart.nodes[node].id)')"
        case .notInState(let node): "not In('\(chart.nodes[node].id)')"
        }
    }

    private static func content(_ action: Chart.Action) -> String {
        switch action {
        case .log(let effect): assign("fs_trace", "fs_trace + ['\(effect)']")
        case .increment(let counter): assign("fs_r\(counter)", "fs_r\(counter) + 1")
        case .reset(let counter): assign("fs_r\(counter)", "0")
        }
    }

    private static func assign(_ location: String, _ expression: String) -> String {
        #"<assign location="\#(location)" expr="\#(escaped(expression))"/>"#
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
