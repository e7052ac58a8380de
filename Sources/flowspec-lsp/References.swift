import FlowSpecCore

/// Every place a machine writes a name, from the spec model: what find references lists and
/// rename edits. A state is written as its key (at any depth), as targets, `then`, `in`,
/// `notIn`, `initial`
/// (of the machine or of a compound state), `done` (and each target of a running state's
/// `done` mapping), a history state's `default`, `resume`,
/// `migrate`, sequence members and requirements; an event, condition or effect as its declaration and its uses (requirements
/// included; an effect
/// also in `entry` and `exit`, an event also in an activity's `sends`); an activity as its
/// declaration and in the states' `activities`.
struct References {
    enum Kind: String {
        case state, event, condition, effect, activity
    }

    let machine: MachineSpec

    /// What the name is in the machine, if anything.
    func kind(of name: String) -> Kind? {
        if machine.states.indices.contains(where: { machine.name(of: $0) == name }) { return .state }
        if places(of: name, as: .event).isEmpty == false { return .event }
        if machine.conditions?.contains(where: { $0.value == name }) == true { return .condition }
        if machine.effects?.contains(where: { $0.value == name }) == true { return .effect }
        if machine.activities?.contains(where: { $0.name.value == name }) == true { return .activity }
        return nil
    }

    /// Where the name is written as a `kind`, in source order.
    func places(of name: String, as kind: Kind) -> [SourceLocation] {
        var found: [SourceLocation] = []
        func add(_ located: Located<String>?) {
            if let located, located.value == name { found.append(located.location) }
        }
        func add(_ located: Located<Name>?) {
            if let located, machine.names[located.value] == name { found.append(located.location) }
        }
        func visit(_ candidates: Candidates) {
            for candidate in candidates {
                switch kind {
                case .state:
                    add(candidate.target)
                    add(candidate.retry?.then)
                    for term in candidate.stateTerms { add(term.state) }
                case .condition:
                    add(candidate.condition)
                    add(candidate.unlessCondition)
                case .effect: for effect in candidate.effects + (candidate.retry?.effects ?? []) { add(effect) }
                case .event, .activity: break
                }
            }
        }
        switch kind {
        case .state:
            add(machine.initial)
        case .event:
            for event in machine.events ?? [] { add(event) }
        case .condition:
            for condition in machine.conditions ?? [] { add(condition) }
        case .effect:
            for effect in machine.effects ?? [] { add(effect) }
        case .activity:
            for activity in machine.activities ?? [] { add(activity.name) }
        }
        if kind == .event {
            for activity in machine.activities ?? [] { for event in activity.sends { add(event) } }
        }
        for requirement in machine.requirements {
            for (category, name) in requirement.names where category.rawValue == kind.rawValue { add(name) }
        }
        for transition in machine.machineWide {
            if kind == .event { add(transition.event) }
            visit(transition.candidates)
        }
        for index in machine.states.indices {
            let state = machine.states[index]
            if kind == .state { add(state.name) }
            for transition in machine.transitions(of: index) {
                if kind == .event { add(transition.event) }
                visit(transition.candidates)
            }
            if let always = state.always { visit(always.value) }
            if let timeout = state.timeout {
                switch kind {
                case .state:
                    add(timeout.target)
                    add(timeout.retry?.then)
                case .effect: for effect in timeout.effects + (timeout.retry?.effects ?? []) { add(effect) }
                case .event, .condition, .activity: break
                }
            }
        }
        for details in machine.nesting.details.values {
            if let done = details.done { visit(done.value) }
            for outcome in details.outcomes { visit(outcome.candidates) }
            switch kind {
            case .state:
                add(details.initial)
                add(details.historyDefault)
            case .effect: for effect in details.entry + details.exit + details.wayInEffects { add(effect) }
            case .activity: for activity in details.activities { add(activity) }
            case .event, .condition: break
            }
        }
        guard kind == .state else { return found.sorted() }
        for sequence in machine.sequences { for member in sequence.states { add(member) } }
        for (from, to) in machine.persist?.resume ?? [] {
            add(from)
            add(to)
        }
        for (_, to) in machine.persist?.migrate ?? [] { add(to) }
        for requirement in machine.requirements { for state in requirement.states { add(state) } }
        return found.sorted()
    }

    /// Where the name is declared: a state's key, or its entry in the machine's list.
    func declarations(of name: String, as kind: Kind) -> [SourceLocation] {
        switch kind {
        case .state:
            machine.states.filter { machine.names[$0.name.value] == name }.map(\.name.location)
        case .event: (machine.events ?? []).filter { $0.value == name }.map(\.location)
        case .condition: (machine.conditions ?? []).filter { $0.value == name }.map(\.location)
        case .effect: (machine.effects ?? []).filter { $0.value == name }.map(\.location)
        case .activity: (machine.activities ?? []).filter { $0.name.value == name }.map(\.name.location)
        }
    }

    /// Why `newName` cannot replace a name of `kind`, or `nil` if it can: it must become a
    /// Swift identifier and must not be another name of the machine already.
    func refusal(renaming name: String, to newName: String, as kind: Kind) -> String? {
        let scope: SwiftName.Scope = kind == .condition ? .property : .enumCase
        if case .failure(let problem) = SwiftName.make(newName, scope: scope) {
            return "'\(newName)' cannot be a \(kind.rawValue) name: \(problem)"
        }
        if newName != name, self.kind(of: newName) != nil {
            return "machine '\(machine.name.value)' already has a name '\(newName)'"
        }
        return nil
    }
}
