/// What the graph knows of a guard that reads where the flow is (`in:`, `notIn:`) before the
/// flow runs: in a given state, whether it is in another is often fixed by the nesting alone.
extension MachineSpec {
    /// Whether the flow is in `state` while it is in `leaf`: `true` or `false` when that is the
    /// same whatever else is active, `nil` when it varies. It is in the states around `leaf`;
    /// beside it, only in states of other regions of a parallel state around it, and always in
    /// those regions themselves (a parallel state is in every region at once). Never in a
    /// history state.
    func isIn(_ state: Int, whileIn leaf: Int) -> Bool? {
        if state == leaf || nesting.isWithin(leaf, state) { return true }
        if isHistory(state) { return false }
        // The innermost state around both.
        var common = nesting.parent(of: state)
        while let around = common, !nesting.isWithin(leaf, around) { common = nesting.parent(of: around) }
        guard let common, isParallel(common) else { return false }
        // A region of a parallel state is active whenever that state is: so is each of its own
        // regions, down to `state` if every step is one.
        var current = state
        while let parent = nesting.parent(of: current), parent != common {
            guard isParallel(parent) else { return nil }
            current = parent
        }
        return true
    }

    /// Whether a candidate's guard reads a state the flow is never in (`in:`), or always in
    /// (`notIn:`), when it is in `source`: then it is never taken from there.
    func isNeverTaken(_ candidate: Candidate, from source: Int, _ states: StateIndex) -> Bool {
        candidate.stateTerms.contains { term in
            guard let named = states[term.state.value], let value = isIn(named, whileIn: source) else { return false }
            return value != term.holds
        }
    }
}
