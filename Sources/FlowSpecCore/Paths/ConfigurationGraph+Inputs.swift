extension ConfigurationGraph {
    /// What the inputs from a configuration are, and what they do: apart from the graph, so
    /// that trying an input never copies what the graph holds.
    struct Inputs {
        let program: FlowProgram
        /// The most variants of one input, steered through different `always` branches.
        let maxVariants = 16
        /// Conditions whose value tells outcomes apart even when they take the same transitions
        /// (those a property reads), so that each value has an edge of its own.
        var watched: [Int] = []

        /// The timers armed in a runtime, all just armed, with the visit each was armed for.
        func fresh(_ runtime: ProgramRun) -> (visits: [Int], left: [TimerLeft]) {
            let armed = runtime.armedTimers(program)
            return (armed.map(\.visit), armed.map { TimerLeft(owner: $0.state, compound: $0.compound, left: $0.after) })
        }

        /// With parallel regions, the states the machine is in and the compound states around them:
        /// the other regions' are entered through their `initial`, which no move names. After an
        /// input from `before`, only those of the states it was not in: every run to `before`
        /// already entered the others.
        func regionItems(_ runtime: ProgramRun, after before: ProgramRun? = nil) -> [CoverageItem] {
            guard program.hasParallel else { return [] }
            // Both lists are in document order: one pass finds the states new to `runtime`.
            let kept = before?.states ?? []
            var next = 0
            var items: [CoverageItem] = []
            for state in runtime.states {
                while next < kept.count, kept[next] < state { next += 1 }
                if next < kept.count, kept[next] == state { continue }
                items += CoverageItem.entering(state, in: program)
            }
            return items
        }

        func items(of moves: [ProgramRun.Move]) -> [CoverageItem] {
            var items: [CoverageItem] = []
            for move in moves {
                items += CoverageItem.items(of: move, in: program)
                if let entered = move.entered { items += CoverageItem.entering(entered, in: program) }
            }
            return items
        }

        typealias Outcome = (runtime: ProgramRun, effects: [Int], moves: [ProgramRun.Move])

        /// Every input worth trying in a configuration: a relaunch, each candidate of each
        /// transition (of each state, with parallel regions), the timer due first, each in its
        /// steering variants, with the time each waits and whose timer fired.
        func moves(
            from runtime: ProgramRun, timer: (waited: Duration, visit: Int, owner: TimerLeft)?
        ) -> [(Input, [Bool], Outcome, Duration, (state: Int, compound: Int?)?)] {
            var found: [(Input, [Bool], Outcome, Duration, (state: Int, compound: Int?)?)] = []
            let none = [Bool?](repeating: nil, count: program.conditions.count)
            // A timer due now (due when the one before it fired, in another region) fires before
            // anything else can happen.
            let dueNow = timer?.waited == .zero
            // A relaunch first: taken where the path is, it covers the state's relaunch without a
            // path of its own (a persisted chain stays one path).
            if program.persist != nil, !dueNow {
                let stored = runtime.storedText(program)
                for variant in variants(
                    none,
                    { conditions in
                        var moves: [ProgramRun.Move]? = []
                        let (restored, effects) = ProgramRun.restore(
                            program, rawValue: stored, conditions: conditions, moves: &moves)
                        return (restored, effects, moves ?? [])
                    })
                {
                    found.append((.relaunch, variant.conditions, variant.outcome, .zero, nil))
                }
            }
            let resting = dueNow ? [] : runtime.states.filter { program.states[$0].kind != .terminal }
            var tried = Set<Int>()
            for state in resting {
                for transition in program.states[state].transitions
                where program.canArrive(transition.event, in: runtime.states) && tried.insert(transition.event).inserted
                {
                    let send = sending(transition.event, from: runtime)
                    if tryEveryAssignment {
                        for variant in variants(none, send) {
                            found.append((.event(transition.event), variant.conditions, variant.outcome, .zero, nil))
                        }
                        continue
                    }
                    // Each candidate of each state that handles the event, taken in turn.
                    var outcomes: [[ProgramRun.Move]] = []
                    for handler in resting {
                        guard let candidates = program.candidates(in: handler, for: transition.event) else { continue }
                        for position in candidates.indices {
                            var partial = none
                            guard CandidateChoice.steer(to: position, among: candidates, &partial) else { continue }
                            for variant in variants(partial, send)
                            where variant.moves.contains(where: {
                                $0.from == handler && $0.via == .event(transition.event) && $0.candidate == position
                            }) && !outcomes.contains(variant.moves) {
                                outcomes.append(variant.moves)
                                found.append(
                                    (.event(transition.event), variant.conditions, variant.outcome, .zero, nil))
                            }
                        }
                    }
                }
            }
            if program.hasEventless, !dueNow {
                // An event no state handles is still an input: conditions that changed are seen
                // before it, and may take `always` branches.
                for event in program.events.indices
                where !tried.contains(event) && program.canArrive(event, in: runtime.states) {
                    for variant in variants(none, sending(event, from: runtime)) {
                        found.append((.event(event), variant.conditions, variant.outcome, .zero, nil))
                    }
                }
                found += conditionChanges(from: runtime)
            }
            if let timer {
                for variant in variants(
                    none,
                    { conditions in
                        var copy = runtime
                        var moves: [ProgramRun.Move]? = []
                        guard
                            let effects = copy.fireTimeout(
                                visit: timer.visit, program, conditions: conditions, moves: &moves)
                        else { return nil }
                        return (copy, effects, moves ?? [])
                    })
                {
                    found.append(
                        (
                            .timeout, variant.conditions, variant.outcome, timer.waited,
                            (state: timer.owner.owner, compound: timer.owner.compound)
                        ))
                }
            }
            return found
        }

        /// What sending `event` from `runtime` does under some conditions; `nil` when it changes
        /// nothing.
        private func sending(_ event: Int, from runtime: ProgramRun) -> ([Bool]) -> Outcome? {
            { conditions in
                var copy = runtime
                var moves: [ProgramRun.Move]? = []
                guard let effects = copy.send(event, program, conditions: conditions, moves: &moves) else { return nil }
                return (copy, effects, moves ?? [])
            }
        }

        /// The app saying its conditions changed, steered to take each `always` branch of each
        /// state the flow is in that waits (or under every assignment, with few conditions).
        private func conditionChanges(from runtime: ProgramRun) -> [(
            Input, [Bool], Outcome, Duration, (state: Int, compound: Int?)?
        )] {
            let change = { (conditions: [Bool]) -> Outcome? in
                var copy = runtime
                var moves: [ProgramRun.Move]? = []
                guard let effects = copy.conditionsChanged(program, conditions: conditions, moves: &moves) else {
                    return nil
                }
                return (copy, effects, moves ?? [])
            }
            let none = [Bool?](repeating: nil, count: program.conditions.count)
            if tryEveryAssignment {
                return variants(none, change).map { (.conditionsChanged, $0.conditions, $0.outcome, .zero, nil) }
            }
            var found: [(Input, [Bool], Outcome, Duration, (state: Int, compound: Int?)?)] = []
            var outcomes: [[ProgramRun.Move]] = []
            for state in runtime.states {
                let branches = program.states[state].eventless
                for position in branches.indices {
                    var partial = none
                    guard CandidateChoice.steer(to: position, among: branches, &partial) else { continue }
                    for variant in variants(partial, change) where !outcomes.contains(variant.moves) {
                        outcomes.append(variant.moves)
                        found.append((.conditionsChanged, variant.conditions, variant.outcome, .zero, nil))
                    }
                }
            }
            return found
        }

        struct Variant {
            var conditions: [Bool]
            var outcome: Outcome
            var moves: [ProgramRun.Move] { outcome.moves }
            var runtime: ProgramRun { outcome.runtime }
            var effects: [Int] { outcome.effects }
        }

        /// Whether inputs are tried under every assignment of the conditions (few conditions):
        /// then every outcome is found. With more, the conditions are chosen to take each
        /// candidate and steer each choice state passed, one at a time.
        private var tryEveryAssignment: Bool {
            program.conditions.count <= ConfigurationGraph.maxConditionsTriedExhaustively
        }

        /// The outcomes of an input under `partial` (unset conditions false) and under the
        /// assignments that take each other branch of the choice states it passes, in turn; or,
        /// with few conditions, under every assignment. Outcomes are distinct (by the transitions
        /// they take), each under the first assignment found for it (all false first).
        func variants(_ partial: [Bool?], _ simulate: ([Bool]) -> Outcome?) -> [Variant] {
            var found: [Variant] = []
            if tryEveryAssignment {
                for bits in 0..<(1 << program.conditions.count) {
                    let conditions = program.conditions.indices.map { bits & (1 << $0) != 0 }
                    guard let outcome = simulate(conditions),
                        !found.contains(where: { isSame($0, outcome, conditions) })
                    else { continue }
                    found.append(Variant(conditions: conditions, outcome: outcome))
                }
                return found
            }
            var work: [(partial: [Bool?], choice: Int)] = [(partial, 0)]
            while let (partial, choice) = work.popLast(), found.count < maxVariants {
                let conditions = partial.map { $0 ?? false }
                guard let outcome = simulate(conditions) else { continue }
                if !found.contains(where: { isSame($0, outcome, conditions) }) {
                    found.append(Variant(conditions: conditions, outcome: outcome))
                }
                let branches = outcome.moves.filter { $0.via == .always || $0.via == .eventless }
                guard choice < branches.count else { continue }
                let taken = branches[choice]
                let always =
                    taken.via == .always ? program.states[taken.from].always : program.states[taken.from].eventless
                work.append((partial, choice + 1))
                for branch in always.indices.reversed() where branch != taken.candidate {
                    var steered = partial
                    if CandidateChoice.steer(to: branch, among: always, &steered) { work.append((steered, choice + 1)) }
                }
            }
            return found
        }

        /// Whether an outcome under `conditions` is one already found: the same transitions,
        /// under the same values of the watched conditions.
        private func isSame(_ found: Variant, _ outcome: Outcome, _ conditions: [Bool]) -> Bool {
            found.moves == outcome.moves && watched.allSatisfy { found.conditions[$0] == conditions[$0] }
        }
    }
}
