import FlowSpecKernel

/// Emits a machine's private transition functions as `switch` statements: the step an event
/// leads to in each state, each choice state's `always` branch, and each state's timeout.
struct TransitionEmitter {
    let program: FlowProgram
    let access: String
    /// The machine's steps, as the runtime's kernel takes them: the switch form writes them out.
    var steps: ProgramSteps { program.steps }

    /// The effect list and the transition functions of the switch form; a machine leaves out
    /// what it does not have (no effects, no choice states, no timeouts), which the runtime
    /// supplies.
    func emitSteps(_ w: inout SwiftWriter) {
        w.line("private typealias Step = FlowSpecRuntime.FlowStep<State>")
        if program.retrySlotCount > 0 { w.line("private typealias Retry = FlowSpecRuntime.FlowRetry<State>") }
        if !program.histories.isEmpty { w.line("private typealias Resume = FlowSpecRuntime.FlowResume") }
        emitEffectList(&w)
        emitEventSteps(&w)
        emitAlwaysSteps(&w)
        emitEventlessSteps(&w)
        emitTimeoutSteps(&w)
        emitNesting(&w)
    }

    func state(_ index: Int) -> String { "." + program.states[index].swiftName.code }

    /// Each distinct list of a transition's effects once, so that a step names its effects as
    /// a range of it and choosing one allocates nothing.
    private func emitEffectList(_ w: inout SwiftWriter) {
        guard !program.effects.isEmpty else { return }
        w.line("\(access)static let effectList: [Effect] = [")
        for list in steps.effectLists {
            let range = steps.run(of: list)
            w.line(
                "    " + list.map { "." + program.effects[$0].swiftName.code + "," }.joined(separator: " ")
                    + " // \(range.lowerBound)..<\(range.upperBound)")
        }
        w.line("]")
    }

    static let stepType = "FlowSpecRuntime.FlowStep<State>?"

    private func emitEventSteps(_ w: inout SwiftWriter) {
        guard !program.events.isEmpty else { return }
        w.block(
            "\(access)static func step(_ state: State, on event: Event, _ conditions: Conditions, _: Tables) -> \(Self.stepType)"
        ) { w in
            let handled = program.states.indices.flatMap { index in
                zip(program.states[index].transitions, steps.states[index].transitions).map {
                    (state: index, event: $0.event, candidates: $0.candidates, steps: $1.candidates.map(\.step))
                }
            }
            guard !handled.isEmpty else {
                w.line("nil")
                return
            }
            w.switchBlock("switch (state, event)") { w in
                for entry in handled {
                    w.line(
                        "case (\(state(entry.state)), .\(program.events[entry.event].swiftName.code)): "
                            + candidates(entry.candidates, entry.steps, from: entry.state))
                }
                if handled.count < program.states.count * program.events.count { w.line("default: nil") }
            }
        }
    }

    private func emitAlwaysSteps(_ w: inout SwiftWriter) {
        let choices = program.states.indices.filter {
            !program.states[$0].always.isEmpty || !program.states[$0].done.isEmpty
        }
        guard !choices.isEmpty else { return }
        w.block("\(access)static func always(_ state: State, _ conditions: Conditions, _: Tables) -> \(Self.stepType)")
        { w in
            w.switchBlock("switch state") { w in
                for index in choices {
                    let lowered = steps.states[index]
                    let isDone = program.states[index].kind == .terminal
                    let branches = isDone ? program.states[index].done : program.states[index].always
                    let taken = (isDone ? lowered.done : lowered.always).map(\.step)
                    w.line("case \(state(index)): " + candidates(branches, taken, from: index))
                }
                if choices.count < program.states.count { w.line("default: nil") }
            }
        }
    }

    /// `eventless`: per state that takes `always` branches while it waits, a `?:` chain of
    /// them (its own, then its compound states'), each with how deep its writer stands.
    private func emitEventlessSteps(_ w: inout SwiftWriter) {
        let waiting = program.states.indices.filter { !program.states[$0].eventless.isEmpty }
        guard !waiting.isEmpty else { return }
        w.line("\(access)static let hasEventless = true")
        w.block(
            "\(access)static func eventless(_ state: State, _ conditions: Conditions, _: Tables) -> (step: FlowSpecRuntime.FlowStep<State>, declaredAt: Swift.Int)?"
        ) { w in
            w.switchBlock("switch state") { w in
                for index in waiting {
                    let lowered = steps.states[index]
                    let arms = program.states[index].eventless.enumerated().map { position, candidate in
                        // Every branch of a state that waits has a condition (the decoder refuses one without).
                        (
                            condition(candidate) ?? "true",
                            "(\(swift(lowered.eventless[position].step)), \(lowered.eventlessDeclaredAt[position]))"
                        )
                    }
                    w.line("case \(state(index)): " + Self.chain(arms, otherwise: "nil"))
                }
                if waiting.count < program.states.count { w.line("default: nil") }
            }
        }
    }

    private func emitTimeoutSteps(_ w: inout SwiftWriter) {
        let timed = program.states.indices.filter { program.states[$0].timeout != nil }
        guard !timed.isEmpty else { return }
        w.block("\(access)static func timeoutStep(_ state: State, _: Tables) -> \(Self.stepType)") { w in
            w.switchBlock("switch state") { w in
                for index in timed {
                    let timeout = program.states[index].timeout!.candidate
                    let taken = steps.states[index].timeout!.step
                    w.line("case \(state(index)): " + candidates([timeout], [taken], from: index))
                }
                if timed.count < program.states.count { w.line("default: nil") }
            }
        }
    }

    /// What a machine with compound states (or `entry` effects) adds: the depth of each state,
    /// the effects of entering one from the start, the compound states and which states each
    /// holds, and the compound states' timeouts.
    private func emitNesting(_ w: inout SwiftWriter) {
        let entering = program.states.indices.filter { !program.entryEffects(of: $0, keeping: 0).isEmpty }
        if !entering.isEmpty {
            w.block("\(access)static func entryEffects(of state: State) -> Swift.Range<Swift.Int>") { w in
                w.switchBlock("switch state") { w in
                    for index in entering {
                        let range = steps.run(of: program.entryEffects(of: index, keeping: 0))
                        w.line("case \(state(index)): \(range.lowerBound)..<\(range.upperBound)")
                    }
                    if entering.count < program.states.count { w.line("default: 0..<0") }
                }
            }
        }
        guard !program.compounds.isEmpty else { return }
        w.line("\(access)static let maximumDepth = \(program.maximumDepth)")
        w.block("\(access)static func depth(of state: State) -> Swift.Int") { w in
            w.switchBlock("switch state") { w in
                let depths = Set(program.states.map(\.depth)).sorted().filter { $0 > 0 }
                for depth in depths {
                    let members = program.states.indices.filter { program.states[$0].depth == depth }
                    w.line("case \(members.map(state).joined(separator: ", ")): \(depth)")
                }
                if program.states.contains(where: { $0.depth == 0 }) { w.line("default: 0") }
            }
        }
        w.block("\(access)enum Compound: Swift.String, \(MachineEmitter.conformances)") { w in
            for compound in program.compounds {
                w.line(
                    "case \(compound.swiftName.code)"
                        + (compound.name == compound.swiftName.code ? "" : " = \"\(compound.name)\""))
            }
        }
        w.block("\(access)static func contains(_ compound: Compound, _ state: State) -> Swift.Bool") { w in
            w.switchBlock("switch compound") { w in
                for compound in program.compounds {
                    w.line("case .\(compound.swiftName.code):")
                    w.indented { w in
                        w.switchBlock("switch state") { w in
                            w.line("case \(compound.states.map(state).joined(separator: ", ")): true")
                            if compound.states.count < program.states.count { w.line("default: false") }
                        }
                    }
                }
            }
        }
        emitStateSwitch(
            signature: "compound(around state: State, atDepth depth: Swift.Int) -> Compound?", on: "state",
            then: "depth", empty: "nil", &w
        ) { index in
            program.states[index].ancestors.reversed().enumerated().map { depth, compound in
                // A compound state `none` spelled out: `.none` would read as `Optional.none`.
                let code = program.compounds[compound].swiftName.code
                return (depth, (code == "none" ? "Compound." : ".") + code)
            }
        }
        emitOuterTimeouts(&w)
        emitHistory(&w)
        emitEntryEffectCounts(&w)
        emitInitialEffects(&w)
        emitRegions(&w)
    }

    /// What a machine whose `initial` or history defaults run effects adds: what starting
    /// runs, and what entering each state a shallow history may resume runs (``ProgramSteps``).
    private func emitInitialEffects(_ w: inout SwiftWriter) {
        guard let start = steps.startRun else { return }
        w.line("\(access)static let hasInitialEffects = true")
        w.line("\(access)static let startEffects = \(Self.range(start))")
        let resumed = steps.resumedRuns.filter { !$0.value.isEmpty }.sorted {
            ($0.key.state, $0.key.keep, $0.key.initialFrom) < ($1.key.state, $1.key.keep, $1.key.initialFrom)
        }
        // Without a shallow history resuming a state that runs any, the runtime's default.
        guard !resumed.isEmpty else { return }
        w.block(
            "\(access)static func entryEffects(of target: State, keeping keep: Swift.Int, initialFrom: Swift.Int) -> Swift.Range<Swift.Int>"
        ) { w in
            w.switchBlock("switch (target, keep, initialFrom)") { w in
                for (key, range) in resumed {
                    w.line("case (\(state(key.state)), \(key.keep), \(key.initialFrom)): \(Self.range(range))")
                }
                w.line("default: 0..<0")
            }
        }
    }

    /// What a machine with history states adds: which compound states remember where they were
    /// left, and the state each compound state's `initial` chain leads to (for shallow history
    /// states).
    private func emitHistory(_ w: inout SwiftWriter) {
        guard !program.histories.isEmpty else { return }
        w.line("\(access)static let memorySlotCount = \(program.memorySlotCount)")
        w.line("\(access)static let memorySlotNames: [Swift.String] = [\(program.memorySlotNameLiterals)]")
        w.block("\(access)static func memorySlot(of compound: Compound) -> Swift.Int?") { w in
            w.switchBlock("switch compound") { w in
                for compound in program.compounds {
                    guard let slot = compound.memorySlot else { continue }
                    w.line("case .\(compound.swiftName.code): \(slot)")
                }
                if program.memorySlotCount < program.compounds.count { w.line("default: nil") }
            }
        }
        w.block("\(access)static func initialState(of compound: Compound) -> State") { w in
            w.switchBlock("switch compound") { w in
                for compound in program.compounds {
                    w.line("case .\(compound.swiftName.code): \(state(compound.initialState))")
                }
            }
        }
    }

    /// How many `entry` effects each compound state runs itself: what the entries of a resume
    /// skip (history), and what starting or restoring several regions skips of the states
    /// around a region that the region before it entered (parallel states).
    private func emitEntryEffectCounts(_ w: inout SwiftWriter) {
        let entering = program.compounds.filter { !$0.entry.isEmpty }
        guard !program.histories.isEmpty || program.hasParallel, !entering.isEmpty else { return }
        w.block("\(access)static func entryEffectCount(of compound: Compound) -> Swift.Int") { w in
            w.switchBlock("switch compound") { w in
                for compound in entering { w.line("case .\(compound.swiftName.code): \(compound.entry.count)") }
                if entering.count < program.compounds.count { w.line("default: 0") }
            }
        }
    }

    /// `Resume(slot:depth:deep:before:)`, the resume of a step into a history state.
    private func resumeExpression(_ resume: FlowResume) -> String {
        "Resume(slot: \(resume.slot), depth: \(resume.depth), deep: \(resume.deep)"
            + (resume.before.isEmpty ? "" : ", before: \(Self.range(resume.before))") + ")"
    }

    private static func range(_ range: Range<Int>) -> String { "\(range.lowerBound)..<\(range.upperBound)" }

    private func emitOuterTimeouts(_ w: inout SwiftWriter) {
        let timed = program.states.indices.flatMap { index in
            program.states[index].outerTimeouts.map { (state: index, depth: $0.depth, timeout: $0.timeout) }
        }
        guard !timed.isEmpty else { return }
        w.block(
            "\(access)static func outerTimeout(of state: State, atDepth depth: Swift.Int) -> (after: Swift.Duration, to: State)?"
        ) { w in
            w.switchBlock("switch (state, depth)") { w in
                for entry in timed {
                    w.line(
                        "case (\(state(entry.state)), \(entry.depth)): (\(MachineEmitter.durationLiteral(entry.timeout.after)), \(state(entry.timeout.candidate.target)))"
                    )
                }
                w.line("default: nil")
            }
        }
        w.block(
            "\(access)static func outerTimeoutStep(_ state: State, atDepth depth: Swift.Int, _: Tables) -> \(Self.stepType)"
        ) { w in
            w.switchBlock("switch (state, depth)") { w in
                for entry in timed {
                    w.line(
                        "case (\(state(entry.state)), \(entry.depth)): "
                            + candidates(
                                [entry.timeout.candidate], [steps.states[entry.state].outerTimeouts[entry.depth]!.step],
                                from: entry.state))
                }
                w.line("default: nil")
            }
        }
    }

    /// The candidates ``CandidateChoice`` may take, in order, as one expression,
    /// `c ? Step(.a) : Step(.b)` (``chain(_:otherwise:)``), ending in `nil` when each has a
    /// guard; with a comment naming
    /// the effects, if any. Each takes its step as the lowering made it (`taken`, in the same
    /// order), the very step `simulate` runs.
    func candidates(_ candidates: [FlowProgram.Candidate], _ taken: [FlowStep<Int>], from source: Int)
        -> String
    {
        var arms: [(condition: String, value: String)] = []
        var effects: [Int] = []
        var fallbackEffects: [Int] = []
        for (candidate, step) in zip(candidates, taken).prefix(CandidateChoice.takeable(candidates)) {
            effects += program.effects(of: candidate, from: source)
            if candidate.retry != nil { fallbackEffects += program.fallbackEffects(of: candidate, from: source) }
            guard let condition = condition(candidate) else {
                return Self.chain(arms, otherwise: swift(step)) + effectsComment(effects, fallback: fallbackEffects)
            }
            arms.append((condition, swift(step)))
        }
        return Self.chain(arms, otherwise: "nil") + effectsComment(effects, fallback: fallbackEffects)
    }

    /// The most guarded candidates written as a `?:` chain: past them, the type checker takes
    /// time that grows fast with the chain (25 candidates do not type-check), so a longer one is
    /// an `if` expression, whose branches are checked one by one.
    static let longestConditionalChain = 4

    /// `c ? a : d ? b : otherwise`, or past ``longestConditionalChain`` guards, `if c { a }
    /// else if d { b } else { otherwise }`.
    static func chain(_ arms: [(condition: String, value: String)], otherwise: String) -> String {
        guard arms.count > longestConditionalChain else {
            return arms.map { "\($0.condition) ? \($0.value) : " }.joined() + otherwise
        }
        return arms.enumerated().map {
            "\($0.offset == 0 ? "if" : " else if") \($0.element.condition) { \($0.element.value) }"
        }
        .joined() + " else { \(otherwise) }"
    }

    /// A candidate's guard as a Swift condition (``CandidateChoice/terms(of:)``), or `nil` for
    /// one taken whatever the conditions.
    private func condition(_ candidate: FlowProgram.Candidate) -> String? {
        let terms = CandidateChoice.terms(of: candidate).map { term in
            guard term.condition < program.conditions.count else {
                return StatesReadEmitter(program: program, access: access, state: state)
                    .term(term.condition, holds: term.holds)
            }
            return (term.holds ? "" : "!") + "conditions.\(program.conditions[term.condition].swiftName.code)"
        }
        return terms.isEmpty ? nil : terms.joined(separator: " && ")
    }

    /// A lowered step spelled as Swift (its defaults left out).
    func swift(_ step: FlowStep<Int>) -> String {
        var arguments = [state(step.target)]
        if !step.effects.isEmpty { arguments.append("effects: \(Self.range(step.effects))") }
        if let retry = step.retry {
            var retryArguments = "slot: \(retry.slot), max: \(retry.max), fallback: \(state(retry.fallback))"
            if !retry.effects.isEmpty { retryArguments += ", effects: \(Self.range(retry.effects))" }
            if retry.keep > 0 { retryArguments += ", keep: \(retry.keep)" }
            if let resume = retry.resume { retryArguments += ", resume: " + resumeExpression(resume) }
            if let entries = retry.entries { retryArguments += ", entries: \(Self.range(entries))" }
            arguments.append("retry: Retry(\(retryArguments))")
        }
        if step.keep > 0 { arguments.append("keep: \(step.keep)") }
        if let resume = step.resume { arguments.append("resume: " + resumeExpression(resume)) }
        if step.stays { arguments.append("stays: true") }
        if let entries = step.entries { arguments.append("entries: \(Self.range(entries))") }
        return "Step(" + arguments.joined(separator: ", ") + ")"
    }

    /// A comment naming effects, for the end of a line (empty without effects): the
    /// candidates', then those their retries run on falling back.
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
