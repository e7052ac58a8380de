/// `stored-history-dropped`: a persisted machine's compound state remembered where users left
/// it, and after the change that memory is no longer read, or no longer leads back there.
///
/// A compound state with a history state directly inside remembers the leaf it was last left
/// in. A persisted flow's driver stores that memory beside the flow's state, one value per such
/// compound state, under `<key>.history.<compound state's name>`, holding the leaf's raw value
/// (its `int` position or `string` name). On restore, a value that does not restore to a leaf
/// inside that compound state is dropped and the history takes its default. So the memory is
/// lost when:
///
/// - the compound state is gone (removed, or renamed: the key is its name), no longer holds
///   states, or no longer has a history state directly inside: nothing reads the key again;
/// - a leaf inside it moved out of it: the value that recorded the leaf now restores the leaf,
///   outside, and is dropped (or, at another `int` position, whatever state stands there).
///
/// A leaf inside that is gone, or now holds states, is `stored-state-removed`'s: its stored
/// value restores nothing, whether the flow's state or a memory holds it. A leaf inside that
/// moved to another `int` position is `stored-position-changed`'s, for the same reason; it is
/// reported here too only when it also left the compound state. A history state that changed
/// from shallow to deep, or changed its `default`, breaks nothing stored (the memory is the
/// leaf either way): the change listing shows it.
enum StoredHistoryDroppedRule: DiffRule {
    static let definition = RuleDefinition(
        rule: .storedHistoryDropped, defaultSeverity: .warning,
        summary: "A persisted compound state's history memory is no longer read, or no longer leads back.",
        reportedAt:
            "the compound state, or the state that moved out of it, in the new spec; the compound state in the old spec when it is gone (`flowspec diff`)",
        finding:
            "in a persisted machine, a compound state with a history state directly inside that was removed or renamed, no longer holds states or no longer has a history state directly inside (what users' devices remembered for it is no longer read); a state that moved out of such a compound state (a remembered value that recorded it no longer leads back to it)"
    )

    static func find(in pair: MachinePair) -> [Diagnostic] {
        // A changed form or a machine no longer persisted is `stored-form-changed`: every value
        // is lost, the memories with the state.
        guard let old = pair.old.persist, let new = pair.new.persist, old.rawValue == new.rawValue,
            pair.old.nesting.isNested
        else { return [] }
        let remembering = pair.old.states.indices.filter { pair.old.remembers($0) }
        guard !remembering.isEmpty else { return [] }
        let newIndex = Dictionary(pair.newStates.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var findings: [Diagnostic] = []
        for compound in remembering {
            let name = pair.oldStates[compound]
            let memory =
                "the memory of where users left '\(name)', stored beside the flow's state under "
                + "`<key>.history.\(name)`, is ignored after the update"
            let keep = Diagnostic.Note(
                "to keep it, keep a compound state named '\(name)' with a history state (`kind: history`) directly "
                    + "inside; a history state elsewhere remembers its own compound state, starting with nothing")
            guard let now = newIndex[name] else {
                findings.append(
                    pair.finding(
                        .storedHistoryDropped,
                        "compound state '\(name)' of machine '\(pair.new.name.value)' is gone, but it had a history "
                            + "state: \(memory)",
                        at: pair.old.states[compound].name.location, inOld: true, subjects: [name], notes: [keep]))
                continue
            }
            let state = pair.new.states[now]
            guard pair.new.isCompound(now) else {
                findings.append(
                    pair.finding(
                        .storedHistoryDropped,
                        "state '\(name)' of machine '\(pair.new.name.value)' no longer holds states, so nothing "
                            + "resumes it: \(memory)",
                        at: state.name.location, subjects: [name], notes: [keep]))
                continue
            }
            guard pair.new.remembers(now) else {
                findings.append(
                    pair.finding(
                        .storedHistoryDropped,
                        "compound state '\(name)' of machine '\(pair.new.name.value)' no longer has a history "
                            + "state directly inside: \(memory)",
                        at: pair.new.nesting.details[now]?.statesLocation ?? state.name.location, subjects: [name],
                        notes: [keep]))
                continue
            }
            findings += movedOut(of: compound, newCompound: now, pair, newIndex, new.rawValue)
        }
        return findings
    }

    /// The leaves inside a remembering compound state that are leaves still, but outside it:
    /// a memory that recorded one no longer leads back to it.
    private static func movedOut(
        of compound: Int, newCompound: Int, _ pair: MachinePair, _ newIndex: [String: Int], _ form: Persist.RawValue
    ) -> [Diagnostic] {
        let name = pair.oldStates[compound]
        var findings: [Diagnostic] = []
        for leaf in pair.old.nesting.descendants(of: compound) where pair.old.isLeaf(leaf) {
            let leafName = pair.oldStates[leaf]
            guard let index = newIndex[leafName], pair.new.isLeaf(index),
                !pair.new.nesting.isWithin(index, newCompound)
            else { continue }
            let memory = remembered(leaf, now: index, in: newCompound, pair, form)
            var advice = "keep '\(leafName)' inside '\(name)' for its history to resume it"
            // A `migrate` key may not be a value a current state stores.
            if memory.isCurrent { advice += "; `migrate` cannot map \(memory.stored): a current state stores it" }
            findings.append(
                pair.finding(
                    .storedHistoryDropped,
                    "state '\(leafName)' of machine '\(pair.new.name.value)' moved out of '\(name)', whose history "
                        + "resumes where users left it: a memory of '\(name)' that recorded '\(leafName)' (stored as "
                        + "\(memory.stored)) \(memory.outcome)",
                    at: pair.new.states[index].name.location, subjects: [leafName, name], notes: [.init(advice)]))
        }
        return findings
    }

    /// What a memory of `compound` that recorded `leaf` of the old version restores now that
    /// the leaf, `now` in the new version, is outside it: the value stored, what becomes of it,
    /// and whether a current state stores that value.
    private static func remembered(
        _ leaf: Int, now: Int, in compound: Int, _ pair: MachinePair, _ form: Persist.RawValue
    ) -> (stored: String, outcome: String, isCurrent: Bool) {
        let (name, leafName) = (pair.newStates[compound], pair.newStates[now])
        let resume = "those users resume at \(defaults(of: compound, pair)) instead"
        let restoresLeaf = "now restores '\(leafName)', outside '\(name)', and is dropped, so \(resume)"
        let (stored, standsFor) = pair.storedValue(of: leaf, now: now, form: form)
        if standsFor == now { return (stored, restoresLeaf, true) }
        // The leaf's move is `stored-position-changed` too: its position names another state.
        guard let other = standsFor else {
            return (stored, "no longer leads back to it: no state is at \(stored) now", false)
        }
        let otherName = pair.newStates[other]
        let outcome =
            pair.new.nesting.isWithin(other, compound)
            ? "no longer leads back to it: \(stored) is '\(otherName)' now, inside '\(name)', so those users "
                + "resume there instead"
            : "no longer leads back to it: \(stored) is '\(otherName)' now, outside '\(name)', so it is "
                + "dropped and \(resume)"
        return (stored, outcome, true)
    }

    /// Where the history states directly inside a compound state of the new version lead when
    /// nothing is remembered: `'home' (the history's default)`, or each default when they differ.
    private static func defaults(of compound: Int, _ pair: MachinePair) -> String {
        var names: [String] = []
        for history in pair.new.nesting.children(of: compound) where pair.new.isHistory(history) {
            let written = pair.new.nesting.details[history]?.historyDefault.map { pair.new.names[$0.value] }
            let target =
                written ?? pair.newStates[MachinePair.initialChild(of: compound, in: pair.new, names: pair.newStates)]
            if !names.contains(target) { names.append(target) }
        }
        guard names.count > 1 else { return "'\(names[0])' (the history's default)" }
        return "the default of the history state they return through ("
            + names.map { "'\($0)'" }.joined(separator: " or ") + ")"
    }
}
