import FlowSpecKernel

/// A machine of a ``FlowProgram``, running: the runtime's kernel (the semantics generated code
/// runs in an app) on the program's lowered steps, plus what tools need of it: which transitions
/// it took, for coverage and test paths, and the stored text of a persisted machine.
/// `flowspec simulate` prints its trace. The semantics, as the kernel runs them:
///
/// - Starting enters `initial`.
/// - An event is looked up in the current state's transitions (own, then inherited
///   machine-wide ones); a state that does not handle it, a terminal state, or a list whose
///   candidates' conditions all fail, ignore it: nothing changes and no effect runs.
/// - Taking a candidate runs its effects (in order), then moves to its target. With a bounded
///   `retry`, the first `max` times in a row it goes to the target and counts; after that it
///   goes to `then`, running its own effects, and then the retry's `effects`. Counters are
///   per declared transition (a machine-wide one shares its counter across the states that
///   inherit it).
/// - Entering any state counts as a new visit (so a timeout armed for an earlier visit is
///   recognised as stale); entering an `input` or `terminal` state resets every retry counter.
/// - Entering a `choice` state takes its first `always` branch whose conditions hold, at once,
///   with the same conditions, until a non-choice state is reached.
/// - A timeout fires only for the visit it was armed for, and acts like an unconditional
///   transition.
/// - In a machine with compound states, the current state is one with no states inside it,
///   and the compound states around it are active too. A transition leaves the states around
///   the source at or below its ``FlowProgram/Candidate/keep`` depth (running their `exit`
///   effects, innermost first), runs its own effects, then enters the target and the states
///   around it at that depth or below (their `entry` effects, outermost first); each state
///   entered is a visit. A compound state's timeout is armed for the visit that entered it and
///   stays armed while the machine moves inside it. A terminal state inside a compound state
///   with `done` takes that `done` at once.
public struct ProgramRun: Sendable, Hashable {
    /// The state, visits, retry counters and memory, as the kernel runs them.
    private var kernel: FlowKernel<ProgramSteps>

    /// The current state: with parallel regions, the first of ``states``.
    public var state: Int { kernel.state }
    /// The states the machine is in, in document order: one, unless parallel regions run.
    public var states: [Int] { kernel.states }
    /// How many times a state has been entered; identifies the current visit.
    public var visit: Int { kernel.visit }
    /// The retry counters.
    public var retries: [Int] { kernel.retryCounts }
    /// The visits that entered the compound states around the current state, outermost first
    /// (empty at the top level).
    public var outerVisits: [Int] { Array(kernel.outerVisitsOfState) }
    /// Per memory slot (``FlowProgram/Compound/memorySlot``), the state its compound state was
    /// last left in, or -1 if it never was: what its history states resume.
    public var memory: [Int] { kernel.memory.map { $0 ?? -1 } }

    /// One transition the machine took: from which state, through what, which candidate (its
    /// position among the event's, the `always` branches, or 0 for a timeout), and whether a
    /// used-up `retry` sent it to `then`. What coverage and test paths count.
    public struct Move: Sendable, Hashable {
        /// How a transition is taken.
        public enum Via: Sendable, Hashable {
            /// An event, by index.
            case event(Int)
            /// An `always` branch of a choice state.
            case always
            /// An `always` branch taken while the state waits: its own or a compound state's
            /// around it (the candidate's position is among ``FlowProgram/State/eventless``).
            case eventless
            /// The state's timeout.
            case timeout
            /// The timeout of a compound state around it, by index in ``FlowProgram/compounds``.
            case outerTimeout(Int)
            /// The `done` of the compound state around a terminal state.
            case done
            /// The `done` of a parallel state whose every region has ended, by index in
            /// ``FlowProgram/compounds``.
            case parallelDone(Int)
        }

        /// The state left.
        public var from: Int
        /// The state entered (the `then` of a used-up retry).
        public var to: Int
        /// What took the transition.
        public var via: Via
        /// The candidate's position.
        public var candidate: Int
        /// Whether the `retry` was used up, so the candidate went to its `then`.
        public var fellBack: Bool
        /// The history state it went through, by index in ``FlowProgram/histories``, if any.
        public var history: Int? = nil
        /// Whether that history resumed a recorded state (not its default).
        public var resumed = false
        /// Whether the transition has no target: it stays in ``from`` (``to`` too), entering
        /// nothing.
        public var stays = false

        /// The state it enters, if any.
        public var entered: Int? { stays ? nil : to }
    }

    /// A machine before starting: the compound states around `state` are entered (a visit
    /// each, from 0), then the state itself.
    init(program: FlowProgram, state: Int) {
        kernel = FlowKernel(state: state, program.steps)
    }

    /// The state a memory slot holds, if its compound state was ever left.
    public func recorded(_ slot: Int) -> Int? {
        kernel.memory[slot]
    }

    /// The machine's state and retry counters, without its visit counts: two runtimes that agree
    /// here behave alike from now on (up to which compound state's timeout is armed since when,
    /// which the state alone does not say).
    var configuration: ProgramRun {
        var copy = self
        copy.kernel = kernel.forgettingVisits()
        return copy
    }

    /// Starts the machine at `initial`; returns it with the effects of any `always` branches taken.
    public static func start(_ program: FlowProgram, conditions: [Bool]) -> (ProgramRun, [Int]) {
        var moves: [Move]? = nil
        return start(program, conditions: conditions, moves: &moves)
    }

    /// Starts the machine, appending the `always` branches taken to `moves`.
    public static func start(_ program: FlowProgram, conditions: [Bool], moves: inout [Move]?) -> (ProgramRun, [Int]) {
        var runtime = ProgramRun(program: program, state: program.initial)
        let effects = runtime.run(program, &moves) { kernel, sink in
            kernel.enter(conditions, program.steps, &sink, starting: true)
        }
        return (runtime, effects)
    }

    /// Restores a machine from a stored raw value (`int` position or `string` name): absent →
    /// `initial`; a value `migrate` maps → its state; unknown → `initial`; an out-of-range
    /// integer → clamped with `restore: clamp`, otherwise `initial`; then `resume` applies and
    /// a `choice` state is resolved.
    public static func restore(_ program: FlowProgram, rawValue: String?, conditions: [Bool]) -> (ProgramRun, [Int]) {
        var moves: [Move]? = nil
        return restore(program, rawValue: rawValue, conditions: conditions, moves: &moves)
    }

    /// Restores a machine, appending the `always` branches taken to `moves`.
    public static func restore(
        _ program: FlowProgram, rawValue: String?, conditions: [Bool], moves: inout [Move]?
    ) -> (ProgramRun, [Int]) {
        let (value, regions, remembered) = StoredText.parse(rawValue)
        let state = landing(program, rawValue: value)
        var runtime = ProgramRun(program: program, state: state)
        runtime.restoreMemory(remembered, program)
        runtime.restoreRegions(regions, program)
        // Nothing stored starts the flow (unless `resume` lands it elsewhere).
        let starting = value == nil && state == program.initial && regions.isEmpty
        let effects = runtime.run(program, &moves) { kernel, sink in
            kernel.enter(conditions, program.steps, &sink, starting: starting)
        }
        return (runtime, effects)
    }

    /// The value a persisted machine stores for a state: its position (`int`) or name.
    public static func storedValue(of state: Int, _ program: FlowProgram) -> String {
        program.persist?.rawValue == .int ? String(state) : program.states[state].name
    }

    /// What a persisted machine stores, as traces and `--restore` write it: its state's value;
    /// with parallel states, `, REGION=VALUE` for each region a restore takes from its stored
    /// value (an active region that holds none of the states written before it: those already
    /// say where it is), with the first state the flow is in inside it; then `; COMPOUND=VALUE`
    /// for each compound state with a history state inside that was left.
    public func storedText(_ program: FlowProgram) -> String {
        let remembered = program.compounds.compactMap { compound -> StoredText.Named? in
            guard let slot = compound.memorySlot, let state = recorded(slot) else { return nil }
            return (compound.name, Self.storedValue(of: state, program))
        }
        var placed = [state]
        var regions: [StoredText.Named] = []
        for region in program.storedRegions {
            let inside = program.compounds[region].states
            guard !placed.contains(where: inside.contains), let first = states.first(where: inside.contains) else {
                continue
            }
            placed.append(first)
            regions.append((program.compounds[region].name, Self.storedValue(of: first, program)))
        }
        return StoredText.text(value: Self.storedValue(of: state, program), regions: regions, memory: remembered)
    }

    /// Puts each region named in a stored text at the state its value restores to (as the
    /// flow's own value restores), as ``FlowKernel/restoreRegions(_:_:)`` decides; a name that
    /// is no region of the machine is ignored.
    private mutating func restoreRegions(_ regions: [StoredText.Named], _ program: FlowProgram) {
        let stored = regions.compactMap { name, value -> (region: Int, state: Int)? in
            guard let region = program.storedRegions.first(where: { program.compounds[$0].name == name }) else {
                return nil
            }
            return (region, Self.landing(program, rawValue: value))
        }
        if !stored.isEmpty { _ = kernel.restoreRegions(stored, program.steps) }
    }

    /// The state a stored value restores to: ``restoredState(_:rawValue:)``, then `resume`.
    static func landing(_ program: FlowProgram, rawValue: String?) -> Int {
        let restored = restoredState(program, rawValue: rawValue)
        // Nothing stored is a first launch: `initial`, which no `resume` moves.
        guard rawValue != nil else { return restored }
        return program.persist?.resume[restored] ?? restored
    }

    /// Restores what compound states remember, by name: a value that is not exactly a state
    /// inside its compound state (or names no compound state with memory) is dropped.
    private mutating func restoreMemory(_ remembered: [StoredText.Named], _ program: FlowProgram) {
        for (name, value) in remembered {
            guard let compound = program.compounds.first(where: { $0.name == name }), let slot = compound.memorySlot
            else { continue }
            let state =
                program.persist?.rawValue == .int
                ? Int(value) : program.states.firstIndex { $0.name == value }
            guard let state, compound.states.contains(state) else { continue }
            kernel.remember(state, inSlot: slot)
        }
    }

    static func restoredState(_ program: FlowProgram, rawValue: String?) -> Int {
        guard let rawValue, let persist = program.persist else { return program.initial }
        switch persist.rawValue {
        case .string:
            if let migrated = persist.migrate[.string(rawValue)] { return migrated }
            return program.states.firstIndex { $0.name == rawValue } ?? program.initial
        case .int:
            guard let value = Int(rawValue) else { return program.initial }
            if let migrated = persist.migrate[.int(value)] { return migrated }
            if program.states.indices.contains(value) { return value }
            guard persist.restore == .clamp else { return program.initial }
            return value < 0 ? 0 : program.states.count - 1
        }
    }

    /// Sends an event. Returns the effects, or `nil` if the event was ignored.
    public mutating func send(_ event: Int, _ program: FlowProgram, conditions: [Bool]) -> [Int]? {
        var moves: [Move]? = nil
        return send(event, program, conditions: conditions, moves: &moves)
    }

    /// Sends an event, appending the transitions taken to `moves`.
    public mutating func send(_ event: Int, _ program: FlowProgram, conditions: [Bool], moves: inout [Move]?)
        -> [Int]?
    {
        var handled = false
        let effects = run(program, &moves) { kernel, sink in
            handled = kernel.send(event, conditions, program.steps, &sink)
        }
        return handled ? effects : nil
    }

    /// Tries the `always` branches of the states the flow is in, as the app asks when its
    /// conditions changed (`@conditions`). Returns the effects, or `nil` if none was taken.
    public mutating func conditionsChanged(_ program: FlowProgram, conditions: [Bool], moves: inout [Move]?)
        -> [Int]?
    {
        var handled = false
        let effects = run(program, &moves) { kernel, sink in
            handled = kernel.conditionsChanged(conditions, program.steps, &sink)
        }
        return handled ? effects : nil
    }

    /// The sub-flows running now: each active compound state that runs a machine, by index in
    /// ``FlowProgram/compounds``, with the visit that entered it (a new visit is a new run),
    /// outermost first within each region.
    public func runningSubFlows(_ program: FlowProgram) -> [(compound: Int, visit: Int)] {
        var running: [(compound: Int, visit: Int)] = []
        for state in states {
            let written = program.states[state]
            for depth in 0..<written.ancestors.count {
                let compound = written.compound(atDepth: depth)
                guard program.compounds[compound].runs != nil, !running.contains(where: { $0.compound == compound })
                else { continue }
                running.append((compound, kernel.visit(around: state, atDepth: depth, program.steps)))
            }
        }
        return running
    }

    /// The timeout armed for the current visit, if the state has one.
    public func armedTimeout(_ program: FlowProgram) -> (after: Duration, target: Int, visit: Int)? {
        kernel.armedTimeout(program.steps).map { ($0.after, $0.target, $0.visit) }
    }

    /// Every timeout armed now: those of the compound states around the state, outermost first,
    /// then the state's own (with parallel regions, every active state's and compound state's, in
    /// the order they were armed): the order they fire when due together. Each fires for the
    /// visit it was armed for.
    public func armedTimeouts(_ program: FlowProgram) -> [(after: Duration, target: Int, visit: Int)] {
        kernel.armedTimeouts(program.steps).map { ($0.after, $0.target, $0.visit) }
    }

    /// The timeouts armed now, in the order armed, as ``armedTimeouts(_:)`` and
    /// ``armedTimeoutOwners(_:)`` give them together: what exploring configurations asks of
    /// every one, at once.
    public func armedTimers(_ program: FlowProgram) -> [(after: Duration, visit: Int, state: Int, compound: Int?)] {
        kernel.armedTimeouts(program.steps).map { armed in
            let state = armed.owner ?? self.state
            return (armed.after, armed.visit, state, armed.depth.map { program.states[state].compound(atDepth: $0) })
        }
    }

    /// Whose each timeout of ``armedTimeouts(_:)`` is, in the same order: an active state's own
    /// (`compound` `nil`), or that of the compound state around it, by index in
    /// ``FlowProgram/compounds``.
    public func armedTimeoutOwners(_ program: FlowProgram) -> [(state: Int, compound: Int?)] {
        armedTimers(program).map { ($0.state, $0.compound) }
    }

    /// Whose timeout is armed for `visit`: an active state's own (`compound` `nil`), or that of
    /// the compound state around it, by index in ``FlowProgram/compounds``.
    public func timeoutOwner(forVisit visit: Int, _ program: FlowProgram) -> (state: Int, compound: Int?)? {
        guard let (state, scope) = kernel.timeoutOwner(forVisit: visit, program.steps) else { return nil }
        switch scope {
        case .state: return (state, nil)
        case .compound(let depth): return (state, program.states[state].compound(atDepth: depth))
        }
    }

    /// Fires the timeout armed for `visit`. Returns the effects, or `nil` if there is no such
    /// timeout (another visit's, or a state without one).
    public mutating func fireTimeout(visit: Int, _ program: FlowProgram, conditions: [Bool]) -> [Int]? {
        var moves: [Move]? = nil
        return fireTimeout(visit: visit, program, conditions: conditions, moves: &moves)
    }

    /// Fires the timeout armed for `visit`, appending the transitions taken to `moves`.
    public mutating func fireTimeout(visit: Int, _ program: FlowProgram, conditions: [Bool], moves: inout [Move]?)
        -> [Int]?
    {
        var fired = false
        let effects = run(program, &moves) { kernel, sink in
            fired = kernel.fireTimeout(visit: visit, conditions, program.steps, &sink)
        }
        return fired ? effects : nil
    }

    /// Runs an input on the kernel; returns its effects, and appends the transitions it took
    /// to `moves`, each as the kernel reports it: the step taken names the transition as
    /// written (``ProgramSteps/written``).
    private mutating func run(
        _ program: FlowProgram, _ moves: inout [Move]?,
        _ step: (inout FlowKernel<ProgramSteps>, inout ProgramSink) -> Void
    ) -> [Int] {
        var sink = ProgramSink(effectList: program.steps.effectList, taken: moves == nil ? nil : [])
        step(&kernel, &sink)
        for taken in sink.taken ?? [] {
            let written = program.steps.written[taken.written]
            moves?.append(
                Move(
                    from: taken.from, to: taken.to, via: written.via, candidate: written.position,
                    fellBack: taken.fellBack,
                    history: taken.fellBack ? written.candidate.retry?.history : written.candidate.history,
                    resumed: taken.resumed, stays: taken.stays))
        }
        return sink.effects
    }
}

/// Where the kernel puts what an input of a ``ProgramRun`` does: its effects, by index in
/// ``FlowProgram/effects``, and (when asked) the transitions it took.
private struct ProgramSink: FlowStepSink {
    typealias Taken = (written: Int, from: Int, to: Int, fellBack: Bool, resumed: Bool, stays: Bool)
    let effectList: [Int]
    var effects: [Int] = []
    var taken: [Taken]?

    init(effectList: [Int], taken: [Taken]?) {
        self.effectList = effectList
        self.taken = taken
    }

    mutating func append(_ start: Int, _ count: Int) {
        effects += effectList[start..<(start + count)]
    }

    mutating func appendSecond(_ start: Int, _ count: Int) {
        append(start, count)
    }

    mutating func took(_ step: FlowStep<Int>, from: Int, to: Int, fellBack: Bool, resumed: Bool) {
        taken?.append((step.written, from, to, fellBack, resumed, step.stays))
    }
}
