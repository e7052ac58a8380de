/// `flowspec export --format xstate`: a checked machine as the JSON config that XState v5's
/// `createMachine` (or `setup({ guards, actions, actors }).createMachine`) accepts, and that
/// Stately's editor opens (docs/interop.md gives the mapping and the reasons for each choice).
///
/// The config keeps the spec's structure: a state is a state node, a compound state holds its
/// states, a parallel state has `type: "parallel"`, a history state `type: "history"`. A
/// timeout is `after`, a condition a named guard, an effect a named action, an activity an
/// invoked actor; a task state is a state that waits on its events. Where flowspec decides
/// what XState leaves to the author, the config says it in XState's terms: a state that
/// handles an event ends the search for a transition with a targetless transition, and a
/// transition into the state it leaves, or a state inside it, re-enters it (`reenter`). A
/// bounded retry is a parameterized guard and action the app implements (docs/interop.md
/// gives them), and what XState cannot hold is listed in the machine's `meta`.
public enum XStateExporter {
    /// The config of a checked machine (one without errors): the same machine always gives the
    /// same bytes.
    public static func config(_ graph: MachineGraph) -> String {
        var output = ""
        var writer = XStateConfigWriter(graph.machine, states: graph.stateIndex)
        writer.root().writeDocument(to: &output)
        return output
    }

    /// The guard that tests a candidate's conditions and retry count together, where one named
    /// guard cannot: its params are `if`, `unless` (condition names), `retry` (a counter) with
    /// `below` or `atLeast` (a bound).
    public static let guardType = "flowspec.when"
    /// The action that counts a retry: its param `retry` names the counter.
    public static let countAction = "flowspec.retry.count"
    /// The entry action of `input` and `terminal` states: every retry counter starts again.
    public static let resetAction = "flowspec.retry.reset"
    /// The member of the machine's `meta.flowspec` that lists the machine's events named as
    /// XState names its own (`xstate.…`, `done.…`, `error.…`): the spec's events, written as
    /// they are, which `flowspec import` would otherwise take for XState's and leave out.
    public static let ownEventsKey = "eventsNamedLikeXState"
}

/// Writes one machine as an XState config (see ``XStateExporter``).
struct XStateConfigWriter {
    typealias Node = JSONNode

    let machine: MachineSpec
    /// The machine's states by name.
    let states: StateIndex
    let nesting: Nesting
    /// Per state, its key among its siblings (its name), and whether a target elsewhere names it
    /// by id (`#name`), so that it carries an `id`.
    var keys: [String] = []
    var needsID: [Bool] = []
    /// Router states for transitions into a history state from inside its compound state, by
    /// the compound state: created as transitions need them.
    var routers: [Int: String] = [:]
    var routerNodes: [Int: [(key: String, value: Node)]] = [:]
    var slots = 0
    /// Whether the machine has a bounded retry, whose counts its input and terminal states
    /// start again.
    let hasRetries: Bool
    /// Where XState, run on this config, would do otherwise than flowspec: listed in the
    /// machine's meta (see ``regionAncestors(of:)``).
    var differences: [String] = []
    /// The machine's events that XState's naming would claim (``XStateExporter/ownEventsKey``).
    var ownEvents: Set<String> = []

    init(_ machine: MachineSpec, states: StateIndex) {
        self.machine = machine
        self.states = states
        self.nesting = machine.nesting
        hasRetries = machine.boundedRetryCount > 0
        keys = machine.states.indices.map { machine.name(of: $0) }
        needsID = Array(repeating: false, count: machine.states.count)
    }

    /// Whether the machine is parallel at its top and starts there: its config's root is then
    /// the parallel state (its first state), and a target naming that state names the root.
    var isParallelRoot: Bool {
        machine.parallelAtTop != nil && machine.initial.map(machine.entersAtTop) == true
    }

    /// The index of the state named `name` (a checked machine names only its own states).
    private func stateNamed(_ name: Name) -> Int { states[name] ?? 0 }

    // MARK: - The config

    mutating func root() -> Node {
        // Targets first: which states need an id is known only once every target is written.
        let machineOn = on(machine.machineWide.map { ($0.event.value, $0.candidates) }, from: nil, overriding: [])
        var top: [(key: String, value: Node)] = []
        for index in machine.states.indices where nesting.parent(of: index) == nil {
            top.append((keys[index], state(index)))
        }
        if isParallelRoot, case .members(let own) = withIDs(top[0].value) {
            // The machine is its parallel state: the root is that state, `type: "parallel"`.
            var members: [(key: String, value: Node)] = [("id", .string(machine.name.value))]
            if let summary = machine.summary { members.append(("description", .string(summary))) }
            members += own.filter { !["id", "description", "states"].contains($0.key) }
            let meta = rootMeta()
            if !meta.isEmpty { members.append(("meta", .members([("flowspec", .members(meta))]))) }
            if !machineOn.isEmpty { members.append(("on", .members(machineOn))) }
            members += own.filter { $0.key == "states" }
            return .members(members)
        }
        var initial: String?
        if let written = machine.initial {
            // XState's `initial` names a state directly inside; a flow that starts deeper starts
            // in a router that goes on to its state at once.
            let index = machine.states.indices.first { machine.name(of: $0) == written.value } ?? 0
            if nesting.parent(of: index) == nil {
                initial = keys[index]
            } else {
                var router = "start_" + keys[index]
                let names = Set(keys)
                while names.contains(router) { router += "_" }
                top.append((router, Self.router(reference(index, from: nil))))
                initial = router
            }
        }
        top = top.map { ($0.key, withIDs($0.value)) }
        var members: [(key: String, value: Node)] = [("id", .string(machine.name.value))]
        if let summary = machine.summary { members.append(("description", .string(summary))) }
        if let initial { members.append(("initial", .string(initial))) }
        let meta = rootMeta()
        if !meta.isEmpty { members.append(("meta", .members([("flowspec", .members(meta))]))) }
        if !machineOn.isEmpty { members.append(("on", .members(machineOn))) }
        members.append(("states", .members(top)))
        return .members(members)
    }

    /// What the machine declares that XState has no place for, kept for `flowspec import`, and
    /// what is not carried over at all.
    private func rootMeta() -> [(key: String, value: Node)] {
        var meta: [(key: String, value: Node)] = []
        // The conditions, all of them: a guard names only those a transition tests.
        if let conditions = machine.conditions, !conditions.isEmpty {
            meta.append(("conditions", .array(conditions.map { .string($0.value) })))
        }
        if let events = machine.events { meta.append(("events", .array(events.map { .string($0.value) }))) }
        if let activities = machine.activities, !activities.isEmpty {
            meta.append(
                (
                    "activities",
                    .members(activities.map { ($0.name.value, .array($0.sends.map { .string($0.value) })) })
                ))
        }
        let left = machine.sectionsNotCarriedOver
        if !left.isEmpty { meta.append(("notCarriedOver", .array(left.map { .string($0) }))) }
        if !differences.isEmpty { meta.append(("differsInXState", .array(differences.map { .string($0) }))) }
        if !ownEvents.isEmpty {
            meta.append((XStateExporter.ownEventsKey, .array(ownEvents.sorted().map { .string($0) })))
        }
        return meta
    }

    /// A state's node; `id` members are added once every target is known (``withIDs(_:)``).
    private mutating func state(_ index: Int) -> Node {
        if machine.isHistory(index) { return history(index) }
        let spec = machine.states[index]
        var members: [(key: String, value: Node)] = []
        members.append(("id", .string("\u{0}\(index)")))  // a placeholder: see withIDs
        if machine.isParallel(index) {
            members.append(("type", .string("parallel")))
        } else if isFinal(index) {
            members.append(("type", .string("final")))
        }
        if let summary = spec.summary { members.append(("description", .string(summary))) }
        if machine.isCompound(index), !machine.isParallel(index) {
            let children = nesting.children(of: index)
            let initial =
                nesting.details[index]?.initial.map { written in
                    children.first { machine.name(of: $0) == written.value }
                } ?? children.first { !machine.isHistory($0) }
            let effects = nesting.details[index]?.initialEffects ?? []
            if let initial = initial ?? nil {
                let key = effects.isEmpty ? keys[initial] : wayIn(in: index, to: initial, from: initial, effects)
                members.append(("initial", .string(key)))
            }
        }
        if machine.isLeaf(index) {
            members.append(("meta", .members([("flowspec", .members([("kind", .string(spec.kind.rawValue))]))])))
        }
        var entry: [Node] = []
        if machine.isLeaf(index), spec.kind == .input || spec.kind == .terminal, hasRetries {
            entry.append(.members([("type", .string(XStateExporter.resetAction))]))
        }
        entry += nesting.entry(of: index).map { .string($0.value) }
        if !entry.isEmpty { members.append(("entry", .array(entry))) }
        let exit = nesting.exit(of: index).map { Node.string($0.value) }
        if !exit.isEmpty { members.append(("exit", .array(exit))) }
        let activities = nesting.details[index]?.activities.map(\.value) ?? []
        if !activities.isEmpty {
            members.append(("invoke", .array(activities.map { .members([("src", .string($0))]) })))
        }

        let own = machine.transitions(of: index)
        var events = (0..<own.count).map { (own[$0].event.value, own[$0].candidates) }
        var ignored: [String] = []
        // A terminal state that rests (the flow, or its region, has ended) ignores what the
        // states around it handle, their timeouts too.
        let handledAround = eventsHandledInRegion(around: index)
        if machine.isLeaf(index), spec.kind == .terminal {
            ignored = handledAround.sorted()
            events = []
            for ancestor in regionAncestors(of: index).reversed() {
                if let event = afterEvent(ancestor) { ignored.append(event) }
            }
            for event in ignored { noteIgnored(event, in: index) }
            noteRegionsEnding(around: index)
        }
        var transitions = on(events, from: index, overriding: handledAround)
        transitions += ignored.map { ($0, Node.members([])) }
        if !transitions.isEmpty { members.append(("on", .members(transitions))) }
        if let timeout = spec.timeout, let after = timeout.after {
            let candidate = Candidate(
                location: timeout.location, target: timeout.target, effects: timeout.effects, retry: timeout.retry)
            members.append(
                ("after", .members([("\(after.value.wholeMilliseconds)", list(Candidates(candidate), from: index))])))
        }
        if let always = spec.always { members.append(("always", list(always.value, from: index))) }
        if let done = nesting.details[index]?.done { members.append(("onDone", list(done.value, from: index))) }
        let children = nesting.children(of: index)
        if !children.isEmpty {
            var states = children.map { (key: keys[$0], value: state($0)) }
            states += routerNodes[index] ?? []
            members.append(("states", .members(states)))
        }
        return .members(members)
    }

    private mutating func history(_ index: Int) -> Node {
        let details = nesting.details[index]
        let target = machine.historyDefault(of: index, states: states)
        let effects = machine.historyDefaultEffects(of: index)
        var way = reference(target, from: index)
        if !effects.isEmpty, let parent = nesting.parent(of: index) {
            way = .string(wayIn(in: parent, to: target, from: index, effects))
        }
        return .members([
            ("id", .string("\u{0}\(index)")), ("type", .string("history")),
            ("history", .string(details?.deep?.value == true ? "deep" : "shallow")), ("target", way)
        ])
    }

    /// A router inside `parent` that a way in with effects goes through, on to `target` (named
    /// from `sibling`, a state beside the router): XState's `initial` and a history state's
    /// `target` run no actions, a transition does. Returns the router's key.
    private mutating func wayIn(in parent: Int, to target: Int, from sibling: Int, _ effects: [Located<String>])
        -> String
    {
        let taken = Set(keys).union((routerNodes[parent] ?? []).map(\.key))
        var name = "initial_" + keys[target]
        while taken.contains(name) { name += "_" }
        let onward = Node.members([
            ("target", reference(target, from: sibling)), ("actions", .array(effects.map { .string($0.value) }))
        ])
        routerNodes[parent, default: []].append((name, Self.router(onward)))
        return name
    }

    /// The states around a state up to its region of the innermost parallel state around it
    /// (all of them when there is none), innermost first.
    ///
    /// XState looks for a transition in each region of a parallel state, and only if none of
    /// them has one in the parallel state and those around it; SCXML, and flowspec, look from
    /// each state the flow is in up to the top. A targetless transition that overrides or
    /// ignores an event is therefore written only for events of states inside the region:
    /// one for an event of the parallel state or those around it would keep XState from taking
    /// the transition that another region of flowspec's takes.
    private func regionAncestors(of index: Int) -> [Int] {
        var ancestors: [Int] = []
        for ancestor in nesting.ancestors(of: index) {
            if machine.isParallel(ancestor) { break }
            ancestors.append(ancestor)
        }
        return ancestors
    }

    /// The events the states of ``regionAncestors(of:)`` handle, and the machine's when the
    /// state is in no parallel state.
    private func eventsHandledInRegion(around index: Int) -> Set<String> {
        let ancestors = regionAncestors(of: index)
        guard ancestors.count < nesting.ancestors(of: index).count else { return machine.eventsHandled(around: index) }
        var handled: Set<String> = []
        for ancestor in ancestors {
            let own = machine.transitions(of: ancestor)
            for position in own.indices { handled.insert(machine.names[own[position].event.value]) }
        }
        return handled
    }

    /// The innermost parallel state around a state, if any.
    private func parallel(around index: Int) -> Int? {
        nesting.ancestors(of: index).first { machine.isParallel($0) }
    }

    /// The events a parallel state and the states around it handle.
    private func eventsHandled(byAndAround parallel: Int) -> Set<String> {
        var handled = machine.eventsHandled(around: parallel)
        let own = machine.transitions(of: parallel)
        for position in own.indices { handled.insert(machine.names[own[position].event.value]) }
        return handled
    }

    /// A state in a region ignores `event` with a targetless transition: where the parallel
    /// state or those around it handle `event` too, XState will not take their transition for
    /// the other regions, as flowspec does.
    private mutating func noteIgnored(_ event: String, in index: Int) {
        note(event, in: index, "ignores it (none of its conditions holds, or it has ended)")
    }

    /// A state in a region handles `event` with a transition without a target, which exits
    /// nothing: flowspec takes the transition of the parallel state or those around it for the
    /// other regions beside it, XState does not.
    private mutating func noteStaying(_ event: String, in index: Int) {
        note(event, in: index, "handles it without a target (it stays)")
    }

    private mutating func note(_ event: String, in index: Int, _ what: String) {
        guard let parallel = parallel(around: index), eventsHandled(byAndAround: parallel).contains(event) else {
            return
        }
        let text =
            "'\(keys[parallel])', '\(event)': where a state in one region \(what), XState does not look above the regions, so it does not take the transition on it that flowspec takes for the other regions"
        if !differences.contains(text) { differences.append(text) }
    }

    /// A guard that reads where the flow is (`in:`, `notIn:`): XState's `stateIn` is a function,
    /// which JSON cannot carry, and a guard implemented by the app sees the context and the
    /// event, not the snapshot.
    private mutating func noteStatesRead() {
        let text =
            "guards that read where the flow is (`in`, `notIn` in `flowspec.when`'s params): XState's guards named in JSON cannot read the snapshot, so they are not taken as flowspec takes them"
        if !differences.contains(text) { differences.append(text) }
    }

    /// A transition from inside a parallel state into its history state: flowspec leaves the
    /// parallel state and enters it again (SCXML's domain is a compound state), XState's domain
    /// is the parallel state itself, which it neither leaves nor enters.
    private mutating func noteIntoHistory(of parallel: Int) {
        let text =
            "'\(keys[parallel])': a transition from inside it into its history state leaves and enters only its regions in XState, not '\(keys[parallel])' itself (its entry, exit and timeout)"
        if !differences.contains(text) { differences.append(text) }
    }

    /// A terminal state in a region ignores what the parallel state and the states around it
    /// handle only by not handling it (see ``regionAncestors(of:)``): once every region has
    /// ended, XState takes those transitions, and flowspec does not.
    private mutating func noteRegionsEnding(around index: Int) {
        guard let parallel = parallel(around: index), nesting.details[parallel]?.done == nil else { return }
        var handled = eventsHandled(byAndAround: parallel).sorted()
        if ([parallel] + nesting.ancestors(of: parallel)).contains(where: { machine.states[$0].timeout != nil }) {
            handled.append("timeouts")
        }
        guard !handled.isEmpty else { return }
        let text =
            "'\(keys[parallel])': once every region has ended, XState still takes what it and the states around it handle (\(handled.joined(separator: ", "))), which flowspec ignores"
        if !differences.contains(text) { differences.append(text) }
    }

    /// The event XState sends when the timeout of a state runs out (XState v5's name).
    private mutating func afterEvent(_ index: Int) -> String? {
        guard let after = machine.states[index].timeout?.after else { return nil }
        needsID[index] = true
        return "xstate.after.\(after.value.wholeMilliseconds).\(keys[index])"
    }

    /// Whether a state is a `final` state: a terminal state whose compound state leaves through
    /// `done`, or that ends a region of a parallel state that does. Any other terminal state is
    /// an ordinary state that handles nothing, since a `final` state at the top would stop the
    /// actor, while a flowspec flow that has ended stays where it is.
    private func isFinal(_ index: Int) -> Bool {
        guard machine.isLeaf(index), machine.states[index].kind == .terminal, let parent = nesting.parent(of: index)
        else { return false }
        if machine.isParallel(parent) { return false }
        if nesting.details[parent]?.done != nil { return true }
        guard machine.endsRegion(index), let parallel = nesting.parent(of: parent) else { return false }
        return nesting.details[parallel]?.done != nil
            && nesting.children(of: parallel).allSatisfy { region in
                machine.isHistory(region) || nesting.children(of: region).contains(where: machine.endsRegion)
            }
    }

    // MARK: - Transitions

    /// The `on` members of a state: each event's candidates, and a targetless transition after
    /// them when the event is also handled around the state and none is unconditional (the
    /// state overrides the states around it even when no condition holds).
    private mutating func on(
        _ events: [(Name, Candidates)], from source: Int?, overriding handledAround: Set<String>
    ) -> [(key: String, value: Node)] {
        events.map { name, candidates in
            let event = machine.names[name]
            if XStateMachineReader.platformEvent(event) != nil { ownEvents.insert(event) }
            var items = self.candidates(candidates, from: source)
            if let source, candidates.contains(where: \.isTargetless) { noteStaying(event, in: source) }
            if handledAround.contains(event), !candidates.contains(where: { $0.isUnconditional }) {
                items.append(.members([]))
                if let source { noteIgnored(event, in: source) }
            }
            return (event, items.count == 1 ? items[0] : .array(items))
        }
    }

    private mutating func list(_ candidates: Candidates, from source: Int) -> Node {
        let items = self.candidates(candidates, from: source)
        return items.count == 1 ? items[0] : .array(items)
    }

    /// The transitions of a list of candidates, tried in order; a bounded retry is two: one
    /// that counts while the count is below its bound, and one to `then` once it is not.
    private mutating func candidates(_ candidates: Candidates, from source: Int?) -> [Node] {
        var nodes: [Node] = []
        for candidate in candidates {
            let effects = candidate.effects.map { Node.string($0.value) }
            if !candidate.stateTerms.isEmpty { noteStatesRead() }
            guard let written = candidate.target else {
                // XState's actions-only transition: no `target`, nothing exited or entered.
                var members: [(key: String, value: Node)] = []
                if let guardNode = when(candidate) { members.append(("guard", guardNode)) }
                members.append(("actions", .array(effects)))
                nodes.append(.members(members))
                continue
            }
            let target = stateNamed(written.value)
            guard let retry = candidate.retry, let max = retry.max?.value else {
                nodes.append(transition(target, from: source, when(candidate), effects))
                continue
            }
            let slot = slots
            slots += 1
            let count = Node.members([
                ("type", .string(XStateExporter.countAction)), ("params", .members([("retry", .int(slot))]))
            ])
            nodes.append(transition(target, from: source, when(candidate, retry: slot, below: max), [count] + effects))
            nodes.append(
                transition(
                    stateNamed(retry.then.value), from: source,
                    when(candidate, retry: slot, atLeast: max), effects + retry.effects.map { .string($0.value) }))
        }
        return nodes
    }

    /// A candidate's guard: the name of its condition alone, else ``XStateExporter/guardType``
    /// with its conditions and retry bound as params.
    private func when(_ candidate: Candidate, retry: Int? = nil, below: Int? = nil, atLeast: Int? = nil) -> Node? {
        let statesRead = candidate.stateTerms
        if retry == nil, candidate.unlessCondition == nil, statesRead.isEmpty, let condition = candidate.condition {
            return .string(condition.value)
        }
        var params: [(key: String, value: Node)] = []
        if let condition = candidate.condition { params.append(("if", .string(condition.value))) }
        if let condition = candidate.unlessCondition { params.append(("unless", .string(condition.value))) }
        // Where the flow is, by the state's name: XState gives a guard of the config no way to
        // read the snapshot (its `stateIn` is a function), so the machine lists it as a difference.
        for term in statesRead {
            params.append((term.holds ? "in" : "notIn", .string(machine.names[term.state.value])))
        }
        if let retry { params.append(("retry", .int(retry))) }
        if let below { params.append(("below", .int(below))) }
        if let atLeast { params.append(("atLeast", .int(atLeast))) }
        guard !params.isEmpty else { return nil }
        return .members([("type", .string(XStateExporter.guardType)), ("params", .members(params))])
    }

    /// A transition: the target alone where that says everything, else an object. flowspec
    /// leaves and enters the state a transition starts from even when it goes to that state or
    /// one inside it, which XState does only with `reenter`.
    private mutating func transition(_ target: Int, from source: Int?, _ guardNode: Node?, _ actions: [Node]) -> Node {
        let reference = self.target(target, from: source)
        let reenters = source.map { target == $0 || nesting.isWithin(target, $0) } ?? false
        guard guardNode != nil || !actions.isEmpty || reenters else { return reference }
        var members: [(key: String, value: Node)] = [("target", reference)]
        if let guardNode { members.append(("guard", guardNode)) }
        if !actions.isEmpty { members.append(("actions", .array(actions))) }
        if reenters { members.append(("reenter", .bool(true))) }
        return .members(members)
    }

    /// The target of a transition from `source` (`nil`: the machine). A transition into a
    /// history state from inside its compound state goes to a router directly inside that
    /// compound state, which goes on to the history state at once: flowspec leaves every state
    /// inside the compound state, so that history records where the flow was, which XState
    /// would not (the compound state is not left).
    private mutating func target(_ target: Int, from source: Int?) -> Node {
        // Its own transition re-enters it (`reenter`), as flowspec does.
        if let source, let parallel = machine.historyOfParallel(target), source != parallel,
            nesting.isWithin(source, parallel)
        {
            noteIntoHistory(of: parallel)
            return reference(target, from: source)
        }
        guard let source, machine.isHistory(target), let parent = nesting.parent(of: target),
            nesting.isWithin(source, parent), source != parent
        else { return reference(target, from: source) }
        let router: String
        if let existing = routers[parent] {
            router = existing
        } else {
            var name = "route_" + keys[target]
            let names = Set(keys)
            while names.contains(name) { name += "_" }
            router = name
            routers[parent] = router
            let onward = reference(target, from: target)  // the router is the history state's sibling
            routerNodes[parent, default: []].append((router, Self.router(onward, id: router)))
        }
        return .string(nesting.parent(of: source) == parent ? router : "#" + Self.escaped(router))
    }

    /// A router: a state the flow passes through at once, on to `onward`.
    private static func router(_ onward: Node, id: String? = nil) -> Node {
        .members(
            (id.map { [("id", Node.string($0))] } ?? [])
                + [("meta", .members([("flowspec", .members([("role", .string("route"))]))])), ("always", onward)])
    }

    /// How a transition from `source` names `target`: by its key when it is a sibling of the
    /// state the transition is written on (XState's relative target), else by id.
    private mutating func reference(_ target: Int, from source: Int?) -> Node {
        let parent = nesting.parent(of: target)
        let key = keys[target]
        let plain = !key.contains(".") && !key.hasPrefix("#") && !key.contains("\\")
        if target == 0, isParallelRoot { return .string("#" + Self.escaped(machine.name.value)) }
        if let source, plain, parent == nesting.parent(of: source) { return .string(key) }
        if source == nil, parent == nil, plain { return .string("." + key) }
        needsID[target] = true
        return .string("#" + Self.escaped(key))
    }

    /// A key as a part of an XState path, where `.` separates keys: `\` before each `.` and `\`.
    static func escaped(_ key: String) -> String {
        var text = ""
        for character in key {
            if character == "." || character == "\\" { text.append("\\") }
            text.append(character)
        }
        return text
    }

    /// The node with each state's placeholder `id` made its id where a target names it by id,
    /// and left out elsewhere.
    private func withIDs(_ node: Node) -> Node {
        switch node {
        case .members(let members):
            return .members(
                members.compactMap { member in
                    if member.key == "id", case .string(let text) = member.value, text.hasPrefix("\u{0}"),
                        let index = Int(text.dropFirst())
                    {
                        return needsID[index] ? ("id", .string(keys[index])) : nil
                    }
                    return (member.key, withIDs(member.value))
                })
        case .array(let items): return .array(items.map(withIDs))
        default: return node
        }
    }
}
