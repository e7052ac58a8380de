/// A checked machine in the form code generation and simulation run: every name resolved to
/// an index, every state's effective transitions (own and inherited) listed in the order they
/// are tried, and every bounded `retry` given a counter slot.
///
/// Built only from machines without errors, so targets, conditions and effects all resolve.
public struct FlowProgram: Sendable {
    /// One possible target of a transition, resolved.
    public struct Candidate: Sendable, Hashable {
        /// The target state.
        public var target: Int
        /// Conditions that must hold (`if`), by index.
        public var requires: [Int]
        /// Conditions that must not hold (`unless`), by index.
        public var forbids: [Int]
        /// Effects, by index, in order.
        public var effects: [Int]
        /// The bounded retry, if any.
        public var retry: Retry?

        /// Whether the candidate may be taken under the given conditions.
        public func holds(_ conditions: [Bool]) -> Bool {
            requires.allSatisfy { conditions[$0] } && !forbids.contains { conditions[$0] }
        }
    }

    /// `retry: { max, then, effects }` with its counter slot.
    public struct Retry: Sendable, Hashable {
        /// The counter's index among the machine's retry counters.
        public var slot: Int
        /// How many times in a row the transition may be taken.
        public var max: Int
        /// Where it goes once the count is used up.
        public var fallback: Int
        /// Effects, by index, run after the transition's own when it goes to ``fallback``.
        public var effects: [Int] = []
    }

    /// A state's timeout.
    public struct Timeout: Sendable, Hashable {
        /// How long the state may be occupied.
        public var after: Duration
        /// Where it leads (a single unconditional candidate).
        public var candidate: Candidate
    }

    /// One state, resolved.
    public struct State: Sendable {
        /// The spec name.
        public var name: String
        /// The Swift identifier.
        public var swiftName: SwiftName
        /// The state's kind.
        public var kind: StateKind
        /// The `summary`, if any.
        public var summary: String?
        /// Event index → candidates, in the order the spec gives them; own transitions first,
        /// then inherited machine-wide ones.
        public var transitions: [(event: Int, candidates: [Candidate])]
        /// How many of ``transitions`` are the state's own; the rest are inherited.
        public var ownTransitionCount: Int
        /// The `always` candidates (choice states).
        public var always: [Candidate]
        /// The timeout, if any.
        public var timeout: Timeout?
    }

    /// A named, ordered group of states.
    public struct StateSequence: Sendable {
        /// The spec name.
        public var name: String
        /// The Swift identifier.
        public var swiftName: SwiftName
        /// Member states, by index, in order.
        public var members: [Int]
    }

    /// A name of the machine with its Swift identifier.
    public struct Name: Sendable {
        /// The spec name.
        public var name: String
        /// The Swift identifier.
        public var swiftName: SwiftName
    }

    /// The machine's name.
    public var name: Name
    /// The machine's `summary`.
    public var summary: String?
    /// The states, in source order (their positions are the `int` raw values).
    public var states: [State]
    /// Events: the declared list, or those used, in order of first use.
    public var events: [Name]
    /// Conditions, as declared.
    public var conditions: [Name]
    /// Effects, as declared.
    public var effects: [Name]
    /// Sequences, in source order.
    public var sequences: [StateSequence]
    /// The initial state.
    public var initial: Int
    /// How many retry counters the machine needs.
    public var retrySlotCount: Int
    /// The `persist:` settings, resolved, if any.
    public var persist: Persistence?

    /// `persist:` with `resume` and `migrate` resolved.
    public struct Persistence: Sendable {
        /// The raw value type.
        public var rawValue: Persist.RawValue
        /// The restore policy for out-of-range integers.
        public var restore: Persist.Restore
        /// Restored state → landing state.
        public var resume: [Int: Int]
        /// Old stored value → the state it restores to, before `restore` and `resume`.
        public var migrate: [Persist.StoredValue: Int] = [:]
    }

    /// The candidates a state tries for an event, or `nil` if the state ignores it.
    public func candidates(in state: Int, for event: Int) -> [Candidate]? {
        states[state].transitions.first { $0.event == event }?.candidates
    }

    /// Whether some `retry` runs effects of its own when it goes to `then`.
    public var hasRetryEffects: Bool {
        func runs(_ candidate: Candidate) -> Bool { candidate.retry?.effects.isEmpty == false }
        return states.contains { state in
            state.transitions.contains { $0.candidates.contains(where: runs) } || state.always.contains(where: runs)
                || state.timeout.map { runs($0.candidate) } == true
        }
    }
}
