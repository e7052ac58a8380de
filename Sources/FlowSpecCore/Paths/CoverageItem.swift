/// One thing a run of a machine can exercise, and a test suite of it should: a state entered,
/// a candidate of a transition taken (each `always` branch, each timeout, each retry's `then`
/// once the retry is used up, each machine-wide transition from some state that inherits it),
/// or, for a persisted machine, a relaunch in a state.
///
/// Generated paths cover them, and `flowspec coverage` counts them in recorded traces.
public enum CoverageItem: Sendable, Hashable {
    /// The state was entered.
    case state(Int)
    /// A candidate of a state's own transition on an event.
    case transition(state: Int, event: Int, candidate: Int, fallback: Bool)
    /// A candidate of a machine-wide transition, from any state that inherits it.
    case machineWide(event: Int, candidate: Int, fallback: Bool)
    /// An `always` branch of a choice state.
    case always(state: Int, candidate: Int, fallback: Bool)
    /// A state's timeout.
    case timeout(state: Int, fallback: Bool)
    /// The app was relaunched in a state (stored, restored, continued).
    case relaunch(state: Int)

    /// The item a move of the reference runtime exercises.
    public init(_ move: FlowRuntime.Move, in program: FlowProgram) {
        switch move.via {
        case .event(let event):
            let state = program.states[move.from]
            let position = state.transitions.firstIndex { $0.event == event } ?? 0
            if position < state.ownTransitionCount {
                self = .transition(
                    state: move.from, event: event, candidate: move.candidate, fallback: move.fellBack)
            } else {
                self = .machineWide(event: event, candidate: move.candidate, fallback: move.fellBack)
            }
        case .always:
            self = .always(state: move.from, candidate: move.candidate, fallback: move.fellBack)
        case .timeout:
            self = .timeout(state: move.from, fallback: move.fellBack)
        }
    }

    /// What a kind of item is called in reports.
    public enum Kind: String, Sendable, CaseIterable {
        case state, transition, timeout, relaunch
    }

    /// The kind: `always` branches, machine-wide transitions and retries' `then` count as
    /// transitions.
    public var kind: Kind {
        switch self {
        case .state: .state
        case .transition, .machineWide, .always: .transition
        case .timeout: .timeout
        case .relaunch: .relaunch
        }
    }

    /// Every item of a machine, in a stable order: states, then each state's transitions,
    /// `always` branches and timeout, then the machine-wide transitions, then relaunches.
    public static func all(in program: FlowProgram) -> [CoverageItem] {
        var items = program.states.indices.map { CoverageItem.state($0) }
        var machineWide: [CoverageItem] = []
        var seenMachineWide = Set<Int>()
        for (index, state) in program.states.enumerated() {
            for (position, transition) in state.transitions.enumerated() {
                for (candidate, option) in transition.candidates.enumerated() {
                    let retries = option.retry == nil ? [false] : [false, true]
                    for fallback in retries {
                        if position < state.ownTransitionCount {
                            items.append(
                                .transition(
                                    state: index, event: transition.event, candidate: candidate, fallback: fallback))
                        } else if !seenMachineWide.contains(transition.event) {
                            machineWide.append(
                                .machineWide(event: transition.event, candidate: candidate, fallback: fallback))
                        }
                    }
                }
                if position >= state.ownTransitionCount { seenMachineWide.insert(transition.event) }
            }
            for (candidate, option) in state.always.enumerated() {
                for fallback in option.retry == nil ? [false] : [false, true] {
                    items.append(.always(state: index, candidate: candidate, fallback: fallback))
                }
            }
            if let timeout = state.timeout {
                for fallback in timeout.candidate.retry == nil ? [false] : [false, true] {
                    items.append(.timeout(state: index, fallback: fallback))
                }
            }
        }
        items += machineWide
        if program.persist != nil {
            for (index, state) in program.states.enumerated() where state.kind != .choice {
                items.append(.relaunch(state: index))
            }
        }
        return items
    }

    /// The item in words: `'authLoading' on 'networkError' -> 'authLoading'`.
    public func description(in program: FlowProgram) -> String {
        func name(_ state: Int) -> String { "'\(program.states[state].name)'" }
        func target(_ candidate: FlowProgram.Candidate, _ fallback: Bool) -> String {
            fallback
                ? "\(name(candidate.retry?.fallback ?? candidate.target)) once its retry is used up"
                : name(candidate.target)
        }
        switch self {
        case .state(let state):
            return "state \(name(state))"
        case .transition(let state, let event, let position, let fallback):
            let candidate = program.candidates(in: state, for: event)?[position]
            let to = candidate.map { target($0, fallback) } ?? "?"
            return "\(name(state)) on '\(program.events[event].name)' -> \(to)"
        case .machineWide(let event, let position, let fallback):
            let candidate = program.states.lazy.compactMap { state in
                state.transitions[state.ownTransitionCount...].first { $0.event == event }
            }.first?.candidates[position]
            let to = candidate.map { target($0, fallback) } ?? "?"
            return "machine-wide '\(program.events[event].name)' -> \(to)"
        case .always(let state, let position, let fallback):
            return "\(name(state)) always -> \(target(program.states[state].always[position], fallback))"
        case .timeout(let state, let fallback):
            let timeout = program.states[state].timeout
            let to = timeout.map { target($0.candidate, fallback) } ?? "?"
            return "\(name(state)) timeout -> \(to)"
        case .relaunch(let state):
            return "relaunch in \(name(state))"
        }
    }

    /// Where the item is written in the spec: the state's name, the candidate, the timeout or
    /// its retry, the `persist` key.
    public func location(in machine: Machine, program: FlowProgram) -> SourceLocation {
        switch self {
        case .state(let state):
            return machine.states[state].name.location
        case .transition(let state, let event, let position, let fallback):
            let name = program.events[event].name
            let transitions = machine.transitions(of: state)
            guard let written = transitions.first(where: { machine.names[$0.event.value] == name }) else {
                return machine.states[state].name.location
            }
            return Self.location(of: written.candidates[position], fallback: fallback)
        case .machineWide(let event, let position, let fallback):
            let name = program.events[event].name
            guard let written = machine.machineWide.first(where: { machine.names[$0.event.value] == name }) else {
                return machine.name.location
            }
            return Self.location(of: written.candidates[position], fallback: fallback)
        case .always(let state, let position, let fallback):
            guard let always = machine.states[state].always else { return machine.states[state].name.location }
            return Self.location(of: always.value[position], fallback: fallback)
        case .timeout(let state, let fallback):
            guard let timeout = machine.states[state].timeout else { return machine.states[state].name.location }
            return fallback ? (timeout.retry?.location ?? timeout.location) : timeout.location
        case .relaunch(let state):
            return machine.persist?.location ?? machine.states[state].name.location
        }
    }

    private static func location(of candidate: Candidate, fallback: Bool) -> SourceLocation {
        fallback ? (candidate.retry?.location ?? candidate.location) : candidate.location
    }
}
