/// What the machine's semantics (``FlowKernel``) read of a machine: its steps, already
/// lowered to ``FlowStep`` values, and the shape of its states. Two kinds of machine conform:
/// a generated one, through `FlowMachine` (its `FlowSpec`'s static functions), and the
/// checked spec that `flowspec simulate` runs. So the app and the tool run one semantics.
public protocol FlowRules {
    /// A state the machine can be in (one with no states inside it).
    associatedtype State: Hashable & Sendable
    /// An event.
    associatedtype Event
    /// The conditions supplied at each input.
    associatedtype Conditions

    /// How many retry counters the machine needs.
    var retrySlotCount: Int { get }
    /// How many compound states remember the state they were last left in.
    var memorySlotCount: Int { get }
    /// The most compound states around any state (0 for a flat machine).
    var maximumDepth: Int { get }

    /// What the state waits for.
    func kind(of state: State) -> FlowStateKind
    /// How many compound states hold the state.
    func depth(of state: State) -> Int
    /// The step `event` leads to in `state` under `conditions`, or `nil` if the state ignores it.
    func step(_ state: State, on event: Event, _ conditions: Conditions) -> FlowStep<State>?
    /// The step a state takes at once on being entered: a choice state's first `always` branch
    /// that holds, or the `done` of the compound state around a terminal state.
    func always(_ state: State, _ conditions: Conditions) -> FlowStep<State>?
    /// Whether some state takes `always` branches while it waits: only then does the kernel
    /// ask ``eventless(_:_:)``, so a machine without pays nothing for them.
    var hasEventless: Bool { get }
    /// The `always` branch a state takes while it waits, as soon as its condition holds: the
    /// first that holds of its own (an `input` or `task` state's), then of those of the compound
    /// states around it, innermost first; with how deep the state that writes it stands (the
    /// state's own depth for its own). `nil` if none holds.
    func eventless(_ state: State, _ conditions: Conditions) -> (step: FlowStep<State>, declaredAt: Int)?
    /// Whether some guard reads where the flow is (`in:`, `notIn:`): only then does the kernel
    /// ask ``conditions(_:whileIn:)``, so a machine without pays nothing for them.
    var readsStates: Bool { get }
    /// `conditions` as the guards read them while the flow is in `states` (every state it is
    /// in, one per region): the app's, with whether the flow is in each state a guard reads
    /// set from `states` and the compound states around them. The kernel asks it before each
    /// choice of steps, so every region chooses on the same configuration (SCXML's `In()`).
    func conditions(_ conditions: Conditions, whileIn states: some Collection<State>) -> Conditions
    /// How long the state may be occupied, and where its timeout leads.
    func timeout(of state: State) -> (after: Duration, to: State)?
    /// The step the state's timeout takes, or `nil` if it has none.
    func timeoutStep(_ state: State) -> FlowStep<State>?
    /// The timeout of the compound state around `state` at `depth`, if it has one.
    func outerTimeout(of state: State, atDepth depth: Int) -> (after: Duration, to: State)?
    /// The step that timeout takes from `state`, or `nil` if there is none.
    func outerTimeoutStep(_ state: State, atDepth depth: Int) -> FlowStep<State>?
    /// The positions in the effect list of what entering the state and the compound states
    /// around it runs, outermost first.
    func entryEffects(of state: State) -> Range<Int>
    /// Records `state` in `memory`, at the slot of each compound state around it at depth
    /// `keep` or deeper that remembers: what leaving them records.
    func record(_ state: State, leaving keep: Int, in memory: inout [State?])
    /// The memory slot of the compound state around `state` at `depth`, if it remembers.
    func memorySlot(around state: State, atDepth depth: Int) -> Int?
    /// The state the `initial` chain of the compound state around `state` at `depth` leads
    /// to, or `nil` if there is no compound state there.
    func initialState(around state: State, atDepth depth: Int) -> State?
    /// How many `entry` effects the compound state around `state` at `depth` runs itself.
    func entryEffectCount(around state: State, atDepth depth: Int) -> Int
    /// Whether entering a state may run effects besides the `entry` effects: those of a
    /// compound state's `initial` or of a history state's default. Only then does the kernel
    /// ask ``startEffects`` and ``entryEffects(of:keeping:initialFrom:)``, and read
    /// ``FlowStep/entries``, so a machine without pays nothing for them.
    var hasInitialEffects: Bool { get }
    /// What starting the flow enters runs: the `entry` effects of the state it starts in and of
    /// the compound states around it, with the `initial` effects of those entered through
    /// their `initial` (with parallel states, of every region entered too).
    var startEffects: Range<Int> { get }
    /// The `entry` effects of entering `target` with `keep` compound states kept, those at depth
    /// `initialFrom` or deeper entered through their `initial` and running its effects after
    /// their `entry` (a shallow history resuming the state directly inside its compound state);
    /// with parallel states, the other regions entered too.
    func entryEffects(of target: State, keeping keep: Int, initialFrom: Int) -> Range<Int>

    // A machine with parallel states is in several states at once, and the kernel runs it on
    // what follows (defaults for a machine without: one state at a time). Its steps' effects
    // are then a transition's own only: which states a step leaves depends on where the other
    // regions are, so the kernel adds the exits and the entries itself.

    /// The most states the machine is in at once (1 without parallel states).
    var maximumLeaves: Int { get }
    /// How many compound states the machine has, parallel states and regions included.
    var compoundCount: Int { get }
    /// The compound state around `state` at `depth`, by position among the machine's compound
    /// states (`0..<compoundCount`).
    func compoundIndex(around state: State, atDepth depth: Int) -> Int
    /// The depth of the innermost parallel state around `state`, if there is one.
    func parallelDepth(around state: State) -> Int?
    /// How deep the state that writes the step `event` leads to in `state` stands: the state's
    /// own depth for its own transition, a compound state's for one it inherits, -1 for the
    /// machine's `on`.
    func declaringDepth(of state: State, on event: Event, _ conditions: Conditions) -> Int
    /// The `exit` effects of leaving `state` and the compound states around it down to `depth`,
    /// innermost first.
    func exitEffects(of state: State, through depth: Int) -> Range<Int>
    /// The `entry` effects of entering `target` with `keep` compound states kept: every state
    /// entered, the other regions of a parallel state entered included, in document order.
    func entryEffects(of target: State, keeping keep: Int) -> Range<Int>
    /// Appends the states the machine is in once it enters `target` with `keep` compound
    /// states kept: `target`, and the states the other regions of each parallel state entered
    /// enter through their `initial`, in document order.
    func enteredStates(_ target: State, keeping keep: Int, into states: inout [State])
    /// The step the `done` of the parallel state around `state` at `depth` takes under
    /// `conditions`: its first candidate that holds, if it has one.
    func parallelDone(around state: State, atDepth depth: Int, _ conditions: Conditions) -> FlowStep<State>?
}

extension FlowRules {
    /// None.
    @inlinable public var hasEventless: Bool { false }
    /// None.
    @inlinable public var readsStates: Bool { false }
    /// The app's conditions: no guard reads where the flow is.
    @inlinable public func conditions(_ conditions: Conditions, whileIn states: some Collection<State>) -> Conditions {
        conditions
    }
    /// None.
    @inlinable public var hasInitialEffects: Bool { false }
    /// Never asked of a machine without `initial` effects.
    @inlinable public var startEffects: Range<Int> { 0..<0 }
    /// Never asked of a machine without `initial` effects.
    @inlinable public func entryEffects(of target: State, keeping keep: Int, initialFrom: Int) -> Range<Int> { 0..<0 }
    /// None.
    @inlinable public func eventless(_ state: State, _ conditions: Conditions) -> (
        step: FlowStep<State>, declaredAt: Int
    )? { nil }
    /// One state at a time.
    @inlinable public var maximumLeaves: Int { 1 }
    /// None, in a machine without parallel states (the kernel never asks it).
    @inlinable public var compoundCount: Int { 0 }
    /// Never asked of a machine without parallel states.
    @inlinable public func compoundIndex(around state: State, atDepth depth: Int) -> Int { 0 }
    /// None.
    @inlinable public func parallelDepth(around state: State) -> Int? { nil }
    /// Never asked of a machine without parallel states.
    @inlinable public func declaringDepth(of state: State, on event: Event, _ conditions: Conditions) -> Int { -1 }
    /// Never asked of a machine without parallel states.
    @inlinable public func exitEffects(of state: State, through depth: Int) -> Range<Int> { 0..<0 }
    /// Never asked of a machine without parallel states.
    @inlinable public func entryEffects(of target: State, keeping keep: Int) -> Range<Int> { 0..<0 }
    /// The target alone.
    @inlinable public func enteredStates(_ target: State, keeping keep: Int, into states: inout [State]) {
        states.append(target)
    }
    /// None.
    @inlinable public func parallelDone(around state: State, atDepth depth: Int, _ conditions: Conditions)
        -> FlowStep<State>?
    { nil }
}

/// Where the kernel puts what a step does: the runs of the effect list it runs, in order, and
/// (for tools that count coverage) each transition taken.
public protocol FlowStepSink {
    /// A state of the machine.
    associatedtype State
    /// Appends the run of `count` effects from `start` in the effect list.
    mutating func append(_ start: Int, _ count: Int)
    /// Appends a run that follows another in one input: the entries of the state a history
    /// state resumes, or, with parallel states, each run of the states left and entered (a
    /// sink that holds a few runs in place keeps these apart from the first).
    mutating func appendSecond(_ start: Int, _ count: Int)
    /// The step `step` was taken from `from` to `to`: through its retry's `then` when
    /// `fellBack`, resuming a recorded state of a history when `resumed`. The step says which
    /// transition as written it is (``FlowStep/written``).
    mutating func took(_ step: FlowStep<State>, from: State, to: State, fellBack: Bool, resumed: Bool)
}

/// Whose timeout a timer is: the current state's own, or that of a compound state around it.
public enum FlowTimeoutScope: Sendable, Hashable {
    /// The current state's own timeout.
    case state
    /// The timeout of the compound state around the current state at `depth` (0 the outermost).
    case compound(depth: Int)
}

/// The semantics of every flowspec machine, written once: what a running flow is (its state,
/// visits, retry counters and history memory) and how an input changes it. `FlowMachine`
/// runs a generated machine with it, and `flowspec simulate` a checked spec; the rules
/// (``FlowRules``) are passed to each call, so the kernel is a plain value that compares and
/// hashes by what it holds. `docs/generated-code.md` states the semantics.
///
/// An app uses `FlowMachine` (in `FlowSpecRuntime`); the kernel is public so that the
/// flowspec tool runs it too. Its functions are inlinable, so that a generated machine's `send`
/// is specialised in the app's module and allocates nothing.
public struct FlowKernel<Rules: FlowRules>: Sendable, Hashable {
    /// The current state (never a choice state once settled); with parallel regions, the
    /// first of ``states``.
    @inlinable
    public var state: Rules.State { currentState }
    /// The states the flow is in, in document order: one, unless parallel regions run.
    @inlinable
    public var states: [Rules.State] { active.isEmpty ? [currentState] : active }
    /// The visit that entered each of ``states``.
    @inlinable
    public var stateVisits: [Int] { active.isEmpty ? [currentVisit] : activeVisits }
    /// How many times a state has been entered; identifies the current visit.
    @inlinable
    public var visit: Int { currentVisit }
    /// The visits that entered the compound states around the current state, outermost first.
    @inlinable
    public var outerVisitsOfState: ArraySlice<Int> { outerVisits[..<outerDepth] }
    /// The visit that entered the compound state around `state`, a state the flow is in, at
    /// `depth` (0 the outermost; less than the state's depth).
    @inlinable
    public func visit(around state: Rules.State, atDepth depth: Int, _ rules: Rules) -> Int {
        active.isEmpty ? outerVisits[depth] : compoundVisits[rules.compoundIndex(around: state, atDepth: depth)]
    }
    /// The retry counters, one per transition with a bounded `retry`.
    @inlinable
    public var retryCounts: [Int] { retries }
    /// Per memory slot, the state its compound state was last left in, or `nil` if it never was.
    @inlinable
    public var memory: [Rules.State?] { remembered }

    @usableFromInline internal var currentState: Rules.State
    @usableFromInline internal var currentVisit: Int
    @usableFromInline internal var retries: [Int]
    /// The visits that entered the compound states around the current state, outermost first:
    /// the first ``outerDepth`` of ``FlowRules/maximumDepth`` slots (none in a flat machine),
    /// written in place, so that a step neither allocates nor resizes.
    @usableFromInline internal var outerVisits: [Int]
    /// How many of ``outerVisits`` are the current state's: its depth.
    @usableFromInline internal var outerDepth: Int
    @usableFromInline internal var remembered: [Rules.State?]
    /// In a machine with parallel states (``FlowRules/maximumLeaves`` above 1): the states the
    /// flow is in, in document order, and the visit that entered each; per compound state, the
    /// visit that entered it, or -1 while it is not active; and the last visit given. Empty
    /// (and 0) otherwise, where ``currentState`` and ``outerVisits`` say it all.
    @usableFromInline internal var active: [Rules.State]
    @usableFromInline internal var activeVisits: [Int]
    @usableFromInline internal var compoundVisits: [Int]
    @usableFromInline internal var lastVisit: Int
    /// Working buffers of an input in a machine with parallel states (empty otherwise); not
    /// part of what the flow is, so neither compared nor hashed.
    @usableFromInline internal var scratch: RegionScratch

    /// A flow in `state`, having entered the compound states around it (a visit each, from 0)
    /// and then the state; nothing run yet (``enter(_:_:_:)`` runs the entries).
    @inlinable
    public init(state: Rules.State, _ rules: Rules) {
        currentState = state
        retries = rules.retrySlotCount == 0 ? [] : [Int](repeating: 0, count: rules.retrySlotCount)
        remembered = rules.memorySlotCount == 0 ? [] : [Rules.State?](repeating: nil, count: rules.memorySlotCount)
        active = []
        activeVisits = []
        compoundVisits = []
        lastVisit = 0
        scratch = RegionScratch()
        if rules.maximumLeaves > 1 {
            outerVisits = Array(repeating: 0, count: rules.maximumDepth)
            outerDepth = 0
            currentVisit = 0
            compoundVisits = Array(repeating: -1, count: rules.compoundCount)
            lastVisit = -1
            scratch = RegionScratch(capacity: rules.maximumLeaves)
            active.reserveCapacity(rules.maximumLeaves)
            activeVisits.reserveCapacity(rules.maximumLeaves)
            rules.enteredStates(state, keeping: 0, into: &active)
            var visits = activeVisits
            activeVisits = []
            self.visits(entering: active, keeping: 0, rules, into: &visits)
            activeVisits = visits
            showFirstState(rules)
        } else if rules.maximumDepth == 0 {
            outerVisits = []
            outerDepth = 0
            currentVisit = 0
        } else {
            let depth = rules.depth(of: state)
            outerVisits = Array(0..<rules.maximumDepth)
            outerDepth = depth
            currentVisit = depth
        }
    }

    /// Equal when in the same state, visits, retry counts and history memory.
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.currentState == rhs.currentState && lhs.currentVisit == rhs.currentVisit && lhs.retries == rhs.retries
            && lhs.outerVisits[..<lhs.outerDepth] == rhs.outerVisits[..<rhs.outerDepth]
            && lhs.remembered == rhs.remembered && lhs.active == rhs.active && lhs.activeVisits == rhs.activeVisits
            && lhs.compoundVisits == rhs.compoundVisits
    }

    /// Hashes the state, visits, retry counts and history memory.
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(currentState)
        hasher.combine(currentVisit)
        hasher.combine(retries)
        hasher.combine(outerVisits[..<outerDepth])
        hasher.combine(remembered)
        hasher.combine(active)
        hasher.combine(activeVisits)
        hasher.combine(compoundVisits)
    }

    /// Sets what a memory slot remembers (restoring a persisted flow).
    @inlinable
    public mutating func remember(_ state: Rules.State?, inSlot slot: Int) {
        remembered[slot] = state
    }

    /// The same flow with every visit 0 (inactive compound states stay without one): what
    /// tools that explore a machine's configurations compare, since two runs that reach the
    /// same states, counters and memory behave alike.
    @inlinable
    public func forgettingVisits() -> Self {
        var copy = self
        copy.currentVisit = 0
        for depth in 0..<outerDepth { copy.outerVisits[depth] = 0 }
        copy.activeVisits = activeVisits.map { _ in 0 }
        copy.compoundVisits = compoundVisits.map { $0 < 0 ? -1 : 0 }
        copy.lastVisit = 0
        return copy
    }

    /// Enters the state the flow starts in (`starting`) or is restored to: runs its entries and
    /// those of the compound states around it (starting, with the `initial` effects of those
    /// entered through their `initial`; a restored state is entered as it was stored), then,
    /// for a choice state, the branch it takes at once.
    @inlinable
    public mutating func enter<Sink: FlowStepSink>(
        _ conditions: Rules.Conditions, _ rules: Rules, _ sink: inout Sink, starting: Bool = false
    ) where Sink.State == Rules.State {
        let startEffects = starting && rules.hasInitialEffects ? rules.startEffects : nil
        if rules.maximumLeaves > 1 {
            if let startEffects {
                sink.append(startEffects.lowerBound, startEffects.count)
            } else {
                enterRegions(rules, &sink)
            }
            if active.contains(where: { rules.kind(of: $0) == .input || rules.kind(of: $0) == .terminal }) {
                resetRetries()
            }
            settleRegions(conditions, rules, &sink)
            return
        }
        let entry = startEffects ?? rules.entryEffects(of: currentState)
        sink.append(entry.lowerBound, entry.count)
        if let branch = entered(conditions, rules) { take(branch, conditions, rules, &sink) }
    }

    /// Sends an event; returns whether the flow took a step. In a machine whose states take
    /// `always` branches while they wait, conditions that changed since the last input are
    /// seen first: the branches that now hold are taken before the event (SCXML takes eventless
    /// transitions when its datamodel changes, before the next event comes). Then the state
    /// handles the event, or ignores it, which changes nothing.
    @inlinable @inline(__always) @discardableResult
    public mutating func send<Sink: FlowStepSink>(
        _ event: Rules.Event, _ conditions: Rules.Conditions, _ rules: Rules, _ sink: inout Sink
    ) -> Bool where Sink.State == Rules.State {
        if rules.maximumLeaves > 1 { return sendInRegions(event, conditions, rules, &sink) }
        let settled = rules.hasEventless && conditionsChanged(conditions, rules, &sink)
        guard let step = rules.step(currentState, on: event, seen(conditions, rules)) else { return settled }
        take(step, conditions, rules, &sink)
        return true
    }

    /// The conditions as the guards read them where the flow is now (one state at a time).
    @inlinable @inline(__always)
    internal func seen(_ conditions: Rules.Conditions, _ rules: Rules) -> Rules.Conditions {
        rules.readsStates ? rules.conditions(conditions, whileIn: CollectionOfOne(currentState)) : conditions
    }

    /// Tries the `always` branches of the states the flow is in under `conditions`: what the
    /// app asks when its conditions changed without an event, and what every input does first.
    /// Returns whether one was taken (then, as after any step, until none holds).
    @inlinable @discardableResult
    public mutating func conditionsChanged<Sink: FlowStepSink>(
        _ conditions: Rules.Conditions, _ rules: Rules, _ sink: inout Sink
    ) -> Bool where Sink.State == Rules.State {
        guard rules.hasEventless else { return false }
        if rules.maximumLeaves > 1 { return settleRegions(conditions, rules, &sink) }
        guard let branch = rules.eventless(currentState, seen(conditions, rules)) else { return false }
        take(branch.step, conditions, rules, &sink)
        return true
    }

    /// Whose timeout is armed for `visit` in a machine without parallel states: the state's
    /// own, or that of the compound state around it at a depth; `nil` if none is (a visit that
    /// is over). ``timeoutOwner(forVisit:_:)`` also says which state.
    @inlinable
    public func timeoutScope(forVisit visit: Int) -> FlowTimeoutScope? {
        if visit == currentVisit { return .state }
        return outerVisits[..<outerDepth].firstIndex(of: visit).map { .compound(depth: $0) }
    }

    /// Fires the timeout armed for `visit`; returns whether the flow took a step. As with an
    /// event, `always` branches that hold under `conditions` are taken first (which may end
    /// the visit); then a timeout armed for another visit changes nothing.
    @inlinable @discardableResult
    public mutating func fireTimeout<Sink: FlowStepSink>(
        visit: Int, _ conditions: Rules.Conditions, _ rules: Rules, _ sink: inout Sink
    ) -> Bool where Sink.State == Rules.State {
        if rules.maximumLeaves > 1 { return fireTimeoutInRegions(visit: visit, conditions, rules, &sink) }
        let settled = rules.hasEventless && conditionsChanged(conditions, rules, &sink)
        let step: FlowStep<Rules.State>?
        switch timeoutScope(forVisit: visit) {
        case .state: step = rules.timeoutStep(currentState)
        case .compound(let depth): step = rules.outerTimeoutStep(currentState, atDepth: depth)
        case nil: step = nil
        }
        guard let step else { return settled }
        take(step, conditions, rules, &sink)
        return true
    }

    /// Every timeout armed now, in the order they fire when due together
    /// (``FlowArmedTimeout/firesBefore(_:)``): those of the compound states around the state,
    /// outermost first (each armed for the visit that entered its compound state), then the
    /// state's own.
    @inlinable
    public func armedTimeouts(_ rules: Rules) -> [FlowArmedTimeout<Rules.State>] {
        if rules.maximumLeaves > 1 { return armedTimeoutsInRegions(rules) }
        var armed: [FlowArmedTimeout<Rules.State>] = []
        for depth in 0..<outerDepth {
            guard let timeout = rules.outerTimeout(of: currentState, atDepth: depth) else { continue }
            let target = target(
                of: rules.memorySlotCount > 0 ? rules.outerTimeoutStep(currentState, atDepth: depth) : nil, rules)
            armed.append(
                FlowArmedTimeout(
                    after: timeout.after, target: target ?? timeout.to, visit: outerVisits[depth], depth: depth,
                    owner: currentState))
        }
        if let own = armedTimeout(rules) { armed.append(own) }
        return armed
    }

    /// The timeout armed for the current visit, if the state has one.
    @inlinable
    public func armedTimeout(_ rules: Rules) -> FlowArmedTimeout<Rules.State>? {
        if rules.maximumLeaves > 1 {
            return armedTimeoutsInRegions(rules).first { $0.depth == nil && $0.owner == currentState }
        }
        guard let timeout = rules.timeout(of: currentState) else { return nil }
        let target = target(of: rules.memorySlotCount > 0 ? rules.timeoutStep(currentState) : nil, rules)
        return FlowArmedTimeout(
            after: timeout.after, target: target ?? timeout.to, visit: currentVisit, owner: currentState)
    }

    /// Where a step into a history state would lead if taken now (before its retry is counted):
    /// the state its history resumes, with what the step itself records first; `nil` for any
    /// other step.
    @inlinable
    public func target(of step: FlowStep<Rules.State>?, _ rules: Rules) -> Rules.State? {
        guard let step, let resume = step.resume else { return nil }
        var recorded = remembered[resume.slot]
        var depth = outerDepth
        while depth > step.keep {
            depth -= 1
            if rules.memorySlot(around: currentState, atDepth: depth) == resume.slot { recorded = currentState }
        }
        guard let recorded else { return step.target }
        return Self.resumed(recorded, resume, rules)
    }

    /// The state a history resumes when its compound state was left in `recorded`: that state
    /// (deep), or the state directly inside the compound state that held it, entered by its
    /// `initial` chain (shallow).
    @inlinable
    internal static func resumed(_ recorded: Rules.State, _ resume: FlowResume, _ rules: Rules) -> Rules.State {
        guard !resume.deep else { return recorded }
        return rules.initialState(around: recorded, atDepth: resume.depth + 1) ?? recorded
    }

    /// The `entry` effects of entering `state` from the compound state at depth `keep` down: the
    /// end of ``FlowRules/entryEffects(of:)``, past those of the compound states above `keep`.
    @inlinable
    internal static func entryEffects(of state: Rules.State, keeping keep: Int, _ rules: Rules) -> Range<Int> {
        let all = rules.entryEffects(of: state)
        var skipped = 0
        for depth in 0..<Swift.min(keep, rules.depth(of: state)) {
            skipped += rules.entryEffectCount(around: state, atDepth: depth)
        }
        return (all.lowerBound + skipped)..<all.upperBound
    }

    /// Takes a step and then, while the state reached takes one at once (a choice state's
    /// branch, an `always` branch that holds, a terminal state's `done`), that one (a loop,
    /// not recursion: chains of choice states can be long).
    @inlinable @inline(__always)
    public mutating func take<Sink: FlowStepSink>(
        _ first: FlowStep<Rules.State>, _ conditions: Rules.Conditions, _ rules: Rules, _ sink: inout Sink
    ) where Sink.State == Rules.State {
        if first.stays {
            // Nothing is left or entered, so nothing is taken at once after it either: the
            // `always` branches were tried under these conditions before it.
            sink.append(first.effects.lowerBound, first.effects.count)
            sink.took(first, from: currentState, to: currentState, fellBack: false, resumed: false)
            return
        }
        var next: FlowStep<Rules.State>? = first
        while let step = next {
            var target = step.target
            var ran = step.effects
            var keep = step.keep
            var fellBack = false
            var resumed = false
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
            if rules.memorySlotCount > 0 {
                // Leaving records, then a history target reads (SCXML: exits before entries).
                remember(leaving: keep, rules)
                if let resume = fellBack ? step.retry?.resume : step.resume, let recorded = remembered[resume.slot] {
                    target = Self.resumed(recorded, resume, rules)
                    sink.append(resume.before.lowerBound, resume.before.count)
                    let entries =
                        rules.hasInitialEffects && !resume.deep
                        ? rules.entryEffects(of: target, keeping: keep, initialFrom: resume.depth + 1)
                        : Self.entryEffects(of: target, keeping: keep, rules)
                    sink.appendSecond(entries.lowerBound, entries.count)
                    ran = 0..<0
                    resumed = true
                }
            }
            sink.append(ran.lowerBound, ran.count)
            sink.took(step, from: currentState, to: target, fellBack: fellBack, resumed: resumed)
            currentState = target
            if rules.maximumDepth > 0 { enterOuterStates(of: target, keeping: keep, rules) }
            currentVisit += 1
            next = entered(conditions, rules)
        }
    }

    /// Records the current state in the memory of each compound state around it that a step
    /// keeping `keep` of them leaves, if it has a history state inside.
    @inlinable
    internal mutating func remember(leaving keep: Int, _ rules: Rules) {
        if outerDepth > keep { rules.record(currentState, leaving: keep, in: &remembered) }
    }

    /// Leaves the compound states below `keep` and enters those around `state`, a visit each.
    @inlinable
    internal mutating func enterOuterStates(of state: Rules.State, keeping keep: Int, _ rules: Rules) {
        let depth = rules.depth(of: state)
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

    /// What entering the current state means: input and terminal states reset the retry
    /// counters; a choice state returns the branch it takes at once, a state that waits an
    /// `always` branch that holds, and a terminal state (failing that) the `done` of the
    /// compound state around it.
    @inlinable @inline(__always)
    internal mutating func entered(_ conditions: Rules.Conditions, _ rules: Rules) -> FlowStep<Rules.State>? {
        let read = seen(conditions, rules)
        switch rules.kind(of: currentState) {
        case .input:
            for slot in retries.indices where retries[slot] != 0 { retries[slot] = 0 }
            return rules.hasEventless ? rules.eventless(currentState, read)?.step : nil
        case .terminal:
            for slot in retries.indices where retries[slot] != 0 { retries[slot] = 0 }
            // SCXML: eventless transitions are selected before the `done` event is handled.
            if rules.hasEventless, let branch = rules.eventless(currentState, read) { return branch.step }
            return rules.maximumDepth > 0 ? rules.always(currentState, read) : nil
        case .choice:
            if let branch = rules.always(currentState, read) { return branch }
            return rules.hasEventless ? rules.eventless(currentState, read)?.step : nil
        case .task:
            return rules.hasEventless ? rules.eventless(currentState, read)?.step : nil
        }
    }
}
