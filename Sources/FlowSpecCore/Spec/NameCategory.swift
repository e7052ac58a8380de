/// A category of names that a machine may declare in a list of its own: `events`,
/// `conditions`, `effects`.
public enum NameCategory: String, Sendable, CaseIterable {
    case event, condition, effect

    /// The indefinite article of the category's name, for messages: `an event`, `a condition`.
    var article: String { self == .event || self == .effect ? "an" : "a" }

    /// The machine's key that lists them.
    public var key: String { rawValue + "s" }

    /// The machine's declared list of this category, if given.
    func declared(in machine: MachineSpec) -> [Located<String>]? {
        switch self {
        case .event: machine.events
        case .condition: machine.conditions
        case .effect: machine.effects
        }
    }
}
