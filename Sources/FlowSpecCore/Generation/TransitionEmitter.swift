/// Emits a machine's private transition functions as `switch` statements: the step an event
/// leads to in each state, each choice state's `always` branch, and each state's timeout.
struct TransitionEmitter {
    let program: FlowProgram
    let access: String
    /// Every distinct list of effects a step runs (a candidate's from a state: the exits, its
    /// own, the entries; and its retry's way out), in order of first use (transitions, then
    /// `always` branches and `done`, then timeouts, then what starting in a state enters), and
    /// the run of `effectList` each one has.
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
        func add(_ candidate: FlowProgram.Candidate, from state: Int) {
            add(program.effects(of: candidate, from: state))
            if candidate.retry != nil { add(program.fallbackEffects(of: candidate, from: state)) }
        }
        for (index, state) in program.states.enumerated() {
            for transition in state.transitions {
                for candidate in transition.candidates { add(candidate, from: index) }
            }
        }
        for (index, state) in program.states.enumerated() {
            for candidate in state.always { add(candidate, from: index) }
            if let done = state.done { add(done, from: index) }
        }
        for (index, state) in program.states.enumerated() {
            if let timeout = state.timeout { add(timeout.candidate, from: index) }
            for outer in state.outerTimeouts { add(outer.timeout.candidate, from: index) }
        }
        for index in program.states.indices { add(program.entryEffects(of: index, keeping: 0)) }
        for before in HistoryResume.beforeLists(program) { add(before) }
        effectLists = lists
        effectRanges = ranges
    }

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
        emitTimeoutSteps(&w)
        emitNesting(&w)
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
                            + candidates(entry.candidates, from: entry.state))
                }
                if handled.count < program.states.count * program.events.count { w.line("default: nil") }
            }
        }
    }

    private func emitAlwaysSteps(_ w: inout SwiftWriter) {
        let choices = program.states.indices.filter {
            !program.states[$0].always.isEmpty || program.states[$0].done != nil
        }
        guard !choices.isEmpty else { return }
        w.block("\(access)static func always(_ state: State, _ conditions: Conditions, _: Tables) -> \(Self.stepType)")
        { w in
            w.switchBlock("switch state") { w in
                for index in choices {
                    let branches = program.states[index].done.map { [$0] } ?? program.states[index].always
                    w.line("case \(state(index)): " + candidates(branches, from: index))
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
                    w.line(
                        "case \(state(index)): " + candidates([program.states[index].timeout!.candidate], from: index))
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
                        let range = effectRanges[program.entryEffects(of: index, keeping: 0)]!
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
        w.block("\(access)static func compound(around state: State, atDepth depth: Swift.Int) -> Compound?") { w in
            w.switchBlock("switch (state, depth)") { w in
                for (index, leaf) in program.states.enumerated() where !leaf.ancestors.isEmpty {
                    for (depth, compound) in leaf.ancestors.reversed().enumerated() {
                        // A compound state `none` spelled out: `.none` would read as `Optional.none`.
                        let code = program.compounds[compound].swiftName.code
                        w.line("case (\(state(index)), \(depth)): \(code == "none" ? "Compound." : ".")\(code)")
                    }
                }
                w.line("default: nil")
            }
        }
        emitOuterTimeouts(&w)
        emitHistory(&w)
    }

    /// What a machine with history states adds: which compound states remember where they were
    /// left, the state each compound state's `initial` chain leads to (for shallow history
    /// states) and how many `entry` effects each runs itself (for the entries of a resume).
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
        let entering = program.compounds.filter { !$0.entry.isEmpty }
        guard !entering.isEmpty else { return }
        w.block("\(access)static func entryEffectCount(of compound: Compound) -> Swift.Int") { w in
            w.switchBlock("switch compound") { w in
                for compound in entering { w.line("case .\(compound.swiftName.code): \(compound.entry.count)") }
                if entering.count < program.compounds.count { w.line("default: 0") }
            }
        }
    }

    /// `resume: Resume(slot:depth:deep:before:)` for a step into a history state (none otherwise).
    private func resumeArgument(_ candidate: FlowProgram.Candidate, from source: Int, fellBack: Bool) -> String? {
        guard let resume = HistoryResume(candidate, from: source, fellBack: fellBack, program) else { return nil }
        var arguments = "slot: \(resume.slot), depth: \(resume.depth), deep: \(resume.deep)"
        if let range = effectRanges[resume.before] {
            arguments += ", before: \(range.lowerBound)..<\(range.upperBound)"
        }
        return "resume: Resume(\(arguments))"
    }

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
                            + candidates([entry.timeout.candidate], from: entry.state))
                }
                w.line("default: nil")
            }
        }
    }

    /// The candidates in order as one expression, `c ? Step(.a) : Step(.b)`: conditional ones
    /// up to the first unconditional one (later ones can never be taken), else `nil`; with a
    /// comment naming the effects, if any.
    private func candidates(_ candidates: [FlowProgram.Candidate], from source: Int) -> String {
        var expression = ""
        var effects: [Int] = []
        var fallbackEffects: [Int] = []
        for candidate in candidates {
            effects += program.effects(of: candidate, from: source)
            if candidate.retry != nil { fallbackEffects += program.fallbackEffects(of: candidate, from: source) }
            if let condition = condition(candidate) {
                expression += "\(condition) ? \(step(candidate, from: source)) : "
            } else {
                expression += step(candidate, from: source)
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

    private func step(_ candidate: FlowProgram.Candidate, from source: Int) -> String {
        var arguments = [state(candidate.target)]
        if let range = effectRanges[program.effects(of: candidate, from: source)] {
            arguments.append("effects: \(range.lowerBound)..<\(range.upperBound)")
        }
        if let retry = candidate.retry {
            var retryArguments = "slot: \(retry.slot), max: \(retry.max), fallback: \(state(retry.fallback))"
            if let range = effectRanges[program.fallbackEffects(of: candidate, from: source)] {
                retryArguments += ", effects: \(range.lowerBound)..<\(range.upperBound)"
            }
            if retry.keep > 0 { retryArguments += ", keep: \(retry.keep)" }
            if let resume = resumeArgument(candidate, from: source, fellBack: true) { retryArguments += ", " + resume }
            arguments.append("retry: Retry(\(retryArguments))")
        }
        if candidate.keep > 0 { arguments.append("keep: \(candidate.keep)") }
        if let resume = resumeArgument(candidate, from: source, fellBack: false) { arguments.append(resume) }
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
