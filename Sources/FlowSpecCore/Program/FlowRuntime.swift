/// The reference semantics of a generated machine, run directly on a ``FlowProgram``. The
/// generated Swift must behave exactly like this; `flowspec simulate` prints its trace.
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
public struct FlowRuntime: Sendable, Hashable {
    /// The current state.
    public private(set) var state: Int
    /// How many times a state has been entered; identifies the current visit.
    public private(set) var visit: Int
    /// The retry counters.
    public private(set) var retries: [Int]
    /// The visits that entered the compound states around the current state, outermost first
    /// (empty at the top level).
    public private(set) var outerVisits: [Int] = []
    /// Per memory slot (``FlowProgram/Compound/memorySlot``), the state its compound state was
    /// last left in, or -1 if it never was: what its history states resume.
    public private(set) var memory: [Int] = []

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
            /// The state's timeout.
            case timeout
            /// The timeout of a compound state around it, by index in ``FlowProgram/compounds``.
            case outerTimeout(Int)
            /// The `done` of the compound state around a terminal state.
            case done
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
    }

    /// A machine before starting: the compound states around `state` are entered (a visit
    /// each, from 0), then the state itself.
    init(program: FlowProgram, state: Int) {
        self.state = state
        self.outerVisits = Array(0..<program.states[state].depth)
        self.visit = outerVisits.count
        self.retries = [Int](repeating: 0, count: program.retrySlotCount)
        self.memory = [Int](repeating: -1, count: program.memorySlotCount)
    }

    /// The state a memory slot holds, if its compound state was ever left.
    public func recorded(_ slot: Int) -> Int? {
        memory[slot] >= 0 ? memory[slot] : nil
    }

    /// The machine's state and retry counters, without its visit counts: two runtimes that agree
    /// here behave alike from now on (up to which compound state's timeout is armed since when,
    /// which the state alone does not say).
    var configuration: FlowRuntime {
        var copy = self
        copy.visit = 0
        for depth in copy.outerVisits.indices { copy.outerVisits[depth] = 0 }
        return copy
    }

    /// The same machine with the visit counts of a run that reached it: the outer states'
    /// visits given, the current state's after them. (``configuration`` forgets them.)
    mutating func restoreVisits(outer: [Int]) {
        outerVisits = outer
        visit = (outer.last ?? -1) + 1
    }

    /// Starts the machine at `initial`; returns it with the effects of any `always` branches taken.
    public static func start(_ program: FlowProgram, conditions: [Bool]) -> (FlowRuntime, [Int]) {
        var moves: [Move]? = nil
        return start(program, conditions: conditions, moves: &moves)
    }

    /// Starts the machine, appending the `always` branches taken to `moves`.
    public static func start(_ program: FlowProgram, conditions: [Bool], moves: inout [Move]?) -> (FlowRuntime, [Int]) {
        var runtime = FlowRuntime(program: program, state: program.initial)
        var effects = program.entryEffects(of: program.initial, keeping: 0)
        runtime.settle(program, conditions, &effects, &moves)
        return (runtime, effects)
    }

    /// Restores a machine from a stored raw value (`int` position or `string` name): absent →
    /// `initial`; a value `migrate` maps → its state; unknown → `initial`; an out-of-range
    /// integer → clamped with `restore: clamp`, otherwise `initial`; then `resume` applies and
    /// a `choice` state is resolved.
    public static func restore(_ program: FlowProgram, rawValue: String?, conditions: [Bool]) -> (FlowRuntime, [Int]) {
        var moves: [Move]? = nil
        return restore(program, rawValue: rawValue, conditions: conditions, moves: &moves)
    }

    /// Restores a machine, appending the `always` branches taken to `moves`.
    public static func restore(
        _ program: FlowProgram, rawValue: String?, conditions: [Bool], moves: inout [Move]?
    ) -> (FlowRuntime, [Int]) {
        let (value, remembered) = StoredText.parse(rawValue)
        let restored = restoredState(program, rawValue: value)
        let landing = program.persist?.resume[restored] ?? restored
        var runtime = FlowRuntime(program: program, state: landing)
        runtime.restoreMemory(remembered, program)
        var effects = program.entryEffects(of: landing, keeping: 0)
        runtime.settle(program, conditions, &effects, &moves)
        return (runtime, effects)
    }

    /// The value a persisted machine stores for a state: its position (`int`) or name.
    public static func storedValue(of state: Int, _ program: FlowProgram) -> String {
        program.persist?.rawValue == .int ? String(state) : program.states[state].name
    }

    /// What a persisted machine stores, as traces and `--restore` write it: its state's value,
    /// then `; COMPOUND=VALUE` for each compound state with a history state inside that was left.
    public func storedText(_ program: FlowProgram) -> String {
        let remembered = program.compounds.compactMap { compound -> (String, String)? in
            guard let slot = compound.memorySlot, let state = recorded(slot) else { return nil }
            return (compound.name, Self.storedValue(of: state, program))
        }
        return StoredText.text(value: Self.storedValue(of: state, program), memory: remembered)
    }

    /// Restores what compound states remember, by name: a value that is not exactly a state
    /// inside its compound state (or names no compound state with memory) is dropped.
    private mutating func restoreMemory(_ remembered: [(compound: String, value: String)], _ program: FlowProgram) {
        for (name, value) in remembered {
            guard let compound = program.compounds.first(where: { $0.name == name }), let slot = compound.memorySlot
            else { continue }
            let state =
                program.persist?.rawValue == .int
                ? Int(value) : program.states.firstIndex { $0.name == value }
            guard let state, compound.states.contains(state) else { continue }
            memory[slot] = state
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
        guard program.states[state].kind != .terminal,
            let candidates = program.candidates(in: state, for: event),
            let position = candidates.firstIndex(where: { $0.holds(conditions) })
        else { return nil }
        var effects: [Int] = []
        take(candidates[position], via: .event(event), position, program, conditions, &effects, &moves)
        return effects
    }

    /// The timeout armed for the current visit, if the state has one.
    public func armedTimeout(_ program: FlowProgram) -> (after: Duration, target: Int, visit: Int)? {
        guard let timeout = program.states[state].timeout else { return nil }
        return (timeout.after, target(of: timeout.candidate, program), visit)
    }

    /// Where taking a candidate now leads (before its retry is counted): its target, or for a
    /// history state the state it would resume, with what the step itself records first.
    public func target(of candidate: FlowProgram.Candidate, _ program: FlowProgram) -> Int {
        guard let history = candidate.history else { return candidate.target }
        let compound = program.histories[history].compound
        let leaves =
            program.states[state].ancestors.contains(compound)
            && program.compounds[compound].depth >= candidate.keep
        let slot = program.compounds[compound].memorySlot ?? 0
        return program.resumeTarget(of: history, recorded: leaves ? state : recorded(slot))
    }

    /// Every timeout armed now: those of the compound states around the state, outermost first,
    /// then the state's own. Each fires for the visit it was armed for.
    public func armedTimeouts(_ program: FlowProgram) -> [(after: Duration, target: Int, visit: Int)] {
        var armed = program.states[state].outerTimeouts.map { scoped in
            (scoped.timeout.after, target(of: scoped.timeout.candidate, program), outerVisits[scoped.depth])
        }
        if let own = armedTimeout(program) { armed.append(own) }
        return armed
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
        let timeout: FlowProgram.Timeout
        let via: Move.Via
        if visit == self.visit, let own = program.states[state].timeout {
            (timeout, via) = (own, .timeout)
        } else if let outer = program.states[state].outerTimeouts.first(where: { outerVisits[$0.depth] == visit }) {
            (timeout, via) = (outer.timeout, .outerTimeout(program.states[state].compound(atDepth: outer.depth)))
        } else {
            return nil
        }
        var effects: [Int] = []
        take(timeout.candidate, via: via, 0, program, conditions, &effects, &moves)
        return effects
    }

    /// Takes a candidate and then, while the state reached is a `choice`, its first branch
    /// that holds (a loop, not recursion: chains of choice states can be long).
    private mutating func take(
        _ candidate: FlowProgram.Candidate, via: Move.Via, _ position: Int, _ program: FlowProgram,
        _ conditions: [Bool], _ effects: inout [Int], _ moves: inout [Move]?
    ) {
        var next: (candidate: FlowProgram.Candidate, via: Move.Via, position: Int)? = (candidate, via, position)
        while let (candidate, via, position) = next {
            var target = candidate.target
            var keep = candidate.keep
            var history = candidate.history
            var fallbackEffects: [Int] = []
            var fellBack = false
            if let retry = candidate.retry {
                if retries[retry.slot] < retry.max {
                    retries[retry.slot] += 1
                } else {
                    target = retry.fallback
                    keep = retry.keep
                    history = retry.history
                    fallbackEffects = retry.effects
                    fellBack = true
                }
            }
            // Leaving a compound state with a history state inside records where it was left;
            // a history target then reads it (SCXML: exits record before entries read).
            if !memory.isEmpty { remember(leaving: keep, program) }
            var resumed = false
            if let history {
                let slot = program.compounds[program.histories[history].compound].memorySlot ?? 0
                target = program.resumeTarget(of: history, recorded: recorded(slot))
                resumed = recorded(slot) != nil
            }
            effects += program.exitEffects(of: state, keeping: keep)
            effects += candidate.effects
            effects += fallbackEffects
            effects += program.entryEffects(of: target, keeping: keep)
            moves?.append(
                Move(
                    from: state, to: target, via: via, candidate: position, fellBack: fellBack, history: history,
                    resumed: resumed))
            state = target
            let depth = program.states[target].depth
            outerVisits.removeLast(max(0, outerVisits.count - keep))
            while outerVisits.count < depth {
                visit += 1
                outerVisits.append(visit)
            }
            visit += 1
            next = enter(program, conditions)
        }
    }

    /// Records the current state in the memory of each compound state around it that a step
    /// keeping `keep` of them leaves.
    private mutating func remember(leaving keep: Int, _ program: FlowProgram) {
        for ancestor in program.states[state].ancestors where program.compounds[ancestor].depth >= keep {
            if let slot = program.compounds[ancestor].memorySlot { memory[slot] = state }
        }
    }

    /// What entering the current state means: counters reset at input and terminal states; a
    /// choice state returns the branch to take at once, with its position, and a terminal state
    /// the `done` of the compound state around it.
    private mutating func enter(_ program: FlowProgram, _ conditions: [Bool]) -> (
        candidate: FlowProgram.Candidate, via: Move.Via, position: Int
    )? {
        let kind = program.states[state].kind
        if kind == .input || kind == .terminal {
            for slot in retries.indices { retries[slot] = 0 }
        }
        if kind == .terminal, let done = program.states[state].done { return (done, .done, 0) }
        guard kind == .choice else { return nil }
        let always = program.states[state].always
        return always.firstIndex { $0.holds(conditions) }.map { (always[$0], .always, $0) }
    }

    /// Enters the state the machine starts in (or is restored to).
    private mutating func settle(
        _ program: FlowProgram, _ conditions: [Bool], _ effects: inout [Int], _ moves: inout [Move]?
    ) {
        if let branch = enter(program, conditions) {
            take(branch.candidate, via: branch.via, branch.position, program, conditions, &effects, &moves)
        }
    }
}
