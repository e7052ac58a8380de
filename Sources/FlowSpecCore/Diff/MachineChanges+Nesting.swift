/// What nesting adds to the change listing: a state that now holds states (or no longer
/// does), that moved to another compound state, what a state writes about entering, leaving,
/// running while active and finishing, and for a leaf that moved, the transitions it inherits that changed.
extension MachineChanges {
    /// Whether a machine writes anything about nesting: compound states, or `entry`/`exit`
    /// (which any state may write). A flat machine without them skips all of this.
    static func hasNesting(_ machine: MachineSpec) -> Bool {
        machine.nesting.isNested || !machine.nesting.details.isEmpty
    }

    /// A state's kind as listed: a compound state has none, and says so.
    func kindText(_ machine: MachineSpec, _ state: Int) -> String {
        machine.isCompound(state) ? "compound" : machine.states[state].kind.rawValue
    }

    /// A changed kind, or a state that now holds states or no longer does.
    mutating func compareKinds(_ was: Int, _ index: Int, _ name: String) {
        let (wasCompound, isCompound) = (pair.old.isCompound(was), pair.new.isCompound(index))
        // A compound state's stored kind is never read.
        guard wasCompound != isCompound || (!isCompound && pair.old.states[was].kind != pair.new.states[index].kind)
        else { return }
        let state = pair.new.states[index]
        let location =
            isCompound
            ? pair.new.nesting.details[index]?.statesLocation ?? state.name.location
            : state.kindLocation ?? state.name.location
        add(
            .changed, "kind of '\(name)'", "\(kindText(pair.old, was)) -> \(kindText(pair.new, index))",
            at: location, state: name)
    }

    /// The compound state a state is in, its `entry` and `exit` effects, its activities, the
    /// effects of its `initial` or (a history state's) `default`, and
    /// for a compound state in both versions, its `initial` and `done`.
    mutating func compareNesting(_ was: Int, _ index: Int, _ name: String) {
        let state = pair.new.states[index]
        let (oldParent, newParent) = (
            pair.old.nesting.parent(of: was).map { pair.oldStates[$0] },
            pair.new.nesting.parent(of: index).map { pair.newStates[$0] }
        )
        if oldParent != newParent {
            add(
                .changed, "parent of '\(name)'", "\(Self.place(oldParent)) -> \(Self.place(newParent))",
                at: state.name.location, state: name)
        }
        compareEffects("entry", pair.old.nesting.entry(of: was), pair.new.nesting.entry(of: index), index, name)
        compareEffects("exit", pair.old.nesting.exit(of: was), pair.new.nesting.exit(of: index), index, name)
        compareEffects(
            "activities", pair.old.nesting.details[was]?.activities ?? [],
            pair.new.nesting.details[index]?.activities ?? [], index, name)
        compareEffects(
            "initial effects", pair.old.nesting.details[was]?.initialEffects ?? [],
            pair.new.nesting.details[index]?.initialEffects ?? [], index, name)
        compareEffects(
            "default effects", pair.old.nesting.details[was]?.defaultEffects ?? [],
            pair.new.nesting.details[index]?.defaultEffects ?? [], index, name)
        if pair.old.isHistory(was), pair.new.isHistory(index) { compareHistory(was, index, name) }
        guard pair.old.isCompound(was), pair.new.isCompound(index) else { return }
        let details = pair.new.nesting.details[index]
        let (oldInitial, newInitial) = (
            initialChild(pair.old, pair.oldStates, was), initialChild(pair.new, pair.newStates, index)
        )
        if oldInitial != newInitial {
            add(
                .changed, "initial of '\(name)'", "'\(oldInitial)' -> '\(newInitial)'",
                at: details?.initial?.location ?? details?.statesLocation ?? state.name.location, state: name)
        }
        let (oldDone, newDone) = (done(pair.old, was), done(pair.new, index))
        if oldDone != newDone {
            add(
                .changed, "done of '\(name)'",
                "\(oldDone ?? "none") -> \(newDone ?? "none")",
                at: details?.done?.location ?? state.name.location, state: name)
        }
    }

    /// For a history state in both versions, whether it is deep and where it leads when its
    /// compound state was never left (its `default`, or the `initial` chain's first state). A
    /// change is listed, never a finding: the memory a persisted flow stored is the leaf left
    /// either way and reads the same; only where the history leads with it changes.
    private mutating func compareHistory(_ was: Int, _ index: Int, _ name: String) {
        let (oldDetails, newDetails) = (pair.old.nesting.details[was], pair.new.nesting.details[index])
        let (wasDeep, isDeep) = (oldDetails?.deep?.value == true, newDetails?.deep?.value == true)
        let state = pair.new.states[index]
        if wasDeep != isDeep {
            add(
                .changed, "history of '\(name)'", "\(wasDeep ? "deep" : "shallow") -> \(isDeep ? "deep" : "shallow")",
                at: newDetails?.deep?.location ?? state.name.location, state: name)
        }
        let (oldDefault, newDefault) = (
            historyDefault(pair.old, pair.oldStates, was), historyDefault(pair.new, pair.newStates, index)
        )
        if oldDefault != newDefault {
            add(
                .changed, "default of '\(name)'",
                "\(Self.place(oldDefault, or: "none")) -> \(Self.place(newDefault, or: "none"))",
                at: newDetails?.historyDefault?.location ?? state.name.location, state: name)
        }
    }

    /// Where a history state leads when its compound state was never left: its `default`, or
    /// the state its compound state enters first (`nil` outside a compound state, where it is
    /// already `invalid-history`).
    private func historyDefault(_ machine: MachineSpec, _ names: [String], _ state: Int) -> String? {
        if let written = machine.nesting.details[state]?.historyDefault { return machine.names[written.value] }
        return machine.nesting.parent(of: state).map { initialChild(machine, names, $0) }
    }

    /// `'signIn'`, or `top level` (or `none`) for no state.
    private static func place(_ parent: String?, or none: String = "top level") -> String {
        parent.map { "'\($0)'" } ?? none
    }

    private mutating func compareEffects(
        _ what: String, _ old: [Located<String>], _ new: [Located<String>], _ index: Int, _ name: String
    ) {
        guard old.map(\.value) != new.map(\.value) else { return }
        func text(_ effects: [Located<String>]) -> String {
            effects.isEmpty ? "none" : effects.map(\.value).joined(separator: ", ")
        }
        add(
            .changed, "\(what) of '\(name)'", "\(text(old)) -> \(text(new))",
            at: new.first?.location ?? pair.new.states[index].name.location, state: name)
    }

    /// The name of the state a compound state enters first: its `initial` as written, or the
    /// first inside that is no history state (adding one first changes nothing entered).
    private func initialChild(_ machine: MachineSpec, _ names: [String], _ state: Int) -> String {
        machine.nesting.details[state]?.initial?.value
            ?? names[MachinePair.initialChild(of: state, in: machine, names: names)]
    }

    /// A compound state's `done` described (`'home'`, `'gold' if vip / celebrate, 'plain'`).
    private func done(_ machine: MachineSpec, _ state: Int) -> String? {
        machine.nesting.details[state]?.done.map { Self.describe($0.value, machine) }
    }

    /// For a leaf in both versions whose compound states changed, the transitions it inherits
    /// from them that were added, removed or changed, by the state that writes them. (Where
    /// the compound states are the same, a change of what they write is listed once, as theirs.)
    mutating func compareInherited(_ was: Int, _ index: Int, _ name: String) {
        guard !pair.old.isCompound(was), !pair.new.isCompound(index),
            pair.old.nesting.ancestors(of: was).map({ pair.oldStates[$0] })
                != pair.new.nesting.ancestors(of: index).map({ pair.newStates[$0] })
        else { return }
        let old = inherited(pair.old, pair.oldStates, of: was)
        let new = inherited(pair.new, pair.newStates, of: index)
        func subject(_ entry: InheritedEntry) -> String {
            "'\(name)' \(Self.text(entry.trigger)) inherited from '\(entry.from)'"
        }
        for entry in new {
            guard let before = old.first(where: { $0.key == entry.key }) else {
                add(
                    .added, subject(entry), describe(entry.transition, pair.new), at: entry.location, state: name,
                    trigger: entry.trigger)
                continue
            }
            if !same(before.transition, entry.transition) {
                add(
                    .changed, subject(entry),
                    "\(describe(before.transition, pair.old)) -> \(describe(entry.transition, pair.new))",
                    at: entry.location, state: name, trigger: entry.trigger)
            }
        }
        for entry in old where !new.contains(where: { $0.key == entry.key }) {
            add(
                .removed, subject(entry), describe(entry.transition, pair.old), at: entry.location, inOld: true,
                state: name, trigger: entry.trigger)
        }
    }

    /// A transition a leaf inherits from a compound state around it.
    struct InheritedEntry {
        var trigger: SpecDiff.Change.Trigger
        /// The compound state that writes it.
        var from: String
        var location: SourceLocation
        var transition: InheritedTransition

        /// What matches it across versions: what takes it, and who writes it.
        var key: Key { Key(trigger: trigger, from: from) }

        struct Key: Equatable {
            var trigger: SpecDiff.Change.Trigger
            var from: String
        }
    }

    /// What an inherited transition does.
    enum InheritedTransition {
        case candidates(Candidates)
        case timeout(Timeout)
        case done(Candidates)
    }

    /// The transitions a leaf inherits from its compound states, as the graph gives it them:
    /// an `input` or `task` leaf their `on` for the events it and the states nearer it do not
    /// handle, and their timeouts; a terminal leaf its parent's `done`. (The machine's `on` is
    /// not a compound state's, and is listed as machine-wide.)
    func inherited(_ machine: MachineSpec, _ names: [String], of state: Int) -> [InheritedEntry] {
        var entries: [InheritedEntry] = []
        let ancestors = machine.nesting.ancestors(of: state)
        if machine.states[state].kind.inheritsMachineWideTransitions {
            var handled = Set(machine.transitions(of: state).map(\.event.value))
            for ancestor in ancestors {
                for transition in machine.transitions(of: ancestor)
                where handled.insert(transition.event.value).inserted {
                    entries.append(
                        InheritedEntry(
                            trigger: .event(machine.names[transition.event.value]), from: names[ancestor],
                            location: transition.event.location, transition: .candidates(transition.candidates)))
                }
            }
            for ancestor in ancestors {
                guard let timeout = machine.states[ancestor].timeout else { continue }
                entries.append(
                    InheritedEntry(
                        trigger: .timeout, from: names[ancestor],
                        location: machine.states[ancestor].timeoutLocation ?? machine.states[ancestor].name.location,
                        transition: .timeout(timeout)))
            }
        }
        if machine.states[state].kind == .terminal, let parent = ancestors.first,
            let done = machine.nesting.details[parent]?.done
        {
            entries.append(
                InheritedEntry(
                    trigger: .done, from: names[parent], location: done.location, transition: .done(done.value)))
        }
        return entries
    }

    private func same(_ old: InheritedTransition, _ new: InheritedTransition) -> Bool {
        switch (old, new) {
        case (.candidates(let old), .candidates(let new)): same(old, new)
        case (.timeout(let old), .timeout(let new)): sameTimeout(old, new)
        case (.done(let old), .done(let new)): same(old, new)
        default: false
        }
    }

    private func describe(_ transition: InheritedTransition, _ machine: MachineSpec) -> String {
        switch transition {
        case .candidates(let candidates): Self.describe(candidates, machine)
        case .timeout(let timeout): self.timeout(timeout, machine) ?? "none"
        case .done(let candidates): Self.describe(candidates, machine)
        }
    }
}
