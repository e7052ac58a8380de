import FlowSpecRuntime

/// Runs a ``FlowPath`` through a ``FlowDriver`` on a ``FlowTestClock`` and says where the flow
/// and the spec disagree.
///
/// For each step it sets the conditions, feeds the input (a timeout: the clock advances by the
/// armed timer's duration, and the runner lets the driver's timer fire), then checks that the
/// driver took exactly one step of that input, not ignored, into the expected state, with the
/// expected effects in order and the expected timer armed; then it calls the harness's
/// ``FlowPathHarness/verify(state:driver:)``. A path stops at its first disagreement: the
/// steps after it would only repeat it. With a budget, it also checks the time the test
/// clock moved.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
public enum FlowPathRunner {
    /// The storage key persisted flows use in path tests.
    public static let storageKey = "flowspec.path"

    /// How long (real time) the runner waits for a fired timer to reach the driver before it
    /// says the timeout never fired: only tasks run meanwhile, no test time passes.
    public static var timerWait: Duration = .seconds(300)

    /// Runs `path` with a new harness of type `Harness`; returns the disagreements (none when
    /// the flow does what the spec says).
    public static func run<Harness: FlowPathHarness>(_ path: FlowPath<Harness.Spec>, harness: Harness.Type) async
        -> [String]
    {
        var run = Run<Harness>(path: path, harness: Harness())
        await run.all()
        return run.problems
    }

    @MainActor
    private final class Box<Value> {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    @MainActor
    private struct Run<Harness: FlowPathHarness> {
        typealias Spec = Harness.Spec
        let path: FlowPath<Spec>
        var harness: Harness
        let clock = FlowTestClock()
        let storage = InMemoryFlowStorage()
        let conditions = Box(Spec.Conditions())
        /// Every step the driver took, in order, and how many of them the path's steps checked.
        let records = Box([FlowStepRecord<Spec>]())
        var checked = 0
        var driver: FlowDriver<Spec>?
        var problems: [String] = []
        var budgetStart: Duration?

        init(path: FlowPath<Spec>, harness: Harness) {
            self.path = path
            self.harness = harness
        }

        mutating func all() async {
            for (index, step) in path.steps.enumerated() {
                guard await take(step, at: index) else { break }
                if path.budget?.fromStep == index { budgetStart = clock.elapsed }
            }
            if problems.isEmpty, let budget = path.budget, let start = budgetStart {
                let taken = clock.elapsed - start
                if taken > budget.max {
                    problems.append(
                        "\(path.name): from step \(budget.fromStep + 1) to the last the flow took \(taken), "
                            + "more than its `within` budget of \(budget.max)")
                }
            }
            driver?.stop()
        }

        /// Takes one step and checks it against the driver's record of it; `false` when the
        /// path cannot go on. Timers due at the same instant all fire when the clock reaches
        /// it: the path writes the later ones as waits of zero, which take no input and are
        /// checked against the steps the driver already took.
        mutating func take(_ step: FlowPath<Spec>.Step, at index: Int) async -> Bool {
            let label = "\(path.name), step \(index + 1) (\(describe(step.input)))"
            var values = Spec.Conditions()
            for name in step.conditions {
                guard let position = Spec.Conditions.names.firstIndex(of: name) else {
                    problems.append("\(label): \(Spec.name) has no condition '\(name)'; regenerate the paths")
                    return false
                }
                values[condition: position] = true
            }
            conditions.value = values
            let before = records.value.count
            if checked < before {
                guard Self.isWaitOfZero(step.input) else {
                    problems.append(
                        "\(label): expected one step, the driver took \(before - checked + 1); the last: "
                            + (records.value.last?.traceLine ?? "none"))
                    return false
                }
            } else {
                guard await feed(step.input, label: label, before: before) else { return false }
            }
            guard let driver, checked < records.value.count else {
                problems.append("\(label): the driver took no step")
                return false
            }
            let record = records.value[checked]
            checked += 1
            // More steps than this one: only timers due at the same instant, which the path's
            // next steps wait for (zero).
            let more = records.value.count - checked
            if more > 0,
                !path.steps.dropFirst(index + 1).prefix(more).allSatisfy({ Self.isWaitOfZero($0.input) })
                    || path.steps.count - index - 1 < more
            {
                problems.append(
                    "\(label): expected one step, the driver took \(more + 1); the last: "
                        + (records.value.last?.traceLine ?? "none"))
                return false
            }
            var found: [String] = []
            if record.ignored { found.append("the driver ignored it") }
            if !matches(step.input, record.input) {
                found.append("the driver's step was '\(record.traceLine)'")
            }
            if record.to != step.state {
                found.append(
                    "expected state '\(Spec.name(ofState: step.state))', the flow is in '\(Spec.name(ofState: record.to))'"
                )
            }
            if record.effects != step.effects {
                found.append("expected effects \(names(step.effects)), the flow ran \(names(record.effects))")
            }
            if Spec.maximumLeaves > 1 {
                found += regionDisagreements(step, record)
            } else {
                found += timerDisagreements(step, record)
            }
            if !found.isEmpty {
                problems.append("\(label): " + found.joined(separator: "; "))
                return false
            }
            // The app's checks, once the driver is at rest after the step.
            guard checked == records.value.count else { return true }
            // Verified on a copy (a stored property cannot be passed inout across `await`), kept
            // whether or not it throws.
            var verifying = harness
            defer { harness = verifying }
            do {
                try await verifying.verify(state: step.state, driver: driver)
            } catch {
                problems.append("\(label): verify(state: .\(Spec.name(ofState: step.state))) threw \(error)")
                return false
            }
            return true
        }

        /// Whether an input is a wait of zero: a timer due when the one before it fired.
        static func isWaitOfZero(_ input: FlowPath<Spec>.Input) -> Bool {
            switch input {
            case .wait(let duration, _), .regionWait(let duration, _): duration == .zero
            default: false
            }
        }

        /// Feeds an input to the flow (a new driver for a start); `false`, with the problem,
        /// when it cannot be fed or its timer did not fire.
        mutating func feed(_ input: FlowPath<Spec>.Input, label: String, before: Int) async -> Bool {
            switch input {
            case .start, .relaunch:
                driver?.stop()
                let conditions = self.conditions
                let made = harness.makeDriver(clock: clock, storage: storage) { conditions.value }
                let records = self.records
                made.onStep { records.value.append($0) }
                driver = made
                // An app object may start its flow itself (restoring at launch); then that
                // start is the step.
                if made.isStarted {
                    if let step = made.lastStep { records.value.append(step) }
                } else {
                    made.start()
                }
            case .event(let event):
                driver?.send(event)
            case .conditionsChanged:
                driver?.conditionsChanged()
            case .timeout:
                guard let driver, let armed = driver.machine.armedTimeout else {
                    problems.append("\(label): no timeout is armed in '\(stateName)'")
                    return false
                }
                clock.advance(by: armed.after)
                guard await waitForStep(after: before) else {
                    problems.append("\(label): the timeout of '\(stateName)' did not fire")
                    return false
                }
            case .wait(let duration, _), .regionWait(let duration, _):
                guard driver != nil else {
                    problems.append("\(label): the flow has not started")
                    return false
                }
                clock.advance(by: duration)
                guard await waitForStep(after: before) else {
                    problems.append("\(label): no timer fired in '\(stateName)' after \(duration)")
                    return false
                }
            }
            return true
        }

        /// Where the timers armed after a step differ from the spec's: the state's own, and the
        /// compound states' around it.
        func timerDisagreements(_ step: FlowPath<Spec>.Step, _ record: FlowStepRecord<Spec>) -> [String] {
            var found: [String] = []
            let armed = record.armedTimeout.map { FlowPath<Spec>.Timer(after: $0.after, target: $0.target) }
            if armed != step.timer {
                found.append("expected timer \(describe(step.timer)), the flow armed \(describe(armed))")
            }
            let outer = record.armedTimeouts.filter { $0.depth != nil }.map {
                FlowPath<Spec>.Timer(after: $0.after, target: $0.target)
            }
            if outer != step.compoundTimers {
                found.append(
                    "expected compound states' timers \(step.compoundTimers.map(describe)), the flow armed \(outer.map(describe))"
                )
            }
            return found
        }

        /// With parallel regions: where the states and the timers after a step differ from the
        /// spec's.
        func regionDisagreements(_ step: FlowPath<Spec>.Step, _ record: FlowStepRecord<Spec>) -> [String] {
            var found: [String] = []
            if record.states != step.states {
                found.append("expected states \(names(step.states)), the flow is in \(names(record.states))")
            }
            let armed = record.armedTimeouts.map { timer in
                let owner = timer.owner ?? record.to
                let name =
                    timer.depth.flatMap { Spec.compound(around: owner, atDepth: $0) }.map { Spec.name(ofCompound: $0) }
                    ?? Spec.name(ofState: owner)
                return FlowPath<Spec>.Timer(after: timer.after, target: timer.target, owner: name)
            }
            if armed != step.timers {
                found.append("expected timers \(step.timers.map(describe)), the flow armed \(armed.map(describe))")
            }
            return found
        }

        /// Lets the driver's fired timer run, until a step is taken and no other timer that is
        /// due is left to act (one left armed would take a second step), or the wait gives up.
        func waitForStep(after count: Int) async -> Bool {
            let records = records
            let driver = driver
            return await FlowSettling.until(
                { records.value.count > count && (driver?.dueTimers ?? 0) == 0 }, within: FlowPathRunner.timerWait)
        }

        var stateName: String { driver.map { Spec.name(ofState: $0.state) } ?? "(not started)" }

        func matches(_ input: FlowPath<Spec>.Input, _ recorded: FlowStepRecord<Spec>.Input) -> Bool {
            switch (input, recorded) {
            // A relaunch may start afresh: an app that restores nothing once a flow is done.
            case (.start, .start), (.start, .restore), (.relaunch, .restore), (.relaunch, .start), (.timeout, .timeout),
                (.wait(_, nil), .timeout):
                true
            case (.wait(_, let expected?), .compoundTimeout(let fired)): expected == fired
            case (.regionWait(_, let expected), .stateTimeout(let fired)): expected == fired
            case (.event(let expected), .event(let taken)): expected == taken
            case (.conditionsChanged, .conditionsChanged): true
            default: false
            }
        }

        func describe(_ input: FlowPath<Spec>.Input) -> String {
            switch input {
            case .start: "start"
            case .event(let event): Spec.name(ofEvent: event)
            case .timeout: "@timeout"
            case .wait(let duration, let compound):
                "wait \(duration) for the timeout of \(compound.map { "'\(Spec.name(ofCompound: $0))'" } ?? "the state")"
            case .regionWait(let duration, let state):
                "wait \(duration) for the timeout of '\(Spec.name(ofState: state))'"
            case .relaunch: "relaunch"
            case .conditionsChanged: "@conditions"
            }
        }

        func describe(_ timer: FlowPath<Spec>.Timer?) -> String {
            timer.map { ($0.owner.map { "\($0) " } ?? "") + "\($0.after) -> '\(Spec.name(ofState: $0.target))'" }
                ?? "none"
        }

        func names(_ effects: [Spec.Effect]) -> String {
            "[" + effects.map { Spec.name(ofEffect: $0) }.joined(separator: ", ") + "]"
        }

        func names(_ states: [Spec.State]) -> String {
            "[" + states.map { Spec.name(ofState: $0) }.joined(separator: ", ") + "]"
        }
    }
}
