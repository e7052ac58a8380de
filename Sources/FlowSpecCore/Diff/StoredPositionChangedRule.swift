/// `stored-position-changed`: a machine persisted as integers moves an existing state to
/// another position (a state inserted before it, a reordering): the position users' devices
/// stored now names another state.
///
/// Positions count the leaves only (a compound state is never current, so never stored):
/// wrapping states into a compound state moves no position while the leaves keep their order.
enum StoredPositionChangedRule: DiffRule {
    static let definition = RuleDefinition(
        rule: .storedPositionChanged, defaultSeverity: .error,
        summary: "A state persisted as an integer moved to another position.",
        reportedAt: "the state, in the new spec (`flowspec diff`)",
        finding:
            "with `rawValue: int`, a state kept under the same name at another position (add new states at the end)")

    static func find(in pair: MachinePair) -> [Diagnostic] {
        guard pair.old.persist?.rawValue == .int, pair.new.persist?.rawValue == .int else { return [] }
        var oldPosition: [String: Int] = [:]
        for (position, name) in pair.oldLeaves.enumerated() { oldPosition[name] = position }
        var findings: [Diagnostic] = []
        for (position, name) in pair.newLeaves.enumerated() {
            guard let was = oldPosition[name], was != position else { continue }
            let nowThere =
                was < pair.newLeaves.count
                ? "'\(pair.newLeaves[was])'"
                : pair.new.persist?.restore == .clamp ? "the last state (clamped)" : "`initial`"
            findings.append(
                pair.finding(
                    .storedPositionChanged,
                    "state '\(name)' of machine '\(pair.new.name.value)' moved from position \(was) to \(position): "
                        + "users' devices that stored \(was) now restore \(nowThere); add new states at the end "
                        + "instead",
                    at: pair.new.states[pair.newLeafIndices[position]].name.location, subjects: [name]))
        }
        return findings
    }
}
