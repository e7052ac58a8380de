/// Decodes the `states:` of a machine.
enum StateDecoder {
    static let stateKeys = StateKey.keys
    /// The keys only a state that nests, or runs effects on entering or leaving, writes: such a
    /// state is decoded in place, with the states inside it, not streamed.
    static let nestingKeys = Set(StateKey.allCases.filter(\.nests).map(\.rawValue))

    /// The most levels of compound states around a state: an edge of the graph says how many
    /// levels up an inherited transition is written, the machine's `on` one more.
    static let maximumNesting = Edge.maximumLevelsUp - 1

    /// A machine's states in document order, with how they nest.
    struct Decoded {
        var states: [StateSpec] = []
        /// Per state, the index of the state that holds it, or -1.
        var parents: [Int32] = []
        var details: [Int: StateDetails] = [:]
        /// The history states among them, in document order (few, if any).
        var histories: [Int] = []
        /// Whether the first state is the parallel state a machine parallel at its top is.
        var isParallelMachine = false
    }

    static func states(_ id: YAMLDocument.NodeID, defaultKind: StateKind?, reader: inout NodeReader) -> Decoded {
        if let states = streamedWhole(id, defaultKind: defaultKind, reader: &reader) {
            // Streamed whole, the machine's states are all at the top level: a history state
            // there has no compound state to resume.
            var decoded = Decoded(states: states)
            for index in decoded.states.indices where decoded.states[index].kind == .history {
                HistoryRule.checkLeaf(&decoded.states[index], details: nil, hasParent: false, reader: &reader)
            }
            return decoded
        }
        guard let entries = reader.namedEntries(id, of: "states") else { return Decoded() }
        if reader.document.children(of: id).isEmpty {
            reader.report(
                .invalidValue, "`states` is empty; a machine needs at least its initial state",
                at: reader.location(id))
        }
        var decoded = Decoded()
        var firstOfName = FirstOfName()
        append(
            entries, parent: -1, depth: 0, defaultKind: defaultKind, into: &decoded, firstOfName: &firstOfName,
            reader: &reader)
        return decoded
    }

    /// Decodes states and, after each compound state, the states inside it.
    private static func append(
        _ entries: [(key: Located<String>, value: YAMLDocument.NodeID)], parent: Int32, depth: Int,
        defaultKind: StateKind?, into decoded: inout Decoded, firstOfName: inout FirstOfName, reader: inout NodeReader
    ) {
        for entry in entries {
            var nested = Nested()
            let state = state(
                name: entry.key, body: entry.value, defaultKind: defaultKind, nested: &nested, reader: &reader)
            append(
                state, consume nested, named: entry.key, parent: parent, depth: depth, defaultKind: defaultKind,
                into: &decoded, firstOfName: &firstOfName, reader: &reader)
        }
    }

    /// The states of a machine that is parallel at its top (`parallel:` in place of `states`):
    /// one parallel state, named after the machine and written at the `parallel` key, whose
    /// regions are the mapping's states. The machine is entered through it.
    static func parallelMachine(
        _ regions: YAMLDocument.NodeID, of machine: Located<String>, at key: SourceLocation, defaultKind: StateKind?,
        reader: inout NodeReader
    ) -> Decoded {
        let name = Located(machine.value, at: key)
        let state = StateSpec(name: Located(reader.nameTable.intern(machine.value), at: key), kind: .task)
        var details = StateDetails()
        details.parallelLocation = key
        let nested = Nested(details: details, children: regions, isParallel: true)
        var decoded = Decoded()
        decoded.isParallelMachine = true
        var firstOfName = FirstOfName()
        append(
            state, nested, named: name, parent: -1, depth: 0, defaultKind: defaultKind, into: &decoded,
            firstOfName: &firstOfName, reader: &reader)
        return decoded
    }

    /// Appends one decoded state and, after it, the states inside it. Both are handed over
    /// (`consume`): a copy of each state's ``Nested`` costs a retain of everything it holds.
    private static func append(
        _ state: consuming StateSpec, _ nested: consuming Nested, named key: Located<String>, parent: Int32, depth: Int,
        defaultKind: StateKind?, into decoded: inout Decoded, firstOfName: inout FirstOfName, reader: inout NodeReader
    ) {
        let index = decoded.states.count
        var state = state
        if let first = firstOfName.claim(state.name.value, for: index) {
            if first == 0, decoded.isParallelMachine {
                NestingRule.reportNamedLikeItsMachine(key, reader: &reader)
            } else {
                NestingRule.reportDuplicateName(key, first: decoded.states[first].name.location, reader: &reader)
            }
            state.isMalformed = true
        }
        if state.kind == .history { decoded.histories.append(index) }
        decoded.states.append(consume state)
        decoded.parents.append(parent)
        if let details = nested.details { decoded.details[index] = details }
        if let details = nested.details, nested.writesRun || !details.outcomes.isEmpty {
            RunRule.checkRunningState(
                &decoded.states[index], details: details, writesRun: nested.writesRun, reader: &reader)
        }
        guard let children = nested.children, !nested.writesRun else {
            if !nested.writesRun {
                NestingRule.checkLeaf(&decoded.states[index], details: nested.details, reader: &reader)
            }
            HistoryRule.checkLeaf(
                &decoded.states[index], details: nested.details, hasParent: parent >= 0, reader: &reader)
            return
        }
        if nested.isParallel {
            ParallelRule.checkParallel(index, in: &decoded, reader: &reader)
        } else {
            NestingRule.checkCompound(&decoded.states[index], details: nested.details, reader: &reader)
        }
        guard depth < maximumNesting else {
            // An inherited transition says how many levels up it is written in 7 bits.
            reader.report(
                .limitExceeded,
                "state '\(key.value)' holds states \(depth + 1) levels deep, over the limit of \(maximumNesting)",
                at: nested.details?.statesLocation ?? key.location, subjects: [key.value])
            decoded.states[index].isMalformed = true
            decoded.states[index].hasLostTransitions = true
            return
        }
        let read = reader.namedEntries(children, of: "\(nested.isParallel ? "regions" : "states") of '\(key.value)'")
        let childEntries = read ?? []
        if nested.isParallel {
            // Regions that could not be read at all are reported as such, not counted.
            if read != nil {
                // A history state beside the regions is none.
                let regions = childEntries.count { !ParallelRule.isHistory($0.value, in: reader.document) }
                ParallelRule.checkRegionCount(regions, of: key.value, at: reader.location(children), reader: &reader)
            }
            if childEntries.isEmpty { decoded.states[index].isMalformed = true }
        } else if childEntries.isEmpty {
            NestingRule.reportNoStatesInside(key.value, at: reader.location(children), reader: &reader)
            decoded.states[index].isMalformed = true
        }
        append(
            childEntries, parent: Int32(index), depth: depth + 1, defaultKind: defaultKind, into: &decoded,
            firstOfName: &firstOfName, reader: &reader)
        if nested.isParallel {
            ParallelRule.checkRegions(of: index, in: &decoded, reader: &reader)
        } else {
            NestingRule.checkInitial(of: index, in: &decoded, reader: &reader)
            HistoryRule.checkCompound(index, in: &decoded, reader: &reader)
        }
    }

    /// The first state of each name, by the name's position in the machine's name table (names
    /// are numbered densely, so an array, not a hash table).
    struct FirstOfName {
        private var first: [Int32] = []

        /// The state that has the name already, or `nil` after giving the name to `index`.
        mutating func claim(_ name: Name, for index: Int) -> Int? {
            let position = Int(name.index)
            if position >= first.count { first += repeatElement(-1, count: position + 1 - first.count) }
            if first[position] >= 0 { return Int(first[position]) }
            first[position] = Int32(index)
            return nil
        }
    }

    /// What a state's body says about nesting: its details, and the `states` inside it (or
    /// the regions of its `parallel`).
    struct Nested {
        var details: StateDetails?
        var children: YAMLDocument.NodeID?
        /// Whether `children` are regions, from `parallel`, rather than `states`.
        var isParallel = false
        /// Whether the state writes `run`, readable or not: it runs a machine.
        var writesRun = false
    }

    /// The states of a mapping whose every state ``StateStreamer`` took, in order: handed over
    /// as one array, finished exactly as ``state(name:body:defaultKind:reader:)`` would. (The
    /// streamer takes a state only under a key that ``NodeReader/namedEntries(_:of:)`` reads as
    /// a name, without a finding, and names the state after it.)
    private static func streamedWhole(
        _ id: YAMLDocument.NodeID, defaultKind: StateKind?,
        reader: inout NodeReader
    ) -> [StateSpec]? {
        let children = reader.document.children(of: id)
        guard let streamed = reader.streamedStates, reader.document[id].kind == .mapping, children.count >= 2,
            reader.document[children[children.startIndex + 1]].kind == .taken
        else { return nil }
        let firstToken = reader.document[children[children.startIndex + 1]].token
        var expected = firstToken
        for index in stride(from: children.startIndex + 1, to: children.endIndex, by: 2) {
            guard reader.document[children[index]].kind == .taken, reader.document[children[index]].token == expected
            else {
                return nil
            }
            expected += 1
        }
        // Changed in place: a second binding of the array would make the first change copy it.
        guard var segment = streamed.removeSegment(first: firstToken, count: children.count / 2) else { return nil }
        var next = 0  // the next state with findings
        for index in segment.states.indices {
            if next < segment.findings.count, segment.findings[next].position == index {
                reader.diagnostics.append(contentsOf: segment.findings[next].diagnostics)
                next += 1
            }
            applyKind(to: &segment.states[index], defaultKind: defaultKind, reader: &reader)
        }
        return segment.states
    }

    /// One state: decoded here, or earlier by ``StateStreamer`` (its findings are reported now).
    static func state(
        name: Located<String>, body: YAMLDocument.NodeID, defaultKind: StateKind?, nested: inout Nested,
        reader: inout NodeReader
    ) -> StateSpec {
        var state: StateSpec
        if reader.document[body].kind == .taken,
            let streamed = reader.streamedStates?.remove(reader.document[body].token)
        {
            reader.diagnostics.append(contentsOf: streamed.findings)
            state = streamed.state
        } else {
            state = decoded(name: name, body: body, nested: &nested, reader: &reader)
        }
        // A compound state waits for nothing itself: the states inside it do; nor does a state
        // that runs a machine (``RunRule`` reports a kind it writes).
        if nested.children == nil, !nested.writesRun {
            applyKind(to: &state, defaultKind: defaultKind, reader: &reader)
            if let location = nested.details?.activitiesLocation {
                checkActivities(at: location, of: &state, reader: &reader)
            }
        }
        return state
    }

    /// An activity runs while its state is active, sending events: a choice state is left at
    /// once, and a terminal state ignores every event.
    private static func checkActivities(
        at location: SourceLocation, of state: inout StateSpec, reader: inout NodeReader
    ) {
        let why: String
        switch state.kind {
        case .choice: why = "is left at once, so an activity would never run there"
        case .terminal: why = "ignores every event, so nothing an activity sends would be handled"
        default: return
        }
        let name = reader.nameTable[state.name.value]
        reader.report(
            .invalidValue, "\(state.kind.rawValue) state '\(name)' cannot run `activities`: it \(why)",
            at: location, subjects: [name],
            notes: [.init("list the activities on the input or task state, or the compound state, that waits")])
        state.isMalformed = true
    }

    /// A state as its body says, before the machine's `defaults.kind` applies (a state that
    /// gives no (valid) kind is a `task` for now), for ``StateStreamer``: its body writes none of
    /// ``nestingKeys`` (the streamer leaves such a state in place), so they are not looked for.
    static func streamed(name: Located<String>, body: YAMLDocument.NodeID, reader: inout NodeReader) -> StateSpec {
        var nested = Nested()
        return decoded(name: name, body: body, nested: &nested, readsNesting: false, reader: &reader)
    }

    private static func decoded(
        name: Located<String>, body: YAMLDocument.NodeID, nested: inout Nested, readsNesting: Bool = true,
        reader: inout NodeReader
    ) -> StateSpec {
        reader.lostTransitions = false
        var (state, malformed) = reader.readingPart {
            decodeBody(name: name, body: body, nested: &nested, readsNesting: readsNesting, reader: &$0)
        }
        if malformed { state.isMalformed = true }
        state.hasLostTransitions = reader.lostTransitions
        return state
    }

    /// Gives a state without a kind of its own the machine's default, then reports what its
    /// kind does not allow.
    static func applyKind(to state: inout StateSpec, defaultKind: StateKind?, reader: inout NodeReader) {
        if state.kindLocation == nil { state.kind = defaultKind ?? .task }
        // The name is looked up only for a finding: most states have none.
        if state.kind == .input || state.kind == .task { checkEventless(&state, reader: &reader) }
        if state.kind == .choice, let on = state.onLocation {
            let name = reader.nameTable[state.name.value]
            reader.report(
                .invalidValue,
                "choice state '\(name)' leaves at once through `always`; it cannot wait for events in `on`",
                at: on, subjects: [name],
                notes: [
                    .init("make it an `input` or `task` state, or move the branches to `always` with `if:` conditions")
                ])
            state.isMalformed = true
        }
    }

    /// What the `always` of a state that waits (an `input` or `task` state, a compound or
    /// parallel state) may hold: branches with a condition, taken as soon as one holds. A
    /// branch without one would leave every time the state is entered, so the state would
    /// never wait: that is a choice state.
    static func checkEventless(_ state: inout StateSpec, reader: inout NodeReader) {
        guard let always = state.always else { return }
        for index in always.value.indices where always.value[index].isUnconditional {
            let name = reader.nameTable[state.name.value]
            reader.report(
                .invalidValue,
                "an `always` branch of '\(name)' has no `if`, `unless`, `in` or `notIn`: it would leave the state every time it is entered, so the state would never wait",
                at: always.value[index].location, subjects: [name],
                notes: [
                    .init(
                        "give the branch an `if:` or `unless:` condition (or `in:` a state), or make '\(name)' a `choice` state"
                    )
                ])
            state.isMalformed = true
        }
    }

    private static func decodeBody(
        name: Located<String>, body: YAMLDocument.NodeID, nested: inout Nested, readsNesting: Bool,
        reader: inout NodeReader
    ) -> StateSpec {
        var state = StateSpec(name: Located(reader.nameTable.intern(name.value), at: name.location), kind: .task)
        let node = reader.document[body]
        // `name:` with no value is a state with every default.
        if node.kind == .scalar, node.scalarValue == .null { return state }
        guard let fields = reader.fields(body, of: "state '\(name.value)'", allowed: stateKeys) else {
            state.isMalformed = true
            reader.lostTransitions = true
            return state
        }
        // A key that could not be read (unknown, misspelt, not a string) may have been meant
        // as `on`, `always` or `timeout`.
        if fields.entries.count * 2 != reader.document.children(of: body).count { reader.lostTransitions = true }
        if let kind = fields["kind"] {
            if let value = reader.choice(kind, as: "kind", among: StateKind.allCases) {
                state.kind = value.value
                state.kindLocation = value.location
                if value.value == .history { HistoryRule.checkKeys(of: name.value, fields, reader: &reader) }
            } else {
                reader.lostTransitions = true
            }
        }
        if let summary = fields["summary"] { state.summary = reader.text(summary, as: "summary") }
        if let on = fields["on"] {
            state.onLocation = fields.key("on")?.location
            state.transitionRun = TransitionDecoder.eventTransitions(
                on, of: "`on` of state '\(name.value)'", reader: &reader)
        }
        if let always = fields["always"], let key = fields.key("always") {
            let candidates = TransitionDecoder.candidates(always, reader: &reader, mayStay: false)
            state.always = Located(candidates, at: key.location)
        }
        if let timeout = fields["timeout"] {
            state.timeoutLocation = fields.key("timeout")?.location
            state.timeout = TransitionDecoder.timeout(timeout, reader: &reader)
        }
        if readsNesting { decodeNesting(fields, of: name, into: &nested, reader: &reader) }
        return state
    }

    /// The keys of a way in written as a mapping: `initial: { to: NAME, effects: [...] }`, and
    /// a history state's `default` alike.
    static let wayInKeys = ["to", "effects"]

    /// A way in (`initial`, or a history state's `default`): a state's name, or a mapping with
    /// `to` and the `effects` taking it runs. The name is `nil` (after reporting) when unreadable.
    private static func wayIn(_ id: YAMLDocument.NodeID, as key: String, reader: inout NodeReader) -> (
        Located<String>?, [Located<String>]
    ) {
        guard reader.document[id].kind == .mapping else { return (reader.name(id, as: key), []) }
        guard let fields = reader.fields(id, of: "`\(key)`", allowed: wayInKeys) else { return (nil, []) }
        let effects = fields["effects"].map { reader.names($0, as: "an effect", list: "`effects`") } ?? []
        guard let target = fields["to"] else {
            reader.missing("to", in: "`\(key)`", at: reader.location(id), example: "{ to: first, effects: [prepare] }")
            return (nil, effects)
        }
        return (reader.name(target, as: "`to`"), effects)
    }

    /// `initial`, `entry`, `exit`, `run`, `done` and the `states` inside (or the regions of
    /// `parallel`).
    private static func decodeNesting(
        _ fields: NodeReader.Fields, of name: Located<String>, into nested: inout Nested, reader: inout NodeReader
    ) {
        var details = StateDetails()
        var wrote = false
        if let initial = fields["initial"] {
            (details.initial, details.initialEffects) = wayIn(initial, as: "initial", reader: &reader)
            wrote = true
        }
        if let entry = fields["entry"] {
            details.entry = reader.names(entry, as: "an effect", list: "`entry`")
            wrote = true
        }
        if let exit = fields["exit"] {
            details.exit = reader.names(exit, as: "an effect", list: "`exit`")
            wrote = true
        }
        if let activities = fields["activities"] {
            details.activities = reader.declaredNames(
                activities, as: "an activity", in: "the `activities` of state '\(name.value)'")
            details.activitiesLocation = reader.location(activities)
            wrote = true
        }
        if let run = fields["run"] {
            details.run = reader.name(run, as: "run")
            // A `run` that could not be read still makes the state a running one (its `done`
            // is no compound state's); where it goes is lost until the error is fixed.
            if details.run == nil { reader.lostTransitions = true }
            nested.writesRun = true
            wrote = true
        }
        if let done = fields["done"] {
            if RunRule.mapsOutcomes(done, runs: fields["run"] != nil, reader: reader) {
                details.outcomes = RunRule.outcomes(done, of: name, reader: &reader)
            } else {
                let candidates = TransitionDecoder.candidates(done, reader: &reader, mayStay: false)
                if !candidates.isEmpty { details.done = Located(candidates, at: reader.location(done)) }
            }
            wrote = true
        }
        if let deep = fields["deep"], let value = reader.boolean(deep, as: "`deep`") {
            details.deep = Located(value, at: reader.location(deep))
            wrote = true
        }
        if let target = fields["default"] {
            let (name, effects) = wayIn(target, as: "default", reader: &reader)
            details.defaultEffects = effects
            if let name {
                details.historyDefault = Located(reader.nameTable.intern(name.value), at: name.location)
            } else {
                reader.lostTransitions = true
            }
            wrote = true
        }
        // A history state's `states` and `parallel` are reported (it has none); they are not
        // read as states inside.
        let isHistory = fields["kind"].map({ reader.document[$0].scalarValue }) == .string("history")
        if let states = fields["states"], !isHistory {
            nested.children = states
            details.statesLocation = fields.key("states")?.location
            wrote = true
        }
        if let regions = fields["parallel"], let key = fields.key("parallel"), !isHistory {
            // A state with both is read as parallel: its `states` is reported and left unread
            // (``ParallelRule/checkParallel(_:in:reader:)``).
            nested.children = regions
            nested.isParallel = true
            details.parallelLocation = key.location
            wrote = true
        }
        if wrote { nested.details = details }
    }
}

extension StateDecoder.Decoded {
    /// The position after the last state inside the one at `index`, as decoded so far (the
    /// states inside a state follow it, in document order).
    func subtreeEnd(of index: Int) -> Int {
        var end = index + 1
        while end < states.count, isInside(end, index) { end += 1 }
        return end
    }

    /// Whether `state` is inside `ancestor`, at any depth.
    func isInside(_ state: Int, _ ancestor: Int) -> Bool {
        var current = parents[state]
        while current >= 0 {
            if current == Int32(ancestor) { return true }
            current = parents[Int(current)]
        }
        return false
    }
}
