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
/// - In a machine with compound states, ``state`` is a state with none inside it, and the
///   compound states around it are active too (``isIn(_:)``). A step leaves the states around
///   it below its `keep` and enters those around its target (their `exit` and `entry` effects
///   are among the step's); each state entered is a visit. A compound state's timeout is armed
///   for the visit that entered it, and stays armed while the machine moves inside it
///   (``armedTimeouts``). A terminal state inside a compound state with `done` takes that
///   `done` at once.
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
    /// The visits that entered the compound states around the current state, outermost first:
    /// the first ``outerDepth`` of ``FlowSpec/maximumDepth`` slots (none in a flat machine),
    /// written in place, so that a step neither allocates nor resizes.
    @usableFromInline
    internal var outerVisits: [Int]
    /// How many of ``outerVisits`` are the current state's: its depth.
    @usableFromInline
    internal var outerDepth: Int
    /// The spec's tables (nothing for a `switch` machine), held so that a step reads them
    /// without a global's lazy-initialisation check.
    @usableFromInline
    internal let tables: Spec.Tables
    /// Per memory slot (``FlowSpec/memorySlotCount``), the state its compound state was last left
    /// in, or `nil` if it never was: what its history states resume. Empty without history.
    @usableFromInline
    internal var memory: [Spec.State?]

    /// A machine in `state`, having entered the compound states around it (a visit each, from
    /// 0) and then the state.
    @inlinable
    internal init(state: Spec.State) {
        self.currentState = state
        self.retries = Spec.retrySlotCount == 0 ? [] : [Int](repeating: 0, count: Spec.retrySlotCount)
        self.tables = Spec.tables
        self.memory = Spec.memorySlotCount == 0 ? [] : [Spec.State?](repeating: nil, count: Spec.memorySlotCount)
        if Spec.maximumDepth == 0 {
            self.outerVisits = []
            self.outerDepth = 0
            self.currentVisit = 0
        } else {
            let depth = Spec.depth(of: state)
            self.outerVisits = Array(0..<Spec.maximumDepth)
            self.outerDepth = depth
            self.currentVisit = depth
        }
    }

    /// Equal when in the same state, visits, retry counts and history memory (the tables are
    /// the spec's own).
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.currentState == rhs.currentState && lhs.currentVisit == rhs.currentVisit && lhs.retries == rhs.retries
            && lhs.outerVisits[..<lhs.outerDepth] == rhs.outerVisits[..<rhs.outerDepth] && lhs.memory == rhs.memory
    }

    /// Hashes the state, visits, retry counts and history memory.
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(currentState)
        hasher.combine(currentVisit)
        hasher.combine(retries)
        hasher.combine(outerVisits[..<outerDepth])
        hasher.combine(memory)
    }

    /// What the compound states with a history state inside remember, by memory slot
    /// (``FlowSpec/memorySlotNames``): the state each was last left in, `nil` if never.
    @inlinable
    public var rememberedStates: [Spec.State?] { memory }

    /// The state the compound state was last left in, if it was ever left and has a history
    /// state inside (what that history resumes).
    @inlinable
    public func lastState(in compound: Spec.Compound) -> Spec.State? {
        Spec.memorySlot(of: compound).flatMap { memory[$0] }
    }

    /// Whether the machine is inside a compound state (its current state is).
    @inlinable
    public func isIn(_ compound: Spec.Compound) -> Bool {
        Spec.contains(compound, currentState)
    }

    /// Starts the flow at `initial`, taking `always` branches at once; returns the effects they ran.
    @inlinable
    public static func start(conditions: Spec.Conditions = Spec.Conditions()) -> (
        machine: Self, effects: FlowEffects<Spec>
    ) {
        var machine = Self(state: Spec.initial)
        var effects = FlowEffects<Spec>()
        let entry = Spec.entryEffects(of: Spec.initial)
        effects.append(entry.lowerBound, entry.count)
        machine.settle(conditions, &effects)
        return (machine, effects)
    }

    /// The timeout armed for the current visit, if the state has one.
    @inlinable
    public var armedTimeout: FlowArmedTimeout<Spec.State>? {
        guard let timeout = Spec.timeout(of: state) else { return nil }
        let target = target(of: Spec.memorySlotCount > 0 ? Spec.timeoutStep(currentState, tables) : nil)
        return FlowArmedTimeout(after: timeout.after, target: target ?? timeout.to, visit: visit)
    }

    /// Where a step into a history state would lead if taken now (before its retry is counted):
    /// the state its history resumes, with what the step itself records first; `nil` for any
    /// other step.
    @inlinable
    internal func target(of step: FlowStep<Spec.State>?) -> Spec.State? {
        guard let step, let resume = step.resume else { return nil }
        var recorded = memory[resume.slot]
        var depth = outerDepth
        while depth > step.keep {
            depth -= 1
            if let compound = Spec.compound(around: currentState, atDepth: depth),
                Spec.memorySlot(of: compound) == resume.slot
            {
                recorded = currentState
            }
        }
        guard let recorded else { return step.target }
        return Self.resumed(recorded, resume)
    }

    /// The state a history resumes when its compound state was left in `recorded`: that state
    /// (deep), or the state directly inside the compound state that held it, entered by its
    /// `initial` chain (shallow).
    @inlinable
    internal static func resumed(_ recorded: Spec.State, _ resume: FlowResume) -> Spec.State {
        let inside = resume.depth + 1
        guard !resume.deep, Spec.depth(of: recorded) > inside,
            let child = Spec.compound(around: recorded, atDepth: inside)
        else { return recorded }
        return Spec.initialState(of: child)
    }

    /// The `entry` effects of entering `state` from the compound state at depth `keep` down: the
    /// end of ``FlowSpec/entryEffects(of:)``, past those of the compound states above `keep`.
    @inlinable
    internal static func entryEffects(of state: Spec.State, keeping keep: Int) -> Range<Int> {
        let all = Spec.entryEffects(of: state)
        var skipped = 0
        for depth in 0..<Swift.min(keep, Spec.depth(of: state)) {
            if let compound = Spec.compound(around: state, atDepth: depth) {
                skipped += Spec.entryEffectCount(of: compound)
            }
        }
        return (all.lowerBound + skipped)..<all.upperBound
    }

    /// Every timeout armed now: those of the compound states around the state, outermost first
    /// (each armed for the visit that entered its compound state), then the state's own. When
    /// two are due at once, the one armed first (the outer one) fires first.
    @inlinable
    public var armedTimeouts: [FlowArmedTimeout<Spec.State>] {
        var armed: [FlowArmedTimeout<Spec.State>] = []
        for depth in 0..<outerDepth {
            guard let timeout = Spec.outerTimeout(of: currentState, atDepth: depth) else { continue }
            let target = target(
                of: Spec.memorySlotCount > 0 ? Spec.outerTimeoutStep(currentState, atDepth: depth, tables) : nil)
            armed.append(
                FlowArmedTimeout(
                    after: timeout.after, target: target ?? timeout.to, visit: outerVisits[depth], depth: depth))
        }
        if let own = armedTimeout { armed.append(own) }
        return armed
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
        if visit == currentVisit {
            if let step = Spec.timeoutStep(currentState, tables) { take(step, conditions, &effects) }
        } else if let depth = outerVisits[..<outerDepth].firstIndex(of: visit),
            let step = Spec.outerTimeoutStep(currentState, atDepth: depth, tables)
        {
            take(step, conditions, &effects)
        }
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
            var target = step.target
            var ran = step.effects
            var keep = step.keep
            var fellBack = false
            if let retry = step.retry {
                if retries[retry.slot] < retry.max {
                    retries[retry.slot] += 1
                } else {
                    target = retry.fallback
                    ran = retry.effects
                    keep = retry.keep
                    fellBack = true
                }
            }
            if Spec.memorySlotCount > 0 {
                // Leaving records, then a history target reads (SCXML: exits before entries).
                remember(leaving: keep)
                if let resume = fellBack ? step.retry?.resume : step.resume, let recorded = memory[resume.slot] {
                    target = Self.resumed(recorded, resume)
                    effects.append(resume.before.lowerBound, resume.before.count)
                    let entries = Self.entryEffects(of: target, keeping: keep)
                    effects.appendSecond(entries.lowerBound, entries.count)
                    ran = 0..<0
                }
            }
            effects.append(ran.lowerBound, ran.count)
            currentState = target
            if Spec.maximumDepth > 0 { enterOuterStates(of: target, keeping: keep) }
            currentVisit += 1
            next = enter(conditions)
        }
    }

    /// Records the current state in the memory of each compound state around it that a step
    /// keeping `keep` of them leaves, if it has a history state inside.
    @inlinable
    internal mutating func remember(leaving keep: Int) {
        var depth = outerDepth
        while depth > keep {
            depth -= 1
            if let compound = Spec.compound(around: currentState, atDepth: depth),
                let slot = Spec.memorySlot(of: compound)
            {
                memory[slot] = currentState
            }
        }
    }

    /// Leaves the compound states below `keep` and enters those around `state`, a visit each.
    @inlinable
    internal mutating func enterOuterStates(of state: Spec.State, keeping keep: Int) {
        let depth = Spec.depth(of: state, in: tables)
        var count = Swift.min(outerDepth, keep)
        if count < depth {
            // One uniqueness check for all the slots written (`outerVisits[count] = …` makes one each).
            var visit = currentVisit
            outerVisits.withUnsafeMutableBufferPointer { visits in
                while count < depth {
                    visit += 1
                    visits[count] = visit
                    count += 1
                }
            }
            currentVisit = visit
        }
        outerDepth = count
    }

    /// Entering a state: input and terminal states reset the retry counters; a choice state
    /// returns the branch it takes at once.
    @inlinable @inline(__always)
    internal mutating func enter(_ conditions: Spec.Conditions) -> FlowStep<Spec.State>? {
        switch Spec.kind(of: currentState, in: tables) {
        case .input:
            for slot in retries.indices where retries[slot] != 0 { retries[slot] = 0 }
            return nil
        case .terminal:
            for slot in retries.indices where retries[slot] != 0 { retries[slot] = 0 }
            // The `done` of the compound state around it, if any.
            return Spec.maximumDepth > 0 ? Spec.always(currentState, conditions, tables) : nil
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
        let state = Spec.resumed(Spec.restoredState(from: rawValue))
        var machine = Self(state: state)
        var effects = FlowEffects<Spec>()
        let entry = Spec.entryEffects(of: state)
        effects.append(entry.lowerBound, entry.count)
        machine.settle(conditions, &effects)
        return (machine, effects)
    }
}
