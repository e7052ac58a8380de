import FlowSpecKernel

/// A program lowered to what the machine's kernel (``FlowKernel``, the runtime's) takes: every
/// candidate a ``FlowStep`` whose effects are a run of one effect list, and each state's shape
/// (kind, depth, the compound states around it). `flowspec simulate` runs the kernel on this,
/// and `flowspec gen` writes these steps into Swift, so the two run the same steps.
struct ProgramSteps: Sendable {
    /// A candidate lowered: the candidate as written (whose conditions say whether it may be
    /// taken), and the step it takes.
    struct Candidate: Sendable {
        var written: FlowProgram.Candidate
        var step: FlowStep<Int>

        func holds(_ conditions: [Bool]) -> Bool { written.holds(conditions) }
    }

    /// A timeout lowered: how long, and the step it takes (its target is where it leads).
    struct Timeout: Sendable {
        var after: Duration
        var step: FlowStep<Int>
    }

    /// A state lowered.
    struct StateShape: Sendable {
        var kind: FlowStateKind
        var depth: Int
        /// Event → candidates, in the order they are tried.
        var transitions: [(event: Int, candidates: [Candidate])]
        /// The `always` branches of a choice state.
        var always: [Candidate]
        /// The `done` of the compound state around a terminal state.
        var done: FlowStep<Int>?
        var timeout: Timeout?
        /// Per depth, the timeout of the compound state around it there, if it has one.
        var outerTimeouts: [Timeout?]
        /// The run of the effect list entering it from the start runs.
        var entries: Range<Int>
        /// Per depth, the compound state around it there, by index in ``FlowProgram/compounds``.
        var compounds: [Int]
    }

    /// Every distinct list of effects a step runs (a candidate's from a state: the exits, its
    /// own, the entries; and its retry's way out), in order of first use (transitions, then
    /// `always` branches and `done`, then timeouts, then what starting in a state enters, then
    /// what steps into history states run before their entries), and the run of
    /// ``effectList`` each one has.
    let effectLists: [[Int]]
    let effectRanges: [[Int]: Range<Int>]
    /// The effects of ``effectLists``, one after the other, by index in ``FlowProgram/effects``.
    let effectList: [Int]
    let states: [StateShape]
    let retrySlotCount: Int
    let memorySlotCount: Int
    let maximumDepth: Int
    /// Per compound state: its memory slot, the state its `initial` chain leads to, and how
    /// many `entry` effects it runs itself.
    let compounds: [(memorySlot: Int?, initialState: Int, entryCount: Int)]

    /// The run of the effect list a list of effects has (empty for no effects).
    func run(of effects: [Int]) -> Range<Int> { effectRanges[effects] ?? 0..<0 }

    /// Nothing lowered yet.
    init() {
        effectLists = []
        effectRanges = [:]
        effectList = []
        states = []
        retrySlotCount = 0
        memorySlotCount = 0
        maximumDepth = 0
        compounds = []
    }

    init(_ program: FlowProgram) {
        (effectLists, effectRanges) = Self.effectLists(program)
        effectList = effectLists.flatMap { $0 }
        retrySlotCount = program.retrySlotCount
        memorySlotCount = program.memorySlotCount
        maximumDepth = program.maximumDepth
        compounds = program.compounds.map { ($0.memorySlot, $0.initialState, $0.entry.count) }
        let ranges = effectRanges
        func range(_ effects: [Int]) -> Range<Int> { ranges[effects] ?? 0..<0 }
        states = program.states.indices.map { index in
            let state = program.states[index]
            func lowered(_ candidate: FlowProgram.Candidate) -> FlowStep<Int> {
                Self.step(candidate, from: index, program, range)
            }
            func guarded(_ candidate: FlowProgram.Candidate) -> Candidate {
                Candidate(written: candidate, step: lowered(candidate))
            }
            var outer = [Timeout?](repeating: nil, count: state.depth)
            for scoped in state.outerTimeouts {
                outer[scoped.depth] = Timeout(after: scoped.timeout.after, step: lowered(scoped.timeout.candidate))
            }
            return StateShape(
                kind: FlowStateKind(state.kind), depth: state.depth,
                transitions: state.transitions.map { ($0.event, $0.candidates.map(guarded)) },
                always: state.always.map(guarded), done: state.done.map(lowered),
                timeout: state.timeout.map { Timeout(after: $0.after, step: lowered($0.candidate)) },
                outerTimeouts: outer, entries: range(program.entryEffects(of: index, keeping: 0)),
                compounds: state.ancestors.reversed())
        }
    }

    /// The lists of ``effectLists``, each once, in order of first use, with their runs.
    private static func effectLists(_ program: FlowProgram) -> ([[Int]], [[Int]: Range<Int>]) {
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
        return (lists, ranges)
    }

    /// The step a candidate takes from a state: its target, the run of its effects (the exits,
    /// its own, the entries), its retry with the run of its way out, how many compound states
    /// it keeps, and for a history target how it resumes.
    private static func step(
        _ candidate: FlowProgram.Candidate, from source: Int, _ program: FlowProgram,
        _ range: ([Int]) -> Range<Int>
    ) -> FlowStep<Int> {
        func resume(fellBack: Bool) -> FlowResume? {
            HistoryResume(candidate, from: source, fellBack: fellBack, program).map {
                FlowResume(slot: $0.slot, depth: $0.depth, deep: $0.deep, before: range($0.before))
            }
        }
        let retry = candidate.retry.map { retry in
            FlowRetry(
                slot: retry.slot, max: retry.max, fallback: retry.fallback,
                effects: range(program.fallbackEffects(of: candidate, from: source)), keep: retry.keep,
                resume: resume(fellBack: true))
        }
        return FlowStep(
            candidate.target, effects: range(program.effects(of: candidate, from: source)), retry: retry,
            keep: candidate.keep, resume: resume(fellBack: false))
    }
}

extension ProgramSteps: FlowRules {
    typealias State = Int
    typealias Event = Int
    typealias Conditions = [Bool]

    func kind(of state: Int) -> FlowStateKind { states[state].kind }

    func depth(of state: Int) -> Int { states[state].depth }

    func step(_ state: Int, on event: Int, _ conditions: [Bool]) -> FlowStep<Int>? {
        guard states[state].kind != .terminal,
            let candidates = states[state].transitions.first(where: { $0.event == event })?.candidates
        else { return nil }
        return candidates.first { $0.holds(conditions) }?.step
    }

    func always(_ state: Int, _ conditions: [Bool]) -> FlowStep<Int>? {
        if let done = states[state].done { return done }
        return states[state].always.first { $0.holds(conditions) }?.step
    }

    func timeout(of state: Int) -> (after: Duration, to: Int)? {
        states[state].timeout.map { ($0.after, $0.step.target) }
    }

    func timeoutStep(_ state: Int) -> FlowStep<Int>? { states[state].timeout?.step }

    func outerTimeout(of state: Int, atDepth depth: Int) -> (after: Duration, to: Int)? {
        outerTimeoutScope(state, depth).map { ($0.after, $0.step.target) }
    }

    func outerTimeoutStep(_ state: Int, atDepth depth: Int) -> FlowStep<Int>? {
        outerTimeoutScope(state, depth)?.step
    }

    private func outerTimeoutScope(_ state: Int, _ depth: Int) -> Timeout? {
        states[state].outerTimeouts.indices.contains(depth) ? states[state].outerTimeouts[depth] : nil
    }

    func entryEffects(of state: Int) -> Range<Int> { states[state].entries }

    func record(_ state: Int, leaving keep: Int, in memory: inout [Int?]) {
        for depth in keep..<max(keep, states[state].depth) {
            if let slot = memorySlot(around: state, atDepth: depth) { memory[slot] = state }
        }
    }

    func memorySlot(around state: Int, atDepth depth: Int) -> Int? {
        compound(around: state, depth).flatMap { compounds[$0].memorySlot }
    }

    func initialState(around state: Int, atDepth depth: Int) -> Int? {
        compound(around: state, depth).map { compounds[$0].initialState }
    }

    func entryEffectCount(around state: Int, atDepth depth: Int) -> Int {
        compound(around: state, depth).map { compounds[$0].entryCount } ?? 0
    }

    private func compound(around state: Int, _ depth: Int) -> Int? {
        states[state].compounds.indices.contains(depth) ? states[state].compounds[depth] : nil
    }
}

extension FlowStateKind {
    /// The runtime's kind of a state the flow can be in (a history state never is one).
    init(_ kind: StateKind) {
        switch kind {
        case .input, .history: self = .input
        case .task: self = .task
        case .choice: self = .choice
        case .terminal: self = .terminal
        }
    }
}
