// What a step of a machine is, as generated code and `flowspec simulate` both describe it.
// FlowSpecRuntime re-exports this module: apps and generated code name these types there.

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
/// `effectList`), its retry bound, how many compound states around the state it leaves stay
/// active, and which transition as written it is. Choosing one allocates nothing.
public struct FlowStep<State: Sendable>: Sendable {
    /// The state it goes to (unless its retry bound is used up); for a step that ``stays``,
    /// the state it is taken from.
    public let target: State
    /// The positions of its effects in the spec's `effectList`: the `exit` effects of the states
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
    /// Which transition as written the step is, numbered by the rules that chose it: the
    /// kernel hands it back to ``FlowStepSink/took(_:from:to:fellBack:resumed:)`` untouched,
    /// so a tool that reports what was taken (coverage, test paths) never works the choice
    /// out again. A generated machine, whose sink reports nothing, leaves it 0.
    public let written: Int
    /// Whether the step has no target (`{ effects: [resend] }`): it runs its own effects and
    /// the flow stays where it is, leaving and entering nothing, so timers, activities, work
    /// and retry counters run on untouched.
    public let stays: Bool
    /// With parallel states, where the kernel adds the entries: the run of them this step
    /// enters when they are not ``FlowRules/entryEffects(of:keeping:)`` (a target entered
    /// through an `initial` with effects, or a history's default with effects); `nil` otherwise.
    public let entries: Range<Int>?

    /// A step to `target` running `effects`, bounded by `retry`, keeping `keep` compound states,
    /// resuming a history through `resume`, numbered `written`, entering `entries` when they
    /// are not the target's usual ones; or, when it `stays`, a step that runs `effects` in
    /// `target`, the state it is taken from, and goes nowhere.
    @inlinable
    public init(
        _ target: State, effects: Range<Int> = 0..<0, retry: FlowRetry<State>? = nil, keep: Int = 0,
        resume: FlowResume? = nil, written: Int = 0, stays: Bool = false, entries: Range<Int>? = nil
    ) {
        self.target = target
        self.effects = effects
        self.retry = retry
        self.keep = keep
        self.resume = resume
        self.written = written
        self.stays = stays
        self.entries = entries
    }
}

/// How a step into a history state resumes it when its compound state was left before: the
/// memory slot of that compound state, its depth, whether the history is deep, and the effects
/// the step runs before it enters what it resumes (the exits, its own, a used-up retry's).
/// The entries are those of the state resumed, below the step's `keep`: a suffix of
/// the spec's `entryEffects(of:)`. A step never left goes to its target, the history's default.
public struct FlowResume: Sendable, Hashable {
    /// The memory slot of the compound state the history resumes.
    public let slot: Int
    /// That compound state's depth (0 at the top level).
    public let depth: Int
    /// Whether the history resumes the very state left (deep), or the state directly inside the
    /// compound state that held it, entered by its `initial` chain (shallow).
    public let deep: Bool
    /// The positions in the spec's `effectList` of what the step runs before its entries.
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
    /// The positions in the spec's `effectList` of the effects run when it goes to
    /// ``fallback``, in place of the step's: the exits, the step's own effects, the retry's,
    /// then the entries.
    public let effects: Range<Int>
    /// How many compound states stay active when it goes to ``fallback``.
    public let keep: Int
    /// For a ``fallback`` that is a history state's default: where to look up what it resumes.
    public let resume: FlowResume?
    /// As ``FlowStep/entries``, for going to ``fallback``.
    public let entries: Range<Int>?

    /// A retry bound.
    @inlinable
    public init(
        slot: Int, max: Int, fallback: State, effects: Range<Int> = 0..<0, keep: Int = 0, resume: FlowResume? = nil,
        entries: Range<Int>? = nil
    ) {
        self.slot = slot
        self.max = max
        self.fallback = fallback
        self.effects = effects
        self.keep = keep
        self.resume = resume
        self.entries = entries
    }
}

/// A timeout armed for one visit of a state: fire it with `FlowMachine.fireTimeout(visit:conditions:)`
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
    /// The state whose timeout it is or, for a compound state's, a state inside it (with
    /// parallel regions, one of several the flow is in); `nil` only if not said. Not part of
    /// the timer's identity: a compound state's timer is the same timer whichever state inside
    /// it the flow is in.
    public let owner: State?

    /// A timeout armed for `visit`.
    @inlinable
    public init(after: Duration, target: State, visit: Int, depth: Int? = nil, owner: State? = nil) {
        self.after = after
        self.target = target
        self.visit = visit
        self.depth = depth
        self.owner = owner
    }

    /// Of two timers due at once, whether this one fires first: the one armed first (the
    /// lower visit), so a compound state's timeout fires before those of the states inside it,
    /// as SCXML delivers delayed events in the order their sends ran. The kernel lists armed
    /// timers in this order (`FlowKernel.armedTimeouts(_:)`); the driver and the tools that
    /// explore a machine take the first one due in that list, and decide nothing themselves.
    @inlinable
    public func firesBefore(_ other: Self) -> Bool { visit < other.visit }

    /// Equal when armed for the same visit, with the same duration, target and depth.
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.after == rhs.after && lhs.target == rhs.target && lhs.visit == rhs.visit && lhs.depth == rhs.depth
    }

    /// Hashes what ``==`` compares.
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(after)
        hasher.combine(target)
        hasher.combine(visit)
        hasher.combine(depth)
    }
}
