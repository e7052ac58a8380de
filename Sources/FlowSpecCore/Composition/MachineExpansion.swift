/// Writes one composed machine: the parent's states in order, and right after each state that
/// runs a machine, a copy of that machine's states inside it (see ``SpecComposer``).
///
/// What the copy is:
/// - Each state of the machine run, named `STATE.NAME` (targets renamed alike), inside the
///   running state, which becomes a compound state entering the machine's `initial`.
/// - The machine's own `on` becomes the running state's, ahead of what the running state
///   writes for the same event: the innermost handler wins, as in any compound state.
/// - Each top-level terminal state (an outcome) that `done` maps becomes a choice state
///   leading to the mapped target; one it does not map stays terminal and ends the whole flow
///   (`unhandled-outcome` reports it when a run reaches it).
/// - Events, conditions and effects keep their names: the parent's and the child's are one
///   declaration each.
struct MachineExpansion {
    private let parent: MachineSpec
    private let children: [Int: MachineSpec]
    /// The names the parent uses, and each machine run's by the index of its running state:
    /// read once, for the declarations and the clashes in kind.
    private let parentUses: NameUses
    private let childUses: [Int: NameUses]
    /// The running states whose machine cannot be run (reported).
    private let failed: Set<Int>
    private let limits: YAMLLimits
    private let diagnostics: DiagnosticCollector
    private var result: MachineSpec
    private var parents: [Int32] = []
    private var depths: [Int] = []
    /// Per name (by index in the result's table), the state that has it, or -1.
    private var stateOfName: [Int32] = []
    /// The `run:` whose machine is being copied, where a name it takes is reported.
    private var currentRun: Located<String>?
    /// Whether a `run` was refused for the states limit (reported once).
    private var isOverStatesLimit = false

    /// The machines run, by the index of the running state.
    private var orderedChildren: [MachineSpec] { children.keys.sorted().compactMap { children[$0] } }

    init(
        parent: MachineSpec, children: [Int: MachineSpec], failed: Set<Int>, limits: YAMLLimits,
        diagnostics: DiagnosticCollector
    ) {
        self.parent = parent
        self.children = children
        parentUses = NameUses(parent)
        childUses = children.mapValues(NameUses.init)
        self.failed = failed
        self.limits = limits
        self.diagnostics = diagnostics
        result = MachineSpec(name: parent.name)
    }

    /// The composed machine.
    mutating func build() -> MachineSpec {
        copyMachineFields()
        var newIndex: [Int] = []
        newIndex.reserveCapacity(parent.states.count)
        for index in parent.states.indices {
            let parentIndex = parent.nesting.parent(of: index).map { newIndex[$0] }
            newIndex.append(result.states.count)
            if let child = children[index], let details = parent.nesting.details[index], let run = details.run,
                fits(child, under: parentIndex, run: run, state: index)
            {
                appendRun(of: child, at: index, details: details, run: run, under: parentIndex)
            } else {
                var state = copy(parent.states[index], of: parent, prefix: "")
                if failed.contains(index) || children[index] != nil {
                    // What it waits for and where it goes once its machine ends are unknown:
                    // findings about it wait for the fix.
                    state.isMalformed = true
                    state.hasLostTransitions = true
                }
                let position = append(state, under: parentIndex)
                if let details = parent.nesting.details[index] {
                    result.nesting.details[position] = copy(details, of: parent, prefix: "")
                }
            }
        }
        result.nesting.setParents(parents)
        return result
    }

    /// Whether the composed machine stays within the limits with this child inside (reported
    /// when it does not: the states limit once, at the first `run` that crosses it).
    private mutating func fits(_ child: MachineSpec, under parentIndex: Int?, run: Located<String>, state: Int) -> Bool
    {
        let reporter = diagnostics.reporter(for: .limitExceeded, machine: parent.name.value)
        // The states so far, this child's, and the parent's still to come.
        let states = result.states.count + child.states.count + (parent.states.count - state)
        if states > limits.maxStates {
            if !isOverStatesLimit {
                reporter.report(
                    "machine '\(parent.name.value)' has over \(limits.maxStates) states with the machines it runs, the limit (raise it with --max-states)",
                    at: run.location, subjects: [parent.name.value])
            }
            isOverStatesLimit = true
            return false
        }
        let childDepth = child.states.indices.map { child.nesting.depth(of: $0) }.max() ?? 0
        let depth = (parentIndex.map { depths[$0] + 1 } ?? 0) + 1 + childDepth
        if depth > StateDecoder.maximumNesting {
            reporter.report(
                "state '\(parent.name(of: state))' runs '\(run.value)', whose states would be \(depth + 1) levels deep, over the limit of \(StateDecoder.maximumNesting)",
                at: run.location, subjects: [run.value])
            return false
        }
        return true
    }

    private mutating func copyMachineFields() {
        result.summary = parent.summary
        result.initial = parent.initial
        result.defaultKind = parent.defaultKind
        result.conditions = Self.union(parent.conditions, orderedChildren.map(\.conditions))
        result.effects = Self.union(parent.effects, orderedChildren.map(\.effects))
        result.activities = Self.union(parent.activities, orderedChildren.map(\.activities))
        result.ownActivityCount = parent.activities?.count ?? 0
        let childEvents = children.keys.sorted().map { children[$0]?.events ?? childUses[$0]?.derivedEvents }
        if let declared = parent.events {
            result.events = Self.union(declared, childEvents) ?? declared
        } else if orderedChildren.contains(where: { $0.events != nil }) {
            // A machine run may declare events none of its states uses: they are the parent's
            // all the same, so that every event of a machine run is its runner's (the generated
            // code converts one machine's events to the other's).
            result.events = Self.union(parentUses.derivedEvents, childEvents)
        }
        result.machineWide = parent.machineWide.map { copy($0, of: parent, prefix: "") }
        result.sequences = parent.sequences
        result.persist = parent.persist
        result.requirements = parent.requirements
        result.lostMachineWideTransitions = parent.lostMachineWideTransitions
    }

    /// Names the parent and a machine it runs both have, as names of different kinds (an
    /// event of one, an effect of the other): one name of the composed machine cannot be both.
    private func reportKindClashes(with child: MachineSpec, at index: Int, run: Located<String>) {
        guard let childUses = childUses[index] else { return }
        func names(_ uses: NameUses, _ machine: MachineSpec, _ category: NameCategory) -> Set<String> {
            Set(uses[category].names.keys).union((category.declared(in: machine) ?? []).map(\.value))
        }
        let reporter = diagnostics.reporter(for: .invalidRun, machine: parent.name.value)
        for mine in NameCategory.allCases {
            let ours = names(parentUses, parent, mine)
            for theirs in NameCategory.allCases where theirs != mine {
                for name in ours.intersection(names(childUses, child, theirs)).sorted() {
                    RunRule.reportKindClash(
                        name, parentKind: mine, childKind: theirs, machine: run, into: reporter)
                }
            }
        }
    }

    /// The running state, as a compound state, and the copy of its machine inside it.
    private mutating func appendRun(
        of child: MachineSpec, at index: Int, details: StateDetails, run: Located<String>, under parentIndex: Int?
    ) {
        let written = parent.states[index]
        let stateName = parent.name(of: index)
        let prefix = stateName + "."
        var running = copy(written, of: parent, prefix: "")
        // The machine's own `on` first: the innermost handler of an event wins.
        let childEvents = Set(child.machineWide.map { child.names[$0.event.value] })
        var transitions = child.machineWide.map { copy($0, of: child, prefix: prefix) }
        for transition in parent.transitions(of: index) {
            guard !childEvents.contains(parent.names[transition.event.value]) else {
                ShadowedCandidateCheck.reportShadowedByRun(
                    event: parent.names.text(transition.event), state: stateName, machine: run.value,
                    into: diagnostics.reporter(for: .shadowedCandidate, machine: parent.name.value))
                continue
            }
            transitions.append(copy(transition, of: parent, prefix: ""))
        }
        running.transitionRun = store(transitions)
        // The machine's own `on` is the running state's now, lost parts included.
        if child.lostMachineWideTransitions { running.hasLostTransitions = true }
        let runningIndex = append(running, under: parentIndex)
        var runningDetails = StateDetails()
        runningDetails.entry = details.entry
        runningDetails.exit = details.exit
        runningDetails.activities = details.activities
        runningDetails.initial = child.initial.map { Located(prefix + $0.value, at: $0.location) }
        runningDetails.statesLocation = run.location
        runningDetails.ran = RunInterface(
            machine: child.name.value,
            events: (child.events ?? childUses[index]?.derivedEvents ?? []).map(\.value),
            effects: (child.effects ?? []).map(\.value),
            activities: (child.activities ?? []).prefix(child.ownActivityCount ?? Int.max).map(\.name.value),
            outcomes: child.states.indices.filter {
                child.nesting.parent(of: $0) == nil && child.states[$0].kind == .terminal
            }.map(child.name(of:)))
        result.nesting.details[runningIndex] = runningDetails

        var outcomes: [ComposedRun.Outcome] = []
        let offset = result.states.count
        currentRun = run
        defer { currentRun = nil }
        for state in child.states.indices {
            var copied = copy(child.states[state], of: child, prefix: prefix)
            let isOutcome = child.nesting.parent(of: state) == nil && child.states[state].kind == .terminal
            var mapping: SourceLocation?
            if isOutcome, let candidates = candidates(of: child.name(of: state), details), let first = candidates.first
            {
                copied.kind = .choice
                copied.always = Located(copy(candidates, of: parent, prefix: ""), at: first.location)
                mapping = first.location
            }
            let position = append(copied, under: child.nesting.parent(of: state).map { $0 + offset } ?? runningIndex)
            if let childDetails = child.nesting.details[state] {
                result.nesting.details[position] = copy(childDetails, of: child, prefix: prefix)
            }
            if isOutcome {
                outcomes.append(.init(name: child.name(of: state), state: position, mapping: mapping))
            }
        }
        // A machine parallel at its top ends once every region has: its parallel state's `done`
        // is where the running state's `done` leads.
        if child.parallelAtTop != nil, let candidates = candidates(of: child.name.value, details), !candidates.isEmpty {
            result.nesting.details[offset, default: StateDetails()].done = Located(
                copy(candidates, of: parent, prefix: ""), at: candidates[0].location)
        }
        let doneLocation = details.done?.location ?? details.outcomes.first?.outcome.location
        result.runs.append(
            ComposedRun(
                state: runningIndex, machine: run, doneLocation: doneLocation, outcomes: outcomes,
                endsWithRegions: child.parallelAtTop != nil))
        if reportUnknownOutcomes(details, of: child, state: stateName, run: run) {
            // An entry meant for an outcome: where that outcome leads is lost until it is fixed.
            result.states[runningIndex].hasLostTransitions = true
        }
        reportKindClashes(with: child, at: index, run: run)
        reportActivityClashes(with: child, run: run)
    }

    /// Activities the parent and a machine it runs both declare, sending different events: one
    /// activity of the composed machine cannot send both.
    private func reportActivityClashes(with child: MachineSpec, run: Located<String>) {
        let theirs = Dictionary((child.activities ?? []).map { ($0.name.value, $0) }) { first, _ in first }
        for mine in parent.activities ?? [] {
            guard let other = theirs[mine.name.value] else { continue }
            let ours = Set(mine.sends.map(\.value))
            guard ours != Set(other.sends.map(\.value)) else { continue }
            RunRule.reportActivityClash(
                mine, theirs: other, machine: run,
                into: diagnostics.reporter(for: .invalidRun, machine: parent.name.value))
        }
    }

    /// Where `done` sends an outcome: its own entry, or the candidates for every outcome.
    private func candidates(of outcome: String, _ details: StateDetails) -> Candidates? {
        details.outcomes.first { $0.outcome.value == outcome }?.candidates ?? details.done?.value
    }

    /// Reports each `done` key that is no outcome; whether there was one.
    private func reportUnknownOutcomes(
        _ details: StateDetails, of child: MachineSpec, state: String, run: Located<String>
    )
        -> Bool
    {
        // A machine parallel at its top has one outcome, named after it: every region ended.
        let outcomes =
            child.parallelAtTop != nil
            ? [child.name.value]
            : child.states.indices.filter {
                child.nesting.parent(of: $0) == nil && child.states[$0].kind == .terminal
            }.map(child.name(of:))
        let reporter = diagnostics.reporter(for: .invalidRun, machine: parent.name.value)
        var found = false
        for entry in details.outcomes where !outcomes.contains(entry.outcome.value) {
            RunRule.reportNotAnOutcome(
                entry.outcome, state: state, machine: run.value, outcomes: outcomes, into: reporter)
            found = true
        }
        return found
    }

    /// Appends a state under a parent (the index in the result), claiming its name.
    private mutating func append(_ state: StateSpec, under parentIndex: Int?) -> Int {
        let position = result.states.count
        var state = state
        let name = Int(state.name.value.index)
        if name >= stateOfName.count { stateOfName += repeatElement(-1, count: name + 1 - stateOfName.count) }
        if stateOfName[name] >= 0 {
            // A copy named like a state already there (`a.b` written by hand): the first keeps it.
            RunRule.reportNameTaken(
                result.names[state.name.value], at: currentRun?.location ?? state.name.location,
                into: diagnostics.reporter(for: .invalidRun, machine: parent.name.value))
            state.isMalformed = true
        } else {
            stateOfName[name] = Int32(position)
        }
        result.states.append(state)
        parents.append(Int32(parentIndex ?? -1))
        depths.append(parentIndex.map { depths[$0] + 1 } ?? 0)
        return position
    }

    private mutating func store(_ transitions: [EventTransition]) -> TransitionStore.Run {
        let run = result.transitionStore.startRun(reserving: transitions.count)
        for transition in transitions { result.transitionStore.append(transition) }
        return result.transitionStore.endRun(startedAt: run)
    }

    // MARK: Copies, names interned in the result's table, state names behind a prefix.

    /// The state whole, but for what names a state or lives in the source's tables (its name,
    /// its branches' and timeout's targets, its transitions), so that a field added to
    /// ``StateSpec`` is carried without being listed here.
    private mutating func copy(_ state: StateSpec, of source: MachineSpec, prefix: String) -> StateSpec {
        var copied = state
        copied.name = target(state.name, of: source, prefix: prefix)
        copied.always = state.always.map { Located(copy($0.value, of: source, prefix: prefix), at: $0.location) }
        copied.timeout = state.timeout.map { copy($0, of: source, prefix: prefix) }
        let transitions = source.transitionStore[state.transitionRun]
        copied.transitionRun = store(transitions.map { copy($0, of: source, prefix: prefix) })
        return copied
    }

    private mutating func copy(_ details: StateDetails, of source: MachineSpec, prefix: String) -> StateDetails {
        var copied = details
        copied.initial = details.initial.map { Located(prefix + $0.value, at: $0.location) }
        copied.done = details.done.map { Located(copy($0.value, of: source, prefix: prefix), at: $0.location) }
        copied.historyDefault = details.historyDefault.map { target($0, of: source, prefix: prefix) }
        copied.run = nil
        copied.outcomes = []
        return copied
    }

    private mutating func copy(_ transition: EventTransition, of source: MachineSpec, prefix: String) -> EventTransition
    {
        EventTransition(
            event: Located(result.names.intern(source.names[transition.event.value]), at: transition.event.location),
            candidates: copy(transition.candidates, of: source, prefix: prefix))
    }

    private mutating func copy(_ candidates: Candidates, of source: MachineSpec, prefix: String) -> Candidates {
        Candidates(
            candidates.map { candidate in
                var copied = candidate
                copied.target = candidate.target.map { target($0, of: source, prefix: prefix) }
                if let state = candidate.inState { copied.inState = target(state, of: source, prefix: prefix) }
                if let state = candidate.notInState { copied.notInState = target(state, of: source, prefix: prefix) }
                if let retry = candidate.retry { copied.retry = copy(retry, of: source, prefix: prefix) }
                return copied
            })
    }

    private mutating func copy(_ timeout: Timeout, of source: MachineSpec, prefix: String) -> Timeout {
        var copied = timeout
        copied.target = target(timeout.target, of: source, prefix: prefix)
        copied.retry = timeout.retry.map { copy($0, of: source, prefix: prefix) }
        return copied
    }

    private mutating func copy(_ retry: Retry, of source: MachineSpec, prefix: String) -> Retry {
        var copied = retry
        copied.then = target(retry.then, of: source, prefix: prefix)
        return copied
    }

    private mutating func target(_ name: Located<Name>, of source: MachineSpec, prefix: String) -> Located<Name> {
        Located(result.names.intern(prefix + source.names[name.value]), at: name.location)
    }

    // MARK: Declarations

    /// The parent's declared names and each child's, each name once, the parent's first;
    /// `nil` when no machine declares any.
    private static func union(_ parent: [Located<String>]?, _ children: [[Located<String>]?])
        -> [Located<String>]?
    {
        guard parent != nil || children.contains(where: { $0 != nil }) else { return nil }
        var seen = Set<String>()
        var names: [Located<String>] = []
        for name in (parent ?? []) + children.flatMap({ $0 ?? [] }) where seen.insert(name.value).inserted {
            names.append(name)
        }
        return names
    }

    /// The parent's activities and each child's, each name once, the parent's first; `nil`
    /// when no machine declares any. (Two that send different events are `invalid-run`.)
    private static func union(_ parent: [Activity]?, _ children: [[Activity]?]) -> [Activity]? {
        guard parent != nil || children.contains(where: { $0 != nil }) else { return nil }
        var seen = Set<String>()
        return ((parent ?? []) + children.flatMap { $0 ?? [] }).filter { seen.insert($0.name.value).inserted }
    }
}
