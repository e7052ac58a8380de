/// Each kind of `require:` entry, described once: its key, the keys of its mapping, which of
/// those name states, whether it is proved over every run, and how it is decoded. The
/// decoder, the key lists an editor completes, the schema's test and ``Requirement/key``
/// all read this, so a kind is added here (and a case of ``Requirement``), and the compiler
/// asks for each of its parts.
public enum RequirementKind: String, CaseIterable, Sendable {
    case reachable, alwaysReachable, within, never, before, between, everyEntry, leadsTo, atMost, whenever

    /// Its key in a `require:` item.
    public var key: String { rawValue }

    /// The keys of its mapping, in the order the language documents them; none for a kind
    /// written as a list of states (`never` is either).
    public var mappingKeys: [String] {
        switch self {
        case .reachable, .alwaysReachable: []
        case .within: ["from", "to", "max"]
        case .never: ["in", "while"]
        case .before: ["first", "effect", "then", "after"]
        case .between: ["after", "until", "never"]
        case .everyEntry: ["to", "runs"]
        case .leadsTo: ["from", "to"]
        case .atMost: ["times", "of", "before"]
        case .whenever: ["event", "to"]
        }
    }

    /// The keys whose values are states: the kind's own key for a list of states, and those
    /// of its mapping that name states. What an editor completes with the machine's states.
    public var stateKeys: [String] {
        switch self {
        case .reachable, .alwaysReachable: [key]
        case .within: ["from", "to"]
        case .never: [key, "in"]
        case .before: ["first", "then", "after"]
        case .between: ["after", "until", "never"]
        case .everyEntry: ["to"]
        case .leadsTo: ["from", "to"]
        case .atMost: ["before"]
        case .whenever: ["to"]
        }
    }

    /// Whether it is a property proved over every run (``PropertyCheck``), rather than a
    /// question of the machine's graph (`reachable`, `alwaysReachable`, `within`).
    public var isProperty: Bool {
        switch self {
        case .reachable, .alwaysReachable, .within: false
        case .never, .before, .between, .everyEntry, .leadsTo, .atMost, .whenever: true
        }
    }

    /// Whether test paths need every configuration of the machine explored to plan it: a
    /// worst case over every run (`within`), every configuration's way on (`alwaysReachable`).
    /// Properties are searched on a graph of their own; covering the items needs less.
    public var needsEveryConfiguration: Bool {
        switch self {
        case .within, .alwaysReachable: true
        case .reachable, .never, .before, .between, .everyEntry, .leadsTo, .atMost, .whenever: false
        }
    }

    /// Decodes the value of a `require:` item of this kind, written under `key`.
    func decode(_ id: YAMLDocument.NodeID, key: Located<String>, reader: inout NodeReader) -> Requirement? {
        switch self {
        case .reachable:
            .reachable(location: key.location, states: reader.names(id, as: "a state", list: "`reachable`"))
        case .alwaysReachable:
            .alwaysReachable(
                location: key.location, states: reader.names(id, as: "a state", list: "`alwaysReachable`"))
        case .within: SectionDecoder.within(id, key: key, reader: &reader)
        case .never: SectionDecoder.never(id, key: key, reader: &reader)
        case .before: SectionDecoder.before(id, key: key, reader: &reader)
        case .between: SectionDecoder.between(id, key: key, reader: &reader)
        case .everyEntry: SectionDecoder.everyEntry(id, key: key, reader: &reader)
        case .leadsTo: SectionDecoder.leadsTo(id, key: key, reader: &reader)
        case .atMost: SectionDecoder.atMost(id, key: key, reader: &reader)
        case .whenever: SectionDecoder.whenever(id, key: key, reader: &reader)
        }
    }

    /// Every key a `require:` item may have.
    static let keys = allCases.map(\.key)
}
