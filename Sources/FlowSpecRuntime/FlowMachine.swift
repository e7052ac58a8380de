/// A running flow: the current state, the visit counter that tells timeouts of different visits
/// apart, and the retry counters. A plain value: copy it, compare it, keep it in your model.
///
/// It runs the reference semantics of `flowspec simulate` (`docs/generated-code.md`):
///
/// - Starting enters `initial`; entering a `choice` state takes its first `always` branch that
///   holds, at once, until a non-choice state is reached, so ``state`` is never a choice state.
/// - An event the current state does not handle (or whose candidates' conditions all fail)
///   changes nothing. Taking a transition runs its effects, in order, then enters its target.
/// - Every state entered is a new visit; a timeout fires only for the visit it was armed for.
/// - A transition with `retry: { max, then, effects }` goes to its target `max` times in a row,
///   then to `then`, running the retry's `effects` after its own; entering an `input` or
///   `terminal` state resets every counter.
///
/// It performs no effect itself: it returns them, in order, for the app (or ``FlowDriver``) to
/// carry out. Its functions are inlinable, so that `send` is specialised for the machine in the
/// app's module and allocates nothing.
public struct FlowMachine<Spec: FlowSpec>: Sendable, Hashable {
    /// The current state (never a choice state: those are left at once).
    @inlinable
    public var state: Spec.State { currentState }
    /// How many times a state has been entered; identifies the current visit.
    @inlinable
    public var visit: Int { currentVisit }

    @usableFromInline
    internal var currentState: Spec.State
    @usableFromInline
    internal var currentVisit: Int
    /// The retry counters, one per transition with a bounded `retry`.
    @usableFromInline
    internal var retries: [Int]
    /// The spec's tables (nothing for a `switch` machine), held so that a step reads them
    /// without a global's lazy-initialisation check.
    @usableFromInline
    internal let tables: Spec.Tables

    @inlinable
    internal init(state: Spec.State) {
        self.currentState = state
        self.currentVisit = 0
        self.retries = Spec.retrySlotCount == 0 ? [] : [Int](repeating: 0, count: Spec.retrySlotCount)
        self.tables = Spec.tables
    }

    /// Equal when in the same state, visit and retry counts (the tables are the spec's own).
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.currentState == rhs.currentState && lhs.currentVisit == rhs.currentVisit && lhs.retries == rhs.retries
    }

    /// Hashes the state, visit and retry counts.
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(currentState)
        hasher.combine(currentVisit)
        hasher.combine(retries)
    }

    /// Starts the flow at `initial`, taking `always` branches at once; returns the effects they ran.
    @inlinable
    public static func start(conditions: Spec.Conditions = Spec.Conditions()) -> (
        machine: Self, effects: FlowEffects<Spec>
    ) {
        var machine = Self(state: Spec.initial)
        var effects = FlowEffects<Spec>()
        machine.settle(conditions, &effects)
        return (machine, effects)
    }

    /// The timeout armed for the current visit, if the state has one.
    @inlinable
    public var armedTimeout: FlowArmedTimeout<Spec.State>? {
        guard let timeout = Spec.timeout(of: state) else { return nil }
        return FlowArmedTimeout(after: timeout.after, target: timeout.to, visit: visit)
    }

    /// Sends an event; returns the effects to carry out, in order. An event the state does not
    /// handle changes nothing (``visit`` stays the same).
    @discardableResult @inlinable @inline(__always)
    public mutating func send(_ event: Spec.Event, conditions: Spec.Conditions = Spec.Conditions()) -> FlowEffects<Spec>
    {
        var effects = FlowEffects<Spec>()
        if let step = Spec.step(currentState, on: event, conditions, tables) { take(step, conditions, &effects) }
        return effects
    }

    /// Fires the timeout armed for `visit`; a timeout of an earlier visit changes nothing.
    @discardableResult @inlinable
    public mutating func fireTimeout(visit: Int, conditions: Spec.Conditions = Spec.Conditions()) -> FlowEffects<Spec> {
        var effects = FlowEffects<Spec>()
        if visit == currentVisit, let step = Spec.timeoutStep(currentState, tables) { take(step, conditions, &effects) }
        return effects
    }

    /// Takes a step and then, while the state reached is a `choice`, its first branch that
    /// holds (a loop, not recursion: chains of choice states can be long).
    @inlinable @inline(__always)
    internal mutating func take(
        _ first: FlowStep<Spec.State>, _ conditions: Spec.Conditions, _ effects: inout FlowEffects<Spec>
    ) {
        var next: FlowStep<Spec.State>? = first
        while let step = next {
            effects.append(step.effects.lowerBound, step.effects.count)
            var target = step.target
            if let retry = step.retry {
                if retries[retry.slot] < retry.max {
                    retries[retry.slot] += 1
                } else {
                    target = retry.fallback
                    effects.append(retry.effects.lowerBound, retry.effects.count)
                }
            }
            currentState = target
            currentVisit += 1
            next = enter(conditions)
        }
    }

    /// Entering a state: input and terminal states reset the retry counters; a choice state
    /// returns the branch it takes at once.
    @inlinable @inline(__always)
    internal mutating func enter(_ conditions: Spec.Conditions) -> FlowStep<Spec.State>? {
        switch Spec.kind(of: currentState, in: tables) {
        case .input, .terminal:
            for slot in retries.indices where retries[slot] != 0 { retries[slot] = 0 }
            return nil
        case .choice:
            return Spec.always(currentState, conditions, tables)
        case .task:
            return nil
        }
    }

    /// Enters the state the machine starts in (or is restored to).
    @inlinable
    internal mutating func settle(_ conditions: Spec.Conditions, _ effects: inout FlowEffects<Spec>) {
        if let branch = enter(conditions) { take(branch, conditions, &effects) }
    }
}

extension FlowMachine where Spec: PersistentFlowSpec {
    /// Restores the flow from a stored raw value (see ``PersistentFlowSpec``): then `resume`
    /// applies, and a restored choice state is left at once. Never traps.
    @inlinable
    public static func restore(
        from rawValue: Spec.State.RawValue?, conditions: Spec.Conditions = Spec.Conditions()
    ) -> (machine: Self, effects: FlowEffects<Spec>) {
        var machine = Self(state: Spec.resumed(Spec.restoredState(from: rawValue)))
        var effects = FlowEffects<Spec>()
        machine.settle(conditions, &effects)
        return (machine, effects)
    }
}
