// What most machines share, so that generated code writes only what its spec says: a machine
// without timeouts, choice states, retries or effects leaves those members out, and names
// that are their own raw value need no table.

extension FlowSpec {
    /// No retry counters.
    @inlinable
    public static var retrySlotCount: Int { 0 }

    /// No effects.
    @inlinable
    public static var effectList: [Effect] { [] }

    /// No timeouts.
    @inlinable
    public static func timeout(of state: State) -> (after: Duration, to: State)? { nil }

    /// No timeouts.
    @inlinable
    public static func timeoutStep(_ state: State, _ tables: Tables) -> FlowStep<State>? { nil }

    /// No state takes `always` branches while it waits.
    @inlinable
    public static var hasEventless: Bool { false }

    /// None.
    @inlinable
    public static func eventless(_ state: State, _ conditions: Conditions, _ tables: Tables) -> (
        step: FlowStep<State>, declaredAt: Int
    )? { nil }

    /// No guard reads where the flow is.
    @inlinable
    public static var readsStates: Bool { false }

    /// The app's conditions: no guard reads where the flow is.
    @inlinable
    public static func conditions(_ conditions: Conditions, whileIn states: some Collection<State>, _ tables: Tables)
        -> Conditions
    { conditions }

    /// No choice states.
    @inlinable
    public static func always(_ state: State, _ conditions: Conditions, _ tables: Tables) -> FlowStep<State>? { nil }

    /// No compound states.
    @inlinable
    public static func depth(of state: State) -> Int { 0 }

    /// No compound states.
    @inlinable
    public static var maximumDepth: Int { 0 }

    /// The depth, from ``FlowSpec/depth(of:)`` (a machine without tables reads no table).
    @inlinable
    public static func depth(of state: State, in tables: Tables) -> Int { depth(of: state) }

    /// No entry effects.
    @inlinable
    public static func entryEffects(of state: State) -> Range<Int> { 0..<0 }

    /// One state at a time: no parallel states.
    @inlinable
    public static var maximumLeaves: Int { 1 }

    /// Not asked of a machine without parallel states.
    @inlinable
    public static var compoundCount: Int { 0 }

    /// Not asked of a machine without parallel states.
    @inlinable
    public static func compoundIndex(of compound: Compound) -> Int { 0 }

    /// No parallel states.
    @inlinable
    public static func parallelDepth(around state: State) -> Int? { nil }

    /// Not asked of a machine without parallel states.
    @inlinable
    public static func declaringDepth(of state: State, on event: Event) -> Int { -1 }

    /// No exit effects.
    @inlinable
    public static func exitEffects(of state: State, through depth: Int) -> Range<Int> { 0..<0 }

    /// No entry effects.
    @inlinable
    public static func entryEffects(of target: State, keeping keep: Int) -> Range<Int> { 0..<0 }

    /// The target alone.
    @inlinable
    public static func enteredStates(_ target: State, keeping keep: Int, into states: inout [State]) {
        states.append(target)
    }

    /// No parallel states.
    @inlinable
    public static func parallelDone(of compound: Compound, _ conditions: Conditions, _ tables: Tables)
        -> FlowStep<State>?
    { nil }

    /// No compound states, so no timeouts of theirs.
    @inlinable
    public static func outerTimeout(of state: State, atDepth depth: Int) -> (after: Duration, to: State)? { nil }

    /// No compound states.
    @inlinable
    public static func compound(around state: State, atDepth depth: Int) -> Compound? { nil }

    /// No history states.
    @inlinable
    public static var memorySlotCount: Int { 0 }

    /// No history states.
    @inlinable
    public static func memorySlot(of compound: Compound) -> Int? { nil }

    /// No history states.
    @inlinable
    public static var memorySlotNames: [String] { [] }

    /// Records the state for each compound state around it from `keep` down that has memory,
    /// asking for the compound state at each depth.
    @inlinable
    public static func record(_ state: State, leaving keep: Int, in memory: inout [State?], _ tables: Tables) {
        var depth = depth(of: state, in: tables)
        while depth > keep {
            depth -= 1
            if let compound = compound(around: state, atDepth: depth), let slot = memorySlot(of: compound) {
                memory[slot] = state
            }
        }
    }

    /// No `entry` effects of compound states.
    @inlinable
    public static func entryEffectCount(of compound: Compound) -> Int { 0 }

    /// No `initial` or history default runs effects.
    @inlinable
    public static var hasInitialEffects: Bool { false }

    /// Asked only when ``hasInitialEffects``.
    @inlinable
    public static var startEffects: Range<Int> { 0..<0 }

    /// Asked only when ``hasInitialEffects``.
    @inlinable
    public static func entryEffects(of target: State, keeping keep: Int, initialFrom: Int) -> Range<Int> { 0..<0 }

    /// Asked only by a shallow history state, so only of a machine that has one, whose
    /// generated code answers: `initial` for any other.
    @inlinable
    public static func initialState(of compound: Compound) -> State { initial }

    /// No compound states, so no timeouts of theirs.
    @inlinable
    public static func outerTimeoutStep(_ state: State, atDepth depth: Int, _ tables: Tables) -> FlowStep<State>? {
        nil
    }
}

extension FlowSpec where Compound == Never {
    /// No compound states.
    @inlinable
    public static func contains(_ compound: Never, _ state: State) -> Bool {}

    /// No compound states.
    @inlinable
    public static func name(ofCompound compound: Never) -> String {}
}

extension FlowSpec where Compound: RawRepresentable, Compound.RawValue == String {
    /// A compound state's raw value is its spec name.
    @inlinable
    public static func name(ofCompound compound: Compound) -> String { compound.rawValue }
}

extension FlowSpec where Tables == FlowNoTables {
    /// No tables.
    @inlinable
    public static var tables: FlowNoTables { FlowNoTables() }

    /// The kind, from the `switch` of ``FlowSpec/kind(of:)``.
    @inlinable
    public static func kind(of state: State, in tables: FlowNoTables) -> FlowStateKind { kind(of: state) }
}

/// The tables of a machine whose transitions are `switch` statements: none.
public struct FlowNoTables: Sendable {
    /// No tables.
    @inlinable
    public init() {}
}

extension FlowSpec {
    /// No activities.
    @inlinable
    public static var hasActivities: Bool { false }

    /// No activities.
    @inlinable
    public static func activities(of state: State) -> [Activity] { [] }

    /// No activities.
    @inlinable
    public static func activities(ofCompound compound: Compound) -> [Activity] { [] }
}

extension FlowSpec where Activity: RawRepresentable, Activity.RawValue == String {
    /// An activity's raw value is its spec name.
    @inlinable
    public static func name(ofActivity activity: Activity) -> String { activity.rawValue }
}

extension FlowSpec where Activity == Never {
    /// A machine without activities runs none.
    @inlinable
    public static func sends(_ activity: Never) -> [Event] {}

    /// A machine without activities runs none.
    @inlinable
    public static func name(ofActivity activity: Never) -> String {}
}

extension FlowSpec where State: RawRepresentable, State.RawValue == String {
    /// A state's raw value is its spec name.
    @inlinable
    public static func name(ofState state: State) -> String { state.rawValue }
}

extension FlowSpec where Event: RawRepresentable, Event.RawValue == String {
    /// An event's raw value is its spec name.
    @inlinable
    public static func name(ofEvent event: Event) -> String { event.rawValue }
}

extension FlowSpec where Event == Never {
    /// A machine without events is never sent one.
    @inlinable
    public static func name(ofEvent event: Never) -> String {}

    /// A machine without events is never sent one.
    @inlinable
    public static func step(_ state: State, on event: Never, _ conditions: Conditions, _ tables: Tables)
        -> FlowStep<State>?
    {}
}

extension FlowSpec where Effect: RawRepresentable, Effect.RawValue == String {
    /// An effect's raw value is its spec name.
    @inlinable
    public static func name(ofEffect effect: Effect) -> String { effect.rawValue }
}

extension FlowSpec where Effect == Never {
    /// A machine without effects runs none.
    @inlinable
    public static func name(ofEffect effect: Never) -> String {}
}

extension PersistentFlowSpec {
    /// The state of a stored raw value; `nil` or an unknown value restores `initial`.
    @inlinable
    public static func restoredState(from rawValue: State.RawValue?) -> State {
        rawValue.flatMap(State.init(rawValue:)) ?? initial
    }

    /// No `resume`: a restored state lands on itself.
    @inlinable
    public static func resumed(_ state: State) -> State { state }

    /// No parallel states: no region's state to store.
    @inlinable
    public static var storedRegions: [Compound] { [] }
}

/// The conditions of a machine that declares none.
public struct FlowNoConditions: FlowConditions {
    /// No conditions.
    @inlinable
    public init() {}

    /// No names.
    public static var names: [String] { [] }

    /// There is no condition to read or set.
    @inlinable
    public subscript(condition index: Int) -> Bool {
        get { false }
        set {}
    }
}
