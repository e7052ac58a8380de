import Testing

@testable import FlowSpecCore

/// Which mapping a path of keys leads to, for an editor's completion of keys.
@Suite struct SpecKeysTests {
    @Test(
        arguments: [
            ([], SpecKeys.Place.top),
            (["severity"], .severity),
            (["machines", "M"], .machine),
            (["machines", "M", "defaults"], .defaults),
            (["machines", "M", "persist"], .persist),
            (["machines", "M", "severity"], .severity),
            (["machines", "M", "sequences", "slides"], .sequence),
            (["machines", "M", "require"], .requirement),
            (["machines", "M", "require", "within"], .requirementMapping(.within)),
            (["machines", "M", "require", "reachable"], nil),
            (["machines", "M", "on"], .events),
            (["machines", "M", "on", "reset"], .transition),
            (["machines", "M", "on", "reset", "retry"], .retry),
            (["machines", "M", "states", "s"], .state),
            (["machines", "M", "states", "s", "on"], .events),
            (["machines", "M", "states", "s", "on", "go"], .transition),
            (["machines", "M", "states", "s", "on", "go", "retry"], .retry),
            (["machines", "M", "states", "s", "always"], .transition),
            (["machines", "M", "states", "s", "always", "retry"], .retry),
            (["machines", "M", "states", "s", "timeout"], .timeout),
            (["machines", "M", "states", "s", "timeout", "retry"], .retry),
            // A compound state's states, at any depth, and a state that is named `states`.
            (["machines", "M", "states", "s", "states", "t"], .state),
            (["machines", "M", "states", "s", "states", "t", "on"], .events),
            (["machines", "M", "states", "s", "states", "t", "states", "u"], .state),
            (["machines", "M", "states", "s", "states", "t", "states", "u", "on", "go"], .transition),
            (["machines", "M", "states", "s", "states", "t", "states", "u", "timeout", "retry"], .retry),
            (["machines", "M", "states", "s", "states", "t", "always"], .transition),
            (["machines", "M", "states", "states", "states", "t", "timeout"], .timeout),
            // A machine parallel at its top: its regions, and the states inside them.
            (["machines", "M", "parallel", "r"], .state),
            (["machines", "M", "parallel", "r", "states", "t", "on"], .events),
            // A way in with effects: a compound state's `initial`, a history state's `default`.
            (["machines", "M", "states", "s", "initial"], .wayIn),
            (["machines", "M", "states", "s", "states", "h", "default"], .wayIn)
        ] as [([String], SpecKeys.Place?)])
    func aPathLeadsToItsMapping(_ path: [String], _ place: SpecKeys.Place?) {
        #expect(SpecKeys.place(of: path) == place)
    }

    /// Where the language puts a name or a value, there is no mapping of keys.
    @Test(arguments: [
        ["flowspec"], ["machines"], ["machines", "M", "states"], ["machines", "M", "parallel"],
        ["machines", "M", "initial"],
        ["machines", "M", "states", "s", "kind"], ["machines", "M", "states", "s", "timeout", "after"],
        ["severity", "dead-end"], ["elsewhere"],
        ["machines", "M", "states", "s", "states"], ["machines", "M", "states", "s", "initial", "effects"],
        ["machines", "M", "states", "s", "entry"], ["machines", "M", "states", "s", "done"],
        ["machines", "M", "states", "s", "states", "t", "states"],
        ["machines", "M", "states", "s", "states", "t", "kind"]
    ])
    func namesAndValuesAreNoMapping(_ path: [String]) {
        #expect(SpecKeys.place(of: path) == nil)
    }

    @Test func theKeysAreTheDecoders() {
        // A state's keys and a history state's are the decoder's, split by whether
        // `invalid-history` allows them there; `kind` and `summary` are in both.
        let state = SpecKeys.keys(of: .state)
        let history = SpecKeys.keys(of: .historyState)
        #expect(Set(state).union(history) == Set(StateDecoder.stateKeys))
        #expect(Set(state).intersection(history) == ["kind", "summary"])
        #expect(Set(history) == HistoryRule.historyKeys)
        // In the order the language documents them.
        #expect(state == StateDecoder.stateKeys.filter(state.contains))
        #expect(history == StateDecoder.stateKeys.filter(history.contains))
        #expect(SpecKeys.keys(of: .machine).contains("require"))
        #expect(SpecKeys.keys(of: .severity).count == Rule.allCases.count)
        #expect(SpecKeys.keys(of: .events).isEmpty)
        #expect(SpecKeys.keys(of: .wayIn) == ["to", "effects"])
    }
}
