/// Each key a state may write, described once: whether writing it makes a state one the
/// decoder reads in place (not streamed), which keys a history state writes, and what the
/// key's value names. The decoder's allowed keys, the streamer, `invalid-history`, `SpecKeys`,
/// ``SpecWriter`` and the language server's completion read this, so a key is added here
/// (with its place in the model, its decoding, its writing and its schema entry), not in each
/// of them.
public enum StateKey: String, CaseIterable, Sendable {
    case kind, summary, initial, entry, exit, activities, on, always, timeout, run, done, states, parallel, deep
    case `default`

    /// What a key's value is, for an editor that offers what may be written there.
    public enum Value: Sendable {
        /// A state kind (`input`, `task`, …).
        case kind
        /// Free text.
        case text
        /// A state of the machine.
        case state
        /// Effects of the machine.
        case effects
        /// Activities of the machine.
        case activities
        /// Another machine of the spec.
        case machine
        /// A `true` or `false`.
        case flag
        /// A mapping or list the language reads further (`on`, `always`, `timeout`, the states).
        case structure
    }

    /// What the key's value is.
    public var value: Value {
        switch self {
        case .kind: .kind
        case .summary: .text
        case .initial, .done, .default: .state
        case .entry, .exit: .effects
        case .activities: .activities
        case .run: .machine
        case .deep: .flag
        case .on, .always, .timeout, .states, .parallel: .structure
        }
    }

    /// Whether a state that writes it nests or runs effects on entering or leaving: the
    /// decoder reads such a state in place, with the states inside it, rather than streamed.
    var nests: Bool {
        switch self {
        case .initial, .entry, .exit, .activities, .run, .done, .states, .parallel, .deep, .default: true
        case .kind, .summary, .on, .always, .timeout: false
        }
    }

    /// Whether a history state may write it (`invalid-history` reports any other).
    var isWrittenByHistory: Bool {
        switch self {
        case .kind, .summary, .deep, .default: true
        case .initial, .entry, .exit, .activities, .on, .always, .timeout, .run, .done, .states, .parallel: false
        }
    }

    /// Whether only a history state writes it (`invalid-history` reports it on any other).
    var isHistoryOnly: Bool { self == .deep || self == .default }

    /// Every key, in the order the language documents them.
    static let keys = allCases.map(\.rawValue)
}
