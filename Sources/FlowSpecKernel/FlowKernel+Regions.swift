// The kernel for a machine with parallel states, in several states at once (one per region).
// The W3C SCXML algorithm on flowspec's lowered steps, with the decisions
// `docs/language.md` gives ("Parallel regions"): each active state selects a step, own first,
// in document order; steps whose exits overlap keep the first, unless a later one is written
// deeper inside it; all steps chosen are one microstep (every exit, in reverse document order,
// then every step's own effects, then every entry, in document order); then the states entered
// take what they take at once (choice branches, then one `done` at a time), until none does.
// A machine without parallel states never comes here: its steps are one run each.

extension FlowKernel {
    /// A step chosen for a microstep: the position in ``active`` of the state it is taken
    /// from, the step, and how deep the state that writes it stands (-1: the machine's `on`).
    @usableFromInline
    internal struct Chosen: Sendable {
        @usableFromInline var position: Int
        @usableFromInline var step: FlowStep<Rules.State>
        @usableFromInline var declaredAt: Int

        @inlinable
        init(position: Int, step: FlowStep<Rules.State>, declaredAt: Int) {
            self.position = position
            self.step = step
            self.declaredAt = declaredAt
        }
    }

    /// A chosen step as it is taken: the run of ``active`` it leaves, its source and target
    /// (the state resumed, for a history state once resolved), how many compound states it
    /// keeps, what it runs itself, and whether it fell back to its retry's `then`.
    @usableFromInline
    internal struct Taken: Sendable {
        @usableFromInline var step: FlowStep<Rules.State>
        @usableFromInline var run: Range<Int>
        @usableFromInline var from: Rules.State
        @usableFromInline var target: Rules.State
        @usableFromInline var keep: Int
        @usableFromInline var resume: FlowResume?
        @usableFromInline var ran: Range<Int>
        @usableFromInline var fellBack: Bool
        @usableFromInline var resumed: Bool

        @inlinable
        init(
            _ step: FlowStep<Rules.State>, run: Range<Int>, from: Rules.State, target: Rules.State, keep: Int,
            resume: FlowResume?, ran: Range<Int>, fellBack: Bool
        ) {
            self.step = step
            self.run = run
            self.from = from
            self.target = target
            self.keep = keep
            self.resume = resume
            self.ran = ran
            self.fellBack = fellBack
            self.resumed = false
        }
    }

    /// The buffers an input in a machine with parallel states works in, kept between inputs
    /// (with room for ``FlowRules/maximumLeaves``) so that `send` allocates nothing. Each is
    /// moved out while in use and back after, empty, with `consume`: a local copy still alive
    /// when the next step takes the buffer out would make it shared, and clearing it allocate.
    /// They are never part of what the flow is.
    @usableFromInline
    internal struct RegionScratch: Sendable {
        @usableFromInline var chosen: [Chosen] = []
        @usableFromInline var taken: [Taken] = []
        @usableFromInline var order: [Int] = []
        @usableFromInline var states: [Rules.State] = []
        @usableFromInline var visits: [Int] = []

        @inlinable
        init() {}

        @inlinable
        init(capacity: Int) {
            chosen.reserveCapacity(capacity)
            taken.reserveCapacity(capacity)
            order.reserveCapacity(capacity)
            states.reserveCapacity(capacity)
            visits.reserveCapacity(capacity)
        }
    }

    /// Whose timeout is armed for `visit`: an active state, and `.state` for its own or
    /// `.compound(depth:)` for that of the compound state around it at that depth; `nil` if
    /// none is (a visit that is over).
    @inlinable
    public func timeoutOwner(forVisit visit: Int, _ rules: Rules) -> (state: Rules.State, scope: FlowTimeoutScope)? {
        guard !active.isEmpty else { return timeoutScope(forVisit: visit).map { (currentState, $0) } }
        if let position = activeVisits.firstIndex(of: visit) { return (active[position], .state) }
        for state in active {
            for depth in 0..<rules.depth(of: state)
            where compoundVisits[rules.compoundIndex(around: state, atDepth: depth)] == visit
                && rules.outerTimeoutStep(state, atDepth: depth) != nil
            {
                return (state, .compound(depth: depth))
            }
        }
        return nil
    }

    // MARK: Starting and restoring

    /// Puts the regions of a flow being restored where they were stored, before
    /// ``enter(_:_:_:)`` runs anything. `stored` pairs a region (a compound state, by its
    /// ``FlowRules/compoundIndex(around:atDepth:)``) with the state stored for it, in document
    /// order, so outer regions come before the regions inside them. A region takes its stored
    /// state when the state is inside it, the region is active in the flow restored so far, and
    /// it holds none of the states taken before (the flow's own state, then earlier regions'):
    /// those already say where it is. The other regions of each parallel state inside it that
    /// the stored state enters start at their `initial`. Returns, per pair, whether its state
    /// was taken.
    @inlinable
    public mutating func restoreRegions(_ stored: [(region: Int, state: Rules.State)], _ rules: Rules) -> [Bool] {
        guard rules.maximumLeaves > 1 else { return stored.map { _ in false } }
        var placed = [currentState]
        var taken: [Bool] = []
        for (region, state) in stored {
            func isInside(_ other: Rules.State, atDepth depth: Int) -> Bool {
                depth < rules.depth(of: other) && rules.compoundIndex(around: other, atDepth: depth) == region
            }
            guard let depth = (0..<rules.depth(of: state)).first(where: { isInside(state, atDepth: $0) }),
                !placed.contains(where: { isInside($0, atDepth: depth) }),
                let first = active.firstIndex(where: { isInside($0, atDepth: depth) })
            else {
                taken.append(false)
                continue
            }
            var last = first
            while last + 1 < active.count, isInside(active[last + 1], atDepth: depth) { last += 1 }
            var entered: [Rules.State] = []
            rules.enteredStates(state, keeping: depth + 1, into: &entered)
            active.replaceSubrange(first...last, with: entered)
            placed.append(state)
            taken.append(true)
        }
        // Nothing has run yet: the visits are given afresh, in document order.
        compoundVisits = Array(repeating: -1, count: rules.compoundCount)
        lastVisit = -1
        var visits: [Int] = []
        self.visits(entering: active, keeping: 0, rules, into: &visits)
        activeVisits = visits
        showFirstState(rules)
        return taken
    }

    /// Runs the `entry` effects of every state the flow starts (or is restored) in, in
    /// document order: each state's and those of the compound states around it that the
    /// state before it is not in, outermost first.
    @inlinable
    internal func enterRegions<Sink: FlowStepSink>(_ rules: Rules, _ sink: inout Sink) where Sink.State == Rules.State {
        var first = true
        for (position, state) in active.enumerated() {
            let shared = position > 0 ? sharedDepth(at: position, from: 0, rules) : 0
            let entries = Self.entryEffects(of: state, keeping: shared, rules)
            guard !entries.isEmpty else { continue }
            if first {
                sink.append(entries.lowerBound, entries.count)
                first = false
            } else {
                sink.appendSecond(entries.lowerBound, entries.count)
            }
        }
    }

    // MARK: Inputs

    /// Sends an event to every active state: each selects its step, and those chosen are taken.
    @inlinable
    internal mutating func sendInRegions<Sink: FlowStepSink>(
        _ event: Rules.Event, _ conditions: Rules.Conditions, _ rules: Rules, _ sink: inout Sink
    ) -> Bool where Sink.State == Rules.State {
        // Conditions that changed since the last input are seen first, as without regions.
        let settled = rules.hasEventless && settleRegions(conditions, rules, &sink)
        var chosen = scratch.chosen
        scratch.chosen = []
        let seen = seenInRegions(conditions, rules)
        for (position, state) in active.enumerated() {
            guard let step = rules.step(state, on: event, seen) else { continue }
            let declaredAt = rules.declaringDepth(of: state, on: event, seen)
            choose(Chosen(position: position, step: step, declaredAt: declaredAt), into: &chosen, rules)
        }
        let handled = !chosen.isEmpty
        if handled { microstep(chosen, conditions, rules, &sink) }
        chosen.removeAll(keepingCapacity: true)
        scratch.chosen = consume chosen
        if handled { settleRegions(conditions, rules, &sink) }
        return handled || settled
    }

    /// Fires the timeout armed for `visit`, if one is.
    @inlinable
    internal mutating func fireTimeoutInRegions<Sink: FlowStepSink>(
        visit: Int, _ conditions: Rules.Conditions, _ rules: Rules, _ sink: inout Sink
    ) -> Bool where Sink.State == Rules.State {
        let settled = rules.hasEventless && settleRegions(conditions, rules, &sink)
        guard let chosen = armedTimeoutStep(visit: visit, rules) else { return settled }
        microstep(one: chosen, conditions, rules, &sink)
        settleRegions(conditions, rules, &sink)
        return true
    }

    /// The step of the timeout armed for `visit`, chosen from the state whose it is; `nil` if
    /// none is.
    @inlinable
    internal func armedTimeoutStep(visit: Int, _ rules: Rules) -> Chosen? {
        guard let (state, scope) = timeoutOwner(forVisit: visit, rules),
            let position = active.firstIndex(of: state)
        else { return nil }
        switch scope {
        case .state:
            return rules.timeoutStep(state).map {
                Chosen(position: position, step: $0, declaredAt: rules.depth(of: state))
            }
        case .compound(let depth):
            return rules.outerTimeoutStep(state, atDepth: depth).map {
                Chosen(position: position, step: $0, declaredAt: depth)
            }
        }
    }

    /// ``microstep(_:_:_:_:)`` of one step, in the scratch buffer.
    @inlinable
    internal mutating func microstep<Sink: FlowStepSink>(
        one step: Chosen, _ conditions: Rules.Conditions, _ rules: Rules, _ sink: inout Sink
    ) where Sink.State == Rules.State {
        var chosen = scratch.chosen
        scratch.chosen = []
        chosen.append(step)
        microstep(chosen, conditions, rules, &sink)
        chosen.removeAll(keepingCapacity: true)
        scratch.chosen = consume chosen
    }

    /// Every timeout armed now, in the order they fire when due together (the order armed):
    /// each active compound state's and each active state's own.
    @inlinable
    internal func armedTimeoutsInRegions(_ rules: Rules) -> [FlowArmedTimeout<Rules.State>] {
        var armed: [FlowArmedTimeout<Rules.State>] = []
        var seen: [Int] = []
        for state in active {
            for depth in 0..<rules.depth(of: state) {
                let compound = rules.compoundIndex(around: state, atDepth: depth)
                guard !seen.contains(compound), let timeout = rules.outerTimeout(of: state, atDepth: depth),
                    rules.outerTimeoutStep(state, atDepth: depth) != nil
                else { continue }
                seen.append(compound)
                let target = target(of: rules.outerTimeoutStep(state, atDepth: depth), from: state, rules)
                armed.append(
                    FlowArmedTimeout(
                        after: timeout.after, target: target ?? timeout.to, visit: compoundVisits[compound],
                        depth: depth, owner: state))
            }
            if let timeout = rules.timeout(of: state) {
                let target = target(of: rules.timeoutStep(state), from: state, rules)
                let visit = activeVisits[active.firstIndex(of: state) ?? 0]
                armed.append(
                    FlowArmedTimeout(after: timeout.after, target: target ?? timeout.to, visit: visit, owner: state))
            }
        }
        armed.sort { $0.firesBefore($1) }
        return armed
    }

    /// ``target(of:_:)`` for a step taken from an active state.
    @inlinable
    internal func target(of step: FlowStep<Rules.State>?, from state: Rules.State, _ rules: Rules) -> Rules.State? {
        guard let step, let resume = step.resume else { return nil }
        var recorded = remembered[resume.slot]
        var depth = rules.depth(of: state)
        while depth > step.keep {
            depth -= 1
            if rules.memorySlot(around: state, atDepth: depth) == resume.slot { recorded = state }
        }
        guard let recorded else { return step.target }
        return Self.resumed(recorded, resume, rules)
    }

    // MARK: Choosing

    /// Adds a step to those chosen, as SCXML's removeConflictingTransitions does: a step whose
    /// exits overlap those of one already chosen replaces it if it is written inside the state
    /// that writes that one (so a region's own transition beats its parallel state's), and is
    /// dropped otherwise (so a transition shared by several regions is taken once, and the
    /// first region wins a conflict).
    @inlinable
    internal func choose(_ new: Chosen, into chosen: inout [Chosen], _ rules: Rules) {
        // A step that stays exits nothing and conflicts with none; it is taken once, however
        // many regions find it in the compound state that writes it.
        if new.step.stays {
            if !chosen.contains(where: { $0.step.stays && isWritten(new, bySameStateAs: $0, rules) }) {
                chosen.append(new)
            }
            return
        }
        let exits = exitRun(of: new, rules)
        for old in chosen where exitRun(of: old, rules).overlaps(exits) {
            guard isWritten(new, inside: old, rules) else { return }
        }
        chosen.removeAll { exitRun(of: $0, rules).overlaps(exits) }
        chosen.append(new)
    }

    /// How many compound states a chosen step keeps: its retry's when that is used up.
    @inlinable
    internal func keep(of chosen: Chosen) -> Int {
        guard let retry = chosen.step.retry, retries[retry.slot] >= retry.max else { return chosen.step.keep }
        return retry.keep
    }

    /// The positions in ``active`` of the states a chosen step leaves: those inside the state
    /// around its source at the depth it keeps (a run, since the states are in document order).
    @inlinable
    internal func exitRun(of chosen: Chosen, _ rules: Rules) -> Range<Int> {
        if chosen.step.stays { return chosen.position..<chosen.position }
        let keep = keep(of: chosen)
        let source = active[chosen.position]
        guard keep < rules.depth(of: source) else { return chosen.position..<(chosen.position + 1) }
        let compound = rules.compoundIndex(around: source, atDepth: keep)
        func inside(_ position: Int) -> Bool {
            keep < rules.depth(of: active[position])
                && rules.compoundIndex(around: active[position], atDepth: keep) == compound
        }
        var lower = chosen.position
        while lower > 0, inside(lower - 1) { lower -= 1 }
        var upper = chosen.position + 1
        while upper < active.count, inside(upper) { upper += 1 }
        return lower..<upper
    }

    /// Whether two steps chosen from different active states are written by the same state (a
    /// compound state around both, or the machine's `on`), and so are one transition.
    @inlinable
    internal func isWritten(_ new: Chosen, bySameStateAs old: Chosen, _ rules: Rules) -> Bool {
        guard new.declaredAt == old.declaredAt else { return false }
        if new.declaredAt < 0 { return true }
        let (oldSource, newSource) = (active[old.position], active[new.position])
        guard new.declaredAt < rules.depth(of: oldSource), new.declaredAt < rules.depth(of: newSource) else {
            return false
        }
        return rules.compoundIndex(around: newSource, atDepth: new.declaredAt)
            == rules.compoundIndex(around: oldSource, atDepth: new.declaredAt)
    }

    /// Whether the state that writes `new` is inside the one that writes `old`.
    @inlinable
    internal func isWritten(_ new: Chosen, inside old: Chosen, _ rules: Rules) -> Bool {
        guard new.declaredAt > old.declaredAt else { return false }
        if old.declaredAt < 0 { return true }
        let oldSource = active[old.position]
        let newSource = active[new.position]
        guard old.declaredAt < rules.depth(of: oldSource) else { return false }
        return rules.compoundIndex(around: newSource, atDepth: old.declaredAt)
            == rules.compoundIndex(around: oldSource, atDepth: old.declaredAt)
    }

    // MARK: Taking

    /// Takes the steps chosen together: every exit (the later states first, each innermost
    /// first, recording history), every step's own effects, then every entry; the states
    /// entered take the places of those left, with a visit each, in document order.
    @inlinable
    internal mutating func microstep<Sink: FlowStepSink>(
        _ chosen: [Chosen], _ conditions: Rules.Conditions, _ rules: Rules, _ sink: inout Sink
    ) where Sink.State == Rules.State {
        var taken = scratch.taken
        var order = scratch.order
        scratch.taken = []
        scratch.order = []
        for choice in chosen {
            var target = choice.step.target
            var keep = choice.step.keep
            var ran = choice.step.effects
            var resume = choice.step.resume
            var fellBack = false
            if let retry = choice.step.retry {
                if retries[retry.slot] < retry.max {
                    retries[retry.slot] += 1
                } else {
                    (target, keep, ran, resume, fellBack) = (
                        retry.fallback, retry.keep, retry.effects, retry.resume, true
                    )
                }
            }
            // The states left are those inside the state around the source at the depth kept
            // (none, for a step that stays).
            let run = exitRun(
                of: Chosen(
                    position: choice.position, step: FlowStep(target, keep: keep, stays: choice.step.stays),
                    declaredAt: 0), rules)
            taken.append(
                Taken(
                    choice.step, run: run, from: active[choice.position], target: target, keep: keep, resume: resume,
                    ran: ran,
                    fellBack: fellBack))
        }
        // By the runs they leave, the last first (an insertion sort: a few steps, no buffer).
        for index in taken.indices {
            var position = order.count
            order.append(index)
            while position > 0, taken[order[position - 1]].run.lowerBound < taken[index].run.lowerBound {
                order.swapAt(position, position - 1)
                position -= 1
            }
        }
        for index in order { leave(taken[index].run, keeping: taken[index].keep, rules, &sink) }
        for step in taken { sink.appendSecond(step.ran.lowerBound, step.ran.count) }
        for index in taken.indices {
            guard let resume = taken[index].resume, let recorded = remembered[resume.slot] else { continue }
            taken[index].target = Self.resumed(recorded, resume, rules)
            taken[index].resumed = true
        }
        for step in taken {
            if !step.step.stays {
                let entries = entryEffects(of: step, rules)
                sink.appendSecond(entries.lowerBound, entries.count)
            }
            sink.took(step.step, from: step.from, to: step.target, fellBack: step.fellBack, resumed: step.resumed)
        }
        let entersWaitingState = enter(taken, inOrder: order, rules)
        taken.removeAll(keepingCapacity: true)
        order.removeAll(keepingCapacity: true)
        scratch.taken = consume taken
        scratch.order = consume order
        if entersWaitingState { resetRetries() }
        showFirstState(rules)
    }

    /// What a step taken enters runs: the usual entries of its target, unless it enters through
    /// an `initial` or a history's default with effects (the step says so), or resumes the state
    /// directly inside a shallow history's compound state, entered through its `initial`.
    @inlinable
    internal func entryEffects(of taken: Taken, _ rules: Rules) -> Range<Int> {
        guard rules.hasInitialEffects else { return rules.entryEffects(of: taken.target, keeping: taken.keep) }
        if taken.resumed, let resume = taken.resume, !resume.deep {
            return rules.entryEffects(of: taken.target, keeping: taken.keep, initialFrom: resume.depth + 1)
        }
        let written = taken.resumed ? nil : taken.fellBack ? taken.step.retry?.entries : taken.step.entries
        return written ?? rules.entryEffects(of: taken.target, keeping: taken.keep)
    }

    /// Puts the states each step enters in place of those it left, in document order, with a
    /// visit each (given in that order); returns whether one of them is an input or terminal
    /// state.
    @inlinable
    internal mutating func enter(_ taken: [Taken], inOrder order: [Int], _ rules: Rules) -> Bool {
        var arriving = scratch.states
        var visits = scratch.visits
        scratch.states = []
        scratch.visits = []
        var entersWaitingState = false
        // The runs replaced so far, earlier in the document, moved the later ones by `shift`.
        var shift = 0
        for index in order.reversed() where !taken[index].step.stays {
            let run = (taken[index].run.lowerBound + shift)..<(taken[index].run.upperBound + shift)
            arriving.removeAll(keepingCapacity: true)
            visits.removeAll(keepingCapacity: true)
            rules.enteredStates(taken[index].target, keeping: taken[index].keep, into: &arriving)
            self.visits(entering: arriving, keeping: taken[index].keep, rules, into: &visits)
            active.replaceSubrange(run, with: arriving)
            activeVisits.replaceSubrange(run, with: visits)
            shift += arriving.count - run.count
            entersWaitingState =
                entersWaitingState
                || arriving.contains { rules.kind(of: $0) == .input || rules.kind(of: $0) == .terminal }
        }
        arriving.removeAll(keepingCapacity: true)
        visits.removeAll(keepingCapacity: true)
        scratch.states = consume arriving
        scratch.visits = consume visits
        return entersWaitingState
    }

    /// Leaves the states at `run` of ``active`` and the compound states around them at `keep`
    /// or deeper: records history, runs their exits (the last state first, each up to where
    /// the one before it is), and marks the compound states inactive.
    @inlinable
    internal mutating func leave<Sink: FlowStepSink>(
        _ run: Range<Int>, keeping keep: Int, _ rules: Rules, _ sink: inout Sink
    ) where Sink.State == Rules.State {
        if rules.memorySlotCount > 0 {
            for position in run where rules.depth(of: active[position]) > keep {
                rules.record(active[position], leaving: keep, in: &remembered)
            }
        }
        for position in run.reversed() {
            let state = active[position]
            // Up to the compound state this one shares with the state before it, not including
            // it: that one is left after the earlier state's exits.
            let through = position > run.lowerBound ? sharedDepth(at: position, from: keep, rules) : keep
            let exits = rules.exitEffects(of: state, through: through)
            sink.appendSecond(exits.lowerBound, exits.count)
            for depth in keep..<Swift.max(keep, rules.depth(of: state)) {
                compoundVisits[rules.compoundIndex(around: state, atDepth: depth)] = -1
            }
        }
    }

    /// How many compound states around the active state at `position` (`position > 0`) it
    /// shares with the state before it, counting from depth `start` (which they share).
    @inlinable
    internal func sharedDepth(at position: Int, from start: Int, _ rules: Rules) -> Int {
        let (state, before) = (active[position], active[position - 1])
        let limit = Swift.min(rules.depth(of: state), rules.depth(of: before))
        var shared = start
        while shared < limit,
            rules.compoundIndex(around: state, atDepth: shared) == rules.compoundIndex(around: before, atDepth: shared)
        {
            shared += 1
        }
        return shared
    }

    /// The visits of states entered with `keep` compound states kept, in document order: each
    /// compound state entered around them first (it is marked active), then the state.
    @inlinable
    internal mutating func visits(
        entering states: [Rules.State], keeping keep: Int, _ rules: Rules, into visits: inout [Int]
    ) {
        for state in states {
            for depth in keep..<Swift.max(keep, rules.depth(of: state)) {
                let compound = rules.compoundIndex(around: state, atDepth: depth)
                guard compoundVisits[compound] < 0 else { continue }
                lastVisit += 1
                compoundVisits[compound] = lastVisit
            }
            lastVisit += 1
            visits.append(lastVisit)
        }
    }

    /// Entering an input or terminal state resets every retry counter.
    @inlinable
    internal mutating func resetRetries() {
        for slot in retries.indices where retries[slot] != 0 { retries[slot] = 0 }
    }

    /// Keeps ``state``, ``visit`` and the visits around it those of the first active state.
    @inlinable
    internal mutating func showFirstState(_ rules: Rules) {
        currentState = active[0]
        currentVisit = activeVisits[0]
        outerDepth = rules.depth(of: currentState)
        for depth in 0..<outerDepth {
            outerVisits[depth] = compoundVisits[rules.compoundIndex(around: currentState, atDepth: depth)]
        }
    }

    // MARK: Settling

    /// The conditions as the guards read them where the flow is now: in every active state.
    @inlinable @inline(__always)
    internal func seenInRegions(_ conditions: Rules.Conditions, _ rules: Rules) -> Rules.Conditions {
        rules.readsStates ? rules.conditions(conditions, whileIn: active) : conditions
    }

    /// What the states the flow is in take at once, until none does: every choice state's
    /// branch and every `always` branch that holds of a state that waits, together; when there
    /// is none, one `done` (a terminal state's compound state's, then a parallel state's whose
    /// every region has ended), in document order. Returns whether anything was taken.
    @inlinable @discardableResult
    internal mutating func settleRegions<Sink: FlowStepSink>(
        _ conditions: Rules.Conditions, _ rules: Rules, _ sink: inout Sink
    ) -> Bool where Sink.State == Rules.State {
        var chosen = scratch.chosen
        scratch.chosen = []
        var took = false
        while true {
            chosen.removeAll(keepingCapacity: true)
            // Every state chooses on the configuration the last microstep left.
            let seen = seenInRegions(conditions, rules)
            for (position, state) in active.enumerated() {
                if rules.kind(of: state) == .choice, let step = rules.always(state, seen) {
                    choose(
                        Chosen(position: position, step: step, declaredAt: rules.depth(of: state)), into: &chosen,
                        rules)
                } else if rules.hasEventless, let branch = rules.eventless(state, seen) {
                    choose(
                        Chosen(position: position, step: branch.step, declaredAt: branch.declaredAt), into: &chosen,
                        rules)
                }
            }
            if chosen.isEmpty, let done = nextDone(seen, rules) { chosen.append(done) }
            guard !chosen.isEmpty else { break }
            microstep(chosen, conditions, rules, &sink)
            took = true
        }
        scratch.chosen = consume chosen
        return took
    }

    /// The first `done` due, in the order they became due (SCXML queues them as events): that
    /// of the compound state around a terminal state, due when the terminal state was entered;
    /// that of a parallel state whose every region has ended (its active states are all
    /// terminal states directly inside its regions), due after the last of them was entered.
    @inlinable
    internal func nextDone(_ conditions: Rules.Conditions, _ rules: Rules) -> Chosen? {
        var first: (due: Int, chosen: Chosen)?
        for (position, state) in active.enumerated() where rules.kind(of: state) == .terminal {
            if let step = rules.always(state, conditions), first.map({ 2 * activeVisits[position] < $0.due }) ?? true {
                first = (
                    2 * activeVisits[position],
                    Chosen(position: position, step: step, declaredAt: rules.depth(of: state) - 1)
                )
            }
            guard hasEndedRegion(state, rules), let depth = rules.parallelDepth(around: state) else { continue }
            let parallel = rules.compoundIndex(around: state, atDepth: depth)
            var lastEntered = 0
            var allEnded = true
            for (other, otherState) in active.enumerated()
            where rules.depth(of: otherState) > depth
                && rules.compoundIndex(around: otherState, atDepth: depth) == parallel
            {
                allEnded =
                    allEnded && hasEndedRegion(otherState, rules) && rules.parallelDepth(around: otherState) == depth
                lastEntered = Swift.max(lastEntered, activeVisits[other])
            }
            if allEnded, let step = rules.parallelDone(around: state, atDepth: depth, conditions),
                first.map({ 2 * lastEntered + 1 < $0.due }) ?? true
            {
                first = (2 * lastEntered + 1, Chosen(position: position, step: step, declaredAt: depth))
            }
        }
        return first?.chosen
    }

    /// Whether the state is a terminal state directly inside a region, which it ends.
    @inlinable
    internal func hasEndedRegion(_ state: Rules.State, _ rules: Rules) -> Bool {
        guard rules.kind(of: state) == .terminal, let depth = rules.parallelDepth(around: state) else { return false }
        return rules.depth(of: state) == depth + 2
    }
}
