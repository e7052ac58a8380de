@_exported import FlowSpecKernel

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
    /// Whether some state takes `always` branches while it waits.
    static var hasEventless: Bool { get }
    /// The `always` branch a state takes while it waits, once its condition holds (its own,
    /// then its compound states', innermost first), with how deep the state that writes it
    /// stands; `nil` if none holds.
    static func eventless(_ state: State, _ conditions: Conditions, _ tables: Tables) -> (
        step: FlowStep<State>, declaredAt: Int
    )?
    /// Whether some guard reads where the flow is (`in:`, `notIn:`).
    static var readsStates: Bool { get }
    /// `conditions` as the guards read them while the flow is in `states`: the app's, with
    /// the states guards read set from where the flow is (the app never sets those).
    static func conditions(_ conditions: Conditions, whileIn states: some Collection<State>, _ tables: Tables)
        -> Conditions

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
    /// Records `state` in `memory`, at the slot of each compound state around it at depth
    /// `keep` or deeper that has a history state inside: what leaving them records. (A table
    /// machine walks out from the state once; the default asks ``compound(around:atDepth:)``
    /// per depth.)
    static func record(_ state: State, leaving keep: Int, in memory: inout [State?], _ tables: Tables)
    /// The spec's names of the compound states with memory, by slot: a persisted machine's
    /// driver stores each slot under `KEY.history.NAME`.
    static var memorySlotNames: [String] { get }
    /// The state a compound state's `initial` chain leads to: what a shallow history state
    /// enters when the state it resumes holds states.
    static func initialState(of compound: Compound) -> State
    /// How many `entry` effects a compound state runs itself (not those of the states around
    /// it): resuming a history skips those of the compound states a step stays in.
    static func entryEffectCount(of compound: Compound) -> Int
    /// Whether a compound state's `initial` or a history state's default runs effects: only
    /// then is ``startEffects`` or ``entryEffects(of:keeping:initialFrom:)`` asked, or a step's
    /// `entries` read.
    static var hasInitialEffects: Bool { get }
    /// What starting the flow enters runs, the `initial` effects of the compound states it
    /// enters through their `initial` included, as a range of ``effectList``.
    static var startEffects: Range<Int> { get }
    /// The `entry` effects of entering `target` with `keep` compound states kept, those at
    /// depth `initialFrom` or deeper entered through their `initial` (with its effects): what a
    /// shallow history resuming a state runs.
    static func entryEffects(of target: State, keeping keep: Int, initialFrom: Int) -> Range<Int>

    /// The most states the machine is in at once: 1 without parallel states. A machine with
    /// parallel states answers the queries below (its steps' effects are then their own: the
    /// kernel adds exits and entries, which depend on where the other regions are).
    static var maximumLeaves: Int { get }
    /// How many compound states the machine has, parallel states and regions included.
    static var compoundCount: Int { get }
    /// A compound state's position among the machine's compound states, from 0.
    static func compoundIndex(of compound: Compound) -> Int
    /// The depth of the innermost parallel state around the state, if there is one.
    static func parallelDepth(around state: State) -> Int?
    /// How deep the state that writes the transition `state` takes on `event` stands: the
    /// state's own depth, a compound state's around it, or -1 for the machine's `on`.
    static func declaringDepth(of state: State, on event: Event) -> Int
    /// The `exit` effects of leaving the state and the compound states around it down to
    /// `depth`, innermost first, as a range of ``effectList``.
    static func exitEffects(of state: State, through depth: Int) -> Range<Int>
    /// The `entry` effects of entering `target` with `keep` compound states kept, the other
    /// regions of each parallel state entered included, in document order.
    static func entryEffects(of target: State, keeping keep: Int) -> Range<Int>
    /// Appends the states the machine is in once it enters `target` with `keep` compound
    /// states kept, in document order.
    static func enteredStates(_ target: State, keeping keep: Int, into states: inout [State])
    /// The step a parallel state's `done` takes under `conditions` (its own effects): its first
    /// candidate that holds, if it has one.
    static func parallelDone(of compound: Compound, _ conditions: Conditions, _ tables: Tables) -> FlowStep<State>?

    /// The activities: work the app runs while a state that lists one is active, sending
    /// events (`Never` when the machine has none).
    associatedtype Activity: Hashable & Sendable = Never
    /// Whether the machine has activities: only then does ``FlowDriver`` look for them.
    static var hasActivities: Bool { get }
    /// The activities the state lists itself (those of the compound states around it are
    /// theirs), in the spec's order.
    static func activities(of state: State) -> [Activity]
    /// The activities a compound state lists: they run while any state inside it is active.
    static func activities(ofCompound compound: Compound) -> [Activity]
    /// The events an activity may send (its `sends`): it sends no other.
    static func sends(_ activity: Activity) -> [Event]
    /// The spec's name of an activity.
    static func name(ofActivity activity: Activity) -> String

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
    /// The regions whose state is stored beside the flow's: with parallel states, every region
    /// that is a compound state, in document order (none otherwise). A region that is a single
    /// state is always in it.
    static var storedRegions: [Compound] { get }
}

extension FlowMachine where Spec: PersistentFlowSpec {
    /// Restores the flow from a stored raw value, what its compound states with history states
    /// inside remember, by memory slot (``FlowSpec/memorySlotNames``), and the state each region
    /// was in, by ``PersistentFlowSpec/storedRegions``. A remembered value that is not a state
    /// inside its slot's compound state is dropped (its history then takes its default). A
    /// region's value restores as the flow's does (``restoredState(from:)``), and puts the
    /// region there when that is a state inside it and the flow restored so far is in the
    /// region without having placed a state in it already (the flow's own state, then the
    /// regions in order); other regions are entered through their `initial`. Everything is
    /// restored before a restored choice state is left, so that a branch into a history resumes
    /// it. Never traps.
    @inlinable
    public static func restore(
        from rawValue: Spec.State.RawValue?, remembering memory: [Spec.State.RawValue?],
        regions: [Spec.State.RawValue?] = [], conditions: Spec.Conditions = Spec.Conditions()
    ) -> (machine: Self, effects: FlowEffects<Spec>) {
        let restored = restoring(from: rawValue, remembering: memory, regions: regions, conditions: conditions)
        return (restored.machine, restored.effects)
    }

    /// ``restore(from:remembering:regions:conditions:)``, saying which regions' values it
    /// took, by ``PersistentFlowSpec/storedRegions``: what the driver's trace lists.
    @inlinable
    internal static func restoring(
        from rawValue: Spec.State.RawValue?, remembering memory: [Spec.State.RawValue?],
        regions: [Spec.State.RawValue?], conditions: Spec.Conditions
    ) -> (machine: Self, effects: FlowEffects<Spec>, regionsTaken: [Bool]) {
        let state = restoredState(from: rawValue)
        var machine = Self(state: state)
        for (slot, raw) in memory.prefix(Spec.memorySlotCount).enumerated() {
            guard let remembered = raw.flatMap(Spec.State.init(rawValue:)), isInside(remembered, slot: slot) else {
                continue
            }
            machine.kernel.remember(remembered, inSlot: slot)
        }
        var slots: [Int] = []
        var stored: [(region: Int, state: Spec.State)] = []
        for (slot, (region, raw)) in zip(Spec.storedRegions, regions).enumerated() {
            guard let raw else { continue }
            slots.append(slot)
            stored.append((Spec.compoundIndex(of: region), restoredState(from: raw)))
        }
        var regionsTaken = [Bool](repeating: false, count: Spec.storedRegions.count)
        if !stored.isEmpty {
            for (slot, taken) in zip(slots, machine.kernel.restoreRegions(stored, machine.rules)) {
                regionsTaken[slot] = taken
            }
        }
        var effects = FlowEffectRuns<Spec>()
        // Nothing stored starts the flow (unless `resume` lands it elsewhere).
        let starting = rawValue == nil && state == Spec.initial && stored.isEmpty
        machine.kernel.enter(conditions, machine.rules, &effects, starting: starting)
        return (machine, effects.effects, regionsTaken)
    }

    /// The state a stored raw value restores to: `migrate`, the clamp or `initial`, then
    /// `resume`; nothing stored, `initial`.
    @inlinable
    public static func restoredState(from rawValue: Spec.State.RawValue?) -> Spec.State {
        // Nothing stored is a first launch: `initial`, which no `resume` moves (it says where a
        // state that was stored lands).
        guard rawValue != nil else { return Spec.restoredState(from: nil) }
        return Spec.resumed(Spec.restoredState(from: rawValue))
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
