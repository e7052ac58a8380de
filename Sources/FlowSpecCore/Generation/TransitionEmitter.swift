/// Emits a machine's private transition functions as `switch` statements: the step an event
/// leads to in each state, each choice state's `always` branch, and each state's timeout.
struct TransitionEmitter {
    let program: FlowProgram
    let access: String
    /// Every distinct list of effects a candidate runs (its own, then its retry's), in order of
    /// first use (own transitions, then `always` branches, then timeouts), and the run of
    /// `effectList` each one has.
    let effectLists: [[Int]]
    let effectRanges: [[Int]: Range<Int>]

    init(program: FlowProgram, access: String) {
        self.program = program
        self.access = access
        var lists: [[Int]] = []
        var ranges: [[Int]: Range<Int>] = [:]
        var next = 0
        func add(_ effects: [Int]) {
            guard !effects.isEmpty, ranges[effects] == nil else { return }
            ranges[effects] = next..<(next + effects.count)
            next += effects.count
            lists.append(effects)
        }
        func add(_ candidate: FlowProgram.Candidate) {
            add(candidate.effects)
            add(candidate.retry?.effects ?? [])
        }
        for state in program.states {
            for transition in state.transitions { transition.candidates.forEach(add) }
        }
        for state in program.states { state.always.forEach(add) }
        for state in program.states { if let timeout = state.timeout { add(timeout.candidate) } }
        effectLists = lists
        effectRanges = ranges
    }

    /// The effect list and the transition functions of the switch form; a machine leaves out
    /// what it does not have (no effects, no choice states, no timeouts), which the runtime
    /// supplies.
    func emitSteps(_ w: inout SwiftWriter) {
        w.line("private typealias Step = FlowSpecRuntime.FlowStep<State>")
        if program.retrySlotCount > 0 { w.line("private typealias Retry = FlowSpecRuntime.FlowRetry<State>") }
        emitEffectList(&w)
        emitEventSteps(&w)
        emitAlwaysSteps(&w)
        emitTimeoutSteps(&w)
    }

    private func state(_ index: Int) -> String { "." + program.states[index].swiftName.code }

    /// Each distinct list of a transition's effects once, so that a step names its effects as
    /// a range of it and choosing one allocates nothing.
    private func emitEffectList(_ w: inout SwiftWriter) {
        guard !program.effects.isEmpty else { return }
        w.line("\(access)static let effectList: [Effect] = [")
        for list in effectLists {
            let range = effectRanges[list]!
            w.line(
                "    " + list.map { "." + program.effects[$0].swiftName.code + "," }.joined(separator: " ")
                    + " // \(range.lowerBound)..<\(range.upperBound)")
        }
        w.line("]")
    }

    private static let stepType = "FlowSpecRuntime.FlowStep<State>?"

    private func emitEventSteps(_ w: inout SwiftWriter) {
        guard !program.events.isEmpty else { return }
        w.block(
            "\(access)static func step(_ state: State, on event: Event, _ conditions: Conditions, _: Tables) -> \(Self.stepType)"
        ) { w in
            let handled = program.states.indices.flatMap { index in
                program.states[index].transitions.map { (state: index, event: $0.event, candidates: $0.candidates) }
            }
            guard !handled.isEmpty else {
                w.line("nil")
                return
            }
            w.switchBlock("switch (state, event)") { w in
                for entry in handled {
                    w.line(
                        "case (\(state(entry.state)), .\(program.events[entry.event].swiftName.code)): "
                            + candidates(entry.candidates))
                }
                if handled.count < program.states.count * program.events.count { w.line("default: nil") }
            }
        }
    }

    private func emitAlwaysSteps(_ w: inout SwiftWriter) {
        let choices = program.states.indices.filter { !program.states[$0].always.isEmpty }
        guard !choices.isEmpty else { return }
        w.block("\(access)static func always(_ state: State, _ conditions: Conditions, _: Tables) -> \(Self.stepType)")
        { w in
            w.switchBlock("switch state") { w in
                for index in choices {
                    w.line("case \(state(index)): " + candidates(program.states[index].always))
                }
                if choices.count < program.states.count { w.line("default: nil") }
            }
        }
    }

    private func emitTimeoutSteps(_ w: inout SwiftWriter) {
        let timed = program.states.indices.filter { program.states[$0].timeout != nil }
        guard !timed.isEmpty else { return }
        w.block("\(access)static func timeoutStep(_ state: State, _: Tables) -> \(Self.stepType)") { w in
            w.switchBlock("switch state") { w in
                for index in timed {
                    w.line("case \(state(index)): " + candidates([program.states[index].timeout!.candidate]))
                }
                if timed.count < program.states.count { w.line("default: nil") }
            }
        }
    }

    /// The candidates in order as one expression, `c ? Step(.a) : Step(.b)`: conditional ones
    /// up to the first unconditional one (later ones can never be taken), else `nil`; with a
    /// comment naming the effects, if any.
    private func candidates(_ candidates: [FlowProgram.Candidate]) -> String {
        var expression = ""
        var effects: [Int] = []
        var fallbackEffects: [Int] = []
        for candidate in candidates {
            effects += candidate.effects
            fallbackEffects += candidate.retry?.effects ?? []
            if let condition = condition(candidate) {
                expression += "\(condition) ? \(step(candidate)) : "
            } else {
                expression += step(candidate)
                return expression + effectsComment(effects, fallback: fallbackEffects)
            }
        }
        return expression + "nil" + effectsComment(effects, fallback: fallbackEffects)
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
            var retryArguments = "slot: \(retry.slot), max: \(retry.max), fallback: \(state(retry.fallback))"
            if let range = effectRanges[retry.effects] {
                retryArguments += ", effects: \(range.lowerBound)..<\(range.upperBound)"
            }
            arguments.append("retry: Retry(\(retryArguments))")
        }
        return "Step(" + arguments.joined(separator: ", ") + ")"
    }

    /// A comment naming effects, for the end of a line (empty without effects): the
    /// candidates' own, then those their retries run on falling back.
    private func effectsComment(_ effects: [Int], fallback: [Int]) -> String {
        func names(_ effects: [Int]) -> String {
            effects.map { program.effects[$0].swiftName.code }.joined(separator: ", ")
        }
        var parts: [String] = []
        if !effects.isEmpty { parts.append(names(effects)) }
        if !fallback.isEmpty { parts.append("retry used up: " + names(fallback)) }
        return parts.isEmpty ? "" : "  // " + parts.joined(separator: "; ")
    }
}
