/// One thing a run of a machine can exercise, and a test suite of it should: a state entered,
/// a compound state entered, a candidate of a transition taken (each `always` branch, each
/// timeout, each retry's `then` once the retry is used up, each transition of a compound state
/// or of the machine from some state that inherits it, each `done`), a history state taking its
/// default and resuming what was recorded, an outcome of a machine run, or, for a persisted
/// machine, a relaunch in a state.
///
/// Generated paths cover them, and `flowspec coverage` counts them in recorded traces.
public enum CoverageItem: Sendable, Hashable {
    /// The state was entered.
    case state(Int)
    /// A candidate of a state's own transition on an event.
    case transition(state: Int, event: Int, candidate: Int, fallback: Bool)
    /// A candidate of a machine-wide transition, from any state that inherits it.
    case machineWide(event: Int, candidate: Int, fallback: Bool)
    /// A compound state was entered (some state inside it was).
    case compound(Int)
    /// A candidate of a compound state's transition, from any state inside it that inherits it.
    case outer(compound: Int, event: Int, candidate: Int, fallback: Bool)
    /// A compound state's timeout, from any state inside it.
    case outerTimeout(compound: Int, fallback: Bool)
    /// A candidate of a compound state's `done`.
    case done(compound: Int, candidate: Int, fallback: Bool)
    /// An `always` branch a state writes: a choice state's, or one a state that waits takes.
    case always(state: Int, candidate: Int, fallback: Bool)
    /// An `always` branch of a compound state, from any state inside it.
    case outerAlways(compound: Int, candidate: Int, fallback: Bool)
    /// A state's timeout.
    case timeout(state: Int, fallback: Bool)
    /// The app was relaunched in a state (stored, restored, continued).
    case relaunch(state: Int)
    /// A machine a state runs ended in this outcome (the state, by index, that stands for it),
    /// and the flow went where a candidate of the running state's `done` says.
    case outcome(state: Int, candidate: Int, fallback: Bool)
    /// A history state (by index in the program's histories) was taken: resuming the state its
    /// compound state was last left in, or (`resumed` false) its default, never left.
    case history(Int, resumed: Bool)

    /// The item a move of the reference runtime exercises.
    public init(_ move: ProgramRun.Move, in program: FlowProgram) {
        switch move.via {
        case .event(let event):
            let state = program.states[move.from]
            let position = state.transitionPosition(of: event) ?? 0
            switch position < state.scopes.count ? state.scopes[position] : .own {
            case .own:
                self = .transition(
                    state: move.from, event: event, candidate: move.candidate, fallback: move.fellBack)
            case .compound(let compound):
                self = .outer(compound: compound, event: event, candidate: move.candidate, fallback: move.fellBack)
            case .machine:
                self = .machineWide(event: event, candidate: move.candidate, fallback: move.fellBack)
            }
        case .always where program.states[move.from].outcomeOf != nil:
            self = .outcome(state: move.from, candidate: move.candidate, fallback: move.fellBack)
        case .always:
            self = .always(state: move.from, candidate: move.candidate, fallback: move.fellBack)
        case .eventless:
            let state = program.states[move.from]
            switch state.eventlessScopes[move.candidate] {
            case .compound(let compound):
                let first = state.eventlessScopes.firstIndex(of: .compound(compound)) ?? move.candidate
                self = .outerAlways(
                    compound: compound, candidate: move.candidate - first, fallback: move.fellBack)
            case .own, .machine:
                self = .always(state: move.from, candidate: move.candidate, fallback: move.fellBack)
            }
        case .timeout:
            self = .timeout(state: move.from, fallback: move.fellBack)
        case .outerTimeout(let compound):
            self = .outerTimeout(compound: compound, fallback: move.fellBack)
        case .done:
            self = .done(
                compound: program.states[move.from].ancestors.first ?? 0, candidate: move.candidate,
                fallback: move.fellBack)
        case .parallelDone(let compound):
            self = .done(compound: compound, candidate: move.candidate, fallback: move.fellBack)
        }
    }

    /// The items a move exercises: its transition's, and the history state's it goes through.
    public static func items(of move: ProgramRun.Move, in program: FlowProgram) -> [CoverageItem] {
        let item = CoverageItem(move, in: program)
        guard let history = move.history else { return [item] }
        return [item, .history(history, resumed: move.resumed)]
    }

    /// The items entering a state exercises: the state, and each compound state around it.
    public static func entering(_ state: Int, in program: FlowProgram) -> [CoverageItem] {
        [.state(state)] + program.states[state].ancestors.map(CoverageItem.compound)
    }

    /// What a kind of item is called in reports.
    public enum Kind: String, Sendable, CaseIterable {
        case state, transition, timeout, outcome, relaunch
    }

    /// The kind: `always` branches, machine-wide transitions and retries' `then` count as
    /// transitions.
    public var kind: Kind {
        switch self {
        case .state: .state
        case .compound: .state
        case .transition, .machineWide, .always, .outerAlways, .outer, .done, .history: .transition
        case .timeout, .outerTimeout: .timeout
        case .outcome: .outcome
        case .relaunch: .relaunch
        }
    }

    /// Every item of a machine, in a stable order: states, compound states, then each state's
    /// transitions, `always` branches and timeout, then each compound state's transitions,
    /// timeout and `done`, then the machine-wide transitions, then relaunches.
    public static func all(in program: FlowProgram) -> [CoverageItem] {
        var items = program.states.indices.map { CoverageItem.state($0) }
        items += program.compounds.indices.map { CoverageItem.compound($0) }
        var machineWide: [CoverageItem] = []
        var seenMachineWide = Set<Int>()
        var outer = [[CoverageItem]](repeating: [], count: program.compounds.count)
        var seenOuter = Set<[Int]>()
        for (index, state) in program.states.enumerated() {
            for (position, transition) in state.transitions.enumerated() {
                let scope = position < state.scopes.count ? state.scopes[position] : .own
                if case .compound(let compound) = scope,
                    !seenOuter.insert([compound, transition.event]).inserted
                {
                    continue
                }
                if case .machine = scope, !seenMachineWide.insert(transition.event).inserted { continue }
                for (candidate, option) in transition.candidates.enumerated() {
                    let retries = option.retry == nil ? [false] : [false, true]
                    for fallback in retries {
                        switch scope {
                        case .own:
                            items.append(
                                .transition(
                                    state: index, event: transition.event, candidate: candidate, fallback: fallback))
                        case .compound(let compound):
                            outer[compound].append(
                                .outer(
                                    compound: compound, event: transition.event, candidate: candidate,
                                    fallback: fallback))
                        case .machine:
                            machineWide.append(
                                .machineWide(event: transition.event, candidate: candidate, fallback: fallback))
                        }
                    }
                }
            }
            if state.outcomeOf != nil {
                for (candidate, option) in state.always.enumerated() {
                    for fallback in option.retry == nil ? [false] : [false, true] {
                        items.append(.outcome(state: index, candidate: candidate, fallback: fallback))
                    }
                }
                continue
            }
            for (candidate, option) in state.ownAlways.enumerated() {
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
        for (index, compound) in program.compounds.enumerated() {
            items += outer[index]
            for (candidate, option) in program.outerEventless(of: index).enumerated() {
                for fallback in option.retry == nil ? [false] : [false, true] {
                    items.append(.outerAlways(compound: index, candidate: candidate, fallback: fallback))
                }
            }
            if let timeout = compound.timeout {
                for fallback in timeout.candidate.retry == nil ? [false] : [false, true] {
                    items.append(.outerTimeout(compound: index, fallback: fallback))
                }
            }
            let hasTerminal = program.states.contains { !$0.done.isEmpty && $0.ancestors.first == index }
            if hasTerminal || compound.isParallel {
                for (candidate, option) in compound.done.enumerated() {
                    for fallback in option.retry == nil ? [false] : [false, true] {
                        items.append(.done(compound: index, candidate: candidate, fallback: fallback))
                    }
                }
            }
            for (history, written) in program.histories.enumerated() where written.compound == index {
                items += [.history(history, resumed: false), .history(history, resumed: true)]
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

    /// The item in words: `'authLoading' on 'networkError' -> 'authLoading'`, or
    /// `'codeEntry' on 'resend' -> (stays)` for a transition without a target.
    public func description(in program: FlowProgram) -> String {
        func name(_ state: Int) -> String { "'\(program.states[state].name)'" }
        func target(_ candidate: FlowProgram.Candidate, _ fallback: Bool) -> String {
            if candidate.isTargetless { return "(stays)" }
            return fallback
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
                state.transitions.indices.first { state.scopes[$0] == .machine && state.transitions[$0].event == event }
                    .map { state.transitions[$0] }
            }.first?.candidates[position]
            let to = candidate.map { target($0, fallback) } ?? "?"
            return "machine-wide '\(program.events[event].name)' -> \(to)"
        case .compound(let compound):
            return "compound state '\(program.compounds[compound].name)'"
        case .outer(let compound, let event, let position, let fallback):
            let candidate = program.states.lazy.compactMap { state in
                state.transitions.indices.first {
                    state.scopes[$0] == .compound(compound) && state.transitions[$0].event == event
                }.map { state.transitions[$0] }
            }.first?.candidates[position]
            let to = candidate.map { target($0, fallback) } ?? "?"
            return "'\(program.compounds[compound].name)' on '\(program.events[event].name)' -> \(to)"
        case .outerTimeout(let compound, let fallback):
            let to = program.compounds[compound].timeout.map { target($0.candidate, fallback) } ?? "?"
            return "'\(program.compounds[compound].name)' timeout -> \(to)"
        case .done(let compound, let position, let fallback):
            let done = program.compounds[compound].done
            let to = done.indices.contains(position) ? target(done[position], fallback) : "?"
            return "'\(program.compounds[compound].name)' done -> \(to)"
        case .always(let state, let position, let fallback):
            return "\(name(state)) always -> \(target(program.states[state].ownAlways[position], fallback))"
        case .outerAlways(let compound, let position, let fallback):
            let to = target(program.outerEventless(of: compound)[position], fallback)
            return "'\(program.compounds[compound].name)' always -> \(to)"
        case .timeout(let state, let fallback):
            let timeout = program.states[state].timeout
            let to = timeout.map { target($0.candidate, fallback) } ?? "?"
            return "\(name(state)) timeout -> \(to)"
        case .relaunch(let state):
            return "relaunch in \(name(state))"
        case .outcome(let state, let position, let fallback):
            let written = program.states[state]
            let compound = written.outcomeOf.map { program.compounds[$0] }
            let outcome = compound.map { String(written.name.dropFirst($0.name.count + 1)) } ?? written.name
            let to = written.always.indices.contains(position) ? target(written.always[position], fallback) : "?"
            return "'\(compound?.name ?? "?")' outcome '\(outcome)' of \(compound?.runs?.machine.name ?? "?") -> \(to)"
        case .history(let history, let resumed):
            let written = program.histories[history]
            return resumed
                ? "history '\(written.name)' resumes where '\(program.compounds[written.compound].name)' was left"
                : "history '\(written.name)' -> \(name(written.defaultTarget)) (never left)"
        }
    }

    /// Where the item is written in the spec: the state's name, the candidate, the timeout or
    /// its retry, the `persist` key.
    public func location(in machine: MachineSpec, program: FlowProgram) -> SourceLocation {
        func spec(_ state: Int) -> Int { program.states[state].specIndex }
        switch self {
        case .state(let state):
            return machine.states[spec(state)].name.location
        case .transition(let state, let event, let position, let fallback):
            return Self.location(of: event, position, fallback, writtenBy: spec(state), in: machine, program: program)
        case .compound(let compound):
            return machine.states[program.compounds[compound].specIndex].name.location
        case .outer(let compound, let event, let position, let fallback):
            let index = program.compounds[compound].specIndex
            return Self.location(of: event, position, fallback, writtenBy: index, in: machine, program: program)
        case .outerTimeout(let compound, let fallback):
            let index = program.compounds[compound].specIndex
            guard let timeout = machine.states[index].timeout else { return machine.states[index].name.location }
            return fallback ? (timeout.retry?.location ?? timeout.location) : timeout.location
        case .done(let compound, let position, let fallback):
            let index = program.compounds[compound].specIndex
            guard let done = machine.nesting.details[index]?.done, done.value.indices.contains(position) else {
                return machine.states[index].name.location
            }
            return Self.location(of: done.value[position], fallback: fallback)
        case .machineWide(let event, let position, let fallback):
            let name = program.events[event].name
            guard let written = machine.machineWide.first(where: { machine.names[$0.event.value] == name }) else {
                return machine.name.location
            }
            return Self.location(of: written.candidates[position], fallback: fallback)
        case .outcome(let state, let position, let fallback):
            guard let always = machine.states[spec(state)].always, always.value.indices.contains(position) else {
                return machine.states[spec(state)].name.location
            }
            return Self.location(of: always.value[position], fallback: fallback)
        case .always(let state, let position, let fallback):
            guard let always = machine.states[spec(state)].always else {
                return machine.states[spec(state)].name.location
            }
            return Self.location(of: always.value[position], fallback: fallback)
        case .outerAlways(let compound, let position, let fallback):
            let index = program.compounds[compound].specIndex
            guard let always = machine.states[index].always else { return machine.states[index].name.location }
            return Self.location(of: always.value[position], fallback: fallback)
        case .timeout(let state, let fallback):
            guard let timeout = machine.states[spec(state)].timeout else {
                return machine.states[spec(state)].name.location
            }
            return fallback ? (timeout.retry?.location ?? timeout.location) : timeout.location
        case .relaunch(let state):
            return machine.persist?.location ?? machine.states[spec(state)].name.location
        case .history(let history, _):
            return machine.states[program.histories[history].specIndex].name.location
        }
    }

    /// Where a state of the spec writes a candidate of its transition on an event.
    private static func location(
        of event: Int, _ position: Int, _ fallback: Bool, writtenBy state: Int, in machine: MachineSpec,
        program: FlowProgram
    ) -> SourceLocation {
        let name = program.events[event].name
        let transitions = machine.transitions(of: state)
        guard let written = transitions.first(where: { machine.names[$0.event.value] == name }) else {
            return machine.states[state].name.location
        }
        return location(of: written.candidates[position], fallback: fallback)
    }

    private static func location(of candidate: Candidate, fallback: Bool) -> SourceLocation {
        fallback ? (candidate.retry?.location ?? candidate.location) : candidate.location
    }
}
