/// A checked machine in the form code generation and simulation run: every name resolved to
/// an index, every state's effective transitions (own and inherited) listed in the order they
/// are tried, and every bounded `retry` given a counter slot.
///
/// Its ``states`` are the states the machine can be in: those with no states inside them. A
/// compound state is one of ``compounds``; a transition to it goes to the state its `initial`
/// chain leads to, and says how many of the states around its source stay active
/// (``Candidate/keep``): the rest are left, running their `exit` effects innermost first,
/// before the transition's effects, and the target's are entered, running their `entry`
/// effects outermost first, after them.
///
/// Built only from machines without errors, so targets, conditions and effects all resolve.
public struct FlowProgram: Sendable {
    /// One possible target of a transition, resolved.
    public struct Candidate: Sendable, Hashable {
        /// The target state; -1 for a candidate without a target (``isTargetless``).
        public var target: Int
        /// Conditions that must hold (`if`), by index.
        public var requires: [Int]
        /// Conditions that must not hold (`unless`), by index.
        public var forbids: [Int]
        /// Effects, by index, in order.
        public var effects: [Int]
        /// The bounded retry, if any.
        public var retry: Retry?
        /// How many of the states around the source (outermost first) stay active: the states
        /// at that depth or deeper are left and the target's entered. 0 leaves every state the
        /// source is in.
        public var keep: Int = 0
        /// For a transition to a history state, that state, by index in
        /// ``FlowProgram/histories``: ``target`` is then its default, taken when its compound
        /// state was never left (the kernel resumes the rest, through the step's `FlowResume`).
        public var history: Int? = nil
        /// The depth from which the compound states around ``target`` are entered through their
        /// `initial`, running its effects: the depth of the state as written when it is a
        /// compound state (or a history state's default is one); `Int.max` when none is.
        public var initialFrom: Int = .max

        /// Whether the candidate has no target: taking it runs its effects and the flow stays
        /// where it is, leaving and entering nothing (it has no retry, keep or history).
        public var isTargetless: Bool { target < 0 }

        /// Whether the candidate's guard holds under the given conditions (``CandidateChoice``).
        public func holds(_ conditions: [Bool]) -> Bool { CandidateChoice.holds(self, conditions) }
    }

    /// `retry: { max, then, effects }` with its counter slot.
    public struct Retry: Sendable, Hashable {
        /// The counter's index among the machine's retry counters.
        public var slot: Int
        /// How many times in a row the transition may be taken.
        public var max: Int
        /// Where it goes once the count is used up.
        public var fallback: Int
        /// Effects, by index, run after the transition's own when it goes to ``fallback``.
        public var effects: [Int] = []
        /// How many states around the source stay active when it goes to ``fallback``.
        public var keep: Int = 0
        /// For a `then` that is a history state, that state, by index in
        /// ``FlowProgram/histories`` (``fallback`` is its default).
        public var history: Int? = nil
        /// As ``Candidate/initialFrom``, for ``fallback``.
        public var initialFrom: Int = .max
    }

    /// A history state: a target that resumes its compound state where the flow last left it,
    /// never a state the machine is in.
    public struct History: Sendable, Hashable {
        /// The spec name.
        public var name: String
        /// The compound state it resumes, by index in ``FlowProgram/compounds``.
        public var compound: Int
        /// Whether it resumes the very state that was left (deep), or only the state directly
        /// inside its compound state that held it, entered afresh (shallow).
        public var deep: Bool
        /// Where it leads when its compound state was never left: its `default`, else its
        /// compound state's `initial` chain.
        public var defaultTarget: Int
        /// Its position among the machine's states in the spec.
        public var specIndex: Int
        /// The effects taking its default runs, after its compound state's `entry`: its
        /// `default`'s, or without one its compound state's `initial`'s.
        public var defaultEffects: [Int] = []
    }

    /// A state's timeout.
    public struct Timeout: Sendable, Hashable {
        /// How long the state may be occupied.
        public var after: Duration
        /// Where it leads (a single unconditional candidate).
        public var candidate: Candidate
    }

    /// One state, resolved.
    public struct State: Sendable {
        /// The spec name.
        public var name: String
        /// The Swift identifier.
        public var swiftName: SwiftName
        /// The state's kind.
        public var kind: StateKind
        /// The `summary`, if any.
        public var summary: String?
        /// Event index → candidates, in the order they are tried: own transitions first, then
        /// those of the compound states around it (innermost first), then the machine's
        /// (``scopes`` says which is which).
        public var transitions: [(event: Int, candidates: [Candidate])] {
            didSet { transitionPositions = Self.positions(of: transitions) }
        }
        /// Per event, its position in ``transitions``, for a state with many: a state may handle
        /// thousands of events, and every step, coverage item and search looks one up. `nil`
        /// for a state with few, where a scan is as fast.
        var transitionPositions: [Int: Int]? = nil

        /// The position in ``transitions`` of what the state does on `event`, if anything.
        public func transitionPosition(of event: Int) -> Int? {
            Self.position(of: event, in: transitions, transitionPositions)
        }

        /// An index of `transitions` by event, for more than a few of them.
        static func positions(of transitions: [(event: Int, candidates: [Candidate])]) -> [Int: Int]? {
            guard transitions.count > 8 else { return nil }
            var positions: [Int: Int] = [:]
            positions.reserveCapacity(transitions.count)
            for (position, transition) in transitions.enumerated() where positions[transition.event] == nil {
                positions[transition.event] = position
            }
            return positions
        }

        /// The first position of `event` among `transitions`: from the index where there is one.
        static func position<Candidates>(
            of event: Int, in transitions: [(event: Int, candidates: Candidates)], _ positions: [Int: Int]?
        ) -> Int? {
            if let positions { return positions[event] }
            return transitions.firstIndex { $0.event == event }
        }
        /// The `always` branches of a choice state (taken at once on entering it).
        public var always: [Candidate]
        /// The timeout, if any.
        public var timeout: Timeout?
        /// How many compound states hold it.
        public var depth: Int = 0
        /// The compound states that hold it, by index in ``FlowProgram/compounds``, innermost first.
        public var ancestors: [Int] = []
        /// For the copy of an outcome of a machine run, that `done` maps: the compound state
        /// that runs the machine, by index in ``FlowProgram/compounds``.
        public var outcomeOf: Int? = nil
        /// Effects run on entering it, by index.
        public var entry: [Int] = []
        /// Effects run on leaving it, by index.
        public var exit: [Int] = []
        /// The timeouts of the compound states around it, outermost first, each with the depth of
        /// its compound state: armed on entering that state, they may fire while this one is active.
        public var outerTimeouts: [(depth: Int, timeout: Timeout)] = []
        /// For a terminal state inside a compound state with `done`: the candidates tried at
        /// once on entering it, in order (empty for any other state).
        public var done: [Candidate] = []
        /// Per transition of ``transitions``, who writes it.
        public var scopes: [Scope] = []
        /// Its position among the machine's states in the spec (compound ones included).
        public var specIndex: Int = 0
        /// The activities it runs itself, by index in ``FlowProgram/activities``, as listed.
        public var activities: [Int] = []
        /// The `always` branches taken as soon as a condition holds while it is active, in the
        /// order they are tried: its own (an `input` or `task` state's), then those of the
        /// compound states around it, innermost first (``eventlessScopes`` says which is which).
        /// A choice state's own branches are ``always``.
        public var eventless: [Candidate] = []
        /// Per candidate of ``eventless``, who writes it.
        public var eventlessScopes: [Scope] = []

        /// The `always` branches the state writes itself: a choice state's, or those it takes
        /// while it waits (the first of ``eventless``).
        public var ownAlways: [Candidate] {
            kind == .choice
                ? always : Array(eventless[..<(eventlessScopes.firstIndex { $0 != .own } ?? eventless.count)])
        }

        /// The compound state whose timeout, of ``outerTimeouts``, is armed at a depth.
        public func compound(atDepth depth: Int) -> Int {
            ancestors[ancestors.count - 1 - depth]
        }
    }

    /// Who writes a transition a state tries.
    public enum Scope: Sendable, Hashable {
        /// The state itself.
        case own
        /// A compound state around it, by index in ``FlowProgram/compounds``.
        case compound(Int)
        /// The machine's `on`.
        case machine
    }

    /// A state that holds others: never the state the machine is in, but entered and left
    /// around it.
    public struct Compound: Sendable {
        /// The spec name.
        public var name: String
        /// The Swift identifier.
        public var swiftName: SwiftName
        /// How many compound states hold it.
        public var depth: Int
        /// The states inside it, at any depth, as a range of ``FlowProgram/states``.
        public var states: Range<Int>
        /// Effects run on entering it, by index.
        public var entry: [Int]
        /// Effects run on leaving it, by index.
        public var exit: [Int]
        /// Its position among the machine's states in the spec.
        public var specIndex: Int
        /// Effects run on entering it through its `initial` (not when a transition names a
        /// state inside it), after its `entry`, by index.
        public var initialEffects: [Int] = []
        /// Its timeout, if it has one.
        public var timeout: Timeout?
        /// Its `done`: the candidates tried, in order, once a terminal state directly inside it
        /// is entered (or, for a parallel state, once every region has ended); empty for none.
        public var done: [Candidate]
        /// The compound state around it, by index in ``FlowProgram/compounds``.
        public var parent: Int?
        /// The state its `initial` chain leads to.
        public var initialState: Int = 0
        /// For a compound state with a history state inside: the slot of the machine's memory
        /// that holds the state it was last left in (``FlowProgram/memorySlotCount``).
        public var memorySlot: Int? = nil
        /// Whether it is a parallel state: the states directly inside it are its regions, all
        /// active while it is.
        public var isParallel = false
        /// The activities it runs, while any state inside it is active, by index in
        /// ``FlowProgram/activities``, as listed.
        public var activities: [Int] = []
        /// For a state that runs a machine (a sub-flow), that machine: the generated code
        /// reuses its types.
        public var runs: Run? = nil
    }

    /// A machine a compound state runs (a sub-flow), with what of this program its own
    /// generated code names: the parent's generated code converts between the two.
    public struct Run: Sendable {
        /// The machine run.
        public var machine: Name
        /// Its events, in its own order, by index in ``FlowProgram/events``.
        public var events: [Int]
        /// Its effects, in its own order, by index in ``FlowProgram/effects``.
        public var effects: [Int]
        /// The activities it declares itself, by index in ``FlowProgram/activities``.
        public var activities: [Int]
        /// Its outcomes' copies, by index in ``FlowProgram/states``: a choice state leading
        /// where the running state's `done` says, or a terminal state it does not map.
        public var outcomes: [Int]
    }

    /// An activity: work the app runs while a state that lists it is active, sending events.
    public struct Activity: Sendable {
        /// The spec name.
        public var name: String
        /// The Swift identifier.
        public var swiftName: SwiftName
        /// The `summary`, if any.
        public var summary: String?
        /// The events it may send, by index, as declared.
        public var sends: [Int]
    }

    /// A named, ordered group of states.
    public struct StateSequence: Sendable {
        /// The spec name.
        public var name: String
        /// The Swift identifier.
        public var swiftName: SwiftName
        /// Member states, by index, in order.
        public var members: [Int]
    }

    /// A name of the machine with its Swift identifier.
    public struct Name: Sendable {
        /// The spec name.
        public var name: String
        /// The Swift identifier.
        public var swiftName: SwiftName
    }

    /// The machine's name.
    public var name: Name
    /// The machine's `summary`.
    public var summary: String?
    /// `false` for a machine that runs only as a sub-flow (`standalone: false`).
    public var isStandalone = true
    /// The states, in source order (their positions are the `int` raw values).
    public var states: [State]
    /// Events: the declared list, or those used, in order of first use.
    public var events: [Name]
    /// Conditions, as declared.
    public var conditions: [Name]
    /// The states guards read (`in:`, `notIn:`), by spec name: the one at position `k` is the
    /// condition `conditions.count + k` of a candidate's ``Candidate/requires`` and
    /// ``Candidate/forbids``, which the kernel sets from where the flow is, never the app
    /// (`FlowRules.conditions(_:whileIn:)`). Empty for most machines.
    public var statesRead: [String] = []
    /// Per state, the positions in ``statesRead`` of the states the flow is in while it is in
    /// that state: itself and the compound states around it. Empty when nothing is read.
    public var statesReadWhileIn: [[Int]] = []
    /// Whether some guard reads where the flow is.
    public var readsStates: Bool { !statesRead.isEmpty }
    /// Effects, as declared.
    public var effects: [Name]
    /// Activities, as declared (empty for most machines).
    public var activities: [Activity] = []
    /// How many of ``activities`` the machine declares itself (the first ones); the rest are
    /// those of the machines it runs.
    public var ownActivityCount = 0
    /// Sequences, in source order.
    public var sequences: [StateSequence]
    /// The initial state.
    public var initial: Int
    /// As ``Candidate/initialFrom``, for starting at ``initial``.
    public var initialFrom: Int = .max
    /// How many retry counters the machine needs.
    public var retrySlotCount: Int
    /// The `persist:` settings, resolved, if any.
    public var persist: Persistence?
    /// The compound states, in source order (empty for a flat machine).
    public var compounds: [Compound] = []
    /// The history states, in source order (empty for most machines).
    public var histories: [History] = []
    /// Whether some compound state is a parallel state: the machine is then in several states
    /// at once.
    public var hasParallel = false
    /// The machine lowered to the steps the runtime's kernel takes (what `simulate` runs and
    /// `gen` writes), made once the program is built.
    var steps = ProgramSteps()
    /// The regions whose state a persisted machine stores beside its own: those that are
    /// compound states, by index in ``compounds`` (document order).
    public var storedRegions: [Int] {
        compounds.indices.filter { compounds[$0].parent.map { compounds[$0].isParallel } ?? false }
    }
    /// How many compound states remember the state they were left in: those with a history
    /// state inside.
    public var memorySlotCount: Int { compounds.count { $0.memorySlot != nil } }

    /// `persist:` with `resume` and `migrate` resolved.
    public struct Persistence: Sendable {
        /// The raw value type.
        public var rawValue: Persist.RawValue
        /// The restore policy for out-of-range integers.
        public var restore: Persist.Restore
        /// Restored state → landing state.
        public var resume: [Int: Int]
        /// Old stored value → the state it restores to, before `restore` and `resume`.
        public var migrate: [Persist.StoredValue: Int] = [:]
    }

    /// The effects of leaving a state and the compound states around it at depth `keep` or
    /// deeper, innermost first.
    public func exitEffects(of state: Int, keeping keep: Int) -> [Int] {
        var effects = states[state].exit
        for ancestor in states[state].ancestors where compounds[ancestor].depth >= keep {
            effects += compounds[ancestor].exit
        }
        return effects
    }

    /// The effects of entering a state and the compound states around it at depth `keep` or
    /// deeper, outermost first: each one's `entry`, then, for those at depth `initialFrom` or
    /// deeper (entered through their `initial`), its `initial`'s effects. Through a history
    /// state taking its default (`history`), the default's effects follow the `entry` of its
    /// compound state (as SCXML runs a history's default content with that entry: none when a
    /// transition from inside keeps the compound state).
    public func entryEffects(of state: Int, keeping keep: Int, initialFrom: Int = .max, history: Int? = nil) -> [Int] {
        let resumed = history.map { histories[$0].compound }
        let defaultEffects = history.map { histories[$0].defaultEffects } ?? []
        var effects: [Int] = []
        for ancestor in states[state].ancestors.reversed() where compounds[ancestor].depth >= keep {
            effects += compounds[ancestor].entry
            if ancestor == resumed { effects += defaultEffects }
            if compounds[ancestor].depth >= initialFrom { effects += compounds[ancestor].initialEffects }
        }
        return effects + states[state].entry
    }

    /// What taking a candidate enters runs (``entryEffects(of:keeping:initialFrom:history:)``).
    public func entryEffects(entering candidate: Candidate) -> [Int] {
        entryEffects(
            of: candidate.target, keeping: candidate.keep, initialFrom: candidate.initialFrom,
            history: candidate.history)
    }

    /// What going to a retry's `then` enters runs.
    public func entryEffects(entering retry: Retry) -> [Int] {
        entryEffects(of: retry.fallback, keeping: retry.keep, initialFrom: retry.initialFrom, history: retry.history)
    }

    /// Whether some compound state's `initial`, or some history state's default, runs effects:
    /// only then do the entries of a state depend on how it was entered.
    public var hasInitialEffects: Bool {
        compounds.contains { !$0.initialEffects.isEmpty } || histories.contains { !$0.defaultEffects.isEmpty }
    }

    /// The `always` branches of a compound state, as every state inside it inherits them.
    public func outerEventless(of compound: Int) -> [Candidate] {
        guard let first = compounds[compound].states.first else { return [] }
        let state = states[first]
        return state.eventlessScopes.indices.filter { state.eventlessScopes[$0] == .compound(compound) }
            .map { state.eventless[$0] }
    }

    /// Whether some state takes `always` branches while it waits (``State/eventless``): the
    /// kernel then tries them after every input, and a machine without pays nothing for them.
    public var hasEventless: Bool { steps.hasEventless }

    /// Whether some transition has no target (the table form then reads a candidate's target
    /// as its source when it is negative).
    public var hasTargetless: Bool {
        states.contains { $0.transitions.contains { $0.candidates.contains(where: \.isTargetless) } }
    }

    /// Every effect taking a candidate from a state runs, as one list: the exits, the
    /// candidate's own effects, the entries. With parallel states, which states a step leaves
    /// depends on where the other regions are: the kernel adds the exits and entries, and this
    /// is the candidate's own effects (as for the two lists below).
    public func effects(of candidate: Candidate, from state: Int) -> [Int] {
        guard !hasParallel, !candidate.isTargetless else { return candidate.effects }
        return exitEffects(of: state, keeping: candidate.keep) + candidate.effects + entryEffects(entering: candidate)
    }

    /// Every effect taking a candidate from a state runs once its retry is used up: the exits,
    /// the candidate's own effects, the retry's, the entries. Empty without a retry.
    public func fallbackEffects(of candidate: Candidate, from state: Int) -> [Int] {
        guard let retry = candidate.retry else { return [] }
        guard !hasParallel else { return candidate.effects + retry.effects }
        return exitEffects(of: state, keeping: retry.keep) + candidate.effects + retry.effects
            + entryEffects(entering: retry)
    }

    /// What taking a candidate from a state runs before it enters the state a history resumes
    /// (after its retry was used up, when `fellBack`): the exits, its own effects, its retry's.
    public func effectsBeforeEntries(of candidate: Candidate, from state: Int, fellBack: Bool) -> [Int] {
        let keep = fellBack ? candidate.retry?.keep ?? candidate.keep : candidate.keep
        let own = candidate.effects + (fellBack ? candidate.retry?.effects ?? [] : [])
        return hasParallel || candidate.isTargetless ? own : exitEffects(of: state, keeping: keep) + own
    }

    /// The activities that run while the machine is in `states` (its state, or one per active
    /// region): those of each state and of the compound states around it, each once, outermost
    /// first, each with the state that runs it: a state by its index, a compound state by
    /// `-1 - index` (its index in ``compounds``).
    public func runningActivities(in states: [Int]) -> [(activity: Int, owner: Int)] {
        guard !activities.isEmpty else { return [] }
        var running: [(activity: Int, owner: Int)] = []
        for state in states {
            for compound in self.states[state].ancestors.reversed() {
                for activity in compounds[compound].activities
                where !running.contains(where: { $0 == (activity, -1 - compound) }) {
                    running.append((activity, -1 - compound))
                }
            }
            for activity in self.states[state].activities { running.append((activity, state)) }
        }
        return running
    }

    /// Whether an event can arrive while the machine is in `states`: an event only activities
    /// send arrives only while one of them runs; any other event, the app's, at any time.
    public func canArrive(_ event: Int, in states: [Int]) -> Bool {
        guard activities.contains(where: { $0.sends.contains(event) }) else { return true }
        return runningActivities(in: states).contains { activities[$0.activity].sends.contains(event) }
    }

    /// Whether some state runs effects on entering or leaving it.
    public var hasEntryOrExitEffects: Bool {
        states.contains { !$0.entry.isEmpty || !$0.exit.isEmpty }
            || compounds.contains { !$0.entry.isEmpty || !$0.exit.isEmpty }
    }

    /// The deepest state's depth (0 for a flat machine).
    public var maximumDepth: Int { states.map(\.depth).max() ?? 0 }

    /// The candidates a state tries for an event, or `nil` if the state ignores it.
    public func candidates(in state: Int, for event: Int) -> [Candidate]? {
        states[state].transitionPosition(of: event).map { states[state].transitions[$0].candidates }
    }

    /// Whether some `retry` runs effects of its own when it goes to `then`.
    public var hasRetryEffects: Bool {
        func runs(_ candidate: Candidate) -> Bool { candidate.retry?.effects.isEmpty == false }
        return states.contains { state in
            state.transitions.contains { $0.candidates.contains(where: runs) } || state.always.contains(where: runs)
                || state.eventless.contains(where: runs) || state.timeout.map { runs($0.candidate) } == true
                || state.outerTimeouts.contains { runs($0.timeout.candidate) }
        }
    }
}
