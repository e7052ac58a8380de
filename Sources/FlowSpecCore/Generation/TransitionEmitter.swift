/// Emits a machine's private transition functions as `switch` statements: the step an event
/// leads to in each state, each choice state's `always` branch, and each state's timeout.
struct TransitionEmitter {
    let program: FlowProgram
    /// Every distinct list of effects a candidate runs, in order of first use (own transitions,
    /// then `always` branches, then timeouts), and the run of `effectList` each one has.
    let effectLists: [[Int]]
    let effectRanges: [[Int]: Range<Int>]

    init(program: FlowProgram) {
        self.program = program
        var lists: [[Int]] = []
        var ranges: [[Int]: Range<Int>] = [:]
        var next = 0
        func add(_ candidate: FlowProgram.Candidate) {
            guard !candidate.effects.isEmpty, ranges[candidate.effects] == nil else { return }
            ranges[candidate.effects] = next..<(next + candidate.effects.count)
            next += candidate.effects.count
            lists.append(candidate.effects)
        }
        for state in program.states {
            for transition in state.transitions { transition.candidates.forEach(add) }
        }
        for state in program.states { state.always.forEach(add) }
        for state in program.states { if let timeout = state.timeout { add(timeout.candidate) } }
        effectLists = lists
        effectRanges = ranges
    }

    /// The transition functions of the switch form.
    func emitSteps(_ w: inout SwiftWriter) {
        emitEventSteps(&w)
        emitAlwaysSteps(&w)
        emitTimeoutSteps(&w)
    }

    private func state(_ index: Int) -> String { "." + program.states[index].swiftName.code }

    /// `Retry` and `Step` of the switch form. A step names its effects as a range of
    /// `effectList`, so choosing one allocates nothing.
    func emitStepTypes(_ w: inout SwiftWriter) {
        let retries = program.retrySlotCount > 0
        let effects = !program.effects.isEmpty
        if retries {
            w.line()
            w.doc("A bounded `retry`: its counter, how many times in a row, and where it goes after.")
            w.block("private struct Retry: Swift.Sendable") { w in
                w.line("let slot: Swift.Int")
                w.line("let max: Swift.Int")
                w.line("let fallback: State")
            }
        }
        w.line()
        w.doc(
            "A transition chosen: where it goes" + (effects ? ", the effects it runs (a range of `effectList`)" : "")
                + (retries ? ", and its retry bound" : "") + ".")
        w.block("private struct Step: Swift.Sendable") { w in
            w.line("let target: State")
            if effects { w.line("let effects: Swift.Range<Swift.Int>") }
            if retries { w.line("let retry: Retry?") }
            w.line()
            var parameters = ["_ target: State"]
            if effects { parameters.append("effects: Swift.Range<Swift.Int> = 0..<0") }
            if retries { parameters.append("retry: Retry? = nil") }
            w.block("init(\(parameters.joined(separator: ", ")))") { w in
                w.line("self.target = target")
                if effects { w.line("self.effects = effects") }
                if retries { w.line("self.retry = retry") }
            }
        }
        emitEffectList(&w)
    }

    private func emitEffectList(_ w: inout SwiftWriter) {
        guard !program.effects.isEmpty else { return }
        w.line()
        w.doc("The effects of the transitions, each list once: a step runs a range of it.")
        w.line("private static let effectList: [Effect] = [")
        for list in effectLists {
            let range = effectRanges[list]!
            w.line(
                "    " + list.map { "." + program.effects[$0].swiftName.code + "," }.joined(separator: " ")
                    + " // \(range.lowerBound)..<\(range.upperBound)")
        }
        w.line("]")
    }

    private func emitEventSteps(_ w: inout SwiftWriter) {
        // A machine without events (`Event` is `Never`) has no event steps at all: code taking
        // a `Never` would be unreachable.
        guard !program.events.isEmpty else { return }
        w.line()
        w.doc("The step `event` leads to in `state`, or `nil` if the state ignores it.")
        w.block("private static func step(_ state: State, on event: Event, _ conditions: Conditions) -> Step?") { w in
            let handled = program.states.indices.flatMap { index in
                program.states[index].transitions.map { (state: index, event: $0.event, candidates: $0.candidates) }
            }
            guard !handled.isEmpty else {
                w.line("nil")
                return
            }
            w.switchBlock("switch (state, event)") { w in
                for entry in handled {
                    w.line("case (\(state(entry.state)), .\(program.events[entry.event].swiftName.code)):")
                    candidates(entry.candidates, &w)
                }
                if handled.count < program.states.count * program.events.count {
                    w.line("default:")
                    w.line("    return nil")
                }
            }
        }
    }

    private func emitAlwaysSteps(_ w: inout SwiftWriter) {
        w.line()
        w.doc("The `always` branch a choice state takes at once, or `nil` for other states.")
        w.block("private static func always(_ state: State, _ conditions: Conditions) -> Step?") { w in
            let choices = program.states.indices.filter { !program.states[$0].always.isEmpty }
            guard !choices.isEmpty else {
                w.line("nil")
                return
            }
            w.switchBlock("switch state") { w in
                for index in choices {
                    w.line("case \(state(index)):")
                    candidates(program.states[index].always, &w)
                }
                if choices.count < program.states.count {
                    w.line("default:")
                    w.line("    return nil")
                }
            }
        }
    }

    private func emitTimeoutSteps(_ w: inout SwiftWriter) {
        w.line()
        w.doc("The step the state's timeout takes, or `nil` if it has none.")
        w.block("private static func timeoutStep(_ state: State) -> Step?") { w in
            let timed = program.states.indices.filter { program.states[$0].timeout != nil }
            guard !timed.isEmpty else {
                w.line("nil")
                return
            }
            w.switchBlock("switch state") { w in
                for index in timed {
                    let candidate = program.states[index].timeout!.candidate
                    w.line("case \(state(index)): \(step(candidate))" + effectsComment(candidate))
                }
                if timed.count < program.states.count { w.line("default: nil") }
            }
        }
    }

    /// The candidates in order: conditional ones as `if`, up to the first unconditional one
    /// (later ones can never be taken, and emitting them would be unreachable code).
    private func candidates(_ candidates: [FlowProgram.Candidate], _ w: inout SwiftWriter) {
        for candidate in candidates {
            if let condition = condition(candidate) {
                w.line("    if \(condition) { return \(step(candidate)) }" + effectsComment(candidate))
            } else {
                w.line("    return \(step(candidate))" + effectsComment(candidate))
                return
            }
        }
        w.line("    return nil")
    }

    private func condition(_ candidate: FlowProgram.Candidate) -> String? {
        let terms =
            candidate.requires.map { "conditions.\(program.conditions[$0].swiftName.code)" }
            + candidate.forbids.map { "!conditions.\(program.conditions[$0].swiftName.code)" }
        return terms.isEmpty ? nil : terms.joined(separator: " && ")
    }

    private func step(_ candidate: FlowProgram.Candidate) -> String {
        var arguments = [state(candidate.target)]
        if let range = effectRanges[candidate.effects] {
            arguments.append("effects: \(range.lowerBound)..<\(range.upperBound)")
        }
        if let retry = candidate.retry {
            arguments.append("retry: Retry(slot: \(retry.slot), max: \(retry.max), fallback: \(state(retry.fallback)))")
        }
        return "Step(" + arguments.joined(separator: ", ") + ")"
    }

    /// A comment naming the candidate's effects, for the end of its line (empty without effects).
    private func effectsComment(_ candidate: FlowProgram.Candidate) -> String {
        candidate.effects.isEmpty
            ? ""
            : " // " + candidate.effects.map { program.effects[$0].swiftName.code }.joined(separator: ", ")
    }
}
