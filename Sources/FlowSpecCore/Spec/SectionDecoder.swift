/// Decodes a machine's `activities:`, `sequences:`, `persist:` and `require:` sections.
enum SectionDecoder {
    static let activityKeys = ["sends", "summary"]
    static let sequenceKeys = ["states", "forwardOnly"]
    static let persistKeys = ["rawValue", "restore", "resume", "migrate"]
    static let requirementKeys = RequirementKind.keys

    /// `activities: { watchSession: { sends: [sessionExpired] } }`. An activity whose body
    /// cannot be read is still declared, so that the states that run it are not reported too.
    static func activities(_ id: YAMLDocument.NodeID, reader: inout NodeReader) -> [Activity] {
        guard let entries = reader.namedEntries(id, of: "activities") else { return [] }
        var result: [Activity] = []
        for (name, body) in entries {
            var activity = Activity(name: name)
            defer { result.append(activity) }
            guard let fields = reader.fields(body, of: "activity '\(name.value)'", allowed: activityKeys) else {
                continue
            }
            if let summary = fields["summary"] { activity.summary = reader.text(summary, as: "summary") }
            guard let sends = fields["sends"] else {
                reader.missing(
                    "sends", in: "activity '\(name.value)'", at: name.location, example: "sends: [sessionExpired]")
                continue
            }
            activity.sends = reader.declaredNames(
                sends, as: "an event", in: "the `sends` of activity '\(name.value)'")
            if activity.sends.isEmpty, reader.document[sends].kind == .sequence {
                reader.report(
                    .invalidValue, "activity '\(name.value)' sends no event; list the events it sends",
                    at: reader.location(sends), subjects: [name.value])
            }
        }
        return result
    }

    static func sequences(_ id: YAMLDocument.NodeID, reader: inout NodeReader) -> [StateSequence] {
        guard let entries = reader.namedEntries(id, of: "sequences") else { return [] }
        var result: [StateSequence] = []
        for (name, body) in entries {
            guard let fields = reader.fields(body, of: "sequence '\(name.value)'", allowed: sequenceKeys) else {
                continue
            }
            guard let statesNode = fields["states"] else {
                reader.missing(
                    "states", in: "sequence '\(name.value)'", at: name.location, example: "states: [a, b, c]")
                continue
            }
            let states = reader.declaredNames(
                statesNode, as: "a member of sequence '\(name.value)'",
                in: "the `states` of sequence '\(name.value)'")
            let forwardOnly = fields["forwardOnly"].flatMap { reader.boolean($0, as: "forwardOnly") } ?? false
            result.append(StateSequence(name: name, states: states, forwardOnly: forwardOnly))
        }
        return result
    }

    static func persist(_ id: YAMLDocument.NodeID, machine: MachineSpec, reader: inout NodeReader) -> Persist? {
        let location = reader.location(id)
        guard let fields = reader.fields(id, of: "persist", allowed: persistKeys) else { return nil }
        // Every key is read (and its problems reported) even when `rawValue` is wrong.
        let rawValue = fields["rawValue"].flatMap {
            reader.choice($0, as: "rawValue", among: [Persist.RawValue.int, .string])
        }
        if fields["rawValue"] == nil {
            reader.missing("rawValue", in: "persist", at: location, example: "rawValue: int")
        }
        var restore = Persist.Restore.initial
        if let restoreNode = fields["restore"],
            let value = reader.choice(restoreNode, as: "restore", among: [Persist.Restore.clamp, .initial])
        {
            restore = value.value
            if restore == .clamp, rawValue?.value == .string {
                reader.report(
                    .invalidValue,
                    "`restore: clamp` needs `rawValue: int`; strings have no range to clamp into",
                    at: value.location)
            }
        }
        var resume: [(from: Located<String>, to: Located<String>)] = []
        if let resumeNode = fields["resume"], let entries = reader.namedEntries(resumeNode, of: "resume") {
            for (from, toNode) in entries {
                if let to = reader.name(toNode, as: "the state '\(from.value)' resumes to") {
                    resume.append((from, to))
                }
            }
        }
        guard let rawValue else { return nil }
        var persist = Persist(location: location, rawValue: rawValue.value, restore: restore, resume: resume)
        if let migrateNode = fields["migrate"] {
            persist.migrate = migrations(migrateNode, rawValue: rawValue.value, machine: machine, reader: &reader)
        }
        return persist
    }

    /// `migrate: { oldValue: state, 6: state }`: each key a value an earlier version stored, in
    /// the machine's raw value form, that no current state stores; each value a state.
    private static func migrations(
        _ id: YAMLDocument.NodeID, rawValue: Persist.RawValue, machine: MachineSpec, reader: inout NodeReader
    ) -> [(from: Located<Persist.StoredValue>, to: Located<String>)] {
        guard let children = reader.mappingChildren(id, of: "`migrate`") else { return [] }
        var stateNames: Set<String>?
        var leaves: [Int] = []
        var result: [(from: Located<Persist.StoredValue>, to: Located<String>)] = []
        for index in stride(from: children.startIndex, to: children.endIndex - 1, by: 2) {
            let key = reader.document[children[index]]
            let stored: Persist.StoredValue
            switch (rawValue, key.kind == .scalar ? key.scalarValue : nil) {
            case (.int, .int(let value)?):
                stored = .int(value)
            case (.string, _):
                guard let name = reader.entryName(children[index], in: "`migrate`") else { continue }
                stored = .string(name.value)
            default:
                reader.report(
                    .invalidValue,
                    "a key in `migrate` is a value an earlier version stored; with `rawValue: int` that is a whole "
                        + "number, not \(reader.describe(children[index]))",
                    at: key.location)
                continue
            }
            guard let target = reader.name(children[index + 1], as: "the state '\(stored)' migrates to") else {
                continue
            }
            if result.contains(where: { $0.from.value == stored }) {
                reader.report(
                    .invalidValue, "`migrate` maps '\(stored)' twice; keep one mapping", at: key.location)
                continue
            }
            // The machine's names are still the reader's while it is decoded.
            let table = reader.nameTable
            // Only leaves are stored: a compound state's name or place stores nothing.
            if stateNames == nil {
                leaves = machine.states.indices.filter(machine.isLeaf)
                stateNames = Set(leaves.map { table[machine.states[$0].name.value] })
            }
            if let shadowed = shadowedState(stored, leaves: leaves, machine: machine, names: stateNames!, table: table)
            {
                reader.report(
                    .invalidValue,
                    "`migrate` maps '\(stored)', which state '\(shadowed)' stores now, so the mapping would hide "
                        + "that state; a migration is for values no current state stores: remove it",
                    at: key.location, subjects: [shadowed])
                continue
            }
            result.append((Located(stored, at: key.location), target))
        }
        return result
    }

    /// The current state that stores `value`, if any: the leaf at that position, or of that name.
    private static func shadowedState(
        _ value: Persist.StoredValue, leaves: [Int], machine: MachineSpec, names: Set<String>, table: NameTable
    ) -> String? {
        switch value {
        case .int(let position):
            return leaves.indices.contains(position) ? table[machine.states[leaves[position]].name.value] : nil
        case .string(let name):
            return names.contains(name) ? name : nil
        }
    }

    static func requirements(_ id: YAMLDocument.NodeID, reader: inout NodeReader) -> [Requirement] {
        let node = reader.document[id]
        guard node.kind == .sequence else {
            reader.report(
                .invalidValue,
                "`require` must be a list of requirements (`- reachable: [state]`), not \(reader.describe(id))",
                at: node.location)
            return []
        }
        return reader.document.children(of: id).compactMap { requirement($0, reader: &reader) }
    }

    static func requirement(_ id: YAMLDocument.NodeID, reader: inout NodeReader) -> Requirement? {
        let location = reader.location(id)
        guard let fields = reader.fields(id, of: "a requirement", allowed: requirementKeys) else { return nil }
        guard fields.entries.count == 1, let entry = fields.entries.first else {
            if fields.entries.count > 1 {
                reader.report(
                    .invalidValue,
                    "each requirement is its own list item; split this one into one `- key:` per requirement",
                    at: location)
            } else {
                reader.report(
                    .invalidValue, "a requirement needs one of: \(requirementKeys.joined(separator: ", "))",
                    at: location)
            }
            return nil
        }
        // Only a kind's key gets here (`fields` allows no other).
        return RequirementKind(rawValue: entry.key.value)?.decode(entry.value, key: entry.key, reader: &reader)
    }

    /// `never: [error]`, or `never: { in: mainApp, while: sessionExpired }`.
    static func never(_ id: YAMLDocument.NodeID, key: Located<String>, reader: inout NodeReader) -> Requirement? {
        guard reader.document[id].kind == .mapping else {
            return .never(location: key.location, states: reader.names(id, as: "a state", list: "`never`"), while: nil)
        }
        let example = "never: { in: mainApp, while: sessionExpired }"
        guard let fields = reader.fields(id, of: "never", allowed: RequirementKind.never.mappingKeys) else {
            return nil
        }
        let states = fields["in"].map { reader.names($0, as: "a state", list: "`in`") }
        let condition = fields["while"].flatMap { reader.name($0, as: "`while`") }
        reportMissing(RequirementKind.never.mappingKeys, of: "never", in: fields, at: id, example: example, &reader)
        guard let states, let condition else { return nil }
        return .never(location: key.location, states: states, while: condition)
    }

    /// `before: { first: signIn, then: home }`, or `{ effect: saveCheckpoint, then: packetRun }`,
    /// either with `after: S`.
    static func before(_ id: YAMLDocument.NodeID, key: Located<String>, reader: inout NodeReader) -> Requirement? {
        guard let fields = reader.fields(id, of: "before", allowed: RequirementKind.before.mappingKeys) else {
            return nil
        }
        let example = "before: { first: signIn, then: home }"
        let state = fields["first"].flatMap { reader.name($0, as: "`first`") }
        let effect = fields["effect"].flatMap { reader.name($0, as: "`effect`") }
        let then = fields["then"].flatMap { reader.name($0, as: "`then`") }
        let after = fields["after"].flatMap { reader.name($0, as: "`after`") }
        if fields["first"] != nil, fields["effect"] != nil {
            reader.report(
                .invalidValue,
                "`before` waits for a state (`first`) or an effect (`effect`), not both; make it two requirements",
                at: reader.location(id))
            return nil
        }
        if fields["first"] == nil, fields["effect"] == nil {
            reader.report(
                .invalidValue,
                "`before` needs `first` (a state every run passes first) or `effect` (an effect it runs first), "
                    + "for example `\(example)`",
                at: reader.location(id))
        }
        reportMissing(["then"], of: "before", in: fields, at: id, example: example, &reader)
        guard let then, let first = state.map(Requirement.Milestone.state) ?? effect.map(Requirement.Milestone.effect)
        else { return nil }
        return .before(location: key.location, first: first, then: then, after: after)
    }

    /// `between: { after: splash, until: slide2, never: demoCTA }`.
    static func between(_ id: YAMLDocument.NodeID, key: Located<String>, reader: inout NodeReader) -> Requirement? {
        guard let fields = reader.fields(id, of: "between", allowed: RequirementKind.between.mappingKeys) else {
            return nil
        }
        let after = fields["after"].flatMap { reader.name($0, as: "`after`") }
        let until = fields["until"].flatMap { reader.name($0, as: "`until`") }
        let never = fields["never"].map { reader.names($0, as: "a state", list: "`never`") }
        reportMissing(
            RequirementKind.between.mappingKeys, of: "between", in: fields, at: id,
            example: "between: { after: splash, until: slide2, never: demoCTA }", &reader)
        guard let after, let until, let never else { return nil }
        return .between(location: key.location, after: after, until: until, never: never)
    }

    /// `everyEntry: { to: error, runs: showError }`; `to` may be a list.
    static func everyEntry(_ id: YAMLDocument.NodeID, key: Located<String>, reader: inout NodeReader) -> Requirement? {
        guard let fields = reader.fields(id, of: "everyEntry", allowed: RequirementKind.everyEntry.mappingKeys) else {
            return nil
        }
        let to = fields["to"].map { reader.names($0, as: "a state", list: "`to`") }
        let runs = fields["runs"].flatMap { reader.name($0, as: "`runs`") }
        reportMissing(
            RequirementKind.everyEntry.mappingKeys, of: "everyEntry", in: fields, at: id,
            example: "everyEntry: { to: error, runs: showError }",
            &reader)
        guard let to, let runs else { return nil }
        return .everyEntry(location: key.location, to: to, runs: runs)
    }

    /// `leadsTo: { from: authLoading, to: [mainApp, error] }`.
    static func leadsTo(_ id: YAMLDocument.NodeID, key: Located<String>, reader: inout NodeReader) -> Requirement? {
        guard let fields = reader.fields(id, of: "leadsTo", allowed: RequirementKind.leadsTo.mappingKeys) else {
            return nil
        }
        let from = fields["from"].map { reader.names($0, as: "a state", list: "`from`") }
        let to = fields["to"].map { reader.names($0, as: "a state", list: "`to`") }
        reportMissing(
            RequirementKind.leadsTo.mappingKeys, of: "leadsTo", in: fields, at: id,
            example: "leadsTo: { from: authLoading, to: [mainApp, error] }",
            &reader)
        guard let from, let to else { return nil }
        return .leadsTo(location: key.location, from: from, to: to)
    }

    /// `atMost: { times: 3, of: networkError, before: error }`.
    static func atMost(_ id: YAMLDocument.NodeID, key: Located<String>, reader: inout NodeReader) -> Requirement? {
        guard let fields = reader.fields(id, of: "atMost", allowed: RequirementKind.atMost.mappingKeys) else {
            return nil
        }
        let times = fields["times"].flatMap { reader.positiveInteger($0, as: "`times`") }
        let event = fields["of"].flatMap { reader.name($0, as: "`of`") }
        let before = fields["before"].flatMap { reader.name($0, as: "`before`") }
        reportMissing(
            RequirementKind.atMost.mappingKeys, of: "atMost", in: fields, at: id,
            example: "atMost: { times: 3, of: networkError, before: error }",
            &reader)
        guard let times, let event, let before else { return nil }
        if times.value > maxAtMostTimes {
            reader.report(
                .invalidValue,
                "`times` is at most \(maxAtMostTimes), not \(times.value): the search keeps a count for each configuration",
                at: times.location)
            return nil
        }
        return .atMost(location: key.location, times: times, of: event, before: before)
    }

    /// `whenever: { event: forceReset, to: unauthenticated }`.
    static func whenever(_ id: YAMLDocument.NodeID, key: Located<String>, reader: inout NodeReader) -> Requirement? {
        guard let fields = reader.fields(id, of: "whenever", allowed: RequirementKind.whenever.mappingKeys) else {
            return nil
        }
        let event = fields["event"].flatMap { reader.name($0, as: "`event`") }
        let to = fields["to"].map { reader.names($0, as: "a state", list: "`to`") }
        reportMissing(
            RequirementKind.whenever.mappingKeys, of: "whenever", in: fields, at: id,
            example: "whenever: { event: forceReset, to: signIn }",
            &reader)
        guard let event, let to else { return nil }
        return .whenever(location: key.location, event: event, to: to)
    }

    /// The largest `times` of an `atMost`: the search keeps a count per configuration.
    static let maxAtMostTimes = 1000

    /// Reports each of `keys` that `fields` lacks.
    private static func reportMissing(
        _ keys: [String], of what: String, in fields: NodeReader.Fields, at id: YAMLDocument.NodeID, example: String,
        _ reader: inout NodeReader
    ) {
        for required in keys where fields[required] == nil {
            reader.missing(required, in: what, at: reader.location(id), example: example)
        }
    }

    static func within(_ id: YAMLDocument.NodeID, key: Located<String>, reader: inout NodeReader) -> Requirement? {
        guard let fields = reader.fields(id, of: "within", allowed: RequirementKind.within.mappingKeys) else {
            return nil
        }
        let example = "within: { from: splash, to: [home], max: 12s }"
        let from: Located<String>? = fields["from"].flatMap { reader.name($0, as: "`from`") }
        let to = fields["to"].map { reader.names($0, as: "a state", list: "`to`") } ?? []
        let max: Located<Duration>? = fields["max"].flatMap { reader.duration($0, as: "`max`") }
        for required in RequirementKind.within.mappingKeys where fields[required] == nil {
            reader.missing(required, in: "within", at: reader.location(id), example: example)
        }
        guard let from, let max, fields["to"] != nil else { return nil }
        return .within(location: key.location, from: from, to: to, max: max)
    }
}
