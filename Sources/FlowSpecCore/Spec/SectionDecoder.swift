/// Decodes a machine's `activities:`, `sequences:`, `persist:` and `require:` sections.
enum SectionDecoder {
    static let activityKeys = ["sends", "summary"]
    static let sequenceKeys = ["states", "forwardOnly"]
    static let persistKeys = ["rawValue", "restore", "resume", "migrate"]
    static let requirementKeys = ["reachable", "alwaysReachable", "within", "never", "before", "everyEntry"]
    static let withinKeys = ["from", "to", "max"]
    static let beforeKeys = ["first", "then"]
    static let everyEntryKeys = ["to", "runs"]

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

    static func persist(_ id: YAMLDocument.NodeID, machine: Machine, reader: inout NodeReader) -> Persist? {
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
        _ id: YAMLDocument.NodeID, rawValue: Persist.RawValue, machine: Machine, reader: inout NodeReader
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
        _ value: Persist.StoredValue, leaves: [Int], machine: Machine, names: Set<String>, table: NameTable
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
        switch entry.key.value {
        case "reachable":
            return .reachable(
                location: entry.key.location, states: reader.names(entry.value, as: "a state", list: "`reachable`"))
        case "alwaysReachable":
            return .alwaysReachable(
                location: entry.key.location,
                states: reader.names(entry.value, as: "a state", list: "`alwaysReachable`"))
        case "never":
            return .never(
                location: entry.key.location, states: reader.names(entry.value, as: "a state", list: "`never`"))
        case "before":
            return before(entry.value, key: entry.key, reader: &reader)
        case "everyEntry":
            return everyEntry(entry.value, key: entry.key, reader: &reader)
        default:
            return within(entry.value, key: entry.key, reader: &reader)
        }
    }

    static func everyEntry(_ id: YAMLDocument.NodeID, key: Located<String>, reader: inout NodeReader) -> Requirement? {
        twoNames(
            id, of: "everyEntry", keys: everyEntryKeys, example: "everyEntry: { to: error, runs: showError }", &reader
        )
        .map { .everyEntry(location: key.location, to: $0, runs: $1) }
    }

    static func before(_ id: YAMLDocument.NodeID, key: Located<String>, reader: inout NodeReader) -> Requirement? {
        twoNames(id, of: "before", keys: beforeKeys, example: "before: { first: signIn, then: home }", &reader)
            .map { .before(location: key.location, first: $0, then: $1) }
    }

    /// A requirement's mapping of two names, by `keys` in order: each one missing is reported,
    /// with `example`.
    private static func twoNames(
        _ id: YAMLDocument.NodeID, of what: String, keys: [String], example: String, _ reader: inout NodeReader
    ) -> (Located<String>, Located<String>)? {
        guard let fields = reader.fields(id, of: what, allowed: keys) else { return nil }
        let names = keys.map { key in fields[key].flatMap { reader.name($0, as: "`\(key)`") } }
        for required in keys where fields[required] == nil {
            reader.missing(required, in: what, at: reader.location(id), example: example)
        }
        guard let first = names[0], let second = names[1] else { return nil }
        return (first, second)
    }

    static func within(_ id: YAMLDocument.NodeID, key: Located<String>, reader: inout NodeReader) -> Requirement? {
        guard let fields = reader.fields(id, of: "within", allowed: withinKeys) else { return nil }
        let example = "within: { from: splash, to: [home], max: 12s }"
        let from: Located<String>? = fields["from"].flatMap { reader.name($0, as: "`from`") }
        let to = fields["to"].map { reader.names($0, as: "a state", list: "`to`") } ?? []
        let max: Located<Duration>? = fields["max"].flatMap { reader.duration($0, as: "`max`") }
        for required in withinKeys where fields[required] == nil {
            reader.missing(required, in: "within", at: reader.location(id), example: example)
        }
        guard let from, let max, fields["to"] != nil else { return nil }
        return .within(location: key.location, from: from, to: to, max: max)
    }
}
