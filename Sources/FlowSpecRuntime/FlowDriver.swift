import Observation

/// Runs a flow in an app: the machine of a spec, with its timers, the async work of its task
/// states, its effects, its persistence and a record of every step. Observable, so a SwiftUI
/// view follows ``state``; on the main actor, like the UI it drives.
///
/// - **Time** comes from the clock given (a `ContinuousClock` in the app, a test clock in tests).
///   A timer is armed for each timeout of ``FlowMachine/armedTimeouts``: the current visit's,
///   and those of the compound states around it, each from when its state was entered; leaving
///   a state cancels its timer, and moving inside a compound state keeps the compound's. Of
///   timers due at once, the one armed first fires first. ``dueTimers`` counts the timers whose
///   deadline has come and whose task has not yet ended.
/// - **Work**: the app registers an async operation per task state (``work(in:_:onError:)``).
///   The driver starts it on entering the state, cancels it on leaving (an event, or the
///   timeout), and drops its result if the visit is over. So the spec's "every async step has a
///   timeout" holds at run time: work still running when the timeout fires is cancelled.
/// - **Activities**: the app registers, per activity, an async operation that sends events
///   (``activity(_:_:)``) or an `AsyncSequence` of them (``activity(_:events:)``). The driver
///   starts it when a state that lists it is entered, keeps it running while the flow stays in
///   that state or inside it, and cancels it when the state is left. An event it sends after
///   that, or one its `sends` does not list, changes nothing. A registration for a compound
///   state (``activity(_:in:_:)``) serves the states inside it: a sub-flow's own work.
/// - **Effects** are carried out in order by the handler given; **conditions** are read from
///   the app at each input.
/// - **Persistence**, for a machine with `persist`: the state is restored at ``start()`` and
///   saved on every change of state (see ``init(_:storage:key:clock:keepingSteps:conditions:effects:)``).
/// - **Inspection**: ``lastStep`` and ``steps`` hold what happened, and ``trace`` the lines of
///   `flowspec simulate`, which `flowspec simulate --replay` checks against the spec.
///
/// Misuse is reported in ``problems``, never trapped: an event before ``start()`` or after a
/// terminal state, a task state with no work registered, work registered for a state that is
/// not a task, an activity with no work registered, a stored value the machine cannot restore.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
public final class FlowDriver<Spec: FlowSpec>: Observable {
    // Observation: every public property reads `revision` and every change bumps it once, so a
    // view that reads any of them follows all of them. The revision lives in a non-generic
    // class: observation names properties by key paths, and a generic class's key paths are
    // made anew on every access, which would cost more than all the rest an input does.
    private let revision = FlowRevision()

    private var current: FlowMachine<Spec>
    private var started = false
    private var last: FlowStepRecord<Spec>?
    private var kept: [FlowStepRecord<Spec>] = []
    private var reported: [String] = []
    private var dropped = 0

    /// The machine: state, visit and retry counters.
    public var machine: FlowMachine<Spec> { observed(current) }
    /// Whether ``start()`` has run.
    public var isStarted: Bool { observed(started) }
    /// The last step taken.
    public var lastStep: FlowStepRecord<Spec>? { observed(last) }
    /// Every step taken, in order (kept only with `keepingSteps`).
    public var steps: [FlowStepRecord<Spec>] { observed(kept) }
    /// What the app did that the driver could not act on, in order, each said once.
    public var problems: [String] { observed(reported) }
    /// How many results of task work, and events of activities, arrived after their visit was
    /// over (or ``stop()`` ran), and were dropped.
    public var droppedResults: Int { observed(dropped) }

    /// How many timers whose deadline has come on the driver's clock have not yet ended: fired
    /// and not yet run on the main actor, or cancelled and not yet stopped.
    ///
    /// A test that moved its clock and wants to check that nothing happened waits for this to
    /// be zero (`FlowSettling.whatIsDue(of:)`): then every timer that could act has acted, or
    /// ended without acting, and a timer left armed by mistake fails the check instead of
    /// arriving after it. A cancelled timer counts until its task ends, for that reason.
    ///
    /// Timers only: the result of task work cannot be counted between its operation returning
    /// off the main actor and its delivery on it without a lock, which the runtime has no
    /// portable way to take (no Foundation; `Synchronization` needs macOS 15). Wait for work by
    /// what it does instead: the state, or ``droppedResults``. Not observed: the clock moving
    /// tells no one, so read it by polling.
    public var dueTimers: Int { timers.values.count { isDue in isDue() } }

    /// The current state.
    public var state: Spec.State { observed(current.state) }

    /// `value`, read as an observed property.
    private func observed<Value>(_ value: Value) -> Value {
        revision.access()
        return value
    }

    /// The steps as `flowspec simulate` prints them, with the condition changes between them
    /// (kept only with `keepingSteps`).
    public var trace: [String] { FlowTrace.lines(steps) }

    /// An async operation of a task state: what it produces is sent as an event.
    private struct Work {
        let operation: @Sendable () async throws -> Spec.Event
        /// The event for an error (`nil` for work that cannot throw).
        let onError: (@Sendable (any Error) -> Spec.Event)?
    }

    private let clock: any Clock<Duration>
    private let conditions: @MainActor () -> Spec.Conditions
    private let perform: @MainActor (Spec.Effect) -> Void
    private let keepingSteps: Bool
    private var work: [Spec.State: Work] = [:]
    /// What each activity registered runs: given the function that sends its events.
    private var activities: [Spec.Activity: Activity] = [:]
    /// What an activity runs where states inside a compound state list it
    /// (``activity(_:in:_:)``).
    private var scopedActivities: [Spec.Activity: [Spec.Compound: Activity]] = [:]
    /// The activities running, by run.
    private var runningActivities: [FlowActivityRun<Spec>: Task<Void, Never>] = [:]
    /// The armed timers, by the visit they were armed for, with whether their deadline has come.
    private var armed: [Int: (task: Task<Void, Never>, isDue: @Sendable () -> Bool)] = [:]
    /// For each timer armed, by visit, the time left until its deadline: a compound state's
    /// timer stopped by ``stop()`` keeps its deadline when the next input arms it again.
    private var timeLeft: [Int: @Sendable () -> Duration] = [:]
    /// The timer tasks started and not yet ended, by number, each with whether its deadline has
    /// come (``dueTimers``).
    private var timers: [Int: @Sendable () -> Bool] = [:]
    private var timersStarted = 0
    /// The work running, by the visit of its task state.
    private var running: [Int: Task<Void, Never>] = [:]
    private var observers: [@MainActor (FlowStepRecord<Spec>) -> Void] = []
    /// Restores the machine at start (a persisted machine), with the stored value read and the
    /// memory of compound states restored.
    private var restore:
        (@MainActor (Spec.Conditions) -> (FlowMachine<Spec>, FlowEffects<Spec>, FlowStepRecord<Spec>.Restored))?
    /// Saves the state and what compound states remember (a persisted machine).
    private var save: (@MainActor (FlowMachine<Spec>) -> Void)?

    /// A driver of a flow that starts at `initial`.
    ///
    /// - Parameters:
    ///   - spec: the machine (a generated namespace, such as `LaunchAuth.self`).
    ///   - clock: where time comes from.
    ///   - keepingSteps: whether to keep every step in ``steps`` (and so ``trace``).
    ///   - conditions: the conditions now, read at each input.
    ///   - effects: carries out one effect; called in order.
    public init(
        _ spec: Spec.Type = Spec.self, clock: any Clock<Duration> = ContinuousClock(), keepingSteps: Bool = false,
        conditions: @escaping @MainActor () -> Spec.Conditions = { Spec.Conditions() },
        effects: @escaping @MainActor (Spec.Effect) -> Void = { _ in }
    ) {
        self.current = FlowMachine(state: Spec.initial)
        self.clock = clock
        self.keepingSteps = keepingSteps
        self.conditions = conditions
        self.perform = effects
    }

    /// Registers the work of a task state: started on entering it, cancelled on leaving it.
    /// What it returns is sent as an event; what it throws, mapped by `onError`.
    public func work(
        in state: Spec.State, _ operation: @escaping @Sendable () async throws -> Spec.Event,
        onError: @escaping @Sendable (any Error) -> Spec.Event
    ) {
        register(Work(operation: operation, onError: onError), in: state)
    }

    private func register(_ work: Work, in state: Spec.State) {
        guard Spec.kind(of: state) == .task else {
            report(
                "work registered for \(Spec.kind(of: state).rawValue) state '\(Spec.name(ofState: state))' never runs: "
                    + "only task states run work")
            return
        }
        self.work[state] = work
        if started, current.states.contains(state) { startWork() }
    }

    /// What an activity does, given the function that sends its events.
    public typealias Activity = @Sendable (_ send: @escaping @Sendable (Spec.Event) async -> Void) async -> Void

    /// Registers an activity: started when a state that lists it is entered, cancelled when
    /// that state is left. It may send any of the events of its `sends`, any number of times;
    /// `send` returns once the event is handled (or dropped, when the state is left already).
    public func activity(_ activity: Spec.Activity, _ run: @escaping Activity) {
        activities[activity] = run
        if started { startActivities(current.runningActivities) }
    }

    /// Registers an activity for the runs that states inside `compound` list (not `compound`
    /// itself): a run takes the registration of the innermost compound state around the state
    /// that lists it, else the one of ``activity(_:_:)``. The generated `work(_:launch:)` gives
    /// each machine a flow runs (in `launch`) its own work for the activities it lists.
    public func activity(_ activity: Spec.Activity, in compound: Spec.Compound, _ run: @escaping Activity) {
        scopedActivities[activity, default: [:]][compound] = run
        if started { startActivities(current.runningActivities) }
    }

    /// Registers an activity whose events are the elements of an `AsyncSequence`, made anew on
    /// each run (see ``activity(_:_:)``). A sequence that ends, or throws, ends the run (a
    /// throw is reported in ``problems``); the state stays.
    public func activity<Events: AsyncSequence>(
        _ activity: Spec.Activity, events: @escaping @Sendable () -> Events
    ) where Events.Element == Spec.Event {
        // On the main actor, as the driver is: the sequence is made and read there, and only
        // its own work runs elsewhere.
        self.activity(activity) { @MainActor [weak self] send in
            do {
                for try await event in events() { await send(event) }
            } catch {
                self?.report("activity '\(Spec.name(ofActivity: activity))' ended by throwing \(error)")
            }
        }
    }

    /// Registers work that cannot fail (see ``work(in:_:onError:)``).
    public func work(in state: Spec.State, _ operation: @escaping @Sendable () async -> Spec.Event) {
        register(Work(operation: { await operation() }, onError: nil), in: state)
    }

    /// Calls `observer` after every step, with the step.
    public func onStep(_ observer: @escaping @MainActor (FlowStepRecord<Spec>) -> Void) {
        observers.append(observer)
    }

    /// Starts the flow: restores it where it is persisted, or enters `initial`; then carries out
    /// the effects, saves, arms the timer and starts the state's work.
    public func start() {
        guard !started else {
            report("start() was called again; the flow is already running")
            return
        }
        started = true
        let now = conditions()
        let input: FlowStepRecord<Spec>.Input
        let effects: FlowEffects<Spec>
        var restored = FlowStepRecord<Spec>.Restored()
        if let restore {
            (current, effects, restored) = restore(now)
            input = .restore(restored.value)
        } else {
            (current, effects) = FlowMachine.start(conditions: now)
            input = .start
        }
        finish(input, from: nil, ignored: false, effects: effects, conditions: now, restored: restored)
    }

    /// Sends an event from the app. Before ``start()``, or once the flow has ended in a terminal
    /// state, the event is reported in ``problems`` and ignored.
    public func send(_ event: Spec.Event) {
        guard started else {
            report("event '\(Spec.name(ofEvent: event))' was sent before start(); it was ignored")
            return
        }
        if current.states.allSatisfy({ Spec.isTerminal($0) }) {
            report(
                "event '\(Spec.name(ofEvent: event))' was sent after the flow ended in terminal state "
                    + "'\(Spec.name(ofState: current.state))'; it was ignored")
        }
        take(.event(event)) { $0.handle(event, conditions: $1) }
    }

    /// Tells the flow that the app's conditions changed (a session expired, the network came
    /// back): they are read again, and the `always` branches of the states the flow is in are
    /// tried, as after every input. Recorded as `@conditions`, ignored when none holds.
    public func conditionsChanged() {
        guard started else {
            report("conditionsChanged() was called before start(); it was ignored")
            return
        }
        take(.conditionsChanged) { $0.conditionsChanged(conditions: $1) }
    }

    /// Cancels the timers and work, for a flow the app is done with (a screen dismissed):
    /// nothing runs until the next input, which arms its timers as usual. A compound state the
    /// flow is still in keeps its timer's deadline: armed again, it fires when it would have
    /// (at once, if that time has passed).
    public func stop() {
        for timer in armed.values { timer.task.cancel() }
        armed = [:]
        for task in running.values { task.cancel() }
        running = [:]
        for task in runningActivities.values { task.cancel() }
        runningActivities = [:]
    }

    // MARK: Steps

    private func take(
        _ input: FlowStepRecord<Spec>.Input,
        _ change: (inout FlowMachine<Spec>, Spec.Conditions) -> (effects: FlowEffects<Spec>, handled: Bool)
    ) {
        let now = conditions()
        let before = current.state
        let (effects, handled) = change(&current, now)
        finish(input, from: before, ignored: !handled, effects: effects, conditions: now)
    }

    /// Records the step, and when the machine entered a state: stops the old visit's timer
    /// and work, carries out the effects in order, saves, arms the new visit's timer and
    /// starts its work.
    private func finish(
        _ input: FlowStepRecord<Spec>.Input, from: Spec.State?, ignored: Bool, effects: FlowEffects<Spec>,
        conditions: Spec.Conditions, restored: FlowStepRecord<Spec>.Restored = .init()
    ) {
        let timeouts = current.armedTimeouts
        let step = FlowStepRecord<Spec>(
            input: input, from: from, to: current.state, states: current.states, ignored: ignored,
            effects: Array(effects), armedTimeouts: timeouts, conditions: conditions,
            restoredMemory: restored.memory, restoredRegions: restored.regions)
        last = step
        if keepingSteps { kept.append(step) }
        if !ignored {
            // The timers of the states left stop; those of the compound states still active run on.
            let stillArmed = Set(timeouts.map(\.visit))
            for (visit, timer) in armed where !stillArmed.contains(visit) {
                timer.task.cancel()
                armed[visit] = nil
            }
            timeLeft = timeLeft.filter { stillArmed.contains($0.key) }
            // The work of the visits over stops; that of task states still active runs on.
            let stillActive = Set(current.stateVisits)
            for (visit, task) in running where !stillActive.contains(visit) {
                task.cancel()
                running[visit] = nil
            }
            let activitiesNow = current.runningActivities
            for (run, task) in runningActivities where !activitiesNow.contains(run) {
                task.cancel()
                runningActivities[run] = nil
            }
            for effect in effects { perform(effect) }
            // Leaving a compound state with a history inside may change only what it remembers.
            save?(current)
            arm(timeouts)
            startWork()
            startActivities(activitiesNow)
        }
        revision.changed()
        for observer in observers { observer(step) }
    }

    /// Arms the timeouts not armed yet: each deadline is fixed now, when its state is entered,
    /// not when the timer's task first runs.
    private func arm(_ timeouts: [FlowArmedTimeout<Spec.State>]) {
        for timeout in timeouts where armed[timeout.visit] == nil {
            let (sleep, isDue, left) = Self.timer(
                on: clock, for: timeLeft[timeout.visit].map { max(.zero, $0()) } ?? timeout.after)
            timeLeft[timeout.visit] = left
            timersStarted += 1
            let number = timersStarted
            timers[number] = isDue
            let visit = timeout.visit
            let task = Task { [weak self] in
                // However the task ends, on the main actor: ``dueTimers`` counts it until then.
                defer { self?.timers[number] = nil }
                do {
                    try await sleep()
                } catch {
                    return  // cancelled: the visit is over
                }
                // Back on the main actor: cancelled exactly when its visit ended or `stop()` ran.
                guard !Task.isCancelled else { return }
                self?.timeoutFired(visit: visit)
            }
            armed[visit] = (task, isDue)
        }
    }

    /// A timer of `duration` from now on `clock`: sleeping until its deadline (not at all if
    /// the deadline has passed by the time the timer's task runs, as on a test clock that moved
    /// meanwhile), whether the deadline has come, and the time left until it. Generic, to read
    /// the clock's own instants.
    private static func timer<C: Clock>(on clock: C, for duration: Duration) -> (
        sleep: @Sendable () async throws -> Void, isDue: @Sendable () -> Bool, timeLeft: @Sendable () -> Duration
    ) where C.Duration == Duration {
        let deadline = clock.now.advanced(by: duration)
        let sleep: @Sendable () async throws -> Void = {
            guard clock.now < deadline else { return try Task.checkCancellation() }
            try await clock.sleep(until: deadline, tolerance: nil)
        }
        return (sleep, { clock.now >= deadline }, { clock.now.duration(to: deadline) })
    }

    /// A timer's deadline came. Of the timers due now, the first in the machine's list of armed
    /// timeouts fires (the kernel lists them in the order they fire); the others then fire if
    /// their state is still active.
    private func timeoutFired(visit: Int) {
        guard armed[visit] != nil else { return }
        let timeouts = current.armedTimeouts
        guard
            let timeout = timeouts.first(where: { armed[$0.visit]?.isDue() == true })
                ?? timeouts.first(where: { $0.visit == visit })
        else {
            armed[visit] = nil
            return
        }
        let first = timeout.visit
        armed[first] = nil
        let input: FlowStepRecord<Spec>.Input
        let owner = timeout.owner ?? current.state
        if let depth = timeout.depth {
            guard let compound = Spec.compound(around: owner, atDepth: depth) else { return }
            input = .compoundTimeout(compound)
        } else {
            input = owner == current.state ? .timeout : .stateTimeout(owner)
        }
        take(input) { $0.firingTimeout(visit: first, conditions: $1) }
        // The timer that woke up, if another fired first and its state is still active.
        if first != visit, armed[visit] != nil, armed[visit]?.isDue() == true { timeoutFired(visit: visit) }
    }

    /// Starts the work of each task state the flow is in whose visit runs none yet, if it has
    /// work (and says once when it has none).
    private func startWork() {
        for (state, visit) in zip(current.states, current.stateVisits)
        where Spec.kind(of: state) == .task && running[visit] == nil {
            guard let work = work[state] else {
                report(
                    "task state '\(Spec.name(ofState: state))' has no work registered, so only its timeout can leave it; "
                        + "register it with work(in: …) before start()")
                continue
            }
            running[visit] = Task { [weak self] in
                let event: Spec.Event
                do {
                    event = try await work.operation()
                } catch {
                    // Only work registered with `onError` can throw.
                    guard let onError = work.onError else { return }
                    event = onError(error)
                }
                // Back on the main actor: cancelled exactly when its visit ended or `stop()` ran.
                self?.workFinished(event, visit: visit, cancelled: Task.isCancelled)
            }
        }
    }

    /// Starts each of the runs that should run now (``FlowMachine/runningActivities``) that does
    /// not yet (and says once when an activity has no work registered).
    private func startActivities(_ runs: [FlowActivityRun<Spec>]) {
        for run in runs where runningActivities[run] == nil {
            guard let activity = registration(of: run) else {
                report(
                    "activity '\(Spec.name(ofActivity: run.activity))' has no work registered, so the events it sends "
                        + "never arrive; register it with activity(_:_:) before start()")
                continue
            }
            let send: @Sendable (Spec.Event) async -> Void = { @MainActor [weak self] event in
                self?.activitySent(event, by: run)
            }
            runningActivities[run] = Task { await activity(send) }
        }
    }

    /// What a run runs: the registration for the innermost compound state around the state
    /// that lists it, else the activity's own.
    private func registration(of run: FlowActivityRun<Spec>) -> Activity? {
        if let scoped = scopedActivities[run.activity] {
            for depth in stride(from: (run.depth ?? Spec.depth(of: run.state)) - 1, through: 0, by: -1) {
                if let compound = Spec.compound(around: run.state, atDepth: depth), let activity = scoped[compound] {
                    return activity
                }
            }
        }
        return activities[run.activity]
    }

    private func activitySent(_ event: Spec.Event, by run: FlowActivityRun<Spec>) {
        guard let task = runningActivities[run], !task.isCancelled else {
            dropped += 1
            revision.changed()
            return
        }
        guard Spec.sends(run.activity).contains(event) else {
            report(
                "activity '\(Spec.name(ofActivity: run.activity))' sent '\(Spec.name(ofEvent: event))', which its `sends` "
                    + "does not list; it was ignored")
            return
        }
        take(.event(event)) { $0.handle(event, conditions: $1) }
    }

    private func workFinished(_ event: Spec.Event, visit: Int, cancelled: Bool) {
        guard !cancelled else {
            dropped += 1
            revision.changed()
            return
        }
        // The finished task stays listed until its visit ends: a transition without a target
        // keeps the visit, and must not start the work again.
        take(.event(event)) { $0.handle(event, conditions: $1) }
    }

    private func report(_ problem: String) {
        guard !reported.contains(problem) else { return }
        reported.append(problem)
        revision.changed()
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension FlowDriver where Spec: PersistentFlowSpec, Spec.State.RawValue: FlowStorableRawValue {
    /// A driver of a persisted flow: ``start()`` restores the state stored under `key` in
    /// `storage` (nothing stored, or a value it cannot read, restores as the spec says: clamp,
    /// `initial`, then `resume`), and every change of state is saved there at once, so that
    /// backgrounding can never lose a step. Beside it are stored what each compound state with
    /// a history state inside remembers (``memoryKey(_:_:)``) and, with parallel states, the
    /// state each region is in (``regionKey(_:_:)``).
    public convenience init(
        _ spec: Spec.Type = Spec.self, storage: any FlowStorage, key: String,
        clock: any Clock<Duration> = ContinuousClock(), keepingSteps: Bool = false,
        conditions: @escaping @MainActor () -> Spec.Conditions = { Spec.Conditions() },
        effects: @escaping @MainActor (Spec.Effect) -> Void = { _ in }
    ) {
        self.init(spec, clock: clock, keepingSteps: keepingSteps, conditions: conditions, effects: effects)
        let memoryNames = Spec.memorySlotNames
        let regionNames = Spec.storedRegions.map { Spec.name(ofCompound: $0) }
        // What the storage holds, so that a value it already holds is not written again: the
        // state's, then each memory slot's, then each region's.
        var saved: [FlowStoredValue?] = []
        let keys =
            [key] + memoryNames.map { Self.memoryKey(key, $0) } + regionNames.map { Self.regionKey(key, $0) }
        let firstRegion = 1 + memoryNames.count
        restore = { [unowned self] conditions in
            saved = keys.map { storage.value(forKey: $0) }
            let raws = keys.indices.map { index in
                let raw = saved[index].flatMap(Spec.State.RawValue.init(storedValue:))
                if let stored = saved[index], raw == nil {
                    self.report(
                        "the value stored under '\(keys[index])' (\(FlowTrace.text(stored))) is not a \(Spec.name)'s raw value; "
                            + (index == 0
                                ? "the flow restored as if nothing were stored"
                                : index < firstRegion
                                    ? "its history states take their default"
                                    : "the region is entered through its `initial`"))
                }
                return raw
            }
            let (machine, effects, regionsTaken) = FlowMachine<Spec>.restoring(
                from: raws[0], remembering: Array(raws[1..<firstRegion]), regions: Array(raws[firstRegion...]),
                conditions: conditions)
            for slot in machine.rememberedStates.indices
            where raws[slot + 1] != nil && machine.rememberedStates[slot] == nil {
                self.report(
                    "the value stored under '\(keys[slot + 1])' (\(FlowTrace.text(saved[slot + 1]!))) is not a state "
                        + "inside '\(memoryNames[slot])'; its history states take their default")
            }
            var restored = FlowStepRecord<Spec>.Restored(value: raws[0] == nil ? nil : saved[0])
            restored.memory = memoryNames.indices.compactMap { slot in
                machine.rememberedStates[slot].map {
                    FlowStepRecord<Spec>.Remembered(compound: memoryNames[slot], value: $0.rawValue.storedValue)
                }
            }
            for (slot, region) in Spec.storedRegions.enumerated() {
                guard let raw = raws[firstRegion + slot], let stored = saved[firstRegion + slot] else { continue }
                if regionsTaken[slot] {
                    restored.regions.append(.init(compound: regionNames[slot], value: stored))
                } else if !Spec.contains(region, FlowMachine<Spec>.restoredState(from: raw)) {
                    self.report(
                        "the value stored under '\(keys[firstRegion + slot])' (\(FlowTrace.text(stored))) is not a "
                            + "state inside '\(regionNames[slot])'; the region is entered through its `initial`")
                }
            }
            return (machine, effects, restored)
        }
        save = { machine in
            let regions = Spec.storedRegions.map { region in
                machine.states.first { Spec.contains(region, $0) }?.rawValue.storedValue
            }
            let values =
                [machine.state.rawValue.storedValue] + machine.rememberedStates.map { $0?.rawValue.storedValue }
                + regions
            for (index, value) in values.enumerated() where value != saved[index] {
                guard let value else { continue }
                storage.set(value, forKey: keys[index])
                saved[index] = value
            }
        }
    }

    /// The key a region's state is stored under, beside the flow's: the first state the flow
    /// is in inside the region (a region's own parallel states store theirs too).
    public static func regionKey(_ key: String, _ region: String) -> String {
        key + ".region." + region
    }

    /// The key a compound state's memory is stored under, beside the state's.
    public static func memoryKey(_ key: String, _ compound: String) -> String {
        key + ".history." + compound
    }
}

/// What a ``FlowDriver``'s observers follow: one counter, bumped on every change.
@MainActor
private final class FlowRevision: Observable {
    private let registrar = ObservationRegistrar()
    private var count = 0

    /// Records that the current observation read the driver.
    func access() {
        registrar.access(self, keyPath: \.count)
    }

    /// Tells observers that the driver changed.
    func changed() {
        registrar.withMutation(of: self, keyPath: \.count) { count &+= 1 }
    }
}
