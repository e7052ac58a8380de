// How the model is stored, and how to add a field.
//
// The model reads as plain structs, but a large spec holds hundreds of thousands of states and
// transitions, so the common types are packed (`ModelStorageTests` pins their sizes):
//
// - Names that transitions use are interned: a `Name` is 4 bytes in the machine's `NameTable`
//   (`machine.names[name]` gives the text).
// - A state's event transitions live in the machine's `TransitionStore`; the state keeps
//   only its run (`machine.transitions(of:)` reads them).
// - `@PackedLocation` keeps an optional location in 8 bytes; `@OutOfLine` keeps a large,
//   rare optional value in a box (8 bytes when absent).
// - A `Candidate` is its target plus one box of `Extras` (condition, effects, retry, its own
//   location) that most candidates do not have; `EventTransition` keeps a one-candidate
//   transition's target inline.
//
// To add a field:
//
// - To `StateSpec`, `Timeout`, `StateSequence`, `Persist`, `MachineSpec`: add a stored property. Use a
//   plain type if most elements have it and it is small, `@OutOfLine` if it is large or rare,
//   `@PackedLocation` for an optional location. Keep one-byte fields last in `StateSpec` (they
//   fill padding) and check `theModelKeepsItsSizes`.
// - To `Candidate`: add the stored field to `Extras` (and to `hasAny` if it makes the
//   candidate more than a bare target), a public property whose getter reads
//   `extras?.value` and whose setter calls `updateExtras`, and a parameter of the public
//   `init` (and to its bare-target test). `edgeFacts` changes only if the graph needs it.
//
// Then decode it: a state's key is a case of `StateKey` (which says what its value names and
// whether a state that writes it nests), another goes in its decoder's list of allowed keys
// (`TransitionDecoder.candidateKeys`, …); it is read with `NodeReader` and written by
// `SpecWriter`; describe it in `schema/flowspec.schema.json` and `docs/language.md`
// (`SchemaTests` keeps the schema and the decoder in step), and add a fixture. `docs/development.md` walks through an example.

/// A decoded spec file: the typed model of the flowspec language, version 1.
///
/// Every element remembers where it was written. The names transitions refer to (events,
/// targets, retry fallbacks) are ``Name``s of their machine's ``MachineSpec/names``, interned as
/// they are read; the rest are kept as written. Resolving names to states happens when the
/// state graph is built.
public struct Spec: Sendable {
    /// The machines, in source order.
    public var machines: [MachineSpec] = []
    /// The spec's top-level and per-machine `severity:` settings.
    public var severity = SeveritySettings()
    /// `imports:`, the spec files whose machines this one may run, as written (relative to
    /// this file's directory).
    public var imports: [Located<String>] = []

    /// A spec of no machines (the old version of a file that did not exist).
    public init() {}
}

/// One state machine of a spec.
public struct MachineSpec: Sendable {
    /// The machine's name (a Swift type name once generated).
    public var name: Located<String>
    /// The texts of the names its transitions use (events, targets, retry fallbacks) and of
    /// its states.
    public var names = NameTable()
    /// The states' own event transitions (each state knows its run).
    public var transitionStore = TransitionStore()
    /// The optional `summary:` text.
    public var summary: String?
    /// `standalone: false`: the machine runs only as a sub-flow, from the states that run it;
    /// no app starts it on its own (`nil`: it may be).
    public var standalone: Located<Bool>?

    /// Whether an app may start the machine on its own (the default), rather than only as a
    /// sub-flow.
    public var isStandalone: Bool { standalone?.value ?? true }
    /// The `initial:` state's name.
    public var initial: Located<String>?
    /// `defaults.kind`, the kind of states that do not give one.
    public var defaultKind: StateKind?
    /// The declared `conditions:`, or `nil` when the key is absent.
    public var conditions: [Located<String>]?
    /// The declared `events:`, or `nil` when absent (events are then derived from use).
    public var events: [Located<String>]?
    /// The declared `effects:`, or `nil` when absent.
    public var effects: [Located<String>]?
    /// The declared `activities:`, or `nil` when absent: work that sends events while a state
    /// that runs it is active.
    public var activities: [Activity]?
    /// Machine-wide transitions (`on:` at machine level).
    public var machineWide: [EventTransition] = []
    /// The states, in source order: a compound state comes before the states inside it, which
    /// follow it at once (see ``nesting``).
    public var states: [StateSpec] = []
    /// Where `parallel:` is written, for a machine that is parallel at its top: its first
    /// state is then a parallel state named after the machine, holding every other state (its
    /// regions and the states inside them), and the machine is entered through it.
    public var parallelAtTop: SourceLocation?
    /// How the states nest, and what only nesting states write (`entry`, `exit`, `initial`,
    /// `done`): empty for a flat machine, which then costs nothing more.
    public var nesting = Nesting()
    /// The named sequences, in source order.
    public var sequences: [StateSequence] = []
    /// The `persist:` settings, if any.
    public var persist: Persist?
    /// The `require:` entries, in source order.
    public var requirements: [Requirement] = []
    /// What each state that runs a machine became once composed (``SpecComposer``): empty in a
    /// machine as written, where such a state's ``StateDetails/run`` says what it runs.
    public var runs: [ComposedRun] = []
    /// Once composed, how many of ``activities`` the machine declares itself: they come first,
    /// and those of the machines it runs follow. `nil` for a machine as written.
    public var ownActivityCount: Int?
    /// Whether the machine has more states or transitions than the limits allow (reported as
    /// `limit-exceeded`); such a machine is not checked further.
    public var exceedsLimits = false
    /// Whether a machine-wide transition could not be read (already reported): every state
    /// that inherits them may lack an edge the author wrote.
    public var lostMachineWideTransitions = false

    /// Creates a machine with only a name.
    public init(name: Located<String>) {
        self.name = name
    }

    /// The name of the state at an index.
    public func name(of state: Int) -> String {
        names[states[state].name.value]
    }

    /// Whether the state at an index has states inside it.
    public func isCompound(_ state: Int) -> Bool { nesting.isCompound(state) }

    /// Whether the state at an index is a parallel state: the states directly inside it are its
    /// regions, all active while it is (see ``Nesting/isParallel(_:)``).
    public func isParallel(_ state: Int) -> Bool { nesting.isParallel(state) }

    /// Whether `initial` names the machine's own parallel state, for a machine parallel at its
    /// top: the machine is then entered as written, every region at its `initial`.
    public func entersAtTop(_ initial: Located<String>) -> Bool {
        parallelAtTop != nil && initial.value == name.value
    }

    /// Whether the state at an index is a history state: a target, never a state the flow is in.
    @inline(__always)
    public func isHistory(_ state: Int) -> Bool { states[state].kind == .history }

    /// The effects a history state runs taking its default: its `default`'s or, without a
    /// `default`, its compound state's `initial`'s (the way in it then takes).
    public func historyDefaultEffects(of history: Int) -> [Located<String>] {
        let details = nesting.details[history]
        guard details?.historyDefault == nil else { return details?.defaultEffects ?? [] }
        return nesting.parent(of: history).flatMap { nesting.details[$0]?.initialEffects } ?? []
    }

    /// For a history state directly under `parallel`, that parallel state: the history enters
    /// it afresh, so a transition to the history leaves and enters what one to it would.
    public func historyOfParallel(_ state: Int) -> Int? {
        guard isHistory(state), let parent = nesting.parent(of: state), isParallel(parent) else { return nil }
        return parent
    }

    /// Whether the state at an index is a compound state with a history state directly inside:
    /// it then remembers the state it was last left in (what its history states resume).
    public func remembers(_ state: Int) -> Bool {
        isCompound(state) && nesting.children(of: state).contains(where: isHistory)
    }

    /// Whether the flow can be in the state at an index: it holds no states and is no history
    /// state.
    @inline(__always)
    public func isLeaf(_ state: Int) -> Bool { !isCompound(state) && !isHistory(state) }

    /// Whether the state at an index is the copy of an outcome of a machine run, which leaves
    /// where the running state's `done` says (see ``ComposedRun``).
    public func isOutcome(_ state: Int) -> Bool {
        runs.contains { run in run.outcomes.contains { $0.state == state && $0.mapping != nil } }
    }

    /// The own event transitions of the state at an index.
    public func transitions(of state: Int) -> TransitionStore.Transitions {
        transitionStore[states[state].transitionRun]
    }

    /// How many transitions the state at an index writes itself: each candidate of its `on`,
    /// each `always` branch and its timeout (not the machine-wide ones it inherits).
    func ownTransitionCount(of state: Int) -> Int {
        var count = (states[state].always?.value.count ?? 0) + (states[state].hasTimeout ? 1 : 0)
        let transitions = transitions(of: state)
        for position in transitions.indices { count += transitions[position].candidateCount }
        return count
    }
}

/// How a machine's states nest, beside the states (a flat machine leaves it empty).
///
/// States are in document order, so the states inside a compound state follow it at once:
/// the state at `index` holds the states `index + 1 ..< subtreeEnd(of: index)`.
public struct Nesting: Sendable {
    /// Per state, the index of the compound state that holds it, or -1 at the top level; empty
    /// when no state nests.
    public private(set) var parents: [Int32] = []
    /// Per state, the index after its last descendant; empty when no state nests.
    public private(set) var subtreeEnds: [Int32] = []
    /// What states wrote about entering, leaving and finishing, by state index (only those that
    /// wrote any).
    public var details: [Int: StateDetails] = [:]

    /// Nothing nests.
    public init() {}

    /// Whether any state holds others.
    public var isNested: Bool { !parents.isEmpty }

    /// The states' parents, in document order: every index before its children, which follow
    /// it. A machine with no nesting gives all -1 and is kept empty.
    public mutating func setParents(_ parents: [Int32]) {
        guard parents.contains(where: { $0 >= 0 }) else {
            self.parents = []
            subtreeEnds = []
            return
        }
        self.parents = parents
        var ends = (0..<parents.count).map { Int32($0 + 1) }
        for index in parents.indices.reversed() where parents[index] >= 0 {
            let parent = Int(parents[index])
            ends[parent] = max(ends[parent], ends[index])
        }
        subtreeEnds = ends
    }

    /// The compound state that holds a state, if any.
    public func parent(of state: Int) -> Int? {
        guard isNested, parents[state] >= 0 else { return nil }
        return Int(parents[state])
    }

    /// Whether the state holds other states.
    public func isCompound(_ state: Int) -> Bool {
        isNested && Int(subtreeEnds[state]) > state + 1
    }

    /// The states inside a state, at any depth, in document order.
    public func descendants(of state: Int) -> Range<Int> {
        guard isNested else { return state + 1..<state + 1 }
        return state + 1..<Int(subtreeEnds[state])
    }

    /// The states directly inside a compound state, in document order.
    public func children(of state: Int) -> [Int] {
        var children: [Int] = []
        var child = state + 1
        while child < (isNested ? Int(subtreeEnds[state]) : state + 1) {
            children.append(child)
            child = Int(subtreeEnds[child])
        }
        return children
    }

    /// The compound states that hold a state, innermost first.
    public func ancestors(of state: Int) -> [Int] {
        var ancestors: [Int] = []
        var current = parent(of: state)
        while let ancestor = current {
            ancestors.append(ancestor)
            current = parent(of: ancestor)
        }
        return ancestors
    }

    /// How many compound states hold a state (0 at the top level).
    public func depth(of state: Int) -> Int {
        var depth = 0
        var current = parent(of: state)
        while let ancestor = current {
            depth += 1
            current = parent(of: ancestor)
        }
        return depth
    }

    /// Whether `state` is `ancestor` or inside it.
    public func isWithin(_ state: Int, _ ancestor: Int) -> Bool {
        state == ancestor || descendants(of: ancestor).contains(state)
    }

    /// Whether the state is a parallel state: it wrote `parallel:`, and the states directly
    /// inside it are its regions, every one active while it is. (A flat machine has none, and
    /// a machine with no parallel state answers from its few details.)
    public func isParallel(_ state: Int) -> Bool {
        isNested && details[state]?.parallelLocation != nil && isCompound(state)
    }

    /// Whether any state is a parallel state.
    public var hasParallel: Bool {
        isNested && details.contains { $0.value.parallelLocation != nil && isCompound($0.key) }
    }

    /// The region that holds a state and the parallel state around that region, innermost
    /// first: one pair per parallel state the state is inside (empty for most states). A
    /// region is a pair's own `region` too.
    public func regions(around state: Int) -> [(parallel: Int, region: Int)] {
        var pairs: [(parallel: Int, region: Int)] = []
        var current = state
        while let parent = parent(of: current) {
            if isParallel(parent) { pairs.append((parent, current)) }
            current = parent
        }
        return pairs
    }

    /// The effects a state runs on entering it.
    public func entry(of state: Int) -> [Located<String>] { details[state]?.entry ?? [] }
    /// The effects a state runs on leaving it.
    public func exit(of state: Int) -> [Located<String>] { details[state]?.exit ?? [] }
}

/// What a state writes about its nesting: the effects of entering and leaving it, and, for a
/// compound state, which state inside it is entered first and where it goes once done.
public struct StateDetails: Sendable {
    /// `entry:` effects, run on entering the state, after those of the states around it.
    public var entry: [Located<String>] = []
    /// `exit:` effects, run on leaving the state, before those of the states around it.
    public var exit: [Located<String>] = []
    /// `initial:`, the state inside that entering this one enters (the first one when absent).
    public var initial: Located<String>?
    /// The `effects` of `initial: { to: NAME, effects: [...] }`: run when the state is entered
    /// through its `initial`, after its own `entry` and before the entries of the state inside
    /// (SCXML's `<initial>` with content); not when a transition names a state inside.
    public var initialEffects: [Located<String>] = []
    /// `done:`, where the compound state goes once a terminal state inside it is reached: a
    /// target, or candidates tried in order like a choice state's `always` (the first whose
    /// condition holds is taken, with its effects), at the value's location.
    public var done: Located<Candidates>?
    /// Where the `states:` key is, for a compound state.
    public var statesLocation: SourceLocation?
    /// Where the `parallel:` key is, for a parallel state: the states directly inside it are
    /// then its regions, all active at once, not states entered one at a time.
    public var parallelLocation: SourceLocation?
    /// `deep: true` on a history state: it resumes the very state inside its compound state
    /// that was left, not only the state directly inside it that held that one.
    public var deep: Located<Bool>?
    /// `default:` on a history state: where it leads when its compound state was never left
    /// (its compound state's `initial` chain when absent).
    public var historyDefault: Located<Name>?
    /// The `effects` of `default: { to: NAME, effects: [...] }` on a history state: run when it
    /// takes its default, after the `entry` of its compound state and before the entries of
    /// the default (SCXML's history transition with content); not when it resumes.
    public var defaultEffects: [Located<String>] = []
    /// The effects a state runs on the way in that are not its `entry`: its `initial`'s and,
    /// for a history state, its default's (what names an effect besides `entry` and `exit`).
    public var wayInEffects: [Located<String>] { initialEffects + defaultEffects }
    /// `run:`, the machine a state runs: entering the state starts that machine, whose
    /// terminal states are the state's outcomes.
    public var run: Located<String>?
    /// `done:` of a state that runs a machine, written as a mapping: where each outcome leads
    /// (a bare `done: target` is ``done``, for every outcome).
    public var outcomes: [OutcomeTarget] = []
    /// `activities:`, the machine's activities that run while the state, or a state inside it,
    /// is active.
    public var activities: [Located<String>] = []
    /// Where the `activities:` value is written.
    public var activitiesLocation: SourceLocation?
    /// Once composed, on a state that runs a machine (and on the copies of the states of
    /// machines run inside that one): the machine run, as its generated code names things.
    public var ran: RunInterface?

    /// Nothing written.
    public init() {}
}

/// What the code generated for a machine that runs another needs of that machine's own
/// generated code, to reuse its types: its name and the names its `Event`, `Effect` and `Work`
/// have.
public struct RunInterface: Sendable {
    /// The machine run.
    public var machine: String
    /// Its events, declared or derived, in its order.
    public var events: [String]
    /// Its declared effects.
    public var effects: [String]
    /// The activities it declares itself (not those of the machines it runs in turn).
    public var activities: [String]
    /// Its outcomes: its top-level terminal states, in its order.
    public var outcomes: [String]
}

/// An activity a machine declares: work the app runs while a state that lists it is active,
/// sending any of its events, any number of times, until the state is left.
public struct Activity: Sendable {
    /// The activity's name.
    public var name: Located<String>
    /// `sends:`, the events it may send. No one else sends them: they arrive only while the
    /// activity runs.
    public var sends: [Located<String>] = []
    /// The optional `summary:` text.
    public var summary: String?

    /// An activity that sends nothing yet.
    public init(name: Located<String>) {
        self.name = name
    }
}

/// One entry of the `done:` mapping of a state that runs a machine: an outcome (a terminal
/// state of that machine) and where the flow goes when the machine ends there.
public struct OutcomeTarget: Sendable {
    /// The outcome's name, a terminal state at the top level of the machine run.
    public var outcome: Located<String>
    /// Where the running state's machine goes: a target, or candidates tried in order like a
    /// choice state's `always`.
    public var candidates: Candidates
}

/// A state that runs a machine, as composed: the state holds a copy of that machine's states,
/// each named `STATE.NAME` (see `docs/language.md`, "Sub-flows").
public struct ComposedRun: Sendable {
    /// The running state, a compound state once composed.
    public var state: Int
    /// The `run:` value: the machine run.
    public var machine: Located<String>
    /// Where `done:` is written, if it is.
    public var doneLocation: SourceLocation?
    /// Every outcome of the machine run, in its document order.
    public var outcomes: [Outcome]
    /// Whether the machine run is parallel at its top: it has no terminal state at its top, and
    /// ends once every region has ended, through its parallel state's `done`.
    public var endsWithRegions = false

    /// One outcome of the machine run.
    public struct Outcome: Sendable {
        /// The name of the terminal state in the machine run.
        public var name: String
        /// Its copy in the composed machine: a choice state leading where `done` says, or, if
        /// `done` says nothing of it, a terminal state that ends the whole flow.
        public var state: Int
        /// Where `done` maps it, or `nil` when it does not.
        public var mapping: SourceLocation?
    }
}

/// What a state waits for.
public enum StateKind: String, Sendable, CaseIterable {
    /// Waits for an event from the app or user, for as long as it takes.
    case input
    /// Waits for asynchronous work; must have a timeout.
    case task
    /// Leaves at once through `always`.
    case choice
    /// The flow has ended.
    case terminal
    /// Not a state the flow is ever in: a target that resumes the compound state around it
    /// where the flow last left it (see ``StateDetails/deep``).
    case history

    /// The kinds a state the flow can be in has, which `defaults.kind` may name.
    public static let waitingKinds: [StateKind] = [.input, .task, .choice, .terminal]

    /// Whether a state of this kind inherits the machine-wide `on` (for the events it does not
    /// handle itself): `input` and `task` states do; `choice` states leave at once and never
    /// see an event, and `terminal` states ignore every event. The one place this rule is
    /// written: every stage that needs it asks here.
    public var inheritsMachineWideTransitions: Bool { self == .input || self == .task }
}

/// One state of a machine. A field that holds a name of the machine's table (`Name`) or a run
/// of its stores is remapped where a machine run as a sub-flow is copied into its parent
/// (`MachineExpansion`); any other field is carried whole.
public struct StateSpec: Sendable {
    /// The state's name, in its machine's ``MachineSpec/names``.
    public var name: Located<Name>
    // Locations packed into 8 bytes rather than 12, the rare parts out of line, and the
    // one-byte fields last, names interned: a state is 80 bytes, not 112.
    /// Where the kind was written, if the state gave one.
    @PackedLocation public var kindLocation: SourceLocation? = nil
    /// The optional `summary:` text (out of line: few states of a large machine have one).
    @OutOfLine public var summary: String? = nil
    /// Where the state's own `on:` key is, if it has one.
    @PackedLocation public var onLocation: SourceLocation? = nil
    /// The `always:` candidates, with the key's location, if present (only choice states).
    @OutOfLine public var always: Located<Candidates>? = nil
    /// The `timeout:`, if present (a timeout is large, and many states have none).
    @OutOfLine public var timeout: Timeout? = nil
    /// Where the `timeout:` key is, if present.
    @PackedLocation public var timeoutLocation: SourceLocation? = nil
    /// Where the state's own event transitions are in its machine's ``MachineSpec/transitionStore``
    /// (see ``MachineSpec/transitions(of:)``). After the 8-byte fields, where its 12 bytes leave no
    /// padding.
    public var transitionRun = TransitionStore.Run()
    /// The state's kind: given, from `defaults.kind`, or `task`. (The one-byte fields come
    /// last, where they fill what would be padding.)
    public var kind: StateKind
    /// Whether the state's body, or a part of it, could not be read (already reported, as
    /// `invalid-value`, `unknown-key`, …): its kind, transitions or timeout may not be what
    /// the author meant, so the structural checks say nothing more about such a state.
    public var isMalformed = false
    /// Whether a transition, `always` branch, timeout, retry or the kind of this state could not
    /// be read (already reported): the graph may lack an edge or a bound the author wrote, so
    /// path findings that such an edge could change are held back until the error is fixed.
    public var hasLostTransitions = false

    /// Whether the state has a timeout, without reading its box.
    var hasTimeout: Bool { !_timeout.isNone }

    /// Creates a state with a name and kind.
    public init(name: Located<Name>, kind: StateKind) {
        self.name = name
        self.kind = kind
    }
}

/// A `SourceLocation?` in the 8 bytes of a location: line 0, which no position has, is none.
@propertyWrapper
public struct PackedLocation: Sendable {
    private var location: SourceLocation

    /// Packs a location.
    public init(wrappedValue: SourceLocation?) {
        location = wrappedValue ?? SourceLocation(line: 0, column: 0)
    }

    /// The location, if there is one.
    public var wrappedValue: SourceLocation? {
        get { location.line == 0 ? nil : location }
        set { location = newValue ?? SourceLocation(line: 0, column: 0) }
    }
}

/// An optional value kept out of line, in a box: 8 bytes in its owner, for what is large and
/// rare.
@propertyWrapper
public struct OutOfLine<Value: Sendable>: Sendable {
    private var box: Box<Value>?

    /// Keeps a value out of line.
    public init(wrappedValue: Value?) {
        box = wrappedValue.map(Box.init)
    }

    /// The value, if there is one.
    public var wrappedValue: Value? {
        get { box?.value }
        set { box = newValue.map(Box.init) }
    }

    /// Whether there is no value, without reading the box.
    var isNone: Bool { box == nil }
}

/// An event and the candidates it may lead to (the first whose condition holds is taken).
public struct EventTransition: Sendable {
    /// The event's name.
    public var event: Located<Name>
    // Nearly every transition has one candidate, most of them a bare target (`event: state`):
    // its target is kept inline, with the box of what else it has, if anything; only a list of
    // several candidates (or none) is boxed whole. A transition is 32 bytes.
    /// The target of the one candidate.
    private var target: Located<Name>
    private var more: More?

    private enum More: Sendable {
        /// The extras of the one candidate.
        case extras(Box<Candidate.Extras>)
        /// A list of several candidates, or none.
        case candidates(Box<Candidates>)
    }

    /// Creates a transition.
    public init(event: Located<Name>, candidates: Candidates) {
        self.event = event
        if let only = candidates.only {
            target = only.place
            more = only.extrasBox.map(More.extras)
        } else {
            target = event  // not read: the boxed candidates are
            more = .candidates(Box(candidates))
        }
    }

    /// How many candidates there are, read in place (``candidates`` builds the list).
    public var candidateCount: Int {
        guard case .candidates(let list) = more else { return 1 }
        return list.value.count
    }

    /// Whether some candidate has a target (one without stays), read in place: most
    /// transitions are one candidate, and building the list copies its extras.
    var leaves: Bool {
        guard case .candidates(let list) = more else { return target.value != .none }
        return list.value.contains { !$0.isTargetless }
    }

    /// How many graph edges the candidates make, read in place: one each, and one more for a
    /// retry's `then`.
    var edgeCount: Int {
        switch more {
        case nil: 1
        case .extras(let extras): extras.value.retry == nil ? 1 : 2
        case .candidates(let list): list.value.reduce(0) { $0 + ($1.retry == nil ? 1 : 2) }
        }
    }

    /// The candidates, in order.
    public var candidates: Candidates {
        get {
            switch more {
            case nil: Candidates(Candidate(target: target, extras: nil))
            case .extras(let extras): Candidates(Candidate(target: target, extras: extras))
            case .candidates(let candidates): candidates.value
            }
        }
        set {
            self = EventTransition(event: event, candidates: newValue)
        }
    }
}

/// The candidates of a transition, in order. Nearly every transition has exactly one, so the
/// first is held inline and only further ones take an array: a machine of a million
/// transitions does not make a million tiny allocations.
public struct Candidates: RandomAccessCollection, ExpressibleByArrayLiteral, Sendable {
    private var head: Candidate?
    private var tail: [Candidate] = []

    /// Creates the list from an array.
    public init(_ candidates: [Candidate]) {
        head = candidates.first
        tail = Array(candidates.dropFirst())
    }

    /// Creates a list of one candidate.
    public init(_ candidate: Candidate) {
        head = candidate
    }

    /// Creates the list from a literal.
    public init(arrayLiteral candidates: Candidate...) {
        self.init(candidates)
    }

    /// The candidate of a list of one.
    var only: Candidate? {
        tail.isEmpty ? head : nil
    }

    /// Whether any candidate has a condition, effects or a retry, read in place.
    var anyHasExtras: Bool {
        (head?.hasExtras ?? false) || tail.contains(where: \.hasExtras)
    }

    /// The first position, 0.
    public var startIndex: Int { 0 }
    /// The position after the last candidate (the number of candidates).
    public var endIndex: Int { head == nil ? 0 : 1 + tail.count }

    /// The candidate at a position.
    public subscript(position: Int) -> Candidate {
        guard position != 0 else {
            guard let head else { preconditionFailure("index out of range") }
            return head
        }
        return tail[position - 1]
    }
}

/// One possible target of a transition.
public struct Candidate: Sendable {
    /// Where the candidate is written.
    public var location: SourceLocation {
        get { extras?.value.location ?? place.location }
        set { updateExtras { $0.location = newValue } }
    }
    /// The target state's name; `nil` for a transition that stays where it is
    /// (`{ effects: [resend] }`): it runs its effects, and leaves and enters nothing.
    public var target: Located<Name>? {
        get { place.value == .none ? nil : place }
        set {
            // The candidate stays where it was written.
            let written = location
            place = newValue ?? Located(.none, at: written)
            if extras?.value.location == nil { updateExtras { $0.location = written } }
        }
    }
    /// Whether the candidate has no target: taking it stays where the flow is.
    public var isTargetless: Bool { place.value == .none }
    /// The target, or ``Name/none`` at the candidate's place for one that stays where it is:
    /// kept whole, so that a bare target costs no optional's room.
    fileprivate var place: Located<Name>
    /// The condition that must hold (`if:`).
    public var condition: Located<String>? {
        get { extras?.value.condition }
        set { updateExtras { $0.condition = newValue } }
    }
    /// The condition that must not hold (`unless:`).
    public var unlessCondition: Located<String>? {
        get { extras?.value.unlessCondition }
        set { updateExtras { $0.unlessCondition = newValue } }
    }
    /// The state the flow must be in (`in:`): a state it rests in, or a compound state,
    /// parallel state or region around one. The kernel reads it from where the flow is.
    public var inState: Located<Name>? {
        get { extras?.value.inState }
        set { updateExtras { $0.inState = newValue } }
    }
    /// The state the flow must not be in (`notIn:`).
    public var notInState: Located<Name>? {
        get { extras?.value.notInState }
        set { updateExtras { $0.notInState = newValue } }
    }
    /// The states its guard reads (`in:`, then `notIn:`), each with whether it must be in it.
    public var stateTerms: [(state: Located<Name>, holds: Bool)] {
        guard let box = extras, box.value.inState != nil || box.value.notInState != nil else { return [] }
        return [box.value.inState.map { ($0, true) }, box.value.notInState.map { ($0, false) }].compactMap { $0 }
    }
    /// Effects to run, in order.
    public var effects: [Located<String>] {
        get { extras?.value.effects ?? [] }
        set { updateExtras { $0.effects = newValue } }
    }
    /// A bound on how often this transition may be taken in a row.
    public var retry: Retry? {
        get { extras?.value.retry }
        set { updateExtras { $0.retry = newValue } }
    }

    /// What most candidates do not have, in one box: a candidate is then a target and a place.
    fileprivate struct Extras: Sendable {
        var condition: Located<String>?
        var unlessCondition: Located<String>?
        var inState: Located<Name>?
        var notInState: Located<Name>?
        var effects: [Located<String>] = []
        /// Out of line again: few candidates retry, and inline it would make these extras half as
        /// large again.
        @OutOfLine var retry: Retry? = nil
        /// Where the candidate is written, when that is not where its target is (`{ to: … }`):
        /// most candidates are a bare target name, so they keep one location, not two.
        var location: SourceLocation?

        /// Whether there is a condition, an effect or a retry.
        var hasAny: Bool { isConditional || !effects.isEmpty || retry != nil }
        /// Whether the guard reads a condition or where the flow is.
        var isConditional: Bool {
            condition != nil || unlessCondition != nil || inState != nil || notInState != nil
        }
        var isEmpty: Bool { !hasAny && location == nil }
    }

    private var extras: Box<Extras>?

    /// The box of what the candidate has besides its target, if anything.
    fileprivate var extrasBox: Box<Extras>? { extras }

    /// Whether the candidate has a condition, effects or a retry (most have none).
    var hasExtras: Bool { extras?.value.hasAny ?? false }

    /// What the state graph needs of a candidate besides its target, read from the box in
    /// place: the getters above copy the extras whole, which costs more than the graph's edge.
    var edgeFacts: (retry: Retry?, isConditional: Bool, readsStates: Bool) {
        guard let box = extras else { return (nil, false, false) }
        return (box.value.retry, box.value.isConditional, box.value.inState != nil || box.value.notInState != nil)
    }

    private mutating func updateExtras(_ change: (inout Extras) -> Void) {
        var value = extras?.value ?? Extras()
        change(&value)
        if value.location == place.location { value.location = nil }
        extras = value.isEmpty ? nil : Box(value)
    }

    /// A candidate of a target and its box of extras, as ``EventTransition`` keeps them.
    fileprivate init(target: Located<Name>, extras: Box<Extras>?) {
        self.place = target
        self.extras = extras
    }

    /// Creates a candidate; one without a target stays where it is.
    public init(
        location: SourceLocation, target: Located<Name>?, condition: Located<String>? = nil,
        unlessCondition: Located<String>? = nil, effects: [Located<String>] = [], retry: Retry? = nil
    ) {
        let target = target ?? Located(.none, at: location)
        self.place = target
        // Most candidates are a bare target: no extras to build and drop.
        if condition == nil, unlessCondition == nil, effects.isEmpty, retry == nil, location == target.location {
            extras = nil
            return
        }
        extras = Box(
            Extras(
                condition: condition, unlessCondition: unlessCondition, effects: effects, retry: retry,
                location: location == target.location ? nil : location))
    }

    /// Whether the candidate is taken whatever the conditions.
    public var isUnconditional: Bool { !edgeFacts.isConditional }
}

/// `retry: { max: N, then: S, effects: [..] }`.
public struct Retry: Sendable {
    /// Where the `retry:` value is written.
    public var location: SourceLocation
    /// How many times in a row the transition may be taken; `nil` when the written value is
    /// invalid (already reported), so that `then` still counts as a path.
    public var max: Located<Int>?
    /// Where the transition goes instead the next time.
    public var then: Located<Name>
    /// Effects run when it goes to `then`, after the transition's own: what only the way out
    /// of a used-up retry does (say, showing the error the retries were hiding).
    public var effects: [Located<String>] = []
}

/// `timeout: { after: 10s, to: target, effects: [..], retry: {...} }`.
public struct Timeout: Sendable {
    /// Where the timeout's value is written.
    public var location: SourceLocation
    /// How long the state may be occupied; `nil` when the written duration is invalid (already
    /// reported), so that the timeout still counts as a path.
    public var after: Located<Duration>? {
        get { afterLocation.map { Located(afterDuration, at: $0) } }
        set {
            afterDuration = newValue?.value ?? .zero
            afterLocation = newValue?.location
        }
    }
    // The duration and a packed location rather than an optional `Located`: 24 bytes, not 32.
    private var afterDuration: Duration = .zero
    @PackedLocation private var afterLocation: SourceLocation? = nil
    /// The state the timeout leads to.
    public var target: Located<Name>
    /// Effects to run, in order.
    public var effects: [Located<String>] = []
    /// A bound on how often the timeout may fire in a row (out of line: few timeouts retry, and
    /// inline it would nearly double every timeout's size).
    @OutOfLine public var retry: Retry? = nil

    /// Creates a timeout.
    public init(
        location: SourceLocation, after: Located<Duration>?, target: Located<Name>,
        effects: [Located<String>] = [], retry: Retry? = nil
    ) {
        self.location = location
        self.target = target
        self.effects = effects
        self.retry = retry
        self.after = after
    }
}

/// `sequences: { name: { states: [..], forwardOnly: true } }`.
public struct StateSequence: Sendable {
    /// The sequence's name.
    public var name: Located<String>
    /// The member states, in order.
    public var states: [Located<String>]
    /// Whether transitions from a later to an earlier member are rejected.
    public var forwardOnly: Bool
}

/// `persist: { rawValue: int|string, restore: clamp|initial, resume: {..}, migrate: {..} }`.
public struct Persist: Sendable {
    /// The generated `State`'s raw value type.
    public enum RawValue: String, Sendable {
        case int, string
    }

    /// A value an earlier version of the app may have stored: a position or a name.
    public enum StoredValue: Sendable, Hashable, CustomStringConvertible {
        case int(Int)
        case string(String)

        /// The value as a spec writes it: `6`, `welcomeStep`.
        public var description: String {
            switch self {
            case .int(let value): String(value)
            case .string(let value): value
            }
        }
    }

    /// What an out-of-range stored integer restores to.
    public enum Restore: String, Sendable {
        case clamp, initial
    }

    /// Where `persist:` is written.
    public var location: SourceLocation
    /// The raw value type.
    public var rawValue: RawValue
    /// The restore policy for out-of-range integers.
    public var restore: Restore
    /// Where a restored state lands, if not itself: pairs of (restored, landing).
    public var resume: [(from: Located<String>, to: Located<String>)]
    /// Old stored values and the current states they restore to (renamed or moved states),
    /// applied before `restore` and `resume`.
    public var migrate: [(from: Located<StoredValue>, to: Located<String>)] = []
}

/// One `require:` entry.
public enum Requirement: Sendable {
    /// These states can be reached from `initial`.
    case reachable(location: SourceLocation, states: [Located<String>])
    /// From every reachable non-terminal state, these states can still be reached.
    case alwaysReachable(location: SourceLocation, states: [Located<String>])
    /// The worst-case time from `from` to one of `to` (or any input state) is at most `max`.
    case within(location: SourceLocation, from: Located<String>, to: [Located<String>], max: Located<Duration>)
    /// No run enters these states (a compound state: any state inside it); with `while`, no
    /// step enters them at an input where that condition holds.
    case never(location: SourceLocation, states: [Located<String>], while: Located<String>?)
    /// No run enters `then` before it has been in `first` (or run it, an effect); with
    /// `after`, counted afresh from each entry to that state.
    case before(location: SourceLocation, first: Milestone, then: Located<String>, after: Located<String>?)
    /// Once a run enters `after`, it enters none of `never` until it enters `until`.
    case between(location: SourceLocation, after: Located<String>, until: Located<String>, never: [Located<String>])
    /// Every step that enters one of `to` (a compound state: any state inside it) runs `runs`.
    case everyEntry(location: SourceLocation, to: [Located<String>], runs: Located<String>)
    /// Every entry to one of `from` is followed by an entry to one of `to`, unless the flow
    /// waits on the user: see ``PropertyCheck``.
    case leadsTo(location: SourceLocation, from: [Located<String>], to: [Located<String>])
    /// No run takes the event `of` more than `times` times in a row without entering `before`.
    case atMost(location: SourceLocation, times: Located<Int>, of: Located<String>, before: Located<String>)
    /// In every configuration a run reaches, but one where the flow has ended, the event is
    /// handled, whatever the conditions, and leads into one of `to`.
    case whenever(location: SourceLocation, event: Located<String>, to: [Located<String>])

    /// What a `before` waits for: a state the run has been in, or an effect it has run.
    public enum Milestone: Sendable {
        case state(Located<String>)
        case effect(Located<String>)
    }

    /// Where the requirement's key is written.
    public var location: SourceLocation {
        switch self {
        case .reachable(let location, _), .alwaysReachable(let location, _), .within(let location, _, _, _),
            .never(let location, _, _), .before(let location, _, _, _), .between(let location, _, _, _),
            .everyEntry(let location, _, _), .leadsTo(let location, _, _), .atMost(let location, _, _, _),
            .whenever(let location, _, _):
            location
        }
    }

    /// Every state it names, in the order written.
    public var states: [Located<String>] {
        switch self {
        case .reachable(_, let states), .alwaysReachable(_, let states), .never(_, let states, _): states
        case .within(_, let from, let to, _): [from] + to
        case .before(_, let first, let then, let after):
            (first.state.map { [$0] } ?? []) + [then] + (after.map { [$0] } ?? [])
        case .between(_, let after, let until, let never): [after, until] + never
        case .everyEntry(_, let to, _): to
        case .leadsTo(_, let from, let to): from + to
        case .atMost(_, _, _, let before): [before]
        case .whenever(_, _, let to): to
        }
    }

    /// The requirement in one line, as `flowspec diff` and test paths name it.
    public var text: String {
        switch self {
        case .reachable(_, let states): "reachable: [\(states.map(\.value).joined(separator: ", "))]"
        case .alwaysReachable(_, let states): "alwaysReachable: [\(states.map(\.value).joined(separator: ", "))]"
        case .within(_, let from, let to, let max):
            "within: from \(from.value) to [\(to.map(\.value).joined(separator: ", "))] max \(max.value.specDescription)"
        case .never(_, let states, nil): "never: \(Self.list(states))"
        case .never(_, let states, let condition?): "never: in \(Self.list(states)) while \(condition.value)"
        case .before(_, let first, let then, let after):
            "before: " + (after.map { "after \($0.value), " } ?? "") + Self.describe(first) + " then \(then.value)"
        case .between(_, let after, let until, let never):
            "between: after \(after.value) until \(until.value) never \(Self.list(never))"
        case .everyEntry(_, let to, let runs): "everyEntry: to \(Self.list(to)) runs \(runs.value)"
        case .leadsTo(_, let from, let to): "leadsTo: from \(Self.list(from)) to \(Self.list(to))"
        case .atMost(_, let times, let event, let before):
            "atMost: \(times.value) times \(event.value) before \(before.value)"
        case .whenever(_, let event, let to): "whenever: event \(event.value) to \(Self.list(to))"
        }
    }

    private static func describe(_ milestone: Milestone) -> String {
        switch milestone {
        case .state(let state): "first \(state.value)"
        case .effect(let effect): "effect \(effect.value)"
        }
    }

    /// A name alone, or several as a list.
    private static func list(_ names: [Located<String>]) -> String {
        names.count == 1 ? names[0].value : "[\(names.map(\.value).joined(separator: ", "))]"
    }

    /// Its kind, which describes its key and how it is read (``RequirementKind``).
    public var kind: RequirementKind {
        switch self {
        case .reachable: .reachable
        case .alwaysReachable: .alwaysReachable
        case .within: .within
        case .never: .never
        case .before: .before
        case .between: .between
        case .everyEntry: .everyEntry
        case .leadsTo: .leadsTo
        case .atMost: .atMost
        case .whenever: .whenever
        }
    }

    /// Whether it is a property proved over every run (``PropertyCheck``).
    public var isProperty: Bool { kind.isProperty }

    /// Its key in the spec.
    public var key: String { kind.key }

    /// Every event, condition or effect it names, with its category.
    public var names: [(category: NameCategory, name: Located<String>)] {
        switch self {
        case .never(_, _, let condition?): [(.condition, condition)]
        case .before(_, .effect(let effect), _, _): [(.effect, effect)]
        case .everyEntry(_, _, let runs): [(.effect, runs)]
        case .atMost(_, _, let event, _), .whenever(_, let event, _): [(.event, event)]
        // Listed, not `default`, so that a new kind is asked what it names.
        case .reachable, .alwaysReachable, .within, .never(_, _, nil), .before(_, .state, _, _), .between, .leadsTo:
            []
        }
    }
}

extension Requirement.Milestone {
    /// The state, for a state.
    public var state: Located<String>? {
        if case .state(let state) = self { state } else { nil }
    }
}

/// An immutable value on the heap, for rarely present parts of the model that would otherwise
/// make every element larger.
final class Box<Value: Sendable>: Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
