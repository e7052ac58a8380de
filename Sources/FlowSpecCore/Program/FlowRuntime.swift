/// The reference semantics of a generated machine, run directly on a ``FlowProgram``. The
/// generated Swift must behave exactly like this; `flowspec simulate` prints its trace.
///
/// - Starting enters `initial`.
/// - An event is looked up in the current state's transitions (own, then inherited
///   machine-wide ones); a state that does not handle it, a terminal state, or a list whose
///   candidates' conditions all fail, ignore it: nothing changes and no effect runs.
/// - Taking a candidate runs its effects (in order), then moves to its target. With a bounded
///   `retry`, the first `max` times in a row it goes to the target and counts; after that it
///   goes to `then` (effects still run). Counters are per declared transition (a machine-wide
///   one shares its counter across the states that inherit it).
/// - Entering any state counts as a new visit (so a timeout armed for an earlier visit is
///   recognised as stale); entering an `input` or `terminal` state resets every retry counter.
/// - Entering a `choice` state takes its first `always` branch whose conditions hold, at once,
///   with the same conditions, until a non-choice state is reached.
/// - A timeout fires only for the visit it was armed for, and acts like an unconditional
///   transition.
public struct FlowRuntime: Sendable, Hashable {
    /// The current state.
    public private(set) var state: Int
    /// How many times a state has been entered; identifies the current visit.
    public private(set) var visit: Int
    /// The retry counters.
    public private(set) var retries: [Int]

    /// A machine before starting.
    init(program: FlowProgram, state: Int) {
        self.state = state
        self.visit = 0
        self.retries = [Int](repeating: 0, count: program.retrySlotCount)
    }

    /// Starts the machine at `initial`; returns it with the effects of any `always` branches taken.
    public static func start(_ program: FlowProgram, conditions: [Bool]) -> (FlowRuntime, [Int]) {
        var runtime = FlowRuntime(program: program, state: program.initial)
        var effects: [Int] = []
        runtime.settle(program, conditions, &effects)
        return (runtime, effects)
    }

    /// Restores a machine from a stored raw value (`int` position or `string` name): absent or
    /// unknown → `initial`; an out-of-range integer → clamped with `restore: clamp`, otherwise
    /// `initial`; then `resume` applies and a `choice` state is resolved.
    public static func restore(_ program: FlowProgram, rawValue: String?, conditions: [Bool]) -> (FlowRuntime, [Int]) {
        let restored = restoredState(program, rawValue: rawValue)
        let landing = program.persist?.resume[restored] ?? restored
        var runtime = FlowRuntime(program: program, state: landing)
        var effects: [Int] = []
        runtime.settle(program, conditions, &effects)
        return (runtime, effects)
    }

    static func restoredState(_ program: FlowProgram, rawValue: String?) -> Int {
        guard let rawValue, let persist = program.persist else { return program.initial }
        switch persist.rawValue {
        case .string:
            return program.states.firstIndex { $0.name == rawValue } ?? program.initial
        case .int:
            guard let value = Int(rawValue) else { return program.initial }
            if program.states.indices.contains(value) { return value }
            guard persist.restore == .clamp else { return program.initial }
            return value < 0 ? 0 : program.states.count - 1
        }
    }

    /// Sends an event. Returns the effects, or `nil` if the event was ignored.
    public mutating func send(_ event: Int, _ program: FlowProgram, conditions: [Bool]) -> [Int]? {
        guard program.states[state].kind != .terminal,
            let candidate = program.candidates(in: state, for: event)?.first(where: { $0.holds(conditions) })
        else { return nil }
        var effects: [Int] = []
        take(candidate, program, conditions, &effects)
        return effects
    }

    /// The timeout armed for the current visit, if the state has one.
    public func armedTimeout(_ program: FlowProgram) -> (after: Duration, target: Int, visit: Int)? {
        guard let timeout = program.states[state].timeout else { return nil }
        return (timeout.after, timeout.candidate.target, visit)
    }

    /// Fires the timeout armed for `visit`. Returns the effects, or `nil` if there is no such
    /// timeout (another visit's, or a state without one).
    public mutating func fireTimeout(visit: Int, _ program: FlowProgram, conditions: [Bool]) -> [Int]? {
        guard visit == self.visit, let timeout = program.states[state].timeout else { return nil }
        var effects: [Int] = []
        take(timeout.candidate, program, conditions, &effects)
        return effects
    }

    /// Takes a candidate and then, while the state reached is a `choice`, its first branch
    /// that holds (a loop, not recursion: chains of choice states can be long).
    private mutating func take(
        _ candidate: FlowProgram.Candidate, _ program: FlowProgram, _ conditions: [Bool],
        _ effects: inout [Int]
    ) {
        var next: FlowProgram.Candidate? = candidate
        while let candidate = next {
            effects += candidate.effects
            var target = candidate.target
            if let retry = candidate.retry {
                if retries[retry.slot] < retry.max {
                    retries[retry.slot] += 1
                } else {
                    target = retry.fallback
                }
            }
            state = target
            visit += 1
            next = enter(program, conditions)
        }
    }

    /// What entering the current state means: counters reset at input and terminal states; a
    /// choice state returns the branch to take at once.
    private mutating func enter(_ program: FlowProgram, _ conditions: [Bool]) -> FlowProgram.Candidate? {
        let kind = program.states[state].kind
        if kind == .input || kind == .terminal {
            for slot in retries.indices { retries[slot] = 0 }
        }
        guard kind == .choice else { return nil }
        return program.states[state].always.first { $0.holds(conditions) }
    }

    /// Enters the state the machine starts in (or is restored to).
    private mutating func settle(_ program: FlowProgram, _ conditions: [Bool], _ effects: inout [Int]) {
        if let branch = enter(program, conditions) {
            take(branch, program, conditions, &effects)
        }
    }
}
