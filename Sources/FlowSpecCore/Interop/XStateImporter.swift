/// `flowspec import` of an XState machine config as JSON (the object given to `createMachine`,
/// as `JSON.stringify` writes it, or Stately's JSON export): the machine as a flowspec spec,
/// and a located line for everything the language cannot hold, never dropped silently
/// (docs/interop.md gives the mapping both ways).
///
/// What `flowspec export --format xstate` writes comes back exactly: its `meta.flowspec`
/// members keep what XState has no word for, and its patterns (a retry's guard and action, a
/// state's override, a router into a history state) are read as what they stand for.
public enum XStateImporter {
    /// Imports the config in `bytes`; `machine` names the machine (else the config's `id`, else
    /// `fallbackName`).
    public static func importConfig(
        _ bytes: [UInt8], machine: String? = nil, fallbackName: String = "Imported",
        maxDepth: Int = YAMLLimits().maxDepth, links: MachineImporter.Links? = nil,
        delays: [String: Duration] = [:]
    ) throws(MachineImporter.Failure) -> MachineImporter.Imported {
        try importConfig(
            bytes, machine: machine, fallbackName: fallbackName, limits: ReadLimits(maxDepth: maxDepth), links: links,
            delays: delays)
    }

    /// ``importConfig(_:machine:fallbackName:maxDepth:links:delays:)`` within `limits`.
    static func importConfig(
        _ bytes: [UInt8], machine: String?, fallbackName: String, limits: ReadLimits,
        links: MachineImporter.Links?, delays: [String: Duration]
    ) throws(MachineImporter.Failure) -> MachineImporter.Imported {
        let (root, implementations) = try Self.config(of: bytes, limits: limits)
        let name = machine ?? root["id"]?.string.map(SCXMLMachineReader.safeName) ?? fallbackName
        let machines = try InvokedMachines(machine: name, links: links, limits: limits, config: root)
        let named = NamedDelays(delays, written: Self.delays(in: implementations))
        var reader = XStateMachineReader(root: root, machines: machines, delays: named)
        let imported = reader.read()
        let notes = (reader.notes + machines.notesOnUnused(machine: name)).sortedForPrinting()
        var result = MachineImporter.Imported(spec: imported.text(name: name), machine: name, notImported: notes)
        result.unusedDelays = delays.keys.filter { !named.used.contains($0) }.sorted()
        return result
    }

    /// The root object of a config, with states in it.
    static func root(of bytes: [UInt8], limits: ReadLimits) throws(MachineImporter.Failure) -> JSONValue {
        try config(of: bytes, limits: limits).root
    }

    /// The durations of the named delays the implementations beside a config give as a whole
    /// number of milliseconds (`setup({ delays: { IDLE_TIMEOUT: 30_000 } })`); one given by
    /// code is the app's to compute, and needs `--delay`.
    static func delays(in implementations: JSONValue?) -> [String: Duration] {
        var durations: [String: Duration] = [:]
        for member in implementations?["delays"]?.members ?? [] {
            guard let text = member.value.number, let milliseconds = Int64(text), milliseconds > 0,
                Duration.parseSpec("\(milliseconds)ms") != nil
            else { continue }
            durations[member.key] = .milliseconds(milliseconds)
        }
        return durations
    }

    /// The root object of a config, with states in it, and for a config read from source, the
    /// implementations written beside it (``JavaScriptConfigReader``).
    static func config(of bytes: [UInt8], limits: ReadLimits) throws(MachineImporter.Failure) -> (
        root: JSONValue, implementations: JSONValue?
    ) {
        let root: JSONValue
        var implementations: JSONValue?
        do {
            if MachineImporter.startsAsJSON(bytes) {
                root = try JSONReader.read(bytes, maxDepth: limits.maxDepth, maxScalarLength: limits.maxScalarLength)
            } else {
                (root, implementations) = try JavaScriptConfigReader.readWithImplementations(
                    bytes, maxDepth: limits.maxDepth, maxScalarLength: limits.maxScalarLength)
            }
        } catch {
            throw MachineImporter.Failure(message: error.message, location: error.location)
        }
        guard root.isObject else {
            throw MachineImporter.Failure(
                message: "the document is \(root.typeName), not an XState machine config (an object with `states`)",
                location: root.location)
        }
        // Without `states` the root is the machine's one state; written, they must be there.
        if let states = root["states"], !states.isObject || states.members.isEmpty {
            throw MachineImporter.Failure(
                message: "the config's `states` holds no states; flowspec imports a machine's states",
                location: states.location)
        }
        return (root, implementations)
    }
}

/// Reads the states of an XState config (see ``XStateImporter``).
struct XStateMachineReader {
    typealias Candidate = ImportedMachine.Candidate

    /// A state node of the config, found before anything is read, so that targets resolve
    /// wherever they point.
    struct Node {
        var value: JSONValue
        var key: String
        var parent: Int?
        var children: [Int] = []
        /// Its index among the imported states (routers have none).
        var state: Int?
        /// Its children by key.
        var childKeys: [String: Int] = [:]
    }

    let root: JSONValue
    var notes: [MachineImporter.Note] = []
    var machine = ImportedMachine()
    /// The durations of named delays given on the command line, shared with the readers of
    /// the machines it invokes.
    let delays: NamedDelays
    /// The config's state nodes; the root is not one of them.
    var nodes: [Node] = []
    var topLevel: [Int] = []
    var topLevelKeys: [String: Int] = [:]
    /// Explicit `id` → node.
    var ids: [String: Int] = [:]
    /// Node → the node a router goes on to (a history state).
    var routes: [Int: Int] = [:]
    var effectSet: Set<String> = []
    /// The events the config's transitions name, in document order, for wildcards.
    var knownEvents: [String] = []
    /// The events named like XState's own that are the machine's (``platformEvent(_:)``).
    var ownEvents: Set<String> = []
    /// Whether the config is XState v4's (``isVersion4(_:)``): its transitions leave and enter
    /// the state they target, as flowspec's do, where v5's stay in it.
    var isVersion4 = false
    /// A guard with params (other than flowspec's own): its condition, by its JSON text.
    var guardConditions: [String: String] = [:]

    /// The spec's machines, which this one's invocations add to.
    let machines: InvokedMachines

    init(root: JSONValue, machines: InvokedMachines, delays: NamedDelays) {
        self.root = root
        self.machines = machines
        self.delays = delays
    }

    private mutating func note(_ value: JSONValue, _ message: String) {
        notes.append(MachineImporter.Note(location: value.location, message: message))
    }

    private static let flowspecMeta = "flowspec"

    private func flowspecMeta(_ value: JSONValue) -> JSONValue? {
        value["meta"]?[Self.flowspecMeta]
    }

    // MARK: - Reading

    mutating func read() -> ImportedMachine {
        ownEvents = Set(flowspecMeta(root)?[XStateExporter.ownEventsKey]?.list.compactMap(\.string) ?? [])
        if let states = root["states"] { topLevel = collect(states, parent: nil) }
        isVersion4 = Self.isVersion4(root, nodes.map(\.value))
        nameStates()
        collectEvents(root)
        if let meta = flowspecMeta(root) {
            for condition in meta["conditions"]?.list.compactMap(\.string) ?? [] {
                _ = declare(SCXMLMachineReader.safeName(condition))
            }
            machine.events = meta["events"]?.list.compactMap(\.string)
            for member in meta["activities"]?.members ?? [] {
                machine.activities.append((member.key, member.value.list.compactMap(\.string)))
            }
        }
        machine.summary = root["description"]?.string
        readRootKeys()
        for node in topLevel { state(node) }
        if root["states"] == nil {
            // A root that waits on its own `on`: XState's atomic root, the machine's one state.
            machine.makeOneState(at: root.location)
        } else if root["type"]?.string == "parallel" {
            machine.makeParallelAtTop()
        } else {
            machine.initial = initial(of: root, children: topLevel)
        }
        for member in root["on"]?.members ?? [] {
            for (event, candidates) in transitions(member, owner: nil) {
                machine.machineWide.append(event, candidates)
            }
        }
        machine.compensateFallThrough { index, message in
            notes.append(MachineImporter.Note(location: machine.states[index].location, message: message))
        }
        return machine
    }

    /// What the root holds beyond its states and transitions.
    private mutating func readRootKeys() {
        let ignored: Set<String> = [
            "id", "initial", "states", "on", "description", "meta", "type", "version", "predictableActionArguments",
            "preserveActionOrder", "types", "tsTypes", "schema"
        ]
        for member in root.members where !ignored.contains(member.key) {
            if member.key == "context", member.value.members.isEmpty, member.value.isObject { continue }
            let why =
                member.key == "context"
                ? "the context (the machine's data); flowspec holds only boolean conditions, which the app supplies"
                : "the machine's `\(member.key)`; the flowspec language has no counterpart here"
            note(member.value, "not imported: " + why)
        }
        if let meta = root["meta"] { noteForeignMeta(meta) }
    }

    private mutating func noteForeignMeta(_ meta: JSONValue) {
        for member in meta.members where member.key != Self.flowspecMeta {
            note(member.value, "not imported: the meta '\(member.key)' (a tool's own data)")
        }
    }

    /// Finds the state nodes inside a `states` object.
    private mutating func collect(_ states: JSONValue, parent: Int?) -> [Int] {
        var found: [Int] = []
        for member in states.members {
            guard member.value.isObject else {
                note(
                    member.value,
                    "not imported: the state '\(member.key)', which is \(member.value.typeName), not an object")
                continue
            }
            let index = nodes.count
            nodes.append(Node(value: member.value, key: member.key, parent: parent))
            if let id = member.value["id"]?.string { ids[id] = index }
            found.append(index)
            if let parent {
                nodes[parent].childKeys[member.key] = nodes[parent].childKeys[member.key] ?? index
            } else {
                topLevelKeys[member.key] = topLevelKeys[member.key] ?? index
            }
            if let inner = member.value["states"] { nodes[index].children = collect(inner, parent: index) }
        }
        return found
    }

    /// Gives every state its spec name: its key, or where another state has that key too, its
    /// parent's name, a dot and its key (flowspec names a state once in a machine; XState keys
    /// are unique only among siblings). A router becomes no state.
    private mutating func nameStates() {
        var counts: [String: Int] = [:]
        for node in nodes { counts[SCXMLMachineReader.safeName(node.key), default: 0] += 1 }
        var taken: Set<String> = []
        for index in nodes.indices {
            let value = nodes[index].value
            if flowspecMeta(value)?["role"]?.string == "route", value["always"]?.list.first != nil {
                routes[index] = index  // resolved below, once every state is named
                continue
            }
            let key = SCXMLMachineReader.safeName(nodes[index].key)
            var name = key
            if counts[key, default: 0] > 1, let parent = nodes[index].parent, let parentState = nodes[parent].state {
                name = machine.states[parentState].name + "." + key
            }
            while taken.contains(name) { name += "_" }
            taken.insert(name)
            var state = ImportedMachine.State(name: name)
            if name != nodes[index].key { state.writtenAs = "XState key '\(nodes[index].key)'" }
            state.location = value.location
            state.parent = nodes[index].parent.flatMap { nodes[$0].state }
            nodes[index].state = machine.states.count
            if let parent = state.parent { machine.states[parent].children.append(machine.states.count) }
            machine.states.append(state)
        }
        for router in routes.keys {
            let onward = nodes[router].value["always"]?.list.first
            let text = onward?.string ?? onward?["target"]?.string ?? ""
            routes[router] = resolve(text, from: router) ?? router
        }
    }

    private mutating func collectEvents(_ value: JSONValue) {
        var seen: Set<String> = []
        func visit(_ value: JSONValue) {
            for member in value["on"]?.members ?? [] where !member.key.contains("*") && !member.key.isEmpty {
                if platformEvent(member.key) == nil, seen.insert(member.key).inserted {
                    knownEvents.append(member.key)
                }
            }
            for member in value["states"]?.members ?? [] { visit(member.value) }
        }
        visit(value)
    }

    // MARK: - States

    private mutating func state(_ node: Int) {
        guard routes[node] == nil, let index = nodes[node].state else { return }
        let value = nodes[node].value
        let type = value["type"]?.string
        machine.states[index].summary = value["description"]?.string
        if let meta = value["meta"] { noteForeignMeta(meta) }
        if type == "history" {
            machine.states[index].kind = .history
            machine.states[index].deep = value["history"]?.string == "deep"
            if let target = value["target"] {
                let text = target.string ?? target.list.first?.string ?? ""
                let resolved = resolve(text, from: node)
                machine.states[index].historyDefault =
                    resolved.flatMap { stateName(routes[$0] ?? $0) }
                    ?? noteTarget(target, text)
                if let router = resolved, routes[router] != nil {
                    machine.states[index].defaultEffects = routerActions(router)
                }
            }
            return
        }
        for child in nodes[node].children { state(child) }
        let children = nodes[node].children.filter { routes[$0] == nil }
        machine.states[index].isParallel = type == "parallel"
        if !children.isEmpty, type != "parallel" {
            machine.states[index].initial = initial(of: value, children: nodes[node].children)
            let written = value["initial"]?.string
            if let router = nodes[node].children.first(where: { routes[$0] != nil && nodes[$0].key == written }) {
                machine.states[index].initialEffects = routerActions(router)
            }
        }
        if let written = value["type"], let type, !["atomic", "compound", "parallel", "final", "history"].contains(type)
        {
            note(written, "not imported: the type '\(type)'; a state is atomic, compound, parallel, final or history")
        }
        readActions(value, index)
        readTransitions(value, node, index)
        readInvocations(value, node, index)
        noteOtherKeys(value)
        guard children.isEmpty else {
            if let kind = flowspecMeta(value)?["kind"] {
                note(kind, "not imported: a kind on '\(machine.states[index].name)', which holds states")
            }
            machine.settleEventless(index, waits: true, compound: true) { note(value["always"] ?? value, $0) }
            return
        }
        // A state that runs a machine has no kind: the machine it runs says what it waits for.
        if machine.states[index].run != nil { return }
        var kind = flowspecMeta(value)?["kind"]?.string
        if let written = kind, !["input", "task", "choice", "terminal"].contains(written) {
            note(
                flowspecMeta(value)!["kind"]!,
                "not imported: the kind '\(written)'; a state is an input, task, choice or terminal state")
            kind = nil
        }
        if kind == nil, type == "final" { kind = "terminal" }
        if kind == nil, machine.states[index].kind == .task { kind = "task" }
        let state = machine.states[index]
        let waits = !state.on.isEmpty || state.timeout != nil
        machine.states[index].kind = kind.flatMap(StateKind.init(rawValue:))
        if kind == nil {
            machine.settleEventless(index, waits: waits, compound: false) { note(value["always"] ?? value, $0) }
        }
    }

    /// The actions a router runs on its way on (flowspec's export writes an `initial` or a
    /// history's default with effects as a router that runs them), as effects.
    private mutating func routerActions(_ router: Int) -> [String] {
        let onward = nodes[router].value["always"]?.list.first
        return (onward?["actions"]?.list ?? []).compactMap { effect($0) }
    }

    private func stateName(_ node: Int) -> String? {
        nodes[node].state.map { machine.states[$0].name }
    }

    private mutating func noteTarget(_ value: JSONValue, _ text: String) -> String? {
        note(value, "not imported: the target '\(text)', which names no state of the machine")
        return nil
    }

    /// A compound state's (or the machine's) initial state's name; a router there stands for
    /// the state it goes on to.
    private mutating func initial(of value: JSONValue, children: [Int]) -> String? {
        let states = children.filter { routes[$0] == nil }
        guard let written = value["initial"] else { return states.first.flatMap(stateName) }
        let text = written.string ?? written["target"]?.string ?? ""
        if let child = children.first(where: { nodes[$0].key == text }) { return stateName(routes[child] ?? child) }
        if let node = resolve(text.hasPrefix("#") || text.hasPrefix(".") ? text : "." + text, from: nil, within: value)
        {
            return stateName(node)
        }
        note(written, "not imported: the initial state '\(text)', which is not a state inside; the first is entered")
        return states.first.flatMap(stateName)
    }

    private mutating func noteOtherKeys(_ value: JSONValue) {
        let read: Set<String> = [
            "id", "type", "history", "target", "description", "meta", "initial", "states", "entry", "exit", "on",
            "after", "always", "onDone", "invoke", "onEntry", "onExit"
        ]
        for member in value.members where !read.contains(member.key) {
            let why =
                switch member.key {
                case "tags": "tags; flowspec states have a kind and a summary"
                case "output", "data": "the output of a final state; a flowspec flow's end carries no data"
                case "context": "a context; flowspec holds only boolean conditions, which the app supplies"
                default: "the key `\(member.key)`; the flowspec language has no counterpart"
                }
            note(member.value, "not imported: " + why)
        }
    }

    // MARK: - Actions

    private mutating func readActions(_ value: JSONValue, _ index: Int) {
        for key in ["entry", "onEntry"] {
            for action in value[key]?.list ?? [] {
                if let effect = effect(action) { machine.states[index].entry.append(effect) }
            }
        }
        for key in ["exit", "onExit"] {
            for action in value[key]?.list ?? [] {
                if let effect = effect(action) { machine.states[index].exit.append(effect) }
            }
        }
    }

    /// The effect an action stands for, or `nil` (reported, or flowspec's own bookkeeping);
    /// declared unless `declaring` is false (the caller declares it if it keeps it).
    private mutating func effect(_ action: JSONValue, declaring: Bool = true) -> String? {
        let type = action.string ?? action["type"]?.string
        guard let type else {
            let message =
                switch action.kind {
                case .null:
                    "not imported: an inline action, lost when the config became JSON; name it and implement it in `setup`"
                case .code: "not imported: an inline action, \(action.typeName); name it and implement it in `setup`"
                default: "not imported: an action that is \(action.typeName), not a name or an object with a `type`"
                }
            note(action, message)
            return nil
        }
        if type == XStateExporter.resetAction { return nil }
        if type.hasPrefix("xstate.") {
            note(action, "not imported: the built-in action '\(type)'; flowspec effects are the app's own")
            return nil
        }
        if let params = action["params"] {
            note(params, "not imported: the params of the action '\(type)'; a flowspec effect takes none")
        }
        if declaring { declareEffect(type) }
        return type
    }

    private mutating func declareEffect(_ effect: String) {
        if effectSet.insert(effect).inserted { machine.effects.append(effect) }
    }

    // MARK: - Transitions

    private mutating func readTransitions(_ value: JSONValue, _ node: Int, _ index: Int) {
        let terminal = value["type"]?.string == "final" || flowspecMeta(value)?["kind"]?.string == "terminal"
        for member in value["on"]?.members ?? [] {
            if member.key.isEmpty {
                machine.states[index].always += transitions(member, owner: node).flatMap(\.1)
                continue
            }
            // A resting state's ignoring of a timer of the states around it.
            if member.key.hasPrefix("xstate.after."), !ownEvents.contains(member.key), isIgnore(member.value) {
                continue
            }
            let read = transitions(member, owner: node)
            for (event, candidates) in read { machine.states[index].on.append(event, candidates) }
            // A transition that does nothing after candidates that all have conditions: the
            // search for the event ends here.
            if let last = member.value.list.last, isIgnore(last) {
                for (event, _) in read { machine.states[index].endsSearch.insert(event) }
                if machine.states[index].on.handles(member.key) { machine.states[index].endsSearch.insert(member.key) }
            }
            if read.isEmpty, isIgnore(member.value), !terminal {
                ignored(member, index)
            }
        }
        if let always = value["always"] {
            machine.states[index].always += candidates(always.list, owner: node)
        }
        readDelays(value, node, index)
        if let done = value["onDone"] { readDone(done, node, index) }
    }

    /// `onDone`, of a compound state or of the machine a state runs: the state's `done`.
    private mutating func readDone(_ done: JSONValue, _ node: Int, _ index: Int) {
        // Tried in order, with their guards and actions, as `done`'s candidates.
        machine.states[index].done = candidates(done.list, owner: node)
    }

    /// A transition that does nothing (no target, guard or action): it ignores its event.
    private func isIgnore(_ value: JSONValue) -> Bool {
        value.list.allSatisfy { $0.isObject && $0.members.isEmpty }
    }

    /// A state ignores an event its transitions handle only under conditions (flowspec's own
    /// behaviour), or, for a terminal state, every event; anywhere else it is reported.
    private mutating func ignored(_ member: JSONValue.Member, _ index: Int) {
        guard !machine.states[index].on.handles(member.key) else { return }
        note(
            member.value,
            "not imported: a transition that ignores '\(member.key)' in '\(machine.states[index].name)'; a flowspec state leaves an event it does not handle to the states around it"
        )
    }

    /// The events and candidates of one `on` member: a wildcard stands for each event of the
    /// machine it matches.
    private mutating func transitions(_ member: JSONValue.Member, owner: Int?) -> [(String, [Candidate])] {
        let descriptor = member.key
        if let platform = platformEvent(descriptor) {
            note(member.value, "not imported: a transition on '\(descriptor)', \(platform)")
            return []
        }
        var events = [descriptor]
        if descriptor == "*" || descriptor.hasSuffix(".*") {
            let prefix = descriptor == "*" ? "" : String(descriptor.dropLast(1))
            events = knownEvents.filter { prefix.isEmpty || $0.hasPrefix(prefix) || $0 == String(prefix.dropLast()) }
            note(
                member.value,
                "imported as the events it matches (\(events.joined(separator: ", "))): the wildcard '\(descriptor)'; an event the machine does not name is no longer handled"
            )
        }
        let read = candidates(member.value.list, owner: owner, mayStay: true)
        guard !read.isEmpty else { return [] }
        return events.map { ($0, read) }
    }

    /// Why a transition on one of XState's own events is not imported, or `nil`; `nil` too for
    /// an event the machine's `meta.flowspec` says is its own (``XStateExporter/ownEventsKey``):
    /// flowspec's export of a spec whose events are named like XState's.
    private func platformEvent(_ descriptor: String) -> String? {
        ownEvents.contains(descriptor) ? nil : Self.platformEvent(descriptor)
    }

    /// Why a transition on one of XState's own events is not imported, or `nil`.
    static func platformEvent(_ descriptor: String) -> String? {
        if descriptor.hasPrefix("xstate.") || descriptor.hasPrefix("done.") || descriptor.hasPrefix("error.") {
            return "an event XState sends itself; flowspec states end with `done` and timeouts"
        }
        return nil
    }

    /// The candidates of a list of XState transitions; a bounded retry's two transitions
    /// become one candidate.
    private mutating func candidates(_ list: [JSONValue], owner: Int?, mayStay: Bool = false) -> [Candidate] {
        var read: [Candidate] = []
        var counting: (retry: Int, max: Int, candidate: Candidate)?
        for transition in list {
            // A target alone stands for `{ "target": … }`.
            let object =
                transition.string == nil
                ? transition
                : JSONValue(kind: .object([.init(key: "target", value: transition)]), location: transition.location)
            guard object.isObject else {
                note(transition, "not imported: a transition that is \(transition.typeName)")
                continue
            }
            var retry: (slot: Int, below: Int?, atLeast: Int?)?
            guard let candidate = candidate(object, owner: owner, mayStay: mayStay, retry: &retry) else { continue }
            if let retry, let below = retry.below {
                counting = (retry.slot, below, candidate)
                continue
            }
            if let retry, let atLeast = retry.atLeast, let pending = counting, pending.retry == retry.slot,
                let then = candidate.target
            {
                var counted = pending.candidate
                let extra = Array(candidate.effects.dropFirst(counted.effects.count))
                counted.retry = (atLeast, then, extra)
                counting = nil
                read.append(counted)
                continue
            }
            read.append(candidate)
        }
        if let pending = counting {
            read.append(pending.candidate)
            note(
                list.first!,
                "not imported: half a bounded retry (its `atLeast` transition is missing); the transition is kept without its bound"
            )
        }
        return read
    }

    /// One transition as a candidate; `nil` when it is left out (reported) or stands for
    /// flowspec's own behaviour (an override).
    private mutating func candidate(
        _ object: JSONValue, owner: Int?, mayStay: Bool, retry: inout (slot: Int, below: Int?, atLeast: Int?)?
    ) -> Candidate? {
        var effects: [String] = []
        for action in object["actions"]?.list ?? [] {
            if action["type"]?.string == XStateExporter.countAction { continue }
            if let effect = effect(action, declaring: false) { effects.append(effect) }
        }
        var condition: String?
        var unless: String?
        if let written = object["guard"] ?? object["cond"] {
            (condition, unless) = guardConditions(written, retry: &retry)
        }
        // `flowspec.when`'s states read, as the export writes them (`in:`, `notIn:`).
        var statesRead: (inState: String?, notInState: String?)
        if let written = object["guard"], written["type"]?.string == XStateExporter.guardType,
            let params = written["params"]
        {
            statesRead = (
                params["in"]?.string.map(SCXMLMachineReader.safeName),
                params["notIn"]?.string.map(SCXMLMachineReader.safeName)
            )
        }
        if let inGuard = object["in"] {
            // XState v4's `in`: a state by `#id` or by its path from the machine (`b.b2`).
            if let text = inGuard.string, statesRead.inState == nil, let node = resolve(text, from: nil),
                let name = stateName(node)
            {
                statesRead.inState = name
            } else {
                note(inGuard, "not imported: an `in` guard that names no state of the machine (`#id` or `a.b`)")
            }
        }
        let known: Set<String> = [
            "target", "actions", "guard", "cond", "reenter", "internal", "description", "meta", "in"
        ]
        for member in object.members where !known.contains(member.key) {
            note(member.value, "not imported: the key `\(member.key)` of a transition")
        }
        guard let written = object["target"], !written.isNull else {
            // `{}` is flowspec's own behaviour (an override); `{ actions: [] }` stays, doing nothing.
            guard
                object["actions"] != nil || condition != nil || unless != nil || statesRead.inState != nil
                    || statesRead.notInState != nil
            else { return nil }
            guard mayStay, retry == nil else {
                note(
                    object,
                    "not imported: a transition without a target (it runs actions or has a guard) that is not an event's; a flowspec `always`, `after` or `done` goes to a state"
                )
                return nil
            }
            // An actions-only transition: it runs its actions and stays, as flowspec's does.
            for effect in effects { declareEffect(effect) }
            return Candidate(
                target: nil, condition: condition, unless: unless, inState: statesRead.inState,
                notInState: statesRead.notInState, effects: effects)
        }
        let targets = written.list.compactMap(\.string)
        if targets.count > 1 {
            note(
                written,
                "not imported: a transition to several states (\(targets.joined(separator: ", "))); its first is kept")
        }
        if let text = targets.first, root["type"]?.string == "parallel", let id = root["id"]?.string, text == "#" + id {
            // The root, a parallel state: the machine's own, entered afresh.
            for effect in effects { declareEffect(effect) }
            return Candidate(
                target: ImportedMachine.machineName, condition: condition, unless: unless,
                inState: statesRead.inState, notInState: statesRead.notInState, effects: effects)
        }
        guard let text = targets.first, let node = resolve(text, from: owner),
            let target = stateName(routes[node] ?? node)
        else {
            if targets.isEmpty, written.list.contains(where: { if case .code = $0.kind { true } else { false } }) {
                note(written, "not imported: a target that is \(written.typeName); name the state")
                return nil
            }
            _ = noteTarget(written, targets.first ?? "")
            return nil
        }
        noteStaying(object, owner: owner, target: routes[node] ?? node, written: text)
        for effect in effects { declareEffect(effect) }
        return Candidate(
            target: target, condition: condition, unless: unless, inState: statesRead.inState,
            notInState: statesRead.notInState, effects: effects)
    }

    /// XState takes a transition into the state it is written on, or a state inside it, without
    /// leaving that state, unless it says `reenter: true`; flowspec always leaves and enters it.
    /// Where that shows (the state has entry or exit actions, a delay or an invocation) it is
    /// reported.
    private mutating func noteStaying(_ object: JSONValue, owner: Int?, target: Int, written: String) {
        guard let owner, object["reenter"]?.bool != true, object["internal"]?.bool != false else { return }
        // v4 leaves and enters the state, unless the transition is internal: said, or a target
        // written relative to the state (`.child`).
        if isVersion4, object["internal"]?.bool != true, !written.hasPrefix(".") { return }
        var node: Int? = target
        while let current = node, current != owner { node = nodes[current].parent }
        guard node == owner else { return }
        let value = nodes[owner].value
        guard ["entry", "exit", "onEntry", "onExit", "after", "invoke"].contains(where: { value[$0] != nil }) else {
            return
        }
        note(
            object,
            "imported as re-entering: a transition into '\(nodes[owner].key)' or a state inside it, which XState takes without leaving '\(nodes[owner].key)' (no `reenter: true`); flowspec leaves it and enters it again, running its exit and entry and restarting its delay"
        )
    }

    /// Whether a config is XState v4's: the root says so with a key only v4 reads
    /// (`predictableActionArguments`, `preserveActionOrder`, `tsTypes`, `schema`), or a
    /// transition of a state does (`cond`, `internal`, `in`), which v5 replaced.
    static func isVersion4(_ root: JSONValue, _ states: [JSONValue]) -> Bool {
        if ["predictableActionArguments", "preserveActionOrder", "tsTypes", "schema"].contains(where: {
            root[$0] != nil
        }) {
            return true
        }
        func writesVersion4(_ transitions: JSONValue?) -> Bool {
            (transitions?.list ?? []).contains { item in
                item.isObject && ["cond", "internal", "in"].contains { item[$0] != nil }
            }
        }
        for state in [root] + states {
            let lists = (state["on"]?.members ?? []).map(\.value) + (state["after"]?.members ?? []).map(\.value)
            if lists.contains(where: writesVersion4) { return true }
            if writesVersion4(state["always"]) || writesVersion4(state["onDone"]) { return true }
        }
        return false
    }

    /// The conditions of a guard: a name is a condition; flowspec's own guard reads back as
    /// its conditions and retry bound; any other guard with params becomes a condition of its
    /// own, reported.
    private mutating func guardConditions(
        _ written: JSONValue, retry: inout (slot: Int, below: Int?, atLeast: Int?)?
    ) -> (String?, String?) {
        if let name = written.string { return (declare(SCXMLMachineReader.safeName(name)), nil) }
        if case .code(let code) = written.kind { return codeGuard(code, written) }
        guard let type = written["type"]?.string else {
            note(written, "not imported: a guard that is \(written.typeName), not a name or an object with a `type`")
            return (nil, nil)
        }
        let params = written["params"]
        if type == XStateExporter.guardType, let params {
            if let slot = params["retry"]?.number.flatMap({ Int($0) }) {
                retry = (
                    slot, params["below"]?.number.flatMap { Int($0) }, params["atLeast"]?.number.flatMap { Int($0) }
                )
            }
            return (
                params["if"]?.string.map { declare(SCXMLMachineReader.safeName($0)) },
                params["unless"]?.string.map { declare(SCXMLMachineReader.safeName($0)) }
            )
        }
        guard let params else { return (declare(SCXMLMachineReader.safeName(type)), nil) }
        let text = type + " " + JSONText.compact(params)
        return (conditionOfItsOwn(key: text, expression: text, written, "the guard '\(type)' with params"), nil)
    }

    /// A condition made for a guard the spec cannot name (`conditionN`, `expression` kept in a
    /// comment beside `conditions`), reported at `written`; the same `key` gets the same one.
    private mutating func conditionOfItsOwn(
        key: String, expression: String, _ written: JSONValue, _ what: String
    ) -> String {
        if let existing = guardConditions[key] { return existing }
        let name = "condition\(machine.expressions.count + 1)"
        machine.expressions[name] = expression
        guardConditions[key] = name
        note(written, "imported as the condition '\(name)': \(what), which the app now supplies")
        return declare(name)
    }

    /// A guard written as code in a machine's source: `not('name')` is `unless: name`; any other
    /// becomes a condition of its own, reported, so that the transition keeps a guard the app
    /// supplies rather than becoming unconditional.
    private mutating func codeGuard(_ code: String, _ written: JSONValue) -> (String?, String?) {
        let negated = code.wholeMatch(of: /not\(\s*(?:'([^'\\]*)'|"([^"\\]*)")\s*\)/)
        if let negated, let name = negated.output.1 ?? negated.output.2, !name.isEmpty {
            return (nil, declare(SCXMLMachineReader.safeName(String(name))))
        }
        // By place: two pieces of code may share the excerpt a value keeps.
        let key = "\(written.location) \(code)"
        return (conditionOfItsOwn(key: key, expression: code, written, "a guard that is \(written.typeName)"), nil)
    }

    private mutating func declare(_ condition: String) -> String {
        machine.declare(condition)
    }

    // MARK: - Delays and invocations

    /// A state's delay is its timeout when it is a whole number of milliseconds, or named with a
    /// duration given on the command line (`--delay NAME=30s`), and its transition has no guard
    /// (beyond a retry bound); a second delay, or a named one without a duration, is reported.
    private mutating func readDelays(_ value: JSONValue, _ node: Int, _ index: Int) {
        for member in value["after"]?.members ?? [] {
            let digits = !member.key.isEmpty && member.key.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
            let duration: Duration
            if let milliseconds = Int64(member.key), milliseconds > 0, Duration.parseSpec("\(milliseconds)ms") != nil {
                duration = .milliseconds(milliseconds)
            } else if !digits, let given = delays.duration(of: member.key) {
                duration = given.duration
                let line = "delay '\(member.key)' is \(given.duration.specDescription), from \(given.from)"
                if !machine.recorded.contains(line) { machine.recorded.append(line) }
            } else if !digits, !member.key.isEmpty, Int64(member.key) == nil {
                note(
                    member.value,
                    "not imported: the delay '\(member.key)', which the config names without its duration; give it with `--delay \(member.key)=30s`"
                )
                continue
            } else {
                // A delay the spec's own check would refuse must not be written into it.
                note(
                    member.value,
                    digits && member.key.contains(where: { $0 != "0" })
                        ? "not imported: the delay of \(member.key) ms, longer than a flowspec timeout can be (at most \(Duration.longestSpec.specDescription)); its transition is left out"
                        : "not imported: the delay '\(member.key)'; a timeout is a whole number of milliseconds")
                continue
            }
            guard machine.states[index].timeout == nil else {
                note(
                    member.value,
                    "not imported: a second delay (\(digits ? member.key + " ms" : "'\(member.key)'")) in '\(machine.states[index].name)'; a flowspec state has one timeout"
                )
                continue
            }
            let read = candidates(member.value.list, owner: node)
            guard var first = read.first else { continue }
            if read.count > 1 || first.condition != nil || first.unless != nil {
                note(
                    member.value,
                    "imported as its first transition without its guard: the delayed transitions of '\(machine.states[index].name)'; a flowspec timeout has one target and no condition"
                )
                first.condition = nil
                first.unless = nil
            }
            machine.states[index].timeout = (duration, first)
        }
    }

    /// An invocation that ends (`onDone`, `onError`) is the state's work: the state is a task,
    /// and the two are the events it waits for. One that does not is an activity when the
    /// machine declares what it sends, and is reported otherwise.
    private mutating func readInvocations(_ value: JSONValue, _ node: Int, _ index: Int) {
        guard let invoke = value["invoke"] else { return }
        for invocation in invoke.list {
            let source = invocation["src"]?.string ?? invocation["src"]?["type"]?.string ?? invocation["id"]?.string
            guard let source else {
                note(
                    invocation,
                    "not imported: an invocation without a named `src`; name the actor and implement it in `setup`")
                continue
            }
            if machine.states[index].children.isEmpty, machine.states[index].run == nil,
                let found = machines.config(source)
            {
                runMachine(found, invocation, source, node, index)
                continue
            }
            let name = SCXMLMachineReader.safeName(invocation["id"]?.string ?? source)
            if invocation["onDone"] == nil, invocation["onError"] == nil {
                if machine.activities.contains(where: { $0.name == source }) {
                    machine.states[index].activities.append(source)
                } else {
                    note(
                        invocation,
                        "not imported: the invoked actor '\(source)', which neither ends (`onDone`, `onError`) nor is declared with the events it sends; declare it under `activities` with its `sends`, or, if it is a machine, give its config after this one (`flowspec import parent.json child.json`)"
                    )
                }
                continue
            }
            machine.states[index].kind = .task
            for (key, suffix) in [("onDone", "done"), ("onError", "error")] {
                guard let written = invocation[key] else { continue }
                let read = candidates(written.list, owner: node, mayStay: true)
                if !read.isEmpty { machine.states[index].on.append(name + "." + suffix, read) }
            }
            for member in invocation.members where !["src", "id", "onDone", "onError", "input"].contains(member.key) {
                note(member.value, "not imported: the key `\(member.key)` of an invocation")
            }
            if let input = invocation["input"] {
                note(
                    input, "not imported: the input of the invocation '\(source)'; the app gives its work what it needs"
                )
            }
        }
    }

    /// An invocation of a machine whose config is at hand: the state runs it as a sub-flow,
    /// and its `onDone` is the state's `done`.
    private mutating func runMachine(
        _ found: InvokedMachines.Found, _ invocation: JSONValue, _ source: String, _ node: Int, _ index: Int
    ) {
        let name: String
        switch found {
        case .imported(let imported): name = imported
        case .config(let path, let root):
            name = machines.reading(path) {
                var reader = XStateMachineReader(root: root, machines: machines, delays: delays)
                let child = reader.read()
                notes += reader.notes.written(in: path)
                return machine.adopt(child, as: machines.claim(SCXMLMachineReader.safeName(source)))
            }
        case .refused(let why):
            note(invocation, "not imported: the invocation of '\(source)': \(why)")
            return
        case .document: return
        }
        machine.states[index].run = name
        note(
            invocation,
            "imported as a sub-flow: the machine '\(name)' that '\(machine.states[index].name)' runs; flowspec hands a sub-flow the flow's events first, which XState does not (the parent would `sendTo` it)"
        )
        if let done = invocation["onDone"] { readDone(done, node, index) }
        for member in invocation.members where !["src", "id", "onDone"].contains(member.key) {
            note(
                member.value,
                "not imported: the key `\(member.key)` of the invocation of the machine '\(source)'; a sub-flow is run as it is, and ends through its `done`"
            )
        }
    }

    // MARK: - Targets

    /// The node a target names, from the node the transition is written on (`nil`: the
    /// machine): `#id` and a path below it, `.child` below the node itself, or a sibling's key
    /// and a path below it. A `\.` is a dot inside a key.
    func resolve(_ text: String, from owner: Int?, within value: JSONValue? = nil) -> Int? {
        if text.hasPrefix("#") {
            let path = Self.segments(String(text.dropFirst()))
            if let whole = ids[String(text.dropFirst())] { return whole }
            guard let first = path.first else { return nil }
            if root["id"]?.string == first { return walk(Array(path.dropFirst()), below: nil) }
            guard let start = ids[first] else { return nil }
            return walk(Array(path.dropFirst()), below: start)
        }
        if text.hasPrefix(".") {
            let path = Self.segments(String(text.dropFirst()))
            if let owner { return walk(path, below: owner) }
            if let value, let node = nodes.indices.first(where: { nodes[$0].value.location == value.location }) {
                return walk(path, below: node)
            }
            return walk(path, below: nil)
        }
        let path = Self.segments(text)
        guard let owner else { return walk(path, below: nil) }
        return walk(path, below: nodes[owner].parent)
    }

    /// The node a path of keys names below `start` (`nil`: the machine); an empty path names
    /// `start` itself.
    private func walk(_ path: [String], below start: Int?) -> Int? {
        var current = start
        for key in path {
            let next: Int?
            if let current { next = nodes[current].childKeys[key] } else { next = topLevelKeys[key] }
            guard let next else { return nil }
            current = next
        }
        return current
    }

    /// A path's keys: split at each `.` not escaped by `\`.
    static func segments(_ text: String) -> [String] {
        var parts: [String] = []
        var part = ""
        var escaped = false
        for character in text {
            if escaped {
                part.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "." {
                parts.append(part)
                part = ""
            } else {
                part.append(character)
            }
        }
        parts.append(part)
        return parts
    }
}

/// JSON values written back as compact text, for a note or a comment.
enum JSONText {
    static func compact(_ value: JSONValue) -> String {
        switch value.kind {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let text): return text
        case .string(let text): return quoted(text)
        case .array(let items): return "[" + items.map(compact).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { quoted($0.key) + ":" + compact($0.value) }.joined(separator: ",") + "}"
        case .code(let text): return text
        }
    }

    private static func quoted(_ text: String) -> String {
        var output = ""
        JSONNode.writeString(text, to: &output)
        return output
    }
}

/// The durations of named delays given on the command line (`--delay IDLE_TIMEOUT=30s`), and
/// which of them a config used: shared by the reader of a config and those of the machines it
/// invokes, so that a name none of them has can be reported.
final class NamedDelays {
    private let durations: [String: Duration]
    private let written: [String: Duration]
    /// The names a reader asked for and found on the command line.
    private(set) var used: Set<String> = []

    /// The durations given on the command line, and those the machine's source gives
    /// (``XStateImporter/delays(in:)``), which the command line's override.
    init(_ durations: [String: Duration], written: [String: Duration] = [:]) {
        self.durations = durations
        self.written = written
    }

    /// The duration of a named delay, if any, and where it comes from (`--delay`, `setup`).
    func duration(of name: String) -> (duration: Duration, from: String)? {
        if let duration = durations[name] {
            used.insert(name)
            return (duration, "--delay")
        }
        return written[name].map { ($0, "the machine's source") }
    }
}
