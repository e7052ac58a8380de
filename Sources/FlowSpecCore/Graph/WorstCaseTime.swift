/// The worst-case time from a state until a goal state or any `input` state is reached
/// through timeouts and `always` branches alone (what `require: within` bounds).
///
/// Events are not counted on: the worst case is that none arrives, so each task state waits
/// for its whole timeout. A bounded `retry` on an automatic transition lets it be taken `max`
/// times, then its `then` is taken instead; the search keeps one counter per such transition
/// that a path can take twice (counters only start again at `input` or `terminal` states,
/// which end the search). The search is an iterative depth-first walk over (state, retry
/// counters) with memoised longest times, so its cost is linear in the configurations it
/// meets; it gives up past a bound on their number and on their counters in all.
struct WorstCaseTime {
    /// One step of a path: the state reached and how it was reached.
    struct Step {
        var state: Int
        var via: String?
        var after: Duration
    }

    enum Outcome {
        /// The worst case, with its path.
        case bounded(Duration, [Step])
        /// Automatic transitions can cycle forever; the path ends where it repeats.
        case unbounded([Step])
        /// The flow can stop in a state that is not a goal (a terminal, or a task without timeout).
        case stuck([Step], reason: String)
        /// More configurations than the search will explore.
        case tooComplex
        /// A duration or retry bound on the way is invalid (and reported elsewhere).
        case undetermined
    }

    let graph: MachineGraph
    let goals: Set<Int>
    var maxConfigurations = 200_000
    /// The most counters all configurations met may hold together (a configuration holds one
    /// per counter slot): 80 MB.
    var maxCounters = 20_000_000

    private struct Move {
        var target: Int
        var after: Duration
        var label: String
        var counterSlot: Int?
    }

    /// A state and the retry counters of every bounded automatic transition.
    private typealias Configuration = [Int32]

    func compute(from start: Int) -> Outcome {
        let slots = retrySlots()
        var best: [Configuration: (time: Duration, next: Configuration?, step: Step?)] = [:]
        var onPath: Set<Configuration> = []
        let first: Configuration = [Int32(start)] + [Int32](repeating: 0, count: slots.count)
        let configurationLimit = min(maxConfigurations, maxCounters / first.count)
        var stack: [(config: Configuration, moves: [(Configuration, Step)], next: Int)] = []

        func push(_ config: Configuration, path: () -> [Step]) -> Outcome? {
            let state = Int(config[0])
            if goals.contains(state) || (graph.state(state).kind == .input && !graph.machine.isCompound(state)) {
                best[config] = (.zero, nil, nil)
                return nil
            }
            switch moves(from: state, config: config, slots: slots) {
            case .failure(let reason):
                return .stuck(path(), reason: reason)
            case .undetermined:
                return .undetermined
            case .success(let moves):
                stack.append((config, moves, 0))
                onPath.insert(config)
                return nil
            }
        }

        func currentPath() -> [Step] {
            var steps = [Step(state: start, via: nil, after: .zero)]
            for frame in stack.dropLast() { steps.append(frame.moves[frame.next - 1].1) }
            return steps
        }

        if let outcome = push(first, path: { [Step(state: start, via: nil, after: .zero)] }) { return outcome }
        while let frame = stack.last {
            if frame.next < frame.moves.count {
                stack[stack.count - 1].next += 1
                let (config, step) = frame.moves[frame.next]
                if onPath.contains(config) { return .unbounded(currentPath() + [step]) }
                if best[config] != nil { continue }
                if best.count + stack.count > configurationLimit { return .tooComplex }
                if let outcome = push(config, path: { currentPath() + [step] }) { return outcome }
                continue
            }
            stack.removeLast()
            onPath.remove(frame.config)
            var worst: (time: Duration, next: Configuration?, step: Step?) = (.zero, nil, nil)
            for (config, step) in frame.moves {
                let total = step.after + best[config]!.time
                if worst.next == nil || total > worst.time { worst = (total, config, step) }
            }
            best[frame.config] = worst
        }
        var path = [Step(state: start, via: nil, after: .zero)]
        var config = first
        while let entry = best[config], let next = entry.next, let step = entry.step {
            path.append(step)
            config = next
        }
        return .bounded(best[first]!.time, path)
    }

    private enum Moves {
        case success([(Configuration, Step)])
        case failure(String)
        case undetermined
    }

    private func moves(from state: Int, config: Configuration, slots: [SlotKey: Int]) -> Moves {
        let model = graph.state(state)
        let machine = graph.machine
        // A compound state enters its `initial` at once; a terminal state inside one with
        // `done` leaves through it at once.
        // A history state leads to its default or to any state it may resume: each may be next.
        if machine.isHistory(state) {
            return .success(
                graph.edges(from: state).map { edge in
                    var next = config
                    next[0] = Int32(edge.target)
                    return (next, Step(state: edge.target, via: "history", after: .zero))
                })
        }
        if machine.isCompound(state) || (model.kind == .terminal && isLeftByDone(state)) {
            guard let edge = graph.edges(from: state).first else { return .failure("it has no way out") }
            var next = config
            next[0] = Int32(edge.target)
            let label = machine.isCompound(state) ? "initial" : "done"
            return .success([(next, Step(state: edge.target, via: label, after: .zero))])
        }
        var candidates: [(candidate: Candidate?, target: Name, retry: Retry?, after: Duration, label: String)] = []
        switch model.kind {
        case .terminal:
            return .failure("it is terminal")
        case .input, .history:
            return .success([])
        case .choice:
            // `always` branches always have a target (the decoder refuses one without).
            for candidate in model.always?.value ?? [] {
                guard let target = candidate.target else { continue }
                candidates.append((candidate, target.value, candidate.retry, .zero, "always"))
            }
        case .task:
            // Its own timeout, then those of the compound states around it: each may fire first
            // (a compound state's counts from entering it, so its whole duration bounds it).
            for owner in [state] + machine.nesting.ancestors(of: state) {
                let written = machine.states[owner]
                if written.timeoutLocation != nil, written.timeout?.after == nil { return .undetermined }
                guard let timeout = written.timeout, let after = timeout.after?.value else { continue }
                let label =
                    "after \(after.specDescription)" + (owner == state ? "" : " of '\(machine.name(of: owner))'")
                candidates.append((nil, timeout.target.value, timeout.retry, after, label))
            }
            if candidates.isEmpty { return .failure("it has no timeout, so it can wait forever") }
            // Its `always` branches and its compound states' may leave it whatever their
            // conditions, at any time until a timeout fires: conditions that change are seen at
            // the next input, the timer's own included (after the timeouts, whose offsets name
            // their retry counters).
            let latest = candidates.map(\.after).max() ?? .zero
            for owner in [state] + machine.nesting.ancestors(of: state) {
                for candidate in machine.states[owner].always?.value ?? [] {
                    guard let target = candidate.target else { continue }
                    candidates.append((candidate, target.value, candidate.retry, latest, "always"))
                }
            }
        }
        var result: [(Configuration, Step)] = []
        for (offset, option) in candidates.enumerated() {
            var next = config
            var targetName = option.target
            var label = option.label
            if let retry = option.retry {
                guard let max = retry.max?.value else { return .undetermined }
                // Without a slot, the transition is taken at most once on a path, never `max`
                // times (`max` is at least 1).
                if let slot = slots[SlotKey(state: state, offset: offset)] {
                    if Int(config[slot]) < max {
                        next[slot] += 1
                    } else {
                        targetName = retry.then.value
                        label += " (retries used up)"
                    }
                }
            }
            guard let target = graph.stateIndex[targetName] else { continue }
            next[0] = Int32(target)
            result.append((next, Step(state: target, via: label, after: option.after)))
        }
        if result.isEmpty { return .failure("it has no way out") }
        return .success(result)
    }

    /// Whether a terminal state is left at once by the `done` of the compound state around it.
    private func isLeftByDone(_ state: Int) -> Bool {
        guard let parent = graph.machine.nesting.parent(of: state) else { return false }
        return graph.machine.nesting.details[parent]?.done != nil
    }

    private struct SlotKey: Hashable {
        var state: Int
        var offset: Int
    }

    /// One counter slot (an index into the configuration) per bounded automatic transition that
    /// a path can take more than once: one that leaves a state on a cycle of automatic
    /// transitions (retry fallbacks included). Any other is taken at most once on a path, so
    /// its counter never reaches its bound; a counter for each of them would make every
    /// configuration of a long chain of retries as long as the chain.
    private func retrySlots() -> [SlotKey: Int] {
        var slots: [SlotKey: Int] = [:]
        let automatic = graph.digraph { $0.triggerKind != .event }
        var onCycle = [Bool](repeating: false, count: graph.stateCount)
        for component in automatic.stronglyConnectedComponents(cyclicOnly: true) {
            for state in component { onCycle[state] = true }
        }
        for index in 0..<graph.stateCount where onCycle[index] {
            let state = graph.state(index)
            switch state.kind {
            case .choice:
                for (offset, candidate) in (state.always?.value ?? []).enumerated() where candidate.retry != nil {
                    slots[SlotKey(state: index, offset: offset)] = slots.count + 1
                }
            case .task:
                if state.timeout?.retry != nil { slots[SlotKey(state: index, offset: 0)] = slots.count + 1 }
                // Its `always` branches come after the timeouts, in the order `steps` lists them.
                let owners = [index] + graph.machine.nesting.ancestors(of: index)
                var offset = owners.count { graph.machine.states[$0].timeout?.after != nil }
                for owner in owners {
                    for candidate in graph.machine.states[owner].always?.value ?? [] where candidate.target != nil {
                        if candidate.retry != nil { slots[SlotKey(state: index, offset: offset)] = slots.count + 1 }
                        offset += 1
                    }
                }
            default:
                break
            }
        }
        return slots
    }

    /// `splash → check (after 2s) → home (always)`, with the total time.
    static func describe(_ path: [Step], graph: MachineGraph) -> String {
        var text = ""
        var total = Duration.zero
        for step in path {
            total += step.after
            if let via = step.via {
                text += " → \(graph.name(step.state)) (\(via))"
            } else {
                text += graph.name(step.state)
            }
        }
        return total > .zero ? "\(text); \(total.specDescription) in all" : text
    }
}
