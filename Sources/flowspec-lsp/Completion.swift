import FlowSpecCore

/// Help in writing a spec: completion of names and kinds in context.
struct Completion {
    /// The check the names come from: the text's own, or the last that had machines.
    let result: SpecChecker.Result
    let lines: [Substring]

    /// `textDocument/completion`: where a key is typed, the keys the language allows there (the
    /// events in an `on` mapping, the rule ids in `severity`), in a state's body at any depth;
    /// after `kind:` the kinds; after `if:`/`unless:` the conditions; in an `effects` list, and
    /// in a state's `entry` and `exit`, the effects; after a compound state's `initial:` the
    /// states directly inside it; where a state is written (a target, `initial`, `done`, a
    /// requirement...) the states; elsewhere the machine's states and events.
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
            default: return items(SpecKeys.keys(of: place), kind: 10, detail: "key")
            }
        }
        if context.valueKey == "kind" {
            return items(StateKind.allCases.map(\.rawValue), kind: 20, detail: "state kind")
        }
        guard let machine else { return [] }
        let states = machine.states.indices.map { machine.name(of: $0) }
        let effects = items((machine.effects ?? []).map(\.value), kind: 23, detail: "effect")
        // `entry` and `exit` of a state (not events of those names in an `on`).
        if ["entry", "exit"].contains(context.valueKey ?? ""), Self.holderPlace(context) == .state { return effects }
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

    /// Whether the value being typed is a state: a target (an event's value, `to`, `then`),
    /// `initial`, `done`, a requirement's states, a sequence's members, or a `resume` or
    /// `migrate` value.
    private static func takesStates(_ context: CursorContext) -> Bool {
        guard let key = context.valueKey else { return false }
        if ["to", "then", "initial", "done", "from", "reachable", "alwaysReachable"].contains(key) { return true }
        let place = holderPlace(context)
        if place == .events || (place == .sequence && key == "states") { return true }
        return ["resume", "migrate"].contains(context.path.last ?? "")
    }

    /// After `initial:` in a compound state: its name and the states directly inside it (as
    /// the last check that had machines knows them).
    private static func statesInside(_ context: CursorContext, _ machine: Machine) -> (state: String, names: [String])?
    {
        let holder = holder(context)
        guard context.valueKey == "initial", SpecKeys.place(of: holder) == .state, let name = holder.last,
            let index = machine.states.indices.first(where: { machine.name(of: $0) == name })
        else { return nil }
        let children = machine.nesting.children(of: index)
        return children.isEmpty ? nil : (name, children.map(machine.name(of:)))
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
    private static func events(_ machine: Machine) -> [String] {
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
