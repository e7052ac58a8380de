/// `stored-region-dropped`: a persisted machine stored the state users were in inside a region
/// of a parallel state, and after the change that value is no longer read, or no longer
/// restores inside the region.
///
/// A persisted flow's driver stores, beside the flow's state, the first state the flow is in
/// inside each region that is a compound state, under `<key>.region.<region's name>`, as the
/// state's raw value (its `int` position or `string` name). On restore, a region takes the
/// state its value restores to when that is inside it; otherwise the region is entered through
/// its `initial`. So what users' devices stored for a region is lost when:
///
/// - the region is gone (removed, or renamed: the key is its name), or is no longer a compound
///   state directly under `parallel`: nothing reads the key again;
/// - a state inside it moved out of it: the value that stored the state now restores it, or at
///   another `int` position another state, outside the region.
///
/// The flow's own value is not at stake: it restores wherever its state now is, and the other
/// rules (`stored-state-removed`, `stored-position-changed`) say when it does not.
enum StoredRegionDroppedRule: DiffRule {
    static let definition = RuleDefinition(
        rule: .storedRegionDropped, defaultSeverity: .warning,
        summary: "A persisted region's stored state is no longer read, or no longer restores inside it.",
        reportedAt:
            "the region, or the state that moved out of it, in the new spec; the region in the old spec when it is gone (`flowspec diff`)",
        finding:
            "in a persisted machine, a region of a parallel state (a compound state) that was removed or renamed, or is no longer a compound state directly under `parallel` (the state users' devices stored for it is no longer read); a state that moved out of such a region (a stored value that recorded it now restores outside the region, which starts at its `initial`)"
    )

    static func find(in pair: MachinePair) -> [Diagnostic] {
        // A changed form or a machine no longer persisted is `stored-form-changed`: every value
        // is lost, the regions' with the state.
        guard let old = pair.old.persist, let new = pair.new.persist, old.rawValue == new.rawValue,
            pair.old.nesting.hasParallel
        else { return [] }
        let regions = pair.old.states.indices.filter { isStoredRegion($0, of: pair.old) }
        let newIndex = Dictionary(pair.newStates.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var findings: [Diagnostic] = []
        for region in regions {
            let name = pair.oldStates[region]
            let stored =
                "the state users were in inside it, stored beside the flow's state under `<key>.region.\(name)`, is "
                + "ignored after the update"
            let keep = Diagnostic.Note(
                "to keep it, keep a region named '\(name)' that holds states, directly under `parallel`")
            guard let now = newIndex[name] else {
                findings.append(
                    pair.finding(
                        .storedRegionDropped,
                        "region '\(name)' of machine '\(pair.new.name.value)' is gone: \(stored)",
                        at: pair.old.states[region].name.location, inOld: true, subjects: [name], notes: [keep]))
                continue
            }
            guard isStoredRegion(now, of: pair.new) else {
                findings.append(
                    pair.finding(
                        .storedRegionDropped,
                        "state '\(name)' of machine '\(pair.new.name.value)' is no longer a region that holds "
                            + "states: \(stored)",
                        at: pair.new.states[now].name.location, subjects: [name], notes: [keep]))
                continue
            }
            findings += movedOut(of: region, newRegion: now, pair, newIndex, new.rawValue)
        }
        return findings
    }

    /// Whether a state is a region whose state is stored: a compound state directly inside a
    /// parallel state.
    static func isStoredRegion(_ state: Int, of machine: MachineSpec) -> Bool {
        guard machine.isCompound(state), let parent = machine.nesting.parent(of: state) else { return false }
        return machine.nesting.isParallel(parent)
    }

    /// The leaves inside a region that are leaves still, but whose stored value now restores
    /// outside the region.
    private static func movedOut(
        of region: Int, newRegion: Int, _ pair: MachinePair, _ newIndex: [String: Int], _ form: Persist.RawValue
    ) -> [Diagnostic] {
        let name = pair.oldStates[region]
        var findings: [Diagnostic] = []
        for leaf in pair.old.nesting.descendants(of: region) where pair.old.isLeaf(leaf) {
            let leafName = pair.oldStates[leaf]
            guard let index = newIndex[leafName], pair.new.isLeaf(index),
                !pair.new.nesting.isWithin(index, newRegion)
            else { continue }
            let (stored, standsFor) = pair.storedValue(of: leaf, now: index, form: form)
            // At another `int` position, a state inside the region: `stored-position-changed`'s.
            if let other = standsFor, other != index, pair.new.nesting.isWithin(other, newRegion) { continue }
            let outcome =
                standsFor == index
                ? "now restores '\(leafName)', outside '\(name)'"
                : standsFor.map { "now restores '\(pair.newStates[$0])', outside '\(name)'" }
                    ?? "no longer restores a state: no state is at \(stored) now"
            findings.append(
                pair.finding(
                    .storedRegionDropped,
                    "state '\(leafName)' of machine '\(pair.new.name.value)' moved out of region '\(name)': the value "
                        + "users' devices stored for '\(name)' when they were in '\(leafName)' (\(stored)) \(outcome), "
                        + "so those users enter '\(name)' through its `initial`",
                    at: pair.new.states[index].name.location, subjects: [leafName, name],
                    notes: [.init("keep '\(leafName)' inside '\(name)' for a restore to bring users back to it")]))
        }
        return findings
    }
}
