/// A machine an importer is reading, in flowspec's terms, before it is a ``MachineSpec``: states
/// are added as the input names them, and their transitions as they are found, in any order
/// (``spec(name:)`` builds the spec the decoder would). A class: the reader changes its states
/// one at a time, and a copy of the reader (a closure may take one) must not make each change
/// copy them all.
final class ImportedMachine {
    struct Candidate {
        /// `nil` for a transition without a target, which runs its effects and stays.
        var target: String?
        var condition: String?
        var unless: String?
        /// The states its guard reads (SCXML's `In()`, XState's `stateIn`): `in:`, `notIn:`.
        var inState: String?
        var notInState: String?
        var effects: [String] = []
        var retry: (max: Int, then: String, effects: [String])?
    }

    struct State {
        var name: String
        var kind: StateKind?
        var summary: String?
        var initial: String?
        /// The effects of the way in through `initial` (SCXML's `<initial>` transition's content).
        var initialEffects: [String] = []
        var entry: [String] = []
        var exit: [String] = []
        var on = EventTransitions()
        var always: [Candidate] = []
        var timeout: (after: Duration, candidate: Candidate)?
        /// `done`'s candidates, tried in order (none: no `done`).
        var done: [Candidate] = []
        var children: [Int] = []
        var isParallel = false
        var deep: Bool?
        var historyDefault: String?
        /// The effects of a history state's default transition.
        var defaultEffects: [String] = []
        var activities: [String] = []
        var parent: Int?
        /// The machine the state runs (a sub-flow), when it invokes one.
        var run: String?
        /// What the input calls the state, where its name differs (`SCXML id 'a/b'`): recorded
        /// in the spec beside it.
        var writtenAs: String?
        /// Where the input writes the state, for the notes about it.
        var location = SourceLocation.start
        /// The events whose search the state ends where it is, written after candidates that
        /// all have conditions (as flowspec's export writes a state's override).
        var endsSearch: Set<String> = []
    }

    var initial: String?
    /// For a machine that is parallel at its top, its parallel state (named after the machine
    /// when built), which holds every state written at the top of the input as a region.
    private(set) var parallelTop: Int?
    /// The machine's summary, when the input gives one.
    var summary: String?
    var states: [State] = []
    var machineWide = EventTransitions()
    var conditions: [String] = []
    /// The conditions, for ``declare(_:)``: a machine may test tens of thousands.
    private var conditionSet: Set<String> = []
    var effects: [String] = []
    /// The events, when the document lists them (else they are those the transitions use).
    var events: [String]?
    /// Activities, with the events each sends.
    var activities: [(name: String, sends: [String])] = []
    /// Conditions made from an expression, with the expression.
    var expressions: [String: String] = [:]
    /// Lines recorded at the top of the machine: what the import took from elsewhere than the
    /// input (a named delay's duration from the command line).
    var recorded: [String] = []
    /// The machines its states run, and those they run in turn.
    var subMachines: [(name: String, machine: ImportedMachine)] = []

    /// The name that stands for the machine's own name until the machine is built, for the
    /// state named after it (the parallel state a machine is at its top, the one state of a
    /// machine that has none): no name read from an input is this.
    static let machineName = "\u{0}"

    /// Makes the machine parallel at its top: the states at its top become the regions of one
    /// parallel state, through which it is entered.
    func makeParallelAtTop() {
        let top = states.indices.filter { states[$0].parent == nil }
        var wrapper = State(name: Self.machineName)
        wrapper.isParallel = true
        wrapper.children = top
        let index = states.count
        for region in top { states[region].parent = index }
        states.append(wrapper)
        parallelTop = index
        initial = nil
    }

    /// Gives a machine written without states (an XState root that waits on its own `on`) its
    /// one state, named after the machine: an input state, which the machine's `on` applies to.
    func makeOneState(at location: SourceLocation) {
        var state = State(name: Self.machineName)
        state.kind = .input
        state.location = location
        states.append(state)
        initial = Self.machineName
    }

    /// Makes the machine parallel at its top when its one state is a parallel state named
    /// `name` (the machine's name), entered first and writing nothing of its own, as flowspec's
    /// SCXML export writes such a machine: the same flow, written as it was.
    func takeParallelTop(ifNamed name: String) {
        let top = states.indices.filter { states[$0].parent == nil }
        guard top.count == 1, let only = top.first, states[only].isParallel, states[only].name == name,
            initial == name
        else { return }
        let state = states[only]
        guard state.on.isEmpty, state.always.isEmpty, state.timeout == nil, state.entry.isEmpty, state.exit.isEmpty,
            state.done.isEmpty, state.activities.isEmpty, state.run == nil, state.summary == nil
        else { return }
        parallelTop = only
        initial = nil
    }

    /// Takes in `child`, named `name`, as a machine one of its states runs, with the machines
    /// `child` runs in turn; returns `name`.
    func adopt(_ child: ImportedMachine, as name: String) -> String {
        subMachines.append((name, child))
        subMachines += child.subMachines
        child.subMachines = []
        return name
    }

    /// Gives a state without a kind of its own its kind from its eventless transitions: a state
    /// that waits for nothing and has some is a choice state; one that waits (`waits`: it has
    /// event transitions or a timeout; or it is `compound`, with states inside) keeps them as
    /// `always` branches while each has a condition, as SCXML takes them after every event. One
    /// without a condition leaves at once whenever the state is entered, so its events and
    /// timeout never come: the state is a choice state, and what it never takes is named
    /// through `note`. A compound or parallel state cannot be one, so there the eventless
    /// transitions from the first without a condition are named and dropped.
    func settleEventless(_ index: Int, waits: Bool, compound: Bool, note: (String) -> Void) {
        let name = states[index].name
        let always = states[index].always
        if !compound, states[index].kind == nil {
            states[index].kind = always.isEmpty || waits ? .input : .choice
        }
        guard waits || compound, let first = always.firstIndex(where: { $0.condition == nil && $0.unless == nil })
        else { return }
        if compound {
            note(
                "not imported: the eventless transition of '\(name)' without a condition; it would leave the state as soon as it is entered, which a flowspec compound or parallel state cannot do"
            )
            states[index].always = Array(always[..<first])
            return
        }
        note(
            "imported as a choice state: '\(name)' leaves at once through an eventless transition without a condition, so its events and timeout never come and are not imported"
        )
        states[index].kind = .choice
        states[index].always = Array(always[...first])
        states[index].on = EventTransitions()
        states[index].timeout = nil
    }

    /// Where an event a state handles only under conditions goes when none holds: SCXML and
    /// XState go on to the states around it, a flowspec state ignores the event (its
    /// override). So, unless the input ends the search there itself, the candidates of the
    /// states around it that handle the event are appended, innermost first, up to one without
    /// a condition, then the machine's; the flow behaves as the original. Not past a parallel
    /// state, whose transitions reach its regions' states through flowspec's own rules. What a candidate
    /// copied down cannot keep is named through `note`, with the state that now holds it: a
    /// retry counts apart, and a target inside the state that wrote it is entered without
    /// leaving that state.
    func compensateFallThrough(note: (Int, String) -> Void) {
        // By name, once: a document may have many states, each handling events under conditions.
        let indexOfName = self.indexOfName()
        for index in states.indices {
            for position in states[index].on.indices {
                let (event, candidates) = states[index].on[position]
                guard !states[index].endsSearch.contains(event), !candidates.contains(where: Self.isUnconditional)
                else { continue }
                var appended: [Candidate] = []
                var ancestor = states[index].parent
                var ended = false
                // A parallel state's transitions reach the states of its regions as flowspec's
                // own (`docs/language.md`, "Parallel states"): the search is not carried past one.
                var inRegion = false
                while let current = ancestor, !ended {
                    ancestor = states[current].parent
                    if states[current].isParallel {
                        inRegion = true
                        break
                    }
                    guard let written = states[current].on.candidates(on: event) else { continue }
                    for candidate in written {
                        if candidate.retry != nil {
                            note(
                                index,
                                "imported with a change: the retry of '\(states[current].name)' on '\(event)', copied to '\(states[index].name)' (which handles '\(event)' only under conditions), counts apart there"
                            )
                        } else if let target = candidate.target, isWithin(indexOfName[target], current) {
                            note(
                                index,
                                "imported with a change: '\(states[current].name)' on '\(event)' to '\(target)', copied to '\(states[index].name)' (which handles '\(event)' only under conditions), no longer leaves and enters '\(states[current].name)'"
                            )
                        }
                    }
                    appended += written
                    ended = written.contains(where: Self.isUnconditional) || states[current].endsSearch.contains(event)
                }
                if !ended, !inRegion, let machineWide = machineWide.candidates(on: event) {
                    appended += machineWide
                }
                if !appended.isEmpty { states[index].on.append(event, appended) }
            }
        }
    }

    private static func isUnconditional(_ candidate: Candidate) -> Bool {
        candidate.condition == nil && candidate.unless == nil && candidate.inState == nil && candidate.notInState == nil
    }

    /// Each state's index by its name (the first, where two share one).
    func indexOfName() -> [String: Int] {
        var indexOfName: [String: Int] = [:]
        for (index, state) in states.enumerated() where indexOfName[state.name] == nil {
            indexOfName[state.name] = index
        }
        return indexOfName
    }

    /// Whether the state at `state` stands inside the state at `index`, or is it.
    func isWithin(_ state: Int?, _ index: Int) -> Bool {
        guard var current = state else { return false }
        while true {
            if current == index { return true }
            guard let parent = states[current].parent else { return false }
            current = parent
        }
    }

    /// Declares `condition` (once); returns it.
    func declare(_ condition: String) -> String {
        if conditionSet.insert(condition).inserted { conditions.append(condition) }
        return condition
    }
}

/// A state's (or the machine's) transitions by event, in the order their events first come,
/// with each event's place in a table: a state may handle tens of thousands of events, and
/// adding to one must not look through the others.
struct EventTransitions: RandomAccessCollection {
    typealias Element = (event: String, candidates: [ImportedMachine.Candidate])

    private var list: [Element] = []
    private var positions: [String: Int] = [:]

    var startIndex: Int { list.startIndex }
    var endIndex: Int { list.endIndex }
    subscript(position: Int) -> Element { list[position] }

    /// Whether there are candidates on `event`.
    func handles(_ event: String) -> Bool { positions[event] != nil }

    /// The candidates on `event`, if any.
    func candidates(on event: String) -> [ImportedMachine.Candidate]? { positions[event].map { list[$0].candidates } }

    /// Adds candidates on `event`, after those it has.
    mutating func append(_ event: String, _ candidates: [ImportedMachine.Candidate]) {
        if let position = positions[event] {
            list[position].candidates += candidates
        } else {
            positions[event] = list.count
            list.append((event, candidates))
        }
    }
}

extension ImportedMachine {
    /// The spec of this machine, named `name`, and of the machines its states run: the spec the
    /// decoder builds from the text ``text(name:)`` prints. Beside it, by machine, the comments
    /// that say where names came from.
    func spec(name: String) -> (spec: Spec, comments: [String: SpecWriter.Comments]) {
        var spec = Spec()
        var comments: [String: SpecWriter.Comments] = [:]
        for (name, imported) in [(name, self)] + subMachines {
            var builder = ImportedMachineBuilder(imported, name: name)
            builder.build()
            spec.machines.append(builder.machine)
            comments[name] = builder.comments
        }
        return (spec, comments)
    }

    /// The spec as `flowspec import` prints it.
    func text(name: String) -> String {
        let (spec, comments) = spec(name: name)
        return SpecWriter.text(spec, comments: comments)
    }
}

/// Builds the ``MachineSpec`` an ``ImportedMachine`` describes. Its states come in document order,
/// each before the states inside it, as the decoder keeps them. Everything is located at the
/// input's start: the spec is printed, and checked from its text.
private struct ImportedMachineBuilder {
    private let imported: ImportedMachine
    private(set) var machine: MachineSpec
    private(set) var comments = SpecWriter.Comments()
    private let at = SourceLocation.start

    /// The names events and effects are given in the spec.
    private var events: SafeNames
    private var effects: SafeNames

    init(_ imported: ImportedMachine, name: String) {
        self.imported = imported
        machine = MachineSpec(name: Located(name, at: .start))
        // Each name once: a machine of many states writes the same events in each.
        var events = Set(imported.events ?? [])
        events.formUnion(imported.machineWide.lazy.map(\.event))
        for state in imported.states { events.formUnion(state.on.lazy.map(\.event)) }
        for activity in imported.activities { events.formUnion(activity.sends) }
        self.events = SafeNames(kind: "event", written: events)
        effects = SafeNames(kind: "effect", written: Set(imported.effects))
    }

    mutating func build() {
        machine.summary = imported.summary
        machine.initial = imported.initial.map { located($0 == ImportedMachine.machineName ? machine.name.value : $0) }
        if imported.parallelTop != nil {
            machine.parallelAtTop = at
            machine.initial = machine.initial ?? machine.name
        }
        machine.conditions = imported.conditions.isEmpty ? nil : imported.conditions.map(located)
        comments.conditions = imported.expressions
        machine.events = imported.events.map { $0.map { event($0) } }
        machine.effects = imported.effects.isEmpty ? nil : imported.effects.map { effect($0) }
        if !imported.activities.isEmpty {
            var activities: [Activity] = []
            for activity in imported.activities {
                var built = Activity(name: located(activity.name))
                built.sends = activity.sends.map { event($0) }
                activities.append(built)
            }
            machine.activities = activities
        }
        for (event, candidates) in imported.machineWide {
            let transition = transition(event, candidates)
            machine.machineWide.append(transition)
        }
        var parents: [Int32] = []
        for index in imported.states.indices where imported.states[index].parent == nil {
            add(index, parent: -1, &parents)
        }
        machine.nesting.setParents(parents)
        comments.names = events.renamed + effects.renamed + imported.recorded
    }

    /// Adds a state, then the states inside it.
    private mutating func add(_ index: Int, parent: Int32, _ parents: inout [Int32]) {
        let source = imported.states[index]
        let position = machine.states.count
        var state = StateSpec(name: name(source.name), kind: source.kind ?? .task)
        if source.kind != nil { state.kindLocation = at }
        state.summary = source.summary
        if !source.on.isEmpty {
            state.onLocation = at
            var transitions: [EventTransition] = []
            for (event, candidates) in source.on { transitions.append(transition(event, candidates)) }
            let run = machine.transitionStore.startRun(reserving: transitions.count)
            for transition in transitions { machine.transitionStore.append(transition) }
            state.transitionRun = machine.transitionStore.endRun(startedAt: run)
        }
        if !source.always.isEmpty {
            var candidates: [Candidate] = []
            for candidate in source.always { candidates.append(self.candidate(candidate)) }
            state.always = Located(Candidates(candidates), at: at)
        }
        if let timeout = source.timeout {
            state.timeoutLocation = at
            // The readers give a timeout a target (a delay without one is reported instead).
            state.timeout = Timeout(
                location: at, after: Located(timeout.after, at: at), target: name(timeout.candidate.target ?? ""),
                effects: timeout.candidate.effects.map { effect($0) }, retry: timeout.candidate.retry.map { retry($0) })
        }
        machine.states.append(state)
        parents.append(parent)
        if let details = details(of: source) { machine.nesting.details[position] = details }
        comments.states[position] = source.writtenAs
        for child in source.children { add(child, parent: Int32(position), &parents) }
    }

    /// What a state writes about entering, leaving and finishing it, if anything.
    private mutating func details(of source: ImportedMachine.State) -> StateDetails? {
        var details = StateDetails()
        details.entry = source.entry.map { effect($0) }
        details.exit = source.exit.map { effect($0) }
        details.initial = source.initial.map(located)
        if details.initial != nil { details.initialEffects = source.initialEffects.map { effect($0) } }
        if !source.done.isEmpty { details.done = Located(Candidates(source.done.map { candidate($0) }), at: at) }
        if !source.children.isEmpty {
            if source.isParallel { details.parallelLocation = at } else { details.statesLocation = at }
        }
        if source.deep == true { details.deep = Located(true, at: at) }
        details.historyDefault = source.historyDefault.map { name($0) }
        if details.historyDefault != nil { details.defaultEffects = source.defaultEffects.map { effect($0) } }
        details.run = source.run.map(located)
        details.activities = source.activities.map(located)
        if !details.activities.isEmpty { details.activitiesLocation = at }
        let wrote =
            !details.entry.isEmpty || !details.exit.isEmpty || details.initial != nil || details.done != nil
            || details.statesLocation != nil || details.parallelLocation != nil || details.deep != nil
            || details.historyDefault != nil || details.run != nil || !details.activities.isEmpty
        return wrote ? details : nil
    }

    private mutating func transition(_ event: String, _ candidates: [ImportedMachine.Candidate]) -> EventTransition {
        var built: [Candidate] = []
        for candidate in candidates { built.append(self.candidate(candidate)) }
        return EventTransition(event: name(events.name(event)), candidates: Candidates(built))
    }

    private mutating func candidate(_ candidate: ImportedMachine.Candidate) -> Candidate {
        var built = Candidate(
            location: at, target: candidate.target.map { name($0) }, condition: candidate.condition.map(located),
            unlessCondition: candidate.unless.map(located), effects: candidate.effects.map { effect($0) },
            retry: candidate.retry.map { retry($0) })
        if let state = candidate.inState { built.inState = name(state) }
        if let state = candidate.notInState { built.notInState = name(state) }
        return built
    }

    private mutating func retry(_ retry: (max: Int, then: String, effects: [String])) -> Retry {
        Retry(
            location: at, max: Located(retry.max, at: at), then: name(retry.then),
            effects: retry.effects.map { effect($0) })
    }

    /// A name of the machine's table.
    private mutating func name(_ text: String) -> Located<Name> {
        // A state named after the machine (a parallel top, a one-state machine's) gets its name.
        Located(machine.names.intern(text == ImportedMachine.machineName ? machine.name.value : text), at: at)
    }

    private func located(_ text: String) -> Located<String> { Located(text, at: at) }

    private mutating func event(_ text: String) -> Located<String> { located(events.name(text)) }

    private mutating func effect(_ text: String) -> Located<String> { located(effects.name(text)) }
}

/// The names an importer gives one kind of name (events, effects): each as written when it can
/// become a Swift identifier, else made safe as a state id is (`FreezeAction::triggered(bool)`
/// → `FreezeAction__triggered_bool_`) and kept unique; what was written is recorded in a
/// comment, as a state's id is.
private struct SafeNames {
    private let kind: String
    /// The names as written that are kept, and those given so far.
    private var taken: Set<String>
    private var given: [String: String] = [:]
    /// A comment line for each name made safe, in the order they were met.
    private(set) var renamed: [String] = []

    /// `written`: every name of the kind the input writes, so that none made safe takes one.
    init(kind: String, written: Set<String>) {
        self.kind = kind
        taken = Set(written.filter(Self.isIdentifier))
    }

    private static func isIdentifier(_ name: String) -> Bool {
        if case .success = SwiftName.make(name, scope: .enumCase) { return true }
        return false
    }

    /// The name a written name is given.
    mutating func name(_ written: String) -> String {
        if let name = given[written] { return name }
        var name = written
        if !Self.isIdentifier(written) {
            name = SCXMLMachineReader.safeName(written)
            if !Self.isIdentifier(name) {
                // Letters, digits and `_` after the kind's word: an identifier whatever was written.
                name = kind + "_" + String(written.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
            }
            while taken.contains(name) { name += "_" }
            taken.insert(name)
            renamed.append("\(kind) '\(written)' is \(name)")
        }
        given[written] = name
        return name
    }
}
