/// What both exports ask of a machine: the facts that decide how flowspec's behaviour is
/// written in another format's terms.
extension MachineSpec {
    /// The events the states around a state (and the machine) handle: those a state that
    /// handles an event under conditions overrides, and those a terminal state that rests
    /// ignores.
    func eventsHandled(around index: Int) -> Set<String> {
        var handled = Set(machineWide.map { names[$0.event.value] })
        for ancestor in nesting.ancestors(of: index) {
            let own = transitions(of: ancestor)
            for position in own.indices { handled.insert(names[own[position].event.value]) }
        }
        return handled
    }

    /// Whether a state is a terminal state directly inside a region with no `done` of its own:
    /// the states in which a region has ended, for its parallel state's `done`.
    func endsRegion(_ index: Int) -> Bool {
        guard states[index].kind == .terminal, !isCompound(index), let region = nesting.parent(of: index),
            let parallel = nesting.parent(of: region)
        else { return false }
        return isParallel(parallel) && nesting.details[region]?.done == nil
    }

    /// The state a history state resumes when its compound state has not been left yet: its
    /// `default`, else the compound state's `initial`, else its first state.
    func historyDefault(of index: Int, states: StateIndex) -> Int {
        let parent = nesting.parent(of: index) ?? 0
        if let written = nesting.details[index]?.historyDefault { return states[written.value] ?? parent }
        if let initial = nesting.details[parent]?.initial {
            return nesting.children(of: parent).first { name(of: $0) == initial.value } ?? parent
        }
        return nesting.children(of: parent).first { !isHistory($0) } ?? parent
    }

    /// How many bounded retries the machine has: one counter each.
    var boundedRetryCount: Int {
        var count = 0
        func add(_ candidates: Candidates) { count += candidates.filter { $0.retry?.max != nil }.count }
        for transition in machineWide { add(transition.candidates) }
        for index in states.indices {
            let own = transitions(of: index)
            for position in own.indices { add(own[position].candidates) }
            if let always = states[index].always { add(always.value) }
            if states[index].timeout?.retry?.max != nil { count += 1 }
        }
        return count
    }

    /// What another format cannot hold of the machine, in words, for a note in the output.
    var sectionsNotCarriedOver: [String] {
        var left: [String] = []
        if !sequences.isEmpty { left.append("sequences (" + sequences.map(\.name.value).joined(separator: ", ") + ")") }
        if persist != nil { left.append("persist") }
        if !requirements.isEmpty { left.append("require (\(requirements.count) requirements)") }
        return left
    }
}
