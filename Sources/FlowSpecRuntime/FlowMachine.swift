/// A running flow: the current state, the visit counter that tells timeouts of different visits
/// apart, and the retry counters. A plain value: copy it, compare it, keep it in your model.
///
/// It runs the one kernel (``FlowKernel``) `flowspec simulate` runs too (`docs/generated-code.md`):
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
    public var state: Spec.State { kernel.state }
    /// How many times a state has been entered; identifies the current visit.
    @inlinable
    public var visit: Int { kernel.visit }

    /// The state, visits, retry counters and history memory, run by the kernel every
    /// flowspec machine shares.
    @usableFromInline
    internal var kernel: FlowKernel<FlowSpecRules<Spec>>
    /// The spec's tables (nothing for a `switch` machine), held so that a step reads them
    /// without a global's lazy-initialisation check.
    @usableFromInline
    internal let rules: FlowSpecRules<Spec>

    /// A machine in `state`, having entered the compound states around it (a visit each, from
    /// 0) and then the state.
    @inlinable
    internal init(state: Spec.State) {
        rules = FlowSpecRules(tables: Spec.tables)
        kernel = FlowKernel(state: state, rules)
    }

    /// Equal when in the same state, visits, retry counts and history memory (the tables are
    /// the spec's own).
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.kernel == rhs.kernel }

    /// Hashes the state, visits, retry counts and history memory.
    @inlinable
    public func hash(into hasher: inout Hasher) { kernel.hash(into: &hasher) }

    /// What the compound states with a history state inside remember, by memory slot
    /// (``FlowSpec/memorySlotNames``): the state each was last left in, `nil` if never.
    @inlinable
    public var rememberedStates: [Spec.State?] { kernel.memory }

    /// The state the compound state was last left in, if it was ever left and has a history
    /// state inside (what that history resumes).
    @inlinable
    public func lastState(in compound: Spec.Compound) -> Spec.State? {
        Spec.memorySlot(of: compound).flatMap { kernel.memory[$0] }
    }

    /// The states the flow is in, in document order: ``state`` alone, unless parallel regions
    /// run (then one state per active region).
    @inlinable
    public var states: [Spec.State] { kernel.states }

    /// The visit that entered each of ``states``: a task state's work runs for its visit.
    @inlinable
    public var stateVisits: [Int] { kernel.stateVisits }

    /// The activities running now, each with the visit that entered the state that lists it:
    /// those of each state the flow is in and of the compound states around it, outermost
    /// first, each once. An activity runs from that visit until its state is left; moving
    /// inside a compound state keeps the compound state's running.
    @inlinable
    public var runningActivities: [FlowActivityRun<Spec>] {
        guard Spec.hasActivities else { return [] }
        var running: [FlowActivityRun<Spec>] = []
        for (state, visit) in zip(states, stateVisits) {
            for depth in 0..<Spec.depth(of: state) {
                guard let compound = Spec.compound(around: state, atDepth: depth) else { continue }
                let entered = kernel.visit(around: state, atDepth: depth, rules)
                for activity in Spec.activities(ofCompound: compound) {
                    let run = FlowActivityRun<Spec>(activity: activity, visit: entered, state: state, depth: depth)
                    if !running.contains(run) { running.append(run) }
                }
            }
            for activity in Spec.activities(of: state) {
                running.append(.init(activity: activity, visit: visit, state: state, depth: nil))
            }
        }
        return running
    }

    /// Whether the machine is inside a compound state (one of its states is).
    @inlinable
    public func isIn(_ compound: Spec.Compound) -> Bool {
        guard Spec.maximumLeaves > 1 else { return Spec.contains(compound, kernel.state) }
        return kernel.states.contains { Spec.contains(compound, $0) }
    }

    /// Whether the machine is in the state (``state`` is, or with parallel regions one of
    /// ``states``).
    @inlinable
    public func isIn(_ state: Spec.State) -> Bool {
        Spec.maximumLeaves > 1 ? kernel.states.contains(state) : kernel.state == state
    }

    /// Whose timeout is armed for `visit`: an active state's own (`compound` is `nil`), or that
    /// of the compound state around it; `nil` if none is (a visit that is over).
    @inlinable
    public func timeoutOwner(forVisit visit: Int) -> (state: Spec.State, compound: Spec.Compound?)? {
        guard let (state, scope) = kernel.timeoutOwner(forVisit: visit, rules) else { return nil }
        switch scope {
        case .state: return (state, nil)
        case .compound(let depth): return (state, Spec.compound(around: state, atDepth: depth))
        }
    }

    /// Starts the flow at `initial`, taking `always` branches at once; returns the effects they ran.
    @inlinable
    public static func start(conditions: Spec.Conditions = Spec.Conditions()) -> (
        machine: Self, effects: FlowEffects<Spec>
    ) {
        var machine = Self(state: Spec.initial)
        var effects = FlowEffectRuns<Spec>()
        machine.kernel.enter(conditions, machine.rules, &effects, starting: true)
        return (machine, effects.effects)
    }

    /// The timeout armed for the current visit, if the state has one.
    @inlinable
    public var armedTimeout: FlowArmedTimeout<Spec.State>? { kernel.armedTimeout(rules) }

    /// Every timeout armed now: those of the compound states around the state, outermost first
    /// (each armed for the visit that entered its compound state), then the state's own. When
    /// two are due at once, the one armed first (the outer one) fires first.
    @inlinable
    public var armedTimeouts: [FlowArmedTimeout<Spec.State>] { kernel.armedTimeouts(rules) }

    /// Sends an event; returns the effects to carry out, in order. An event the state does not
    /// handle changes nothing (``visit`` stays the same), unless an `always` branch of a state
    /// that waits holds under `conditions` (tried after every input); nor does a transition
    /// without a target, besides its effects (``handle(_:conditions:)`` tells these apart).
    @discardableResult @inlinable @inline(__always)
    public mutating func send(_ event: Spec.Event, conditions: Spec.Conditions = Spec.Conditions()) -> FlowEffects<Spec>
    {
        var effects = FlowEffectRuns<Spec>()
        kernel.send(event, conditions, rules, &effects)
        return effects.effects
    }

    /// Sends an event; returns the effects to carry out, in order, and whether a state handled
    /// it: a transition without a target handles it and stays where the flow is.
    @inlinable
    public mutating func handle(
        _ event: Spec.Event, conditions: Spec.Conditions = Spec.Conditions()
    ) -> (effects: FlowEffects<Spec>, handled: Bool) {
        var effects = FlowEffectRuns<Spec>()
        let handled = kernel.send(event, conditions, rules, &effects)
        return (effects.effects, handled)
    }

    /// Tells the machine that the app's conditions changed: the `always` branches of the states
    /// the flow is in are tried under `conditions`, and the first that holds is taken (then
    /// any that hold where it leads). Returns the effects, and whether a branch was taken.
    @discardableResult @inlinable
    public mutating func conditionsChanged(conditions: Spec.Conditions) -> (
        effects: FlowEffects<Spec>, handled: Bool
    ) {
        var effects = FlowEffectRuns<Spec>()
        let handled = kernel.conditionsChanged(conditions, rules, &effects)
        return (effects.effects, handled)
    }

    /// Fires the timeout armed for `visit`; a timeout of an earlier visit changes nothing.
    @discardableResult @inlinable
    public mutating func fireTimeout(visit: Int, conditions: Spec.Conditions = Spec.Conditions()) -> FlowEffects<Spec> {
        firingTimeout(visit: visit, conditions: conditions).effects
    }

    /// Fires the timeout armed for `visit`; returns the effects and whether one was armed.
    @inlinable
    public mutating func firingTimeout(
        visit: Int, conditions: Spec.Conditions = Spec.Conditions()
    ) -> (effects: FlowEffects<Spec>, handled: Bool) {
        var effects = FlowEffectRuns<Spec>()
        let fired = kernel.fireTimeout(visit: visit, conditions, rules, &effects)
        return (effects.effects, fired)
    }
}

/// One run of an activity: the activity, and the visit that entered the state that lists it.
/// The run lasts until that state is left; entering it again is another run.
public struct FlowActivityRun<Spec: FlowSpec>: Hashable, Sendable {
    /// The activity.
    public var activity: Spec.Activity
    /// The visit that entered the state (or compound state) that lists it: with the activity,
    /// what tells one run from another.
    public var visit: Int
    /// A state the flow is in, through which the run was found: the state that lists the
    /// activity, or one inside the compound state that does.
    public var state: Spec.State
    /// The depth, around ``state``, of the compound state that lists the activity (0 the
    /// outermost); `nil` when ``state`` lists it itself.
    public var depth: Int?

    /// A run of `activity` for `visit`, listed by `state` or by the compound state around it at
    /// `depth`.
    @inlinable
    public init(activity: Spec.Activity, visit: Int, state: Spec.State, depth: Int?) {
        self.activity = activity
        self.visit = visit
        self.state = state
        self.depth = depth
    }

    /// The same run: the same activity for the same visit, whichever state it was found through.
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.activity == rhs.activity && lhs.visit == rhs.visit }

    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(activity)
        hasher.combine(visit)
    }
}

/// A generated machine's rules, as the kernel reads them: its ``FlowSpec``'s static functions,
/// with the tables a ``FlowMachine`` holds.
@usableFromInline
internal struct FlowSpecRules<Spec: FlowSpec>: FlowRules, Sendable {
    @usableFromInline let tables: Spec.Tables

    @inlinable init(tables: Spec.Tables) { self.tables = tables }

    @inlinable var retrySlotCount: Int { Spec.retrySlotCount }
    @inlinable var memorySlotCount: Int { Spec.memorySlotCount }
    @inlinable var maximumDepth: Int { Spec.maximumDepth }

    @inlinable @inline(__always)
    func kind(of state: Spec.State) -> FlowStateKind { Spec.kind(of: state, in: tables) }

    @inlinable @inline(__always)
    func depth(of state: Spec.State) -> Int { Spec.depth(of: state, in: tables) }

    @inlinable @inline(__always)
    func step(_ state: Spec.State, on event: Spec.Event, _ conditions: Spec.Conditions) -> FlowStep<Spec.State>? {
        Spec.step(state, on: event, conditions, tables)
    }

    @inlinable @inline(__always)
    func always(_ state: Spec.State, _ conditions: Spec.Conditions) -> FlowStep<Spec.State>? {
        Spec.always(state, conditions, tables)
    }

    @inlinable var hasEventless: Bool { Spec.hasEventless }

    @inlinable var readsStates: Bool { Spec.readsStates }

    @inlinable @inline(__always)
    func conditions(_ conditions: Spec.Conditions, whileIn states: some Collection<Spec.State>) -> Spec.Conditions {
        Spec.conditions(conditions, whileIn: states, tables)
    }

    @inlinable @inline(__always)
    func eventless(_ state: Spec.State, _ conditions: Spec.Conditions) -> (
        step: FlowStep<Spec.State>, declaredAt: Int
    )? {
        Spec.eventless(state, conditions, tables)
    }

    @inlinable
    func timeout(of state: Spec.State) -> (after: Duration, to: Spec.State)? { Spec.timeout(of: state) }

    @inlinable
    func timeoutStep(_ state: Spec.State) -> FlowStep<Spec.State>? { Spec.timeoutStep(state, tables) }

    @inlinable
    func outerTimeout(of state: Spec.State, atDepth depth: Int) -> (after: Duration, to: Spec.State)? {
        Spec.outerTimeout(of: state, atDepth: depth)
    }

    @inlinable
    func outerTimeoutStep(_ state: Spec.State, atDepth depth: Int) -> FlowStep<Spec.State>? {
        Spec.outerTimeoutStep(state, atDepth: depth, tables)
    }

    @inlinable
    func entryEffects(of state: Spec.State) -> Range<Int> { Spec.entryEffects(of: state) }

    @inlinable
    func record(_ state: Spec.State, leaving keep: Int, in memory: inout [Spec.State?]) {
        Spec.record(state, leaving: keep, in: &memory, tables)
    }

    @inlinable
    func memorySlot(around state: Spec.State, atDepth depth: Int) -> Int? {
        Spec.compound(around: state, atDepth: depth).flatMap(Spec.memorySlot(of:))
    }

    @inlinable
    func initialState(around state: Spec.State, atDepth depth: Int) -> Spec.State? {
        Spec.compound(around: state, atDepth: depth).map(Spec.initialState(of:))
    }

    @inlinable
    func entryEffectCount(around state: Spec.State, atDepth depth: Int) -> Int {
        Spec.compound(around: state, atDepth: depth).map(Spec.entryEffectCount(of:)) ?? 0
    }

    @inlinable var hasInitialEffects: Bool { Spec.hasInitialEffects }

    @inlinable var startEffects: Range<Int> { Spec.startEffects }

    @inlinable
    func entryEffects(of target: Spec.State, keeping keep: Int, initialFrom: Int) -> Range<Int> {
        Spec.entryEffects(of: target, keeping: keep, initialFrom: initialFrom)
    }

    @inlinable var maximumLeaves: Int { Spec.maximumLeaves }
    @inlinable var compoundCount: Int { Spec.compoundCount }

    @inlinable
    func compoundIndex(around state: Spec.State, atDepth depth: Int) -> Int {
        Spec.compound(around: state, atDepth: depth).map(Spec.compoundIndex(of:)) ?? -1
    }

    @inlinable
    func parallelDepth(around state: Spec.State) -> Int? { Spec.parallelDepth(around: state) }

    @inlinable
    func declaringDepth(of state: Spec.State, on event: Spec.Event, _ conditions: Spec.Conditions) -> Int {
        Spec.declaringDepth(of: state, on: event)
    }

    @inlinable
    func exitEffects(of state: Spec.State, through depth: Int) -> Range<Int> {
        Spec.exitEffects(of: state, through: depth)
    }

    @inlinable
    func entryEffects(of target: Spec.State, keeping keep: Int) -> Range<Int> {
        Spec.entryEffects(of: target, keeping: keep)
    }

    @inlinable
    func enteredStates(_ target: Spec.State, keeping keep: Int, into states: inout [Spec.State]) {
        Spec.enteredStates(target, keeping: keep, into: &states)
    }

    @inlinable
    func parallelDone(around state: Spec.State, atDepth depth: Int, _ conditions: Spec.Conditions)
        -> FlowStep<Spec.State>?
    {
        Spec.compound(around: state, atDepth: depth).flatMap { Spec.parallelDone(of: $0, conditions, tables) }
    }
}

/// Where a ``FlowMachine``'s kernel puts a step's effects: a ``FlowEffects``, which holds one
/// or two runs without allocating.
@usableFromInline
internal struct FlowEffectRuns<Spec: FlowSpec>: FlowStepSink {
    @usableFromInline var effects: FlowEffects<Spec>

    @inlinable init() { effects = FlowEffects() }

    @inlinable @inline(__always)
    mutating func append(_ start: Int, _ count: Int) { effects.append(start, count) }

    @inlinable
    mutating func appendSecond(_ start: Int, _ count: Int) { effects.appendSecond(start, count) }

    @inlinable @inline(__always)
    mutating func took(
        _ step: FlowStep<Spec.State>, from: Spec.State, to: Spec.State, fellBack: Bool, resumed: Bool
    ) {}
}

extension FlowMachine where Spec: PersistentFlowSpec {
    /// Restores the flow from a stored raw value (see ``PersistentFlowSpec``): then `resume`
    /// applies, and a restored choice state is left at once. Never traps.
    @inlinable
    public static func restore(
        from rawValue: Spec.State.RawValue?, conditions: Spec.Conditions = Spec.Conditions()
    ) -> (machine: Self, effects: FlowEffects<Spec>) {
        let state = restoredState(from: rawValue)
        var machine = Self(state: state)
        var effects = FlowEffectRuns<Spec>()
        // Nothing stored starts the flow (unless `resume` lands it elsewhere).
        machine.kernel.enter(conditions, machine.rules, &effects, starting: rawValue == nil && state == Spec.initial)
        return (machine, effects.effects)
    }
}
