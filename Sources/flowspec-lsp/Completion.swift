import FlowSpecCore

/// Help in writing a spec: completion of names and kinds in context.
struct Completion {
    /// The check the names come from: the text's own, or the last that had machines.
    let result: SpecChecker.Checked
    let lines: [Substring]

    /// `textDocument/completion`: where a key is typed, the keys the language allows there (the
    /// events in an `on` mapping, the rule ids in `severity`), in a state's body at any depth
    /// (in a history state's, only its own four); after `kind:` the kinds (`history` only in a
    /// state inside a compound state); after `if:`/`unless:` the conditions; in an `effects`
    /// list, and in a state's `entry` and `exit`, the effects; in a state's `activities`, the
    /// activities, and in an activity's `sends`, the events; after a compound state's
    /// `initial:` the states directly inside it, after a history state's `default:` the states
    /// inside its compound state; after `run:` the spec's other machines; where a state is
    /// written (a target, `in`, `initial`, `done`, a requirement...) the states; elsewhere the
    /// machine's states and events.
    func completion(_ position: (line: Int, character: Int)) -> [[String: Any]] {
        guard lines.indices.contains(position.line) else { return [] }
        let line = lines[position.line]
        let before = String(String.UnicodeScalarView(line.unicodeScalars.prefix(scalarCount(line, position.character))))
        let machine =
            result.spec.machines.last { $0.name.location.line - 1 <= position.line } ?? result.spec.machines.first
        func items(_ names: [String], kind: Int, detail: String) -> [[String: Any]] {
            names.map { ["label": $0, "kind": kind, "detail": detail] }
        }
        let context = CursorContext(lines: lines, line: position.line, before: before)
        if context.typingKey, let place = SpecKeys.place(of: context.path) {
            switch place {
            case .events:
                return items(machine.map(Self.events) ?? [], kind: 23, detail: "event")
            case .severity: return items(Rule.allCases.map(\.rawValue), kind: 12, detail: "rule")
            default:
                return items(SpecKeys.keys(of: Self.refined(place, context.path, machine)), kind: 10, detail: "key")
            }
        }
        if context.valueKey == "kind", let kinds = Self.kinds(context) {
            return items(kinds.map(\.rawValue), kind: 20, detail: "state kind")
        }
        guard let machine else { return [] }
        // What a state's own key names (not an event of that name in an `on`), as the key says.
        let stateKey = Self.holderPlace(context) == .state ? context.valueKey.flatMap(StateKey.init) : nil
        // A state's `run:` names another machine of the spec.
        if stateKey?.value == .machine {
            let others = result.spec.machines.map(\.name.value).filter { $0 != machine.name.value }
            return items(others, kind: 7, detail: "machine")
        }
        let states = machine.states.indices.map { machine.name(of: $0) }
        // A state's `activities` lists the machine's activities; an activity's `sends`, events.
        if stateKey?.value == .activities {
            return items((machine.activities ?? []).map(\.name.value), kind: 3, detail: "activity")
        }
        if context.valueKey == "sends", Self.holderPlace(context) == .activity {
            return items(Self.events(machine), kind: 23, detail: "event")
        }
        let effects = items((machine.effects ?? []).map(\.value), kind: 23, detail: "effect")
        if stateKey?.value == .effects { return effects }
        switch context.valueKey {
        case "if", "unless": return items((machine.conditions ?? []).map(\.value), kind: 6, detail: "condition")
        case "effects": return effects
        default:
            if let inside = Self.statesInside(context, machine) {
                return items(inside.names, kind: 20, detail: "state in \(inside.state)")
            }
            if Self.takesStates(context) { return items(states, kind: 20, detail: "state of \(machine.name.value)") }
        }
        let events = Self.events(machine)
        return items(states, kind: 20, detail: "state of \(machine.name.value)")
            + items(events.filter { !states.contains($0) }, kind: 23, detail: "event of \(machine.name.value)")
    }

    /// The kinds a `kind:` being typed may take: in `defaults` and in a state at the top level,
    /// those of a state the flow can be in; in a state inside a compound state, `history` too
    /// (there is nothing to resume at the top level). `nil` where `kind` is no state's kind (an
    /// event named `kind` in an `on` takes a state).
    private static func kinds(_ context: CursorContext) -> [StateKind]? {
        let holder = holder(context)
        switch SpecKeys.place(of: holder) {
        case .defaults: return StateKind.waitingKinds
        case .state: return compound(around: holder) == nil ? StateKind.waitingKinds : StateKind.allCases
        default: return nil
        }
    }

    /// The name of the compound state that holds the state whose path (from the root) is
    /// `statePath`, or `nil` at the top level: a state's path is `machines`, the machine, then a
    /// `states` key and a name for each level.
    private static func compound(around statePath: [String]) -> String? {
        statePath.count > 4 ? statePath[statePath.count - 3] : nil
    }

    /// `place`, or a history state's body where `path` leads into a state that is one: the keys
    /// of a path cannot tell, the model can (the last check that had machines).
    private static func refined(_ place: SpecKeys.Place, _ path: [String], _ machine: MachineSpec?) -> SpecKeys.Place {
        guard place == .state, let machine, isHistory(path.last, in: machine) else { return place }
        return .historyState
    }

    /// Whether the machine's state named `name` is a history state (as the last check that had
    /// machines knows it).
    private static func isHistory(_ name: String?, in machine: MachineSpec) -> Bool {
        state(named: name, in: machine).map(machine.isHistory) ?? false
    }

    /// The index of the machine's state named `name`.
    private static func state(named name: String?, in machine: MachineSpec) -> Int? {
        guard let name else { return nil }
        return machine.states.indices.first { machine.name(of: $0) == name }
    }

    /// Whether the value being typed is a state: a target (an event's value, `to`, `then`),
    /// `initial`, `done`, a history state's `default`, a requirement's states (as each kind
    /// says, ``RequirementKind/stateKeys``), a sequence's members, or a `resume` or `migrate`
    /// value.
    private static func takesStates(_ context: CursorContext) -> Bool {
        guard let key = context.valueKey else { return false }
        switch holderPlace(context) {
        case .requirement: return RequirementKind(rawValue: key)?.stateKeys.contains(key) ?? false
        case .requirementMapping(let kind): return kind.stateKeys.contains(key)
        case .events: return true
        case .sequence where key == "states": return true
        default: break
        }
        if ["to", "then", "in", "notIn", "initial", "done", "default"].contains(key) { return true }
        return ["resume", "migrate"].contains(context.path.last ?? "")
    }

    /// The states a compound state lets the value being typed name, with the compound state's
    /// name (as the last check that had machines knows them): after its `initial:`, the states
    /// directly inside it; after the `default:` of a history state inside it, the states inside
    /// it at any depth but history states (what `invalid-history` allows).
    private static func statesInside(_ context: CursorContext, _ machine: MachineSpec) -> (
        state: String, names: [String]
    )? {
        let holder = holder(context)
        guard SpecKeys.place(of: holder) == .state, let key = context.valueKey, ["initial", "default"].contains(key),
            let index = state(named: key == "initial" ? holder.last : compound(around: holder), in: machine)
        else { return nil }
        let states =
            key == "initial"
            ? machine.nesting.children(of: index)
            : machine.nesting.descendants(of: index).filter { !machine.isHistory($0) }
        return states.isEmpty ? nil : (machine.name(of: index), states.map(machine.name(of:)))
    }

    /// The keys from the root to the mapping that holds the key whose value is typed: in a flow
    /// list, the path ends with the list's own key.
    private static func holder(_ context: CursorContext) -> [String] {
        context.path.last == context.valueKey ? Array(context.path.dropLast()) : context.path
    }

    /// The kind of mapping that holds the key whose value is typed.
    private static func holderPlace(_ context: CursorContext) -> SpecKeys.Place? {
        SpecKeys.place(of: holder(context))
    }

    /// The machine's events: its `events` list, or else the events its transitions use.
    private static func events(_ machine: MachineSpec) -> [String] {
        if let declared = machine.events { return declared.map(\.value) }
        var used: [String] = []
        var seen: Set<String> = []
        for transition in machine.machineWide + machine.states.indices.flatMap(machine.transitions(of:)) {
            let name = machine.names[transition.event.value]
            if seen.insert(name).inserted { used.append(name) }
        }
        return used
    }

    /// How many characters of `line` the first `utf16` UTF-16 units hold.
    private func scalarCount(_ line: Substring, _ utf16: Int) -> Int {
        var units = 0
        var count = 0
        for scalar in line.unicodeScalars {
            if units >= utf16 { break }
            units += scalar.value > 0xFFFF ? 2 : 1
            count += 1
        }
        return count
    }
}
