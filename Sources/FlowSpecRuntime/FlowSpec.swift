/// A machine of a spec, as `flowspec gen` writes it: its types and its transitions, and
/// nothing else. The semantics that run it (``FlowMachine``) and the driver that runs it in
/// an app (``FlowDriver``) are this library's, the same for every machine.
///
/// Generated code conforms a machine's namespace to this protocol; an app never does.
public protocol FlowSpec {
    /// The states, in the order the spec lists them.
    associatedtype State: Hashable & Sendable
    /// The events the machine reacts to (`Never` when it has none).
    associatedtype Event: Hashable & Sendable
    /// The effects it asks the app to carry out (`Never` when it has none).
    associatedtype Effect: Hashable & Sendable
    /// The conditions the app supplies at each input.
    associatedtype Conditions: FlowConditions
    /// What the steps read besides their arguments: nothing for a machine whose transitions are
    /// `switch` statements; the decoded transition table of a large machine, which
    /// ``FlowMachine`` holds so that a step reads it without a global's lazy-initialisation
    /// check on every event.
    associatedtype Tables: Sendable = FlowNoTables

    /// The machine's name in the spec.
    static var name: String { get }
    /// The state every cold start begins in.
    static var initial: State { get }
    /// How many retry counters the machine needs (one per transition with a bounded `retry`).
    static var retrySlotCount: Int { get }
    /// The effects of every transition, each list once: a ``FlowStep`` runs a range of it.
    static var effectList: [Effect] { get }
    /// The tables a new machine holds.
    static var tables: Tables { get }

    /// What the state waits for.
    static func kind(of state: State) -> FlowStateKind
    /// What the state waits for, read from `tables` (as a step reads it).
    static func kind(of state: State, in tables: Tables) -> FlowStateKind
    /// How long the state may be occupied, and where its timeout leads.
    static func timeout(of state: State) -> (after: Duration, to: State)?
    /// The step `event` leads to in `state` under `conditions`, or `nil` if the state ignores it.
    static func step(_ state: State, on event: Event, _ conditions: Conditions, _ tables: Tables) -> FlowStep<State>?
    /// The `always` branch a choice state takes at once, the `done` a terminal state inside a
    /// compound state with `done` takes at once, or `nil` for other states.
    static func always(_ state: State, _ conditions: Conditions, _ tables: Tables) -> FlowStep<State>?
    /// The step the state's timeout takes, or `nil` if it has none.
    static func timeoutStep(_ state: State, _ tables: Tables) -> FlowStep<State>?

    /// The compound states, states that hold others (`Never` for a flat machine): the machine
    /// is never in one, but in a state inside it.
    associatedtype Compound: Hashable & Sendable = Never
    /// How many compound states hold the state (0 at the top level).
    static func depth(of state: State) -> Int
    /// How many compound states hold the state, read from `tables` (as a step reads it: a
    /// machine with compound states asks on every step that changes the state).
    static func depth(of state: State, in tables: Tables) -> Int
    /// The most compound states around any state (0 for a flat machine).
    static var maximumDepth: Int { get }
    /// Whether the state is inside the compound state.
    static func contains(_ compound: Compound, _ state: State) -> Bool
    /// The effects of entering the state and the compound states around it, outermost first,
    /// as a range of ``effectList``: what starting or restoring in it runs.
    static func entryEffects(of state: State) -> Range<Int>
    /// The timeout of the compound state around `state` at `depth` (less than the state's own
    /// depth), if it has one: armed on entering that compound state, kept while inside it.
    static func outerTimeout(of state: State, atDepth depth: Int) -> (after: Duration, to: State)?
    /// The step that timeout takes from `state`, or `nil` if there is none.
    static func outerTimeoutStep(_ state: State, atDepth depth: Int, _ tables: Tables) -> FlowStep<State>?
    /// The compound state around `state` at `depth` (0 the outermost), if there is one.
    static func compound(around state: State, atDepth depth: Int) -> Compound?
    /// The spec's name of a compound state.
    static func name(ofCompound compound: Compound) -> String

    /// How many compound states remember the state they were last left in: those with a
    /// history state inside (0 without history).
    static var memorySlotCount: Int { get }
    /// The memory slot of a compound state with a history state inside, or `nil`.
    static func memorySlot(of compound: Compound) -> Int?
    /// The spec's names of the compound states with memory, by slot: a persisted machine's
    /// driver stores each slot under `KEY.history.NAME`.
    static var memorySlotNames: [String] { get }
    /// The state a compound state's `initial` chain leads to: what a shallow history state
    /// enters when the state it resumes holds states.
    static func initialState(of compound: Compound) -> State
    /// How many `entry` effects a compound state runs itself (not those of the states around
    /// it): resuming a history skips those of the compound states a step stays in.
    static func entryEffectCount(of compound: Compound) -> Int

    /// The spec's name of a state, as traces write it.
    static func name(ofState state: State) -> String
    /// The spec's name of an event.
    static func name(ofEvent event: Event) -> String
    /// The spec's name of an effect.
    static func name(ofEffect effect: Effect) -> String
}

/// A machine with `persist:`: how a stored raw value restores.
public protocol PersistentFlowSpec: FlowSpec where State: RawRepresentable, State.RawValue: Sendable {
    /// The state a stored raw value restores to: `nil`, an unknown value or (without
    /// `restore: clamp`) an integer out of range restores `initial`. Never traps.
    static func restoredState(from rawValue: State.RawValue?) -> State
    /// Where a restored state lands (`resume`): itself unless the spec says otherwise.
    static func resumed(_ state: State) -> State
}

extension FlowMachine where Spec: PersistentFlowSpec {
    /// Restores the flow from a stored raw value and what its compound states with history
    /// states inside remember, by memory slot (``FlowSpec/memorySlotNames``): a remembered value
    /// that is not a state inside its slot's compound state is dropped (its history then takes
    /// its default). Memory is restored before a restored choice state is left, so that a
    /// branch into a history resumes it. Never traps.
    @inlinable
    public static func restore(
        from rawValue: Spec.State.RawValue?, remembering memory: [Spec.State.RawValue?],
        conditions: Spec.Conditions = Spec.Conditions()
    ) -> (machine: Self, effects: FlowEffects<Spec>) {
        let state = Spec.resumed(Spec.restoredState(from: rawValue))
        var machine = Self(state: state)
        for (slot, raw) in memory.prefix(Spec.memorySlotCount).enumerated() {
            guard let remembered = raw.flatMap(Spec.State.init(rawValue:)), isInside(remembered, slot: slot) else {
                continue
            }
            machine.memory[slot] = remembered
        }
        var effects = FlowEffects<Spec>()
        let entry = Spec.entryEffects(of: state)
        effects.append(entry.lowerBound, entry.count)
        machine.settle(conditions, &effects)
        return (machine, effects)
    }

    /// Whether a state is inside the compound state that has a memory slot.
    @inlinable
    internal static func isInside(_ state: Spec.State, slot: Int) -> Bool {
        for depth in 0..<Spec.depth(of: state) {
            if let compound = Spec.compound(around: state, atDepth: depth), Spec.memorySlot(of: compound) == slot {
                return true
            }
        }
        return false
    }
}

/// The conditions of a machine: a value the app supplies at each input, with a flag per
/// condition the spec declares.
public protocol FlowConditions: Hashable, Sendable {
    /// Every condition false.
    init()
    /// The spec's names of the conditions, in the order it declares them.
    static var names: [String] { get }
    /// The condition at a position of ``names`` (setting one out of range does nothing).
    subscript(condition index: Int) -> Bool { get set }
}

/// What a state waits for.
public enum FlowStateKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// An event from the app or the user, for as long as it takes.
    case input
    /// Asynchronous work, bounded by a timeout.
    case task
    /// Nothing: it is left at once through `always`.
    case choice
    /// The flow has ended.
    case terminal
}

/// A transition chosen: where it goes, the effects it runs (a range of the spec's
/// ``FlowSpec/effectList``), its retry bound, and how many compound states around the state
/// it leaves stay active. Choosing one allocates nothing.
public struct FlowStep<State: Sendable>: Sendable {
    /// The state it goes to (unless its retry bound is used up).
    public let target: State
    /// The positions of its effects in ``FlowSpec/effectList``: the `exit` effects of the states
    /// it leaves, its own, then the `entry` effects of the states it enters.
    public let effects: Range<Int>
    /// Its bounded `retry`, if any.
    public let retry: FlowRetry<State>?
    /// How many compound states around the state it leaves stay active, outermost first (0: it
    /// leaves them all); the rest are left, and those around the target entered.
    public let keep: Int
    /// For a step into a history state: where to look up what it resumes (``target`` is the
    /// history's default, for a compound state never left).
    public let resume: FlowResume?

    /// A step to `target` running `effects`, bounded by `retry`, keeping `keep` compound states,
    /// resuming a history through `resume`.
    @inlinable
    public init(
        _ target: State, effects: Range<Int> = 0..<0, retry: FlowRetry<State>? = nil, keep: Int = 0,
        resume: FlowResume? = nil
    ) {
        self.target = target
        self.effects = effects
        self.retry = retry
        self.keep = keep
        self.resume = resume
    }
}

/// How a step into a history state resumes it when its compound state was left before: the
/// memory slot of that compound state, its depth, whether the history is deep, and the effects
/// the step runs before it enters what it resumes (the exits, its own, a used-up retry's).
/// The entries are those of the state resumed, below the step's `keep`: a suffix of
/// ``FlowSpec/entryEffects(of:)``. A step never left goes to its target, the history's default.
public struct FlowResume: Sendable, Hashable {
    /// The memory slot of the compound state the history resumes.
    public let slot: Int
    /// That compound state's depth (0 at the top level).
    public let depth: Int
    /// Whether the history resumes the very state left (deep), or the state directly inside the
    /// compound state that held it, entered by its `initial` chain (shallow).
    public let deep: Bool
    /// The positions in ``FlowSpec/effectList`` of what the step runs before its entries.
    public let before: Range<Int>

    /// A step's way into a history.
    @inlinable
    public init(slot: Int, depth: Int, deep: Bool, before: Range<Int> = 0..<0) {
        self.slot = slot
        self.depth = depth
        self.deep = deep
        self.before = before
    }
}

/// A bounded `retry: { max, then, effects }`: its counter, how many times in a row, where it
/// goes after, and the effects it runs then.
public struct FlowRetry<State: Sendable>: Sendable {
    /// The counter's position among the machine's retry counters.
    public let slot: Int
    /// How many times in a row the transition goes to its target.
    public let max: Int
    /// Where it goes once the count is used up.
    public let fallback: State
    /// The positions in ``FlowSpec/effectList`` of the effects run when it goes to
    /// ``fallback``, in place of the step's: the exits, the step's own effects, the retry's,
    /// then the entries.
    public let effects: Range<Int>
    /// How many compound states stay active when it goes to ``fallback``.
    public let keep: Int
    /// For a ``fallback`` that is a history state's default: where to look up what it resumes.
    public let resume: FlowResume?

    /// A retry bound.
    @inlinable
    public init(
        slot: Int, max: Int, fallback: State, effects: Range<Int> = 0..<0, keep: Int = 0, resume: FlowResume? = nil
    ) {
        self.slot = slot
        self.max = max
        self.fallback = fallback
        self.effects = effects
        self.keep = keep
        self.resume = resume
    }
}

extension FlowSpec {
    /// Whether the flow has ended in the state (a terminal state ignores every event).
    @inlinable
    public static func isTerminal(_ state: State) -> Bool {
        kind(of: state) == .terminal
    }

    /// The pure reducer: the machine after `input` under `conditions`, and the effects to
    /// carry out, in order.
    @inlinable
    public static func reduce(
        _ machine: FlowMachine<Self>, _ input: FlowInput<Event>, conditions: Conditions = Conditions()
    ) -> (machine: FlowMachine<Self>, effects: FlowEffects<Self>) {
        var next = machine
        switch input {
        case .event(let event):
            let effects = next.send(event, conditions: conditions)
            return (next, effects)
        case .timeout(let visit):
            let effects = next.fireTimeout(visit: visit, conditions: conditions)
            return (next, effects)
        }
    }
}

/// What can happen to a machine: an event, or the timeout of a visit.
public enum FlowInput<Event: Hashable & Sendable>: Sendable, Hashable {
    /// An event.
    case event(Event)
    /// The timeout armed for a visit.
    case timeout(visit: Int)
}

/// A timeout armed for one visit of a state: fire it with ``FlowMachine/fireTimeout(visit:conditions:)``
/// after `after`.
public struct FlowArmedTimeout<State: Hashable & Sendable>: Sendable, Hashable {
    /// How long after entering the state it fires.
    public let after: Duration
    /// Where it leads.
    public let target: State
    /// The visit it belongs to; firing it for any other visit does nothing.
    public let visit: Int
    /// For the timeout of a compound state around the current state, that compound state's
    /// depth (0 the outermost); `nil` for the current state's own.
    public let depth: Int?

    /// A timeout armed for `visit`.
    @inlinable
    public init(after: Duration, target: State, visit: Int, depth: Int? = nil) {
        self.after = after
        self.target = target
        self.visit = visit
        self.depth = depth
    }
}
