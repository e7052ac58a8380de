import FlowSpecCore
import Foundation

/// What the server answers about a place in a spec: the outline (machines and their states),
/// where a name is declared, and what a state is. Names are found by the word at the cursor,
/// in the machine whose part of the file the cursor is in.
struct Navigation {
    let uri: String
    let checked: Document.Checked
    var result: SpecChecker.Checked { checked.result }
    var lines: [Substring] { checked.lines }

    /// `textDocument/documentSymbol`: each machine with its states, the states inside a
    /// compound state as its children, at any depth. A state's detail is its kind (`compound`,
    /// `deep history` for a history state that resumes the very state left).
    func symbols() -> [[String: Any]] {
        result.spec.machines.map { machine in
            let range = Document.range(machine.name.location, lines)
            let states = machine.states.indices.filter { machine.nesting.parent(of: $0) == nil }
            return [
                "name": machine.name.value, "kind": 5, "range": range, "selectionRange": range,
                "children": symbols(of: states, in: machine)
            ]
        }
    }

    /// The symbols of `states` and, under each compound one, of the states inside it. A
    /// compound state's range runs over its whole body, so that it holds its children's.
    private func symbols(of states: [Int], in machine: MachineSpec) -> [[String: Any]] {
        states.map { index in
            let name = Document.range(machine.states[index].name.location, lines)
            guard machine.isCompound(index) else {
                return [
                    "name": machine.name(of: index), "detail": detail(of: index, in: machine), "kind": 22,
                    "range": name, "selectionRange": name
                ]
            }
            return [
                "name": machine.name(of: index), "detail": machine.isParallel(index) ? "parallel" : "compound",
                "kind": 22,
                "range": ["start": name["start"] ?? [:], "end": bodyEnd(of: machine.states[index].name.location)],
                "selectionRange": name, "children": symbols(of: machine.nesting.children(of: index), in: machine)
            ]
        }
    }

    /// What the outline says of a state with none inside: its kind, and of a history state
    /// whether it is deep (the two resume differently).
    private func detail(of state: Int, in machine: MachineSpec) -> String {
        let kind = machine.states[state].kind.rawValue
        let deep = machine.isHistory(state) && machine.nesting.details[state]?.deep?.value == true
        return deep ? "deep \(kind)" : kind
    }

    /// Where the body of the key at `location` ends: the end of its last line before the next
    /// line indented no deeper than the key (comments and blank lines do not end it, and are
    /// not counted in it).
    private func bodyEnd(of location: SourceLocation) -> [String: Any] {
        let first = max(location.line - 1, 0)
        let indent = location.column - 1
        var last = first
        var line = first + 1
        while line < lines.count {
            let text = lines[line].drop { $0 == " " }
            if !text.isEmpty, !text.hasPrefix("#") {
                if lines[line].count - text.count <= indent { break }
                last = line
            }
            line += 1
        }
        let end = lines.indices.contains(last) ? lines[last].trimmingTrailingSpaces.utf16.count : 0
        return ["line": last, "character": end]
    }

    /// `textDocument/definition`: the state, or the declared event, condition, effect or
    /// activity, that the word at `position` names; on a `run:` value, the machine, in this
    /// file or in one it imports.
    func definition(_ position: (line: Int, character: Int)) -> [String: Any]? {
        guard let word = word(at: position), let machine = machine(at: position.line) else { return nil }
        if let run = runValue(at: position, in: machine) {
            if let target = result.spec.machines.first(where: { $0.name.value == run.value }) {
                return location(target.name.location)
            }
            // A machine of a file the spec imports: its name there.
            for file in result.imports {
                if let target = file.machines.first(where: { $0.name.value == run.value }) {
                    return location(target.name.location, in: file)
                }
            }
        }
        if let state = machine.states.indices.first(where: { machine.name(of: $0) == word }) {
            return location(machine.states[state].name.location)
        }
        for list in [machine.events, machine.conditions, machine.effects, machine.activities?.map(\.name)] {
            if let declared = list?.first(where: { $0.value == word }) { return location(declared.location) }
        }
        return nil
    }

    /// The `run:` value at `position`, if the cursor is on one: the machine a state runs.
    func runValue(at position: (line: Int, character: Int), in machine: MachineSpec) -> Located<String>? {
        guard let word = word(at: position) else { return nil }
        return machine.nesting.details.values.lazy.compactMap(\.run).first {
            $0.value == word && $0.location.line - 1 == position.line
        }
    }

    /// `textDocument/hover`: on a finding, its rule and what the rule is about; on a state's
    /// name, its kind, summary, activities, timeout and where it is reached from; on an
    /// activity's, its summary, the events it sends and the states that run it.
    func hover(_ position: (line: Int, character: Int)) -> [String: Any]? {
        let parts = findingsHover(position) + [stateHover(position) ?? activityHover(position)].compactMap { $0 }
        guard !parts.isEmpty else { return nil }
        return ["contents": ["kind": "markdown", "value": parts.joined(separator: "\n\n---\n\n")] as [String: Any]]
    }

    /// Each finding at `position`: its rule id and severity, the rule's summary, the message.
    private func findingsHover(_ position: (line: Int, character: Int)) -> [String] {
        checked.findings.filter { finding in
            Document.range(Document.range(finding.location, lines), meets: (position, position))
        }.map { finding in
            "**\(finding.rule.rawValue)** (\(finding.severity.rawValue)): \(finding.rule.summary)\n\n\(finding.message)"
                + Self.counterexample(finding)
        }
    }

    /// A failed requirement's counterexample: what it is, the trace as a block (to copy into
    /// `flowspec simulate --replay`), and how the run goes on.
    /// Where candidates lead, in order: `` `home` ``, or `` `gold` if `vip`, running `celebrate`;
    /// else `plain` `` for several.
    private static func describe(_ candidates: Candidates, _ machine: MachineSpec) -> String {
        candidates.map { candidate in
            var text = candidate.target.map { "`\(machine.names[$0.value])`" } ?? "nowhere"
            if let condition = candidate.condition { text += " if `\(condition.value)`" }
            if let condition = candidate.unlessCondition { text += " unless `\(condition.value)`" }
            if let state = candidate.inState { text += " in `\(machine.names[state.value])`" }
            if let state = candidate.notInState { text += " not in `\(machine.names[state.value])`" }
            if !candidate.effects.isEmpty {
                text += ", running " + candidate.effects.map { "`\($0.value)`" }.joined(separator: ", ")
            }
            return text
        }.joined(separator: "; else ")
    }

    private static func counterexample(_ finding: Diagnostic) -> String {
        guard let counterexample = finding.counterexample, !counterexample.trace.isEmpty else { return "" }
        return "\n\n" + counterexample.introduction + "\n\n```\n" + counterexample.trace.joined(separator: "\n")
            + "\n```" + counterexample.afterwards.map { "\n\n" + $0 }.joined()
    }

    /// What a history state leads to: where its compound state was left (the very state, for
    /// a deep one), else its default.
    /// `, running `a`, `b`` for the effects of a way in, or nothing without any.
    private static func running(_ effects: [Located<String>]) -> String {
        effects.isEmpty ? "" : ", running " + effects.map { "`\($0.value)`" }.joined(separator: ", ")
    }

    private func historyHover(_ index: Int, in parent: Int, _ machine: MachineSpec) -> String {
        let compound = machine.name(of: parent)
        let deep = machine.nesting.details[index]?.deep?.value == true
        let resumed =
            deep
            ? "the very state `\(compound)` was last left in" : "the state directly inside `\(compound)` that held it"
        let details = machine.nesting.details[index]
        let fallback =
            details?.historyDefault.map { "`\(machine.names[$0.value])`" + Self.running(details?.defaultEffects ?? []) }
            ?? "`\(compound)`'s `initial`"
        return "resumes \(resumed); before `\(compound)` was ever left, \(fallback)"
    }

    private func activityHover(_ position: (line: Int, character: Int)) -> String? {
        guard let word = word(at: position), let machine = machine(at: position.line),
            let activity = machine.activities?.first(where: { $0.name.value == word })
        else { return nil }
        var text = "**\(word)**: activity of `\(machine.name.value)`"
        if let summary = activity.summary { text += "\n\n\(summary)" }
        text += "\n\nsends: " + activity.sends.map { "`\($0.value)`" }.joined(separator: ", ")
        let runners = machine.nesting.details.keys.sorted().filter { index in
            machine.nesting.details[index]?.activities.contains { $0.value == word } == true
        }
        text +=
            "\n\nruns in: "
            + (runners.isEmpty ? "no state" : runners.map { "`\(machine.name(of: $0))`" }.joined(separator: ", "))
        return text
    }

    private func stateHover(_ position: (line: Int, character: Int)) -> String? {
        guard let word = word(at: position), let machine = machine(at: position.line),
            let index = machine.states.indices.first(where: { machine.name(of: $0) == word })
        else { return nil }
        let state = machine.states[index]
        let kind = machine.isParallel(index) ? "parallel" : machine.isCompound(index) ? "compound" : state.kind.rawValue
        var text = "**\(word)**: \(kind) state of `\(machine.name.value)`"
        if let parent = machine.nesting.parent(of: index) {
            text += machine.isParallel(parent) ? ", a region of `" : ", inside `"
            text += "\(machine.name(of: parent))`"
        }
        if let summary = state.summary { text += "\n\n\(summary)" }
        if machine.isHistory(index), let parent = machine.nesting.parent(of: index) {
            text += "\n\n" + historyHover(index, in: parent, machine)
        }
        // A parallel state enters every region; a compound state its `initial`, else its first
        // state that is no history state.
        if machine.isParallel(index) {
            let regions = machine.nesting.children(of: index).filter { !machine.isHistory($0) }.map {
                "`\(machine.name(of: $0))`"
            }
            text += "\n\nenters every region at once: \(regions.joined(separator: ", "))"
            if let done = machine.nesting.details[index]?.done {
                text += "; once every region has ended, goes to " + Self.describe(done.value, machine)
            }
        } else if let first = machine.nesting.children(of: index).first(where: { !machine.isHistory($0) }) {
            let initial = machine.nesting.details[index]?.initial?.value ?? machine.name(of: first)
            text += "\n\nenters `\(initial)` first" + Self.running(machine.nesting.details[index]?.initialEffects ?? [])
            if let done = machine.nesting.details[index]?.done {
                text += "; once done, goes to " + Self.describe(done.value, machine)
            }
        }
        if let details = machine.nesting.details[index], let run = details.run {
            text += "\n\nruns `\(run.value)` as a sub-flow"
            let outcomes = details.outcomes.map { "`\($0.outcome.value)` → " + Self.describe($0.candidates, machine) }
            if !outcomes.isEmpty {
                text += "; once it ends: " + outcomes.joined(separator: ", ")
            } else if let done = details.done {
                text += "; once it ends, goes to " + Self.describe(done.value, machine)
            }
        }
        if let activities = machine.nesting.details[index]?.activities, !activities.isEmpty {
            text += "\n\nruns activities: " + activities.map { "`\($0.value)`" }.joined(separator: ", ")
        }
        // Its transitions without a target: events it handles by running effects in place.
        let staying = machine.transitions(of: index).filter { $0.candidates.contains(where: \.isTargetless) }
        if !staying.isEmpty {
            text +=
                "\n\nstays on: " + staying.map { "`\(machine.names[$0.event.value])`" }.joined(separator: ", ")
                + " (runs effects, leaves nothing)"
        }
        // Its `always` branches, when it waits: where it goes as soon as a condition holds.
        if state.kind != .choice || machine.isCompound(index), let always = state.always, !always.value.isEmpty {
            let branches = always.value.compactMap { candidate -> String? in
                guard let target = candidate.target else { return nil }
                let terms = [
                    candidate.condition.map { "`\($0.value)`" }, candidate.unlessCondition.map { "not `\($0.value)`" },
                    candidate.inState.map { "in `\(machine.names[$0.value])`" },
                    candidate.notInState.map { "not in `\(machine.names[$0.value])`" }
                ]
                return terms.compactMap { $0 }.joined(separator: " and ") + " → `\(machine.names[target.value])`"
            }
            text += "\n\nleaves at once while: " + branches.joined(separator: "; ")
        }
        if let timeout = state.timeout {
            text +=
                "\n\ntimeout: after \(timeout.after?.value.specDescription ?? "?") to "
                + "`\(machine.names[timeout.target.value])`"
        }
        // The graph is of the machine composed (a state that runs another holds its states),
        // so the state is found there by name.
        if let graph = result.graphs.first(where: { $0.machine.name.value == machine.name.value }),
            let composed = graph.machine.states.indices.first(where: { graph.name($0) == word })
        {
            let sources = Set(graph.edges.filter { $0.target == composed && $0.source != composed }.map(\.source))
            let names = sources.sorted().map { "`\(graph.name($0))`" }
            text += "\n\nreached from: " + (names.isEmpty ? "no other state" : names.joined(separator: ", "))
        }
        return text
    }

    /// `textDocument/references`: every place the name at `position` is written in its machine.
    func references(_ position: (line: Int, character: Int)) -> [[String: Any]] {
        guard let word = word(at: position), let machine = machine(at: position.line) else { return [] }
        let references = References(machine: machine)
        guard let kind = references.kind(of: word) else { return [] }
        return references.places(of: word, as: kind).map(location)
    }

    /// `textDocument/documentHighlight`: the places of `references(_:)`, the declaration (a
    /// state's key, a name's list entry) marked as written (3) and the uses as read (2).
    func highlights(_ position: (line: Int, character: Int)) -> [[String: Any]] {
        guard let word = word(at: position), let machine = machine(at: position.line) else { return [] }
        let references = References(machine: machine)
        guard let kind = references.kind(of: word) else { return [] }
        let declarations = Set(references.declarations(of: word, as: kind))
        return references.places(of: word, as: kind).map { place in
            ["range": Document.range(place, lines), "kind": declarations.contains(place) ? 3 : 2]
        }
    }

    /// `textDocument/prepareRename`: the name at `position` and its range, or `nil` when it
    /// is no state, event, condition or effect of the machine, nor a machine's name or a
    /// `run:` of one (nothing there can be renamed).
    func prepareRename(_ position: (line: Int, character: Int)) -> [String: Any]? {
        guard let span = wordSpan(at: position), let machine = machine(at: position.line),
            References(machine: machine).kind(of: span.word) != nil
                || MachineRename.machine(at: position, in: self) != nil
        else { return nil }
        let range: [String: Any] = [
            "start": ["line": position.line, "character": span.start],
            "end": ["line": position.line, "character": span.end]
        ]
        return ["range": range, "placeholder": span.word]
    }

    /// `textDocument/rename`: the edits that rename the name at `position` everywhere in its
    /// machine, or why it cannot be renamed to `newName`.
    func rename(_ position: (line: Int, character: Int), to newName: String) -> Result<[String: Any], RenameRefused> {
        guard let word = word(at: position), let machine = machine(at: position.line) else {
            return .failure(RenameRefused(message: "there is no state, event, condition or effect here"))
        }
        let references = References(machine: machine)
        guard let kind = references.kind(of: word) else {
            return .failure(RenameRefused(message: "'\(word)' is no state, event, condition or effect of the machine"))
        }
        if let refusal = references.refusal(renaming: word, to: newName, as: kind) {
            return .failure(RenameRefused(message: refusal))
        }
        let edits = references.places(of: word, as: kind).map { place -> [String: Any] in
            let range = Document.range(place, lines)
            let start = range["start"] as? [String: Any] ?? [:]
            let end: [String: Any] = [
                "line": start["line"] ?? 0, "character": (start["character"] as? Int ?? 0) + word.utf16.count
            ]
            return ["range": ["start": start, "end": end] as [String: Any], "newText": newName]
        }
        return .success(["changes": [uri: edits]])
    }

    /// Why a rename was refused, for the client to show.
    struct RenameRefused: Error {
        let message: String
    }

    private func location(_ location: SourceLocation) -> [String: Any] {
        ["uri": uri, "range": Document.range(location, lines)]
    }

    /// A place in a file the spec imports (whose lines were numbered past this file's), in
    /// that file as it is on disk.
    private func location(_ location: SourceLocation, in file: SpecChecker.ImportedFile) -> [String: Any]? {
        guard let source = try? SpecFileReader.read(file.path, maxSize: SpecChecker().limits.maxFileSize) else {
            return nil
        }
        let theirs = String(decoding: source.bytes, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        let own = SourceLocation(line: location.line - file.lineOffset, column: location.column)
        return ["uri": URL(fileURLWithPath: file.path).absoluteString, "range": Document.range(own, theirs)]
    }

    /// The machine whose part of the file holds the 0-based line: the last one named above it.
    func machine(at line: Int) -> MachineSpec? {
        result.spec.machines.last { $0.name.location.line - 1 <= line } ?? result.spec.machines.first
    }

    /// The name at a position (0-based line, UTF-16 offset): letters, digits, `_` and `-`.
    func word(at position: (line: Int, character: Int)) -> String? {
        wordSpan(at: position)?.word
    }

    /// The name at a position with its UTF-16 columns on the line.
    func wordSpan(at position: (line: Int, character: Int)) -> (word: String, start: Int, end: Int)? {
        guard lines.indices.contains(position.line) else { return nil }
        let scalars = Array(lines[position.line].unicodeScalars)
        var utf16 = 0
        var index = 0
        while index < scalars.count, utf16 < position.character {
            utf16 += scalars[index].utf16.count
            index += 1
        }
        func isName(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-"
        }
        var start = index
        while start > 0, isName(scalars[start - 1]) { start -= 1 }
        var end = index
        while end < scalars.count, isName(scalars[end]) { end += 1 }
        guard start < end else { return nil }
        func column(_ offset: Int) -> Int { scalars[..<offset].reduce(0) { $0 + $1.utf16.count } }
        return (String(String.UnicodeScalarView(scalars[start..<end])), column(start), column(end))
    }
}
