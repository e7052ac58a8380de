/// The keys the language allows in each mapping of a spec, as the decoders read them, and
/// which mapping a path of keys leads to: what an editor offers where a key is being typed.
public enum SpecKeys {
    /// A kind of mapping in a spec.
    public enum Place: Sendable, Equatable {
        /// The document itself.
        case top
        /// A machine's body.
        case machine
        /// A machine's `defaults`.
        case defaults
        /// A state's body, unless it is a history state.
        case state
        /// A history state's body (`kind: history`). A path of keys cannot tell it from another
        /// state's (``SpecKeys/place(of:)`` answers ``state``): an editor that knows the state's
        /// kind asks for this place instead.
        case historyState
        /// A transition written as a mapping: an event's target, or an `always` branch.
        case transition
        /// A `timeout`.
        case timeout
        /// A way in written as a mapping: a compound state's `initial`, a history state's
        /// `default` (`{ to: NAME, effects: [...] }`).
        case wayIn
        /// A `retry`.
        case retry
        /// An activity's body.
        case activity
        /// A sequence's body.
        case sequence
        /// A machine's `persist`.
        case persist
        /// An item of `require`.
        case requirement
        /// A requirement of a kind written as a mapping (`within`, `before`, `never`'s `in`
        /// and `while`, …).
        case requirementMapping(RequirementKind)
        /// A `severity` mapping: its keys are rule ids.
        case severity
        /// An `on` mapping: its keys are the machine's events.
        case events
    }

    /// The keys allowed in a mapping of `place`, in the order the language documents them.
    public static func keys(of place: Place) -> [String] {
        switch place {
        case .top: SpecDecoder.topLevelKeys
        case .machine: SpecDecoder.machineKeys
        case .defaults: ["kind"]
        case .state: StateDecoder.stateKeys.filter { !historyOnlyKeys.contains($0) }
        case .historyState: StateDecoder.stateKeys.filter(HistoryRule.historyKeys.contains)
        case .transition: TransitionDecoder.candidateKeys
        case .timeout: TransitionDecoder.timeoutKeys
        case .wayIn: StateDecoder.wayInKeys
        case .retry: TransitionDecoder.retryKeys
        case .activity: SectionDecoder.activityKeys
        case .sequence: SectionDecoder.sequenceKeys
        case .persist: SectionDecoder.persistKeys
        case .requirement: SectionDecoder.requirementKeys
        case .requirementMapping(let kind): kind.mappingKeys
        case .severity: Rule.allCases.map(\.rawValue)
        case .events: []
        }
    }

    /// The keys only a history state writes: `invalid-history` reports them on any other state.
    private static let historyOnlyKeys = Set(StateKey.allCases.filter(\.isHistoryOnly).map(\.rawValue))

    /// The mapping that the keys of `path` lead to from the document's root (list items
    /// leave no key: `require`'s items are its mappings), or `nil` where the language puts a
    /// name or a value rather than a mapping.
    public static func place(of path: [String]) -> Place? {
        guard let first = path.first else { return .top }
        if first == "severity" { return path.count == 1 ? .severity : nil }
        guard first == "machines", path.count >= 2 else { return nil }
        return machinePlace(Array(path.dropFirst(2)))
    }

    /// The place a path inside a machine's body leads to.
    private static func machinePlace(_ path: [String]) -> Place? {
        guard let first = path.first else { return .machine }
        switch (first, path.count) {
        case ("defaults", 1): return .defaults
        case ("persist", 1): return .persist
        case ("severity", 1): return .severity
        case ("activities", 2): return .activity
        case ("sequences", 2): return .sequence
        case ("require", 1): return .requirement
        case ("require", 2):
            guard let kind = RequirementKind(rawValue: path[1]), !kind.mappingKeys.isEmpty else { return nil }
            return .requirementMapping(kind)
        case ("on", _): return transitionPlace(Array(path.dropFirst()))
        // A machine parallel at its top holds its regions under `parallel`, read as `states`.
        case ("states", _), ("parallel", _): return statesPlace(path[...])
        default: return nil
        }
    }

    /// The place a path from a `states` key leads to: a state's body, then what is in it. A
    /// compound state's own `states`, and a parallel state's `parallel` (its regions), hold
    /// states read the same way, at any depth.
    private static func statesPlace(_ path: ArraySlice<String>) -> Place? {
        var path = path
        while path.count > 2, ["states", "parallel"].contains(path[path.startIndex + 2]) {
            path = path.dropFirst(2)
        }
        let body = path.dropFirst(2)
        switch body.first {
        case nil: return path.count == 2 ? .state : nil
        case "on": return transitionPlace(Array(body.dropFirst()))
        case "always": return transitionPlace(["branch"] + body.dropFirst())
        case "timeout": return body.count == 1 ? .timeout : body.count == 2 && body.last == "retry" ? .retry : nil
        case "initial", "default": return body.count == 1 ? .wayIn : nil
        default: return nil
        }
    }

    /// The place a path inside `on` leads to: its events, then an event's transition.
    private static func transitionPlace(_ path: [String]) -> Place? {
        switch path.count {
        case 0: .events
        case 1: .transition
        case 2 where path[1] == "retry": .retry
        default: nil
        }
    }
}
