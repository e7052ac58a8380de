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

    }

    /// A transition as written that a step lowers, by its ``FlowStep/written`` number: what
    /// takes it, its position among the candidates written for that, and the candidate.
    struct Written: Sendable {
        var via: ProgramRun.Move.Via
        var position: Int
        var candidate: FlowProgram.Candidate
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
        /// Per event, its position in ``transitions`` (as ``FlowProgram/State/transitionPositions``).
        var transitionPositions: [Int: Int]?
        /// The `always` branches of a choice state.
        var always: [Candidate]
        /// The `done` of the compound state around a terminal state, its candidates in order.
        var done: [Candidate]
        /// The `always` branches taken while it waits, own then inherited
        /// (``FlowProgram/State/eventless``), and per branch how deep the state that writes it
        /// stands.
        var eventless: [Candidate] = []
        var eventlessDeclaredAt: [Int] = []
        var timeout: Timeout?
        /// Per depth, the timeout of the compound state around it there, if it has one.
        var outerTimeouts: [Timeout?]
        /// The run of the effect list entering it from the start runs.
        var entries: Range<Int>
        /// Per depth, the compound state around it there, by index in ``FlowProgram/compounds``.
        var compounds: [Int]
        /// Per transition of ``transitions``, how deep the state that writes it stands (-1: the
        /// machine's `on`).
        var declaredAt: [Int] = []
        /// The depth of the innermost parallel state around it, if any.
        var parallelDepth: Int? = nil
        /// With parallel states: per depth from 0 to its own, the run of what leaving it and
        /// the compound states around it down to that depth runs; what entering it keeping that
        /// many compound states runs (the other regions entered included); and the states the
        /// machine is then in.
        var exits: [Range<Int>] = []
        var entriesKeeping: [Range<Int>] = []
        var enteredKeeping: [[Int]] = []

        /// The position in ``transitions`` of what the state does on `event`, if anything.
        func position(of event: Int) -> Int? {
            FlowProgram.State.position(of: event, in: transitions, transitionPositions)
        }
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
    /// With parallel states: the most states the machine is in at once, and each compound
    /// state's `done` as a step (its own effects; the kernel adds exits and entries).
    let maximumLeaves: Int
    let compoundDone: [[Candidate]]
    /// Every transition as written that a step lowers, by the step's ``FlowStep/written``.
    let written: [Written]
    /// Whether some state takes `always` branches while it waits (asked at every step).
    let hasEventless: Bool
    /// With `initial` or history default effects: what starting runs, and per state a shallow
    /// history may resume (keeping, entered through `initial` from), what entering it runs.
    let startRun: Range<Int>?
    let resumedRuns: [InitialEntries.ResumeKey: Range<Int>]
    /// With guards that read where the flow is: how many conditions the app declares, and per
    /// state the positions after them that hold while the flow is in it.
    let declaredConditions: Int
    let statesReadWhileIn: [[Int]]
    let statesReadCount: Int

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
        maximumLeaves = 1
        compoundDone = []
        written = []
        hasEventless = false
        startRun = nil
        resumedRuns = [:]
        declaredConditions = 0
        statesReadWhileIn = []
        statesReadCount = 0
    }

    init(_ program: FlowProgram) {
        let regions = program.hasParallel ? Regions(program) : nil
        let initialEntries = InitialEntries(program, regions)
        (effectLists, effectRanges) = Self.effectLists(program, regions, initialEntries)
        effectList = effectLists.flatMap { $0 }
        retrySlotCount = program.retrySlotCount
        hasEventless = program.states.contains { !$0.eventless.isEmpty }
        declaredConditions = program.conditions.count
        statesReadWhileIn = program.statesReadWhileIn
        statesReadCount = program.statesRead.count
        memorySlotCount = program.memorySlotCount
        maximumDepth = program.maximumDepth
        compounds = program.compounds.map { ($0.memorySlot, $0.initialState, $0.entry.count) }
        let ranges = effectRanges
        func range(_ effects: [Int]) -> Range<Int> { ranges[effects] ?? 0..<0 }
        startRun = initialEntries.map { range($0.start) }
        resumedRuns = Dictionary(
            (initialEntries?.resumed ?? []).map { ($0.key, range($0.entries)) }, uniquingKeysWith: { first, _ in first }
        )
        var written: [Written] = []
        states = program.states.indices.map { index in
            let state = program.states[index]
            func lowered(_ candidate: FlowProgram.Candidate, via: ProgramRun.Move.Via, at position: Int = 0)
                -> FlowStep<Int>
            {
                written.append(Written(via: via, position: position, candidate: candidate))
                return Self.step(candidate, from: index, written: written.count - 1, program, regions, range)
            }
            func guarded(_ candidates: [FlowProgram.Candidate], via: ProgramRun.Move.Via) -> [Candidate] {
                candidates.enumerated().map { position, candidate in
                    Candidate(written: candidate, step: lowered(candidate, via: via, at: position))
                }
            }
            func depth(of scope: FlowProgram.Scope) -> Int {
                switch scope {
                case .own: state.depth
                case .compound(let compound): program.compounds[compound].depth
                case .machine: -1
                }
            }
            var outer = [Timeout?](repeating: nil, count: state.depth)
            for scoped in state.outerTimeouts {
                let compound = state.compound(atDepth: scoped.depth)
                outer[scoped.depth] = Timeout(
                    after: scoped.timeout.after, step: lowered(scoped.timeout.candidate, via: .outerTimeout(compound)))
            }
            return StateShape(
                kind: FlowStateKind(state.kind), depth: state.depth,
                transitions: state.transitions.map { ($0.event, guarded($0.candidates, via: .event($0.event))) },
                transitionPositions: state.transitionPositions,
                always: guarded(state.always, via: .always), done: guarded(state.done, via: .done),
                eventless: guarded(state.eventless, via: .eventless),
                eventlessDeclaredAt: state.eventlessScopes.map { depth(of: $0) },
                timeout: state.timeout.map { Timeout(after: $0.after, step: lowered($0.candidate, via: .timeout)) },
                outerTimeouts: outer, entries: range(program.entryEffects(of: index, keeping: 0)),
                compounds: state.ancestors.reversed(), declaredAt: state.scopes.map { depth(of: $0) },
                parallelDepth: state.ancestors.first { program.compounds[$0].isParallel }.map {
                    program.compounds[$0].depth
                },
                exits: regions == nil
                    ? [] : (0...state.depth).map { range(program.exitEffects(of: index, keeping: $0)) },
                entriesKeeping: regions?.entries[index].map(range) ?? [],
                enteredKeeping: regions?.entered[index] ?? [])
        }
        maximumLeaves = regions?.maximumLeaves ?? 1
        compoundDone = program.compounds.indices.map { index in
            // Its own effects only (the kernel adds exits and entries), so any state inside
            // it lowers it alike.
            let compound = program.compounds[index]
            guard program.hasParallel else { return [] }
            return compound.done.enumerated().map { position, done in
                written.append(Written(via: .parallelDone(index), position: position, candidate: done))
                let step = Self.step(
                    done, from: compound.states.lowerBound, written: written.count - 1, program, regions, range)
                return Candidate(written: done, step: step)
            }
        }
        self.written = written
    }

    /// What entering each state with each number of compound states kept enters, in a machine
    /// with parallel states: the states the machine is then in, and their `entry` effects (and
    /// those of the compound states entered around them), in document order.
    struct Regions {
        /// Per state, per depth kept (0 to its own): the states entered.
        var entered: [[[Int]]] = []
        /// Per state, per depth kept: the `entry` effects run.
        var entries: [[[Int]]] = []
        var maximumLeaves = 1
        let tree: Tree

        init(_ program: FlowProgram) {
            var children = [[Node]](repeating: [], count: program.compounds.count)
            var order: [(spec: Int, node: Node, parent: Int)] = []
            for (index, state) in program.states.enumerated() {
                if let parent = state.ancestors.first { order.append((state.specIndex, .state(index), parent)) }
            }
            for (index, compound) in program.compounds.enumerated() {
                if let parent = compound.parent { order.append((compound.specIndex, .compound(index), parent)) }
            }
            for item in order.sorted(by: { $0.spec < $1.spec }) { children[item.parent].append(item.node) }
            let tree = Tree(program: program, children: children)
            self.tree = tree
            for (index, state) in program.states.enumerated() {
                var entered: [[Int]] = []
                var entries: [[Int]] = []
                for keep in 0...state.depth {
                    let top: Node =
                        keep < state.depth ? .compound(state.ancestors[state.depth - 1 - keep]) : .state(index)
                    var states: [Int] = []
                    var effects: [Int] = []
                    tree.enter(top, toward: index, &states, &effects)
                    entered.append(states)
                    entries.append(effects)
                }
                self.entered.append(entered)
                self.entries.append(entries)
            }
            let tops =
                program.states.indices.filter { program.states[$0].depth == 0 }.map { Node.state($0) }
                + program.compounds.indices.filter { program.compounds[$0].parent == nil }.map { Node.compound($0) }
            maximumLeaves = tops.map(tree.mostStates).max() ?? 1
        }

        /// The `entry` effects entering `target` with `keep` compound states kept runs, with the
        /// `initial` effects of those at depth `initialFrom` or deeper and of every region
        /// entered through its `initial`, and through a history taking its default, the
        /// default's (``FlowProgram/entryEffects(of:keeping:initialFrom:history:)``).
        func entries(of target: Int, keeping keep: Int, initialFrom: Int, history: Int? = nil) -> [Int] {
            let program = tree.program
            let state = program.states[target]
            let top: Node = keep < state.depth ? .compound(state.ancestors[state.depth - 1 - keep]) : .state(target)
            var effects: [Int] = []
            var states: [Int] = []
            tree.enter(top, toward: target, &states, &effects, initialFrom: initialFrom, history: history)
            return effects
        }

        enum Node {
            case state(Int)
            case compound(Int)
        }

        struct Tree {
            let program: FlowProgram
            let children: [[Node]]

            /// Enters `node` on the way to `target`: a parallel state enters every region (the
            /// one holding `target` toward it, the others through their `initial`), a compound
            /// state the state inside it that holds `target`. Those at depth `initialFrom` or
            /// deeper, and the regions entered through their `initial`, run its effects after
            /// their `entry`; the compound state of `history` (taking its default), the default's.
            func enter(
                _ node: Node, toward target: Int, _ states: inout [Int], _ effects: inout [Int],
                initialFrom: Int = .max, history: Int? = nil
            ) {
                switch node {
                case .state(let index):
                    states.append(index)
                    effects += program.states[index].entry
                case .compound(let index):
                    let compound = program.compounds[index]
                    effects += compound.entry
                    if let history, program.histories[history].compound == index {
                        effects += program.histories[history].defaultEffects
                    }
                    if compound.depth >= initialFrom { effects += compound.initialEffects }
                    for child in children[index] {
                        if holds(child, target) {
                            enter(child, toward: target, &states, &effects, initialFrom: initialFrom, history: history)
                        } else if compound.isParallel {
                            enter(
                                child, toward: initialState(of: child), &states, &effects,
                                initialFrom: compound.depth + 1)
                        }
                    }
                }
            }

            func holds(_ node: Node, _ target: Int) -> Bool {
                switch node {
                case .state(let index): index == target
                case .compound(let index): program.compounds[index].states.contains(target)
                }
            }

            func initialState(of node: Node) -> Int {
                switch node {
                case .state(let index): index
                case .compound(let index): program.compounds[index].initialState
                }
            }

            /// The most states the machine can be in at once inside `node`.
            func mostStates(_ node: Node) -> Int {
                guard case .compound(let index) = node else { return 1 }
                let counts = children[index].map(mostStates)
                return program.compounds[index].isParallel ? counts.reduce(0, +) : counts.max() ?? 1
            }
        }
    }

    /// The lists of ``effectLists``, each once, in order of first use, with their runs.
    private static func effectLists(_ program: FlowProgram, _ regions: Regions?, _ initialEntries: InitialEntries?)
        -> ([[Int]], [[Int]: Range<Int>])
    {
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
            for candidate in state.eventless { add(candidate, from: index) }
            for candidate in state.done { add(candidate, from: index) }
        }
        for (index, state) in program.states.enumerated() {
            if let timeout = state.timeout { add(timeout.candidate, from: index) }
            for outer in state.outerTimeouts { add(outer.timeout.candidate, from: index) }
        }
        for index in program.states.indices { add(program.entryEffects(of: index, keeping: 0)) }
        for before in HistoryResume.beforeLists(program) { add(before) }
        if let regions {
            for compound in program.compounds { for done in compound.done { add(done.effects) } }
            for (index, state) in program.states.enumerated() {
                for keep in 0...state.depth { add(program.exitEffects(of: index, keeping: keep)) }
                for entries in regions.entries[index] { add(entries) }
            }
        }
        // Last, so that a machine without `initial` effects lists what it always did.
        if let initialEntries {
            add(initialEntries.start)
            for resumed in initialEntries.resumed { add(resumed.entries) }
            var candidates = program.compounds.flatMap(\.done)
            for state in program.states {
                candidates += state.transitions.flatMap(\.candidates) + state.always + state.eventless + state.done
                candidates +=
                    [state.timeout?.candidate].compactMap { $0 } + state.outerTimeouts.map(\.timeout.candidate)
            }
            for candidate in candidates {
                for fellBack in [false, true] {
                    if let entries = InitialEntries.stepEntries(of: candidate, fellBack: fellBack, program, regions) {
                        add(entries)
                    }
                }
            }
        }
        return (lists, ranges)
    }

    /// The step a candidate takes from a state: its target, the run of its effects (the exits,
    /// its own, the entries), its retry with the run of its way out, how many compound states
    /// it keeps, and for a history target how it resumes.
    private static func step(
        _ candidate: FlowProgram.Candidate, from source: Int, written: Int, _ program: FlowProgram,
        _ regions: Regions?, _ range: ([Int]) -> Range<Int>
    ) -> FlowStep<Int> {
        func entries(fellBack: Bool) -> Range<Int>? {
            InitialEntries.stepEntries(of: candidate, fellBack: fellBack, program, regions).map(range)
        }
        func resume(fellBack: Bool) -> FlowResume? {
            HistoryResume(candidate, from: source, fellBack: fellBack, program).map {
                FlowResume(slot: $0.slot, depth: $0.depth, deep: $0.deep, before: range($0.before))
            }
        }
        if candidate.isTargetless {
            return FlowStep(source, effects: range(candidate.effects), written: written, stays: true)
        }
        let retry = candidate.retry.map { retry in
            FlowRetry(
                slot: retry.slot, max: retry.max, fallback: retry.fallback,
                effects: range(program.fallbackEffects(of: candidate, from: source)), keep: retry.keep,
                resume: resume(fellBack: true), entries: entries(fellBack: true))
        }
        return FlowStep(
            candidate.target, effects: range(program.effects(of: candidate, from: source)), retry: retry,
            keep: candidate.keep, resume: resume(fellBack: false), written: written, entries: entries(fellBack: false))
    }
}

extension ProgramSteps: FlowRules {
    typealias State = Int
    typealias Event = Int
    typealias Conditions = [Bool]

    func kind(of state: Int) -> FlowStateKind { states[state].kind }

    func depth(of state: Int) -> Int { states[state].depth }

    var readsStates: Bool { statesReadCount > 0 }

    func conditions(_ conditions: [Bool], whileIn states: some Collection<Int>) -> [Bool] {
        var seen = Array(conditions.prefix(declaredConditions))
        seen += repeatElement(false, count: declaredConditions - seen.count + statesReadCount)
        for state in states {
            for read in statesReadWhileIn[state] { seen[declaredConditions + read] = true }
        }
        return seen
    }

    func step(_ state: Int, on event: Int, _ conditions: [Bool]) -> FlowStep<Int>? {
        guard states[state].kind != .terminal, let position = states[state].position(of: event) else { return nil }
        let candidates = states[state].transitions[position].candidates
        return CandidateChoice.chosen(among: candidates, conditions, written: \.written)?.step
    }

    func always(_ state: Int, _ conditions: [Bool]) -> FlowStep<Int>? {
        let candidates = states[state].kind == .terminal ? states[state].done : states[state].always
        return CandidateChoice.chosen(among: candidates, conditions, written: \.written)?.step
    }

    func eventless(_ state: Int, _ conditions: [Bool]) -> (step: FlowStep<Int>, declaredAt: Int)? {
        let eventless = states[state].eventless
        guard let position = eventless.firstIndex(where: { CandidateChoice.holds($0.written, conditions) }) else {
            return nil
        }
        return (eventless[position].step, states[state].eventlessDeclaredAt[position])
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

    var compoundCount: Int { compounds.count }

    func compoundIndex(around state: Int, atDepth depth: Int) -> Int { states[state].compounds[depth] }

    func parallelDepth(around state: Int) -> Int? { states[state].parallelDepth }

    func declaringDepth(of state: Int, on event: Int, _ conditions: [Bool]) -> Int {
        states[state].position(of: event).map { states[state].declaredAt[$0] } ?? -1
    }

    func exitEffects(of state: Int, through depth: Int) -> Range<Int> { states[state].exits[depth] }

    func entryEffects(of target: Int, keeping keep: Int) -> Range<Int> { states[target].entriesKeeping[keep] }

    func enteredStates(_ target: Int, keeping keep: Int, into states: inout [Int]) {
        states += self.states[target].enteredKeeping[keep]
    }

    func parallelDone(around state: Int, atDepth depth: Int, _ conditions: [Bool]) -> FlowStep<Int>? {
        CandidateChoice.chosen(among: compoundDone[states[state].compounds[depth]], conditions, written: \.written)?
            .step
    }

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

    var hasInitialEffects: Bool { startRun != nil }

    var startEffects: Range<Int> { startRun ?? 0..<0 }

    func entryEffects(of target: Int, keeping keep: Int, initialFrom: Int) -> Range<Int> {
        // Every state a shallow history may resume is listed, with every number kept.
        resumedRuns[InitialEntries.ResumeKey(state: target, keep: keep, initialFrom: initialFrom)] ?? 0..<0
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
