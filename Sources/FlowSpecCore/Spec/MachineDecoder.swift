/// Decodes one machine of a spec.
enum MachineDecoder {
    static func decode(name: Located<String>, body: YAMLDocument.NodeID, reader: inout NodeReader)
        -> (MachineSpec, [Rule: SeverityLevel])
    {
        reader.nameTable = NameTable()
        reader.transitionStore = TransitionStore()
        var (machine, severity) = decodeFields(name: name, body: body, reader: &reader)
        swap(&machine.names, &reader.nameTable)
        swap(&machine.transitionStore, &reader.transitionStore)
        if !machine.exceedsLimits { checkTransitionCount(&machine, reader: &reader) }
        if !machine.exceedsLimits { ParallelRule.checkMachine(machine, reader: &reader) }
        // A machine over the limits keeps no states, so none of their transitions either.
        if machine.exceedsLimits { machine.transitionStore = TransitionStore() }
        return (machine, severity)
    }

    /// The machine, its names interned in `reader.nameTable`.
    private static func decodeFields(name: Located<String>, body: YAMLDocument.NodeID, reader: inout NodeReader)
        -> (MachineSpec, [Rule: SeverityLevel])
    {
        var machine = MachineSpec(name: name)
        var severity: [Rule: SeverityLevel] = [:]
        guard let fields = reader.fields(body, of: "machine '\(name.value)'", allowed: SpecDecoder.machineKeys) else {
            return (machine, severity)
        }
        // States decoded as the YAML was read refer to names and transitions of their own: they
        // become the machine's before anything else is read.
        if let states = fields["states"], let streamed = streamedParts(states, reader: reader) {
            reader.nameTable = streamed.names
            reader.transitionStore = streamed.transitions
        }
        if let node = fields["summary"] { machine.summary = reader.text(node, as: "summary") }
        if let node = fields["standalone"], let value = reader.boolean(node, as: "`standalone`") {
            machine.standalone = Located(value, at: reader.location(node))
        }
        if let node = fields["initial"], reader.document[node].kind == .mapping {
            // A compound state's `initial` may run effects; a machine has no entry of its own
            // to run them after.
            reader.report(
                .invalidValue,
                "a machine's `initial` is the name of the state it starts in; a machine runs no effects of "
                    + "its own on starting: list them in that state's `entry`",
                at: reader.location(node))
        } else if let node = fields["initial"] {
            machine.initial = reader.name(node, as: "initial")
        } else if let key = fields.key("parallel"), fields["states"] == nil {
            // Entered through the parallel state it is: every region at its `initial`.
            machine.initial = Located(name.value, at: key.location)
        } else {
            reader.missing("initial", in: "machine '\(name.value)'", at: name.location, example: "initial: splash")
        }
        if let node = fields["defaults"] { machine.defaultKind = decodeDefaults(node, reader: &reader) }
        if let node = fields["conditions"] {
            machine.conditions = reader.declaredNames(node, as: "a condition", in: "`conditions`")
        }
        if let node = fields["events"] { machine.events = reader.declaredNames(node, as: "an event", in: "`events`") }
        if let node = fields["effects"] {
            machine.effects = reader.declaredNames(node, as: "an effect", in: "`effects`")
        }
        if let node = fields["activities"] { machine.activities = SectionDecoder.activities(node, reader: &reader) }
        if let node = fields["on"] {
            reader.lostTransitions = false
            machine.machineWide = TransitionDecoder.machineWideTransitions(node, reader: &reader)
            machine.lostMachineWideTransitions = reader.lostTransitions
        }
        for key in ["states", "parallel"] {
            guard let node = fields[key] else { continue }
            let count = reader.document.children(of: node).count / 2
            if reader.document[node].kind == .mapping, count > reader.limits.maxStates {
                reader.report(
                    .limitExceeded,
                    "machine '\(name.value)' has \(count) states, over the limit of \(reader.limits.maxStates) (raise it with --max-states)",
                    at: fields.key(key)?.location ?? reader.location(node), subjects: [name.value])
                machine.exceedsLimits = true
                return (machine, severity)
            }
        }
        if let node = fields["states"] {
            let decoded = StateDecoder.states(node, defaultKind: machine.defaultKind, reader: &reader)
            machine.states = decoded.states
            machine.nesting.setParents(decoded.parents)
            machine.nesting.details = decoded.details
            if let parallel = fields.key("parallel") { reportStatesAndParallel(name, at: parallel.location, &reader) }
        } else if let node = fields["parallel"], let key = fields.key("parallel") {
            let decoded = StateDecoder.parallelMachine(
                node, of: name, at: key.location, defaultKind: machine.defaultKind, reader: &reader)
            machine.states = decoded.states
            machine.nesting.setParents(decoded.parents)
            machine.nesting.details = decoded.details
            machine.parallelAtTop = key.location
        } else {
            reader.missing(
                "states", in: "machine '\(name.value)'", at: name.location,
                example: "states: { splash: { on: { done: home } } }")
        }
        if let node = fields["sequences"] {
            machine.sequences = SectionDecoder.sequences(node, reader: &reader)
            NestingRule.checkSequenceMembers(machine, reader: &reader)
        }
        // After the states: `migrate` must not map a value a current state stores.
        if let node = fields["persist"] {
            machine.persist = SectionDecoder.persist(node, machine: machine, reader: &reader)
        }
        if let node = fields["require"] { machine.requirements = SectionDecoder.requirements(node, reader: &reader) }
        if let node = fields["severity"] { severity = SeverityDecoder.decode(node, reader: &reader) }
        HistoryRule.checkReferences(machine, reader: &reader)
        return (machine, severity)
    }

    /// A machine is parallel at its top or holds states, not both: its `parallel` is left unread.
    private static func reportStatesAndParallel(
        _ name: Located<String>, at location: SourceLocation, _ reader: inout NodeReader
    ) {
        reader.report(
            .invalidParallel,
            "machine '\(name.value)' writes both `states` and `parallel`: a machine is either parallel at its top, its regions under `parallel`, or holds states",
            at: location, subjects: [name.value],
            notes: [
                .init(
                    "move the regions into a parallel state under `states`, or move the states into the regions under `parallel`"
                )
            ])
    }

    /// The names and transitions of the states ``StateStreamer`` decoded in a `states` mapping,
    /// if it did.
    private static func streamedParts(_ states: YAMLDocument.NodeID, reader: NodeReader)
        -> (names: NameTable, transitions: TransitionStore)?
    {
        guard let streamed = reader.streamedStates, reader.document[states].kind == .mapping else { return nil }
        // Any state the streamer took, at any depth: every `states` mapping of a machine shares
        // its names.
        var mappings = [states]
        while let mapping = mappings.popLast() {
            let children = reader.document.children(of: mapping)
            for index in stride(from: children.startIndex + 1, to: children.endIndex, by: 2) {
                let body = children[index]
                if reader.document[body].kind == .taken {
                    return streamed.removeShared(of: reader.document[body].token)
                }
                guard reader.document[body].kind == .mapping else { continue }
                let fields = reader.document.children(of: body)
                // A parallel state's regions are states too, streamed alike.
                for key in stride(from: fields.startIndex, to: fields.endIndex - 1, by: 2)
                where ["states", "parallel"].contains(NodeReader.nameText(fields[key], in: reader.document))
                    && reader.document[fields[key + 1]].kind == .mapping
                {
                    mappings.append(fields[key + 1])
                }
            }
        }
        return nil
    }

    /// Reports a machine with more transitions than the limit allows.
    private static func checkTransitionCount(_ machine: inout MachineSpec, reader: inout NodeReader) {
        var inheritors = 0
        var count = 0
        var largest = (count: 0, state: -1)
        for index in machine.states.indices {
            if machine.states[index].kind.inheritsMachineWideTransitions { inheritors += 1 }
            let own = machine.ownTransitionCount(of: index)
            count += own
            if own > largest.count { largest = (own, index) }
        }
        let machineWide = machine.machineWide.reduce(0) { $0 + $1.candidates.count }
        count += machineWide * inheritors
        // Each state inside a compound state inherits its transitions too.
        for index in machine.states.indices where machine.isCompound(index) {
            let own = machine.ownTransitionCount(of: index)
            guard own > 0 else { continue }
            let heirs = machine.nesting.descendants(of: index).count { machine.isLeaf($0) }
            count += own * heirs
        }
        // An edge numbers its candidate in 22 bits: one state's transitions (or the machine's
        // `on`) are bounded by that too.
        if max(largest.count, machineWide) > Edge.maximumCandidateIndex {
            let owner =
                largest.count >= machineWide ? "state '\(machine.name(of: largest.state))'" : "the machine's `on`"
            reader.report(
                .limitExceeded,
                "\(owner) has \(max(largest.count, machineWide)) transitions, over the limit of \(Edge.maximumCandidateIndex) for one state",
                at: machine.name.location, subjects: [machine.name.value])
            machine.exceedsLimits = true
            return
        }
        // An edge of the graph numbers its transition and candidate in 29 bits each.
        let limit = min(reader.limits.maxTransitions, Edge.maximumIndex)
        guard count > limit else { return }
        reader.report(
            .limitExceeded,
            "machine '\(machine.name.value)' has \(count) transitions, over the limit of \(limit) (raise it with --max-transitions)",
            at: machine.name.location, subjects: [machine.name.value])
        machine.exceedsLimits = true
    }

    private static func decodeDefaults(_ id: YAMLDocument.NodeID, reader: inout NodeReader) -> StateKind? {
        guard let fields = reader.fields(id, of: "defaults", allowed: ["kind"]),
            let kind = fields["kind"]
        else { return nil }
        return reader.choice(kind, as: "defaults.kind", among: StateKind.waitingKinds)?.value
    }
}
