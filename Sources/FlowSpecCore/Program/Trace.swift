/// The text of one step of a run, as `flowspec simulate` prints it and as the tests' compiled
/// drivers print it (``TraceLine`` writes both), so the two can be compared line by line:
///
///     splashFinished -> slide0 | effects: - | timeout: -
///     @timeout -> error | effects: showError | timeout: -
///     retry -> unauthenticated (ignored) | effects: - | timeout: -
public enum Trace {
    /// One line: the input, the state after it, whether it was ignored, the effects in order
    /// and the timeout armed for the new visit.
    public static func line(
        input: String, state: String, ignored: Bool, effects: [String],
        timeout: (milliseconds: Int64, target: String)?
    ) -> String {
        TraceLine.text(
            input: input, state: state, ignored: ignored, effects: effects,
            timeouts: timeout.map { [TraceLine.Timeout(scope: nil, milliseconds: $0.milliseconds, target: $0.target)] }
                ?? [])
    }

    /// The line for the runtime's current state after an input.
    static func line(input: String, runtime: ProgramRun, program: FlowProgram, ignored: Bool, effects: [Int]) -> String
    {
        line(
            input: input, state: runtime.state, program: program, ignored: ignored, effects: effects,
            targets: runtime.armedTimeouts(program).map(\.target))
    }

    /// The line for the runtime's current state after an input, also kept as a record.
    static func line(
        input: String, runtime: ProgramRun, program: FlowProgram, ignored: Bool, effects: [Int],
        records: inout [Simulation.Record]?
    ) -> String {
        let targets = runtime.armedTimeouts(program).map(\.target)
        records?.append(
            Simulation.Record(
                input: input, state: runtime.state, ignored: ignored, effects: effects, targets: targets,
                memory: runtime.memory, states: runtime.states,
                owners: runtime.armedTimeouts(program).compactMap { runtime.timeoutOwner(forVisit: $0.visit, program) },
                subFlows: program.compounds.contains { $0.runs != nil } ? runtime.runningSubFlows(program) : [])
        )
        if program.hasParallel {
            return configurationLine(
                input: input, runtime: runtime, program: program, ignored: ignored, effects: effects)
        }
        return line(
            input: input, state: runtime.state, program: program, ignored: ignored, effects: effects, targets: targets)
    }

    /// The line for a machine with parallel regions after an input: the states it is in, in
    /// document order, and every timeout armed, in the order they were armed, each named after
    /// its state or compound state:
    ///
    ///     lost -> home, offline | effects: - | timeout: signedIn 1800000ms -> welcome, offline 5000ms -> online
    static func configurationLine(
        input: String, runtime: ProgramRun, program: FlowProgram, ignored: Bool, effects: [Int]
    ) -> String {
        configurationLine(
            input: input, states: runtime.states, program: program, ignored: ignored, effects: effects,
            timeouts: zip(runtime.armedTimeouts(program), runtime.armedTimeoutOwners(program)).map {
                (after: $0.0.after, target: $0.0.target, state: $0.1.state, compound: $0.1.compound)
            })
    }

    /// The line of a machine with parallel regions from what it says: the states, and each
    /// armed timeout (how long, where it leads, whose it is) in the order armed.
    static func configurationLine(
        input: String, states: [Int], program: FlowProgram, ignored: Bool, effects: [Int],
        timeouts: [(after: Duration, target: Int, state: Int, compound: Int?)]
    ) -> String {
        TraceLine.text(
            input: input, state: states.map { program.states[$0].name }.joined(separator: ", "), ignored: ignored,
            effects: effects.map { program.effects[$0].name },
            timeouts: timeouts.map {
                TraceLine.Timeout(
                    scope: $0.compound.map { program.compounds[$0].name } ?? program.states[$0.state].name,
                    milliseconds: $0.after.wholeMilliseconds, target: program.states[$0.target].name)
            })
    }

    /// The line for a state after an input: every timeout armed in it, the compound states'
    /// (outermost first) then its own, leading to `targets` (the states the runtime's
    /// ``ProgramRun/armedTimeouts(_:)`` says, which a history target resolves).
    static func line(
        input: String, state index: Int, program: FlowProgram, ignored: Bool, effects: [Int], targets: [Int]
    ) -> String {
        let state = program.states[index]
        let outer = state.outerTimeouts.enumerated().map { position, scoped in
            TraceLine.Timeout(
                scope: program.compounds[state.compound(atDepth: scoped.depth)].name,
                milliseconds: scoped.timeout.after.wholeMilliseconds,
                target: program.states[targets[position]].name)
        }
        let own = state.timeout.map {
            TraceLine.Timeout(
                scope: nil, milliseconds: $0.after.wholeMilliseconds, target: program.states[targets.last!].name)
        }
        return TraceLine.text(
            input: input, state: state.name, ignored: ignored, effects: effects.map { program.effects[$0].name },
            timeouts: outer + (own.map { [$0] } ?? []))
    }
}

/// Runs a machine on a list of inputs and returns the trace, for `flowspec simulate`.
public struct Simulation {
    /// One input of a run.
    public enum Step: Sendable, Equatable {
        /// An event, by name.
        case event(String)
        /// Fire the timeout armed for the current visit.
        case timeout
        /// Fire the timeout of the compound state around the current state, by name.
        case compoundTimeout(String)
        /// Set a condition (true) or clear it (false) for the steps that follow.
        case condition(String, Bool)
        /// The app says its conditions changed: the `always` branches of the states the flow
        /// is in are tried (`@conditions`).
        case conditionsChanged
        /// Relaunch the app: the current state's stored value is restored (persisted
        /// machines), with the conditions as they are.
        case relaunch
    }

    /// Why a run could not be done.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What is wrong, for the user.
        public let description: String
    }

    let program: FlowProgram

    /// A simulation of a checked machine.
    public init(program: FlowProgram) {
        self.program = program
    }

    /// Runs `steps` from the start (or from a restored raw value) and returns the trace.
    /// Conditions set before the first event or timeout apply to the start.
    public func run(_ steps: [Step], restoring rawValue: String?? = nil) throws(Failure) -> [String] {
        var exercised: Set<CoverageItem>? = nil
        return try run(steps, restoring: rawValue, exercised: &exercised)
    }

    /// Runs `steps` and adds what they exercise (states entered, transitions taken,
    /// relaunches) to `exercised`.
    public func run(_ steps: [Step], restoring rawValue: String??, exercised: inout Set<CoverageItem>?)
        throws(Failure) -> [String]
    {
        var records: [Record]? = nil
        return try run(steps, restoring: rawValue, exercised: &exercised, records: &records)
    }

    /// One step of a run, as `flowspec simulate --format json` writes it.
    struct Record {
        var input: String
        var state: Int
        var ignored: Bool
        var effects: [Int]
        /// The states the armed timeouts lead to, in the order of ``Trace/line(input:state:program:ignored:effects:targets:)``.
        var targets: [Int]
        /// What compound states with history states inside remember, by memory slot (-1: never left).
        var memory: [Int] = []
        /// The states the machine is in, in document order.
        var states: [Int] = []
        /// With parallel regions: whose each armed timeout is, in the order of ``targets``.
        var owners: [(state: Int, compound: Int?)] = []
        /// The sub-flows running after the step (``ProgramRun/runningSubFlows(_:)``).
        var subFlows: [(compound: Int, visit: Int)] = []
        /// The transitions the step took (recorded when what the run exercises is).
        var moves: [ProgramRun.Move] = []
    }

    /// The run as a JSON document: `{"machine", "steps": [{"input", "state", "configuration",
    /// "active", "ignored", "effects", "timeouts": [{"compound", "milliseconds", "target"}]}]}`.
    /// `configuration` is the states the flow is in that have none inside them (one, until
    /// parallel regions), in document order; `active` adds the compound states around them. A
    /// machine with history states adds `remembered`: each compound state with a history state
    /// inside that was left, and the state it was left in; one that runs machines, `subFlows`:
    /// each running state active, with its `machine`.
    public func json(_ steps: [Step], restoring rawValue: String?? = nil) throws(Failure) -> String {
        var exercised: Set<CoverageItem>? = nil
        var records: [Record]? = []
        _ = try run(steps, restoring: rawValue, exercised: &exercised, records: &records)
        let steps = (records ?? []).map { record -> JSONNode in
            if program.hasParallel { return regionsJSON(record) }
            let state = program.states[record.state]
            let compounds = state.ancestors.reversed().map { program.compounds[$0].name }
            var timeouts: [JSONNode] = state.outerTimeouts.enumerated().map { position, outer in
                .object([
                    "compound": .string(program.compounds[state.compound(atDepth: outer.depth)].name),
                    "milliseconds": .int(Int(outer.timeout.after.wholeMilliseconds)),
                    "target": .string(program.states[record.targets[position]].name)
                ])
            }
            if let own = state.timeout, let target = record.targets.last {
                timeouts.append(
                    .object([
                        "milliseconds": .int(Int(own.after.wholeMilliseconds)),
                        "target": .string(program.states[target].name)
                    ]))
            }
            var members: [String: JSONNode] = [
                "input": .string(record.input),
                "state": .string(state.name),
                "configuration": .array([.string(state.name)]),
                "active": .array((compounds + [state.name]).map(JSONNode.string)),
                "ignored": .bool(record.ignored),
                "effects": .array(record.effects.map { .string(program.effects[$0].name) }),
                "timeouts": .array(timeouts)
            ]
            if !program.histories.isEmpty { members["remembered"] = remembered(record) }
            if !record.subFlows.isEmpty { members["subFlows"] = subFlows(record) }
            return .object(members)
        }
        var output = ""
        JSONNode.object(["machine": .string(program.name.name), "steps": .array(steps)]).writeDocument(to: &output)
        return output
    }

    /// A step of a machine with parallel regions as JSON: as for any machine, with
    /// `configuration` every state it is in, `active` every state and compound state in
    /// document order, and each timeout naming its compound state or, for a state's own, its
    /// `state`.
    private func regionsJSON(_ record: Record) -> JSONNode {
        var active: [String] = []
        for state in record.states {
            for compound in program.states[state].ancestors.reversed()
            where !active.contains(program.compounds[compound].name) {
                active.append(program.compounds[compound].name)
            }
            active.append(program.states[state].name)
        }
        let timeouts = zip(record.owners, record.targets).map { owner, target -> JSONNode in
            let after =
                owner.compound.map { program.compounds[$0].timeout?.after }
                ?? program.states[owner.state].timeout?.after
            var members: [String: JSONNode] = [
                "milliseconds": .int(Int((after ?? .zero).wholeMilliseconds)),
                "target": .string(program.states[target].name)
            ]
            if let compound = owner.compound {
                members["compound"] = .string(program.compounds[compound].name)
            } else {
                members["state"] = .string(program.states[owner.state].name)
            }
            return .object(members)
        }
        var members: [String: JSONNode] = [
            "input": .string(record.input),
            "state": .string(program.states[record.state].name),
            "configuration": .array(record.states.map { .string(program.states[$0].name) }),
            "active": .array(active.map(JSONNode.string)),
            "ignored": .bool(record.ignored),
            "effects": .array(record.effects.map { .string(program.effects[$0].name) }),
            "timeouts": .array(timeouts)
        ]
        if !program.histories.isEmpty { members["remembered"] = remembered(record) }
        if !record.subFlows.isEmpty { members["subFlows"] = subFlows(record) }
        return .object(members)
    }

    /// The sub-flows running after a step: each running state, with the machine it runs.
    private func subFlows(_ record: Record) -> JSONNode {
        .array(
            record.subFlows.map { run in
                let compound = program.compounds[run.compound]
                return .object([
                    "state": .string(compound.name), "machine": .string(compound.runs?.machine.name ?? "")
                ])
            })
    }

    /// Each compound state with a history state inside that was left, and the state it was
    /// left in.
    private func remembered(_ record: Record) -> JSONNode {
        var remembered: [String: JSONNode] = [:]
        for compound in program.compounds {
            guard let slot = compound.memorySlot, record.memory[slot] >= 0 else { continue }
            remembered[compound.name] = .string(program.states[record.memory[slot]].name)
        }
        return .object(remembered)
    }

    func run(
        _ steps: [Step], restoring rawValue: String??, exercised: inout Set<CoverageItem>?, records: inout [Record]?
    ) throws(Failure) -> [String] {
        let leading = steps.prefix { if case .condition = $0 { true } else { false } }
        return try run(
            startingUnder: Array(leading), then: Array(steps.dropFirst(leading.count)), restoring: rawValue,
            exercised: &exercised, records: &records)
    }

    /// Runs `steps` after a start under the conditions `startingUnder` sets: conditions at the
    /// head of `steps` apply to the first input after the start, not to the start (a trace).
    func run(
        startingUnder start: [Step], then steps: [Step], restoring rawValue: String??,
        exercised: inout Set<CoverageItem>?
    ) throws(Failure) -> [String] {
        var records: [Record]? = nil
        return try run(startingUnder: start, then: steps, restoring: rawValue, exercised: &exercised, records: &records)
    }

    func run(
        startingUnder start: [Step], then steps: [Step], restoring rawValue: String??,
        exercised: inout Set<CoverageItem>?, records: inout [Record]?
    ) throws(Failure) -> [String] {
        var conditions = [Bool](repeating: false, count: program.conditions.count)
        for case .condition(let name, let value) in start { conditions[try conditionIndex(name)] = value }
        let pending = steps
        var moves: [ProgramRun.Move]? = exercised == nil ? nil : []
        var (runtime, effects): (ProgramRun, [Int])
        var label = TraceLine.Input.start.text
        if let rawValue {
            guard program.persist != nil else {
                throw Failure(
                    description: "machine '\(program.name.name)' has no `persist`, so nothing can be restored")
            }
            (runtime, effects) = ProgramRun.restore(program, rawValue: rawValue, conditions: conditions, moves: &moves)
            label = TraceLine.Input.restore(rawValue ?? "nil").text
            exercised?.formUnion(CoverageItem.entering(moves?.first?.from ?? runtime.state, in: program))
        } else {
            (runtime, effects) = ProgramRun.start(program, conditions: conditions, moves: &moves)
            exercised?.formUnion(CoverageItem.entering(program.initial, in: program))
        }
        var lines = [
            Trace.line(
                input: label, runtime: runtime, program: program, ignored: false, effects: effects, records: &records)
        ]
        func record() {
            if program.hasParallel {
                // The other regions' states are entered through their `initial`, which no move names.
                for state in runtime.states { exercised?.formUnion(CoverageItem.entering(state, in: program)) }
            }
            guard let taken = moves, !taken.isEmpty else { return }
            if let last = records?.indices.last { records?[last].moves += taken }
            for move in taken {
                exercised?.formUnion(CoverageItem.items(of: move, in: program))
                if let entered = move.entered { exercised?.formUnion(CoverageItem.entering(entered, in: program)) }
            }
            moves?.removeAll()
        }
        for step in pending {
            record()
            switch step {
            case .condition(let name, let value):
                conditions[try conditionIndex(name)] = value
            case .event(let name):
                guard let event = program.events.firstIndex(where: { $0.name == name }) else {
                    let hint = Suggestion.hint(for: name, among: program.events.map(\.name))
                    throw Failure(description: "machine '\(program.name.name)' has no event '\(name)'\(hint)")
                }
                let result = runtime.send(event, program, conditions: conditions, moves: &moves)
                lines.append(
                    Trace.line(
                        input: TraceLine.Input.event(name).text, runtime: runtime, program: program,
                        ignored: result == nil, effects: result ?? [], records: &records))
            case .timeout:
                let visit = program.hasParallel ? ownTimeoutVisit(runtime, of: runtime.state) : runtime.visit
                let result = runtime.fireTimeout(visit: visit, program, conditions: conditions, moves: &moves)
                lines.append(
                    Trace.line(
                        input: TraceLine.Input.timeout.text, runtime: runtime, program: program,
                        ignored: result == nil, effects: result ?? [], records: &records))
            case .compoundTimeout(let name) where program.hasParallel && program.states.contains { $0.name == name }:
                // With parallel regions, `@timeout(STATE)` fires an active state's own timeout.
                let state = program.states.firstIndex { $0.name == name }
                let result = runtime.fireTimeout(
                    visit: ownTimeoutVisit(runtime, of: state), program, conditions: conditions, moves: &moves)
                lines.append(
                    Trace.line(
                        input: TraceLine.Input.timeoutOf(name).text, runtime: runtime, program: program,
                        ignored: result == nil, effects: result ?? [], records: &records))
            case .compoundTimeout(let name):
                guard let compound = program.compounds.firstIndex(where: { $0.name == name }) else {
                    let hint = Suggestion.hint(for: name, among: program.compounds.map(\.name))
                    throw Failure(description: "machine '\(program.name.name)' has no compound state '\(name)'\(hint)")
                }
                // Its timeout is armed for the visit that entered it, if the machine is inside it.
                let state = program.states[runtime.state]
                let depth = state.outerTimeouts.first { state.compound(atDepth: $0.depth) == compound }?.depth
                var visit = depth.map { runtime.outerVisits[$0] } ?? -1
                if program.hasParallel {
                    visit =
                        runtime.armedTimeouts(program).first {
                            runtime.timeoutOwner(forVisit: $0.visit, program)?.compound == compound
                        }?.visit ?? -1
                }
                let result = runtime.fireTimeout(visit: visit, program, conditions: conditions, moves: &moves)
                lines.append(
                    Trace.line(
                        input: TraceLine.Input.timeoutOf(name).text, runtime: runtime, program: program,
                        ignored: result == nil, effects: result ?? [], records: &records))
            case .conditionsChanged:
                let result = runtime.conditionsChanged(program, conditions: conditions, moves: &moves)
                lines.append(
                    Trace.line(
                        input: TraceLine.Input.conditions.text, runtime: runtime, program: program,
                        ignored: result == nil, effects: result ?? [], records: &records))
            case .relaunch:
                guard program.persist != nil else {
                    throw Failure(
                        description: "machine '\(program.name.name)' has no `persist`, so it cannot be relaunched")
                }
                let stored = runtime.storedText(program)
                exercised?.insert(.relaunch(state: runtime.state))
                (runtime, effects) = ProgramRun.restore(
                    program, rawValue: stored, conditions: conditions, moves: &moves)
                exercised?.formUnion(CoverageItem.entering(moves?.first?.from ?? runtime.state, in: program))
                lines.append(
                    Trace.line(
                        input: TraceLine.Input.restore(stored).text, runtime: runtime, program: program, ignored: false,
                        effects: effects, records: &records))
            }
        }
        record()
        return lines
    }

    /// With parallel regions, the visit an active state's own timeout is armed for; -1 if none
    /// is.
    private func ownTimeoutVisit(_ runtime: ProgramRun, of state: Int?) -> Int {
        runtime.armedTimeouts(program).first { armed in
            guard let owner = runtime.timeoutOwner(forVisit: armed.visit, program), owner.compound == nil else {
                return false
            }
            return owner.state == state
        }?.visit ?? -1
    }

    private func conditionIndex(_ name: String) throws(Failure) -> Int {
        guard let index = program.conditions.firstIndex(where: { $0.name == name }) else {
            let hint = Suggestion.hint(for: name, among: program.conditions.map(\.name))
            throw Failure(description: "machine '\(program.name.name)' has no condition '\(name)'\(hint)")
        }
        return index
    }
}
