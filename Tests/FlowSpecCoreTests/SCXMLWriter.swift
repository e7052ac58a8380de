import Foundation

@testable import FlowSpecCore

/// A flat machine as an SCXML document, for running it in an engine flowspec did not write
/// (`EngineDifferentialTests`). It states flowspec's semantics in SCXML's terms, each rule
/// once, so that a disagreement is a disagreement about the rule:
///
/// - a state's transitions are its own and then the machine-wide ones it inherits, in the
///   order ``FlowProgram`` tries them; SCXML takes the first enabled one in document order;
/// - `if` and `unless` are a `cond` on the datamodel's `fs_cN`;
/// - effects append their names to the list `fs_trace`, in order;
/// - a bounded `retry` is two transitions: below the bound it counts (`fs_rSLOT`) and goes to
///   its target; at the bound it goes to `then` and runs the retry's effects too; entering an
///   `input` or `terminal` state sets every counter back to 0;
/// - `choice` states leave through eventless transitions, `terminal` states are `<final>`;
/// - the timeout is the event `flowspec_timeout`, on the states that have one.
///
/// States are `sN` by index, so spec names need no escaping as ids.
enum SCXMLWriter {
    static let timeoutEvent = "flowspec_timeout"

    /// The document of `program`, its conditions starting as `conditions`.
    static func document(_ program: FlowProgram, conditions: [Bool]) -> String {
        var lines = [
            #"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s\#(program.initial)" datamodel="python">"#,
            "<datamodel>"
        ]
        for (index, value) in conditions.enumerated() {
            lines.append(#"<data id="fs_c\#(index)" expr="\#(value ? "True" : "False")"/>"#)
        }
        for slot in 0..<program.retrySlotCount { lines.append(#"<data id="fs_r\#(slot)" expr="0"/>"#) }
        lines.append(#"<data id="fs_trace" expr="[]"/>"#)
        lines.append("</datamodel>")
        for index in program.states.indices { lines += state(index, program) }
        lines.append("</scxml>")
        return lines.joined(separator: "\n")
    }

    private static func state(_ index: Int, _ program: FlowProgram) -> [String] {
        let state = program.states[index]
        let element = state.kind == .terminal ? "final" : "state"
        var lines = [#"<\#(element) id="s\#(index)">"#]
        if (state.kind == .input || state.kind == .terminal) && program.retrySlotCount > 0 {
            lines.append("<onentry>")
            for slot in 0..<program.retrySlotCount { lines.append(assign("fs_r\(slot)", "0")) }
            lines.append("</onentry>")
        }
        for (event, candidates) in state.transitions {
            for candidate in candidates { lines += transitions(candidate, event: program.events[event].name, program) }
        }
        for candidate in state.always { lines += transitions(candidate, event: nil, program) }
        if let timeout = state.timeout { lines += transitions(timeout.candidate, event: timeoutEvent, program) }
        lines.append("</\(element)>")
        return lines
    }

    /// One candidate: one transition, or two with a bounded retry.
    private static func transitions(_ candidate: FlowProgram.Candidate, event: String?, _ program: FlowProgram)
        -> [String]
    {
        let guards = candidate.requires.map { "fs_c\($0)" } + candidate.forbids.map { "not fs_c\($0)" }
        let effects = candidate.effects.map { program.effects[$0].name }
        guard let retry = candidate.retry else {
            return transition(event: event, guards: guards, target: candidate.target, content: trace(effects))
        }
        let counter = "fs_r\(retry.slot)"
        return transition(
            event: event, guards: guards + ["\(counter) < \(retry.max)"], target: candidate.target,
            content: [assign(counter, "\(counter) + 1")] + trace(effects))
            + transition(
                event: event, guards: guards + ["\(counter) >= \(retry.max)"], target: retry.fallback,
                content: trace(effects + retry.effects.map { program.effects[$0].name }))
    }

    private static func transition(event: String?, guards: [String], target: Int, content: [String]) -> [String] {
        var attributes = event.map { #" event="\#($0)""# } ?? ""
        if !guards.isEmpty { attributes += #" cond="\#(escaped(guards.joined(separator: " and ")))""# }
        return [#"<transition\#(attributes) target="s\#(target)">"#] + content + ["</transition>"]
    }

    private static func trace(_ effects: [String]) -> [String] {
        effects.map { assign("fs_trace", "fs_trace + ['\($0)']") }
    }

    private static func assign(_ location: String, _ expression: String) -> String {
        #"<assign location="\#(location)" expr="\#(escaped(expression))"/>"#
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
