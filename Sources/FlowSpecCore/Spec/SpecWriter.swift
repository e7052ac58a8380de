/// Writes a ``Spec`` as YAML that the decoder reads back into the same spec: block style for
/// the machines, their sections and the states that hold others; flow style for each
/// transition and each state that holds none; names quoted only where YAML needs it.
///
/// `flowspec import` builds a `Spec` and prints it here, so a key the language gains is
/// written in this one place. `SpecWriterTests` reads every spec of the repository back
/// through it and compares the generated Swift.
enum SpecWriter {
    /// Comment lines an importer writes beside what it made, for one machine: where a name
    /// came from.
    struct Comments {
        /// Lines at the top of the machine: names that were written otherwise.
        var names: [String] = []
        /// A line before a state, by the state's index.
        var states: [Int: String] = [:]
        /// A line before `conditions:` for each condition that has one (a condition made from
        /// an expression, with the expression), in the order the conditions are declared.
        var conditions: [String: String] = [:]
    }

    /// The spec's text; `comments` are by machine name.
    static func text(_ spec: Spec, comments: [String: Comments] = [:]) -> String {
        var writer = Lines()
        writer.append("flowspec: 1")
        if !spec.imports.isEmpty { writer.append("imports: " + list(spec.imports.map(\.value))) }
        if !spec.severity.file.isEmpty { writer.append("severity: " + severity(spec.severity.file)) }
        writer.append("machines:")
        for machine in spec.machines {
            writer.machine(
                machine, severity: spec.severity.machines[machine.name.value] ?? [:],
                comments: comments[machine.name.value] ?? Comments())
        }
        return writer.text
    }

    /// The lines written so far.
    private struct Lines {
        private var lines: [String] = []

        var text: String { lines.joined(separator: "\n") + "\n" }

        mutating func append(_ line: String) { lines.append(line) }

        /// A block mapping's entry, `key: value` (the value on the lines that follow when
        /// `nil`), or for a long key `? key` and `: value` on a line each.
        mutating func entry(_ indent: String, _ key: String, _ value: String?) {
            let written = quoted(key)
            let tail = value.map { " " + $0 } ?? ""
            guard written.utf8.count > longestSimpleKey else { return lines.append(indent + written + ":" + tail) }
            lines.append(indent + "? " + written)
            lines.append(indent + ":" + tail)
        }

        mutating func comment(_ indent: String, _ text: String?) {
            if let text { lines.append(indent + "# " + commentText(text)) }
        }

        mutating func machine(_ machine: MachineSpec, severity: [Rule: SeverityLevel], comments: Comments) {
            entry("  ", machine.name.value, nil)
            let indent = "    "
            for line in comments.names { comment(indent, line) }
            if let summary = machine.summary { append(indent + "summary: " + quoted(summary)) }
            if let standalone = machine.standalone { append(indent + "standalone: \(standalone.value)") }
            if let initial = machine.initial, !machine.entersAtTop(initial) {
                append(indent + "initial: " + quoted(initial.value))
            }
            if let kind = machine.defaultKind { append(indent + "defaults: { kind: \(kind.rawValue) }") }
            if let conditions = machine.conditions {
                for condition in conditions {
                    comment(indent, comments.conditions[condition.value].map { "\(condition.value): \($0)" })
                }
                append(indent + "conditions: " + list(conditions.map(\.value)))
            }
            if let events = machine.events { append(indent + "events: " + list(events.map(\.value))) }
            if let effects = machine.effects { append(indent + "effects: " + list(effects.map(\.value))) }
            if let activities = machine.activities {
                append(indent + "activities:" + (activities.isEmpty ? " {}" : ""))
                for activity in activities {
                    var fields = ["sends: " + list(activity.sends.map(\.value))]
                    if let summary = activity.summary { fields.append("summary: " + quoted(summary)) }
                    entry(indent + "  ", activity.name.value, "{ " + fields.joined(separator: ", ") + " }")
                }
            }
            if !machine.machineWide.isEmpty {
                append(indent + "on:")
                for transition in machine.machineWide {
                    entry(
                        indent + "  ", machine.names[transition.event.value], candidates(transition.candidates, machine)
                    )
                }
            }
            if machine.parallelAtTop != nil, !machine.states.isEmpty {
                // The machine is its first state, a parallel state: its regions are written.
                append(indent + StateKey.parallel.rawValue + ":")
                for region in machine.nesting.children(of: 0) {
                    state(region, machine, indent: indent + "  ", comments: comments)
                }
            } else {
                append(indent + "states:")
                var index = 0
                while index < machine.states.count {
                    state(index, machine, indent: indent + "  ", comments: comments)
                    index = machine.nesting.descendants(of: index).upperBound
                }
            }
            sections(machine, severity: severity, indent: indent)
        }

        /// What follows a machine's states: sequences, `persist`, `require`, `severity`.
        private mutating func sections(_ machine: MachineSpec, severity: [Rule: SeverityLevel], indent: String) {
            if !machine.sequences.isEmpty {
                append(indent + "sequences:")
                for sequence in machine.sequences {
                    var fields = ["states: " + list(sequence.states.map(\.value))]
                    if sequence.forwardOnly { fields.append("forwardOnly: true") }
                    entry(indent + "  ", sequence.name.value, "{ " + fields.joined(separator: ", ") + " }")
                }
            }
            if let persist = machine.persist {
                append(indent + "persist:")
                append(indent + "  rawValue: " + persist.rawValue.rawValue)
                append(indent + "  restore: " + persist.restore.rawValue)
                if !persist.resume.isEmpty {
                    let pairs = persist.resume.map { flowKey($0.from.value) + ": " + quoted($0.to.value) }
                    append(indent + "  resume: { " + pairs.joined(separator: ", ") + " }")
                }
                if !persist.migrate.isEmpty {
                    let pairs = persist.migrate.map { stored($0.from.value) + ": " + quoted($0.to.value) }
                    append(indent + "  migrate: { " + pairs.joined(separator: ", ") + " }")
                }
            }
            if !machine.requirements.isEmpty {
                append(indent + "require:")
                for requirement in machine.requirements {
                    append(indent + "  - " + requirement.key + ": " + SpecWriter.value(of: requirement))
                }
            }
            if !severity.isEmpty { append(indent + "severity: " + SpecWriter.severity(severity)) }
        }

        /// A state, and the states inside it after its own fields.
        private mutating func state(_ index: Int, _ machine: MachineSpec, indent: String, comments: Comments) {
            let fields = SpecWriter.fields(of: index, machine)
            comment(indent, comments.states[index])
            let name = machine.name(of: index)
            guard machine.isCompound(index) else {
                let body = fields.map { $0.key.rawValue + ": " + $0.value }.joined(separator: ", ")
                return entry(indent, name, body.isEmpty ? "{}" : "{ " + body + " }")
            }
            entry(indent, name, nil)
            for field in fields { append(indent + "  " + field.key.rawValue + ": " + field.value) }
            append(indent + "  " + (machine.isParallel(index) ? StateKey.parallel : .states).rawValue + ":")
            for child in machine.nesting.children(of: index) {
                state(child, machine, indent: indent + "    ", comments: comments)
            }
        }

        /// A value that an earlier version stored: a number as it is, a name as a key.
        private func stored(_ value: Persist.StoredValue) -> String {
            switch value {
            case .int(let position): String(position)
            case .string(let name): flowKey(name)
            }
        }
    }

    /// The order a state's own keys are written in: what the state is, then how it is entered
    /// and left, then where it goes. `states` and `parallel`, the states inside, come last.
    /// (`SpecWriterTests` holds it to every key of ``StateKey``.)
    static let fieldOrder: [StateKey] = [
        .kind, .run, .summary, .deep, .default, .initial, .entry, .exit, .activities, .on, .always, .timeout, .done
    ]

    /// A state's own keys and their values, in ``fieldOrder``; the states inside it are
    /// written apart.
    private static func fields(of index: Int, _ machine: MachineSpec) -> [(key: StateKey, value: String)] {
        let state = machine.states[index]
        let details = machine.nesting.details[index] ?? StateDetails()
        var fields: [(key: StateKey, value: String)] = []
        func add(_ key: StateKey, _ value: String?) {
            if let value { fields.append((key, value)) }
        }
        for key in fieldOrder {
            switch key {
            case .kind: add(key, state.kindLocation.map { _ in state.kind.rawValue })
            case .run: add(key, details.run.map { quoted($0.value) })
            case .summary: add(key, state.summary.map(quoted))
            case .deep: add(key, details.deep.map { "\($0.value)" })
            case .default:
                add(key, details.historyDefault.map { wayIn(machine.names[$0.value], details.defaultEffects) })
            case .initial: add(key, details.initial.map { wayIn($0.value, details.initialEffects) })
            case .entry: add(key, details.entry.isEmpty ? nil : list(details.entry.map(\.value)))
            case .exit: add(key, details.exit.isEmpty ? nil : list(details.exit.map(\.value)))
            case .activities: add(key, details.activities.isEmpty ? nil : list(details.activities.map(\.value)))
            case .on: add(key, on(machine.transitions(of: index), machine))
            case .always:
                add(
                    key,
                    state.always.map { "[" + $0.value.map { candidate($0, machine) }.joined(separator: ", ") + "]" })
            case .timeout: add(key, state.timeout.map { timeout($0, machine) })
            case .done: add(key, done(details, machine))
            case .states, .parallel: break  // the states inside, written after the fields
            }
        }
        return fields
    }

    /// An `initial` or a history's `default`: the state's name, or with effects
    /// `{ to: NAME, effects: [...] }`.
    private static func wayIn(_ target: String, _ effects: [Located<String>]) -> String {
        effects.isEmpty ? quoted(target) : "{ to: \(quoted(target)), effects: \(list(effects.map(\.value))) }"
    }

    private static func on(_ transitions: TransitionStore.Transitions, _ machine: MachineSpec) -> String? {
        guard !transitions.isEmpty else { return nil }
        let entries = transitions.map {
            flowKey(machine.names[$0.event.value]) + ": " + candidates($0.candidates, machine)
        }
        return "{ " + entries.joined(separator: ", ") + " }"
    }

    /// `done:`: where a compound state goes once done, or each outcome's candidates for a state
    /// that runs a machine. Candidates for every outcome are a list unless they are one bare
    /// target: on a running state a mapping maps outcomes.
    private static func done(_ details: StateDetails, _ machine: MachineSpec) -> String? {
        if let done = details.done {
            if done.value.count == 1, !done.value[0].hasExtras { return candidate(done.value[0], machine) }
            return "[" + done.value.map { candidate($0, machine) }.joined(separator: ", ") + "]"
        }
        guard !details.outcomes.isEmpty else { return nil }
        let entries = details.outcomes.map { flowKey($0.outcome.value) + ": " + candidates($0.candidates, machine) }
        return "{ " + entries.joined(separator: ", ") + " }"
    }

    private static func candidates(_ candidates: Candidates, _ machine: MachineSpec) -> String {
        if candidates.count == 1 { return candidate(candidates[0], machine) }
        return "[" + candidates.map { candidate($0, machine) }.joined(separator: ", ") + "]"
    }

    private static func candidate(_ candidate: Candidate, _ machine: MachineSpec) -> String {
        var extras = ""
        if let condition = candidate.condition { extras += ", if: " + quoted(condition.value) }
        if let unless = candidate.unlessCondition { extras += ", unless: " + quoted(unless.value) }
        if let state = candidate.inState { extras += ", in: " + quoted(machine.names[state.value]) }
        if let state = candidate.notInState { extras += ", notIn: " + quoted(machine.names[state.value]) }
        if !candidate.effects.isEmpty { extras += ", effects: " + list(candidate.effects.map(\.value)) }
        if let retry = candidate.retry { extras += ", retry: " + self.retry(retry, machine) }
        guard let target = candidate.target.map({ quoted(machine.names[$0.value]) }) else {
            // No target: it stays, and says so by naming its effects, even none.
            return "{ " + (candidate.effects.isEmpty ? "effects: []" + extras : String(extras.dropFirst(2))) + " }"
        }
        return extras.isEmpty ? target : "{ to: " + target + extras + " }"
    }

    private static func timeout(_ timeout: Timeout, _ machine: MachineSpec) -> String {
        var fields: [String] = []
        if let after = timeout.after { fields.append("after: " + after.value.specDescription) }
        fields.append("to: " + quoted(machine.names[timeout.target.value]))
        if !timeout.effects.isEmpty { fields.append("effects: " + list(timeout.effects.map(\.value))) }
        if let retry = timeout.retry { fields.append("retry: " + self.retry(retry, machine)) }
        return "{ " + fields.joined(separator: ", ") + " }"
    }

    private static func retry(_ retry: Retry, _ machine: MachineSpec) -> String {
        var fields: [String] = []
        if let max = retry.max { fields.append("max: \(max.value)") }
        fields.append("then: " + quoted(machine.names[retry.then.value]))
        if !retry.effects.isEmpty { fields.append("effects: " + list(retry.effects.map(\.value))) }
        return "{ " + fields.joined(separator: ", ") + " }"
    }

    /// A requirement's value, as its kind reads it (``RequirementKind/decode(_:key:reader:)``).
    private static func value(of requirement: Requirement) -> String {
        func names(_ names: [Located<String>]) -> String { list(names.map(\.value)) }
        func mapping(_ fields: [(String, String?)]) -> String {
            "{ " + fields.compactMap { key, value in value.map { key + ": " + $0 } }.joined(separator: ", ") + " }"
        }
        switch requirement {
        case .reachable(_, let states), .alwaysReachable(_, let states), .never(_, let states, nil):
            return names(states)
        case .never(_, let states, let condition?):
            return mapping([("in", names(states)), ("while", quoted(condition.value))])
        case .within(_, let from, let to, let max):
            return mapping([("from", quoted(from.value)), ("to", names(to)), ("max", max.value.specDescription)])
        case .before(_, let first, let then, let after):
            let milestone: (String, String?) =
                switch first {
                case .state(let state): ("first", quoted(state.value))
                case .effect(let effect): ("effect", quoted(effect.value))
                }
            return mapping([milestone, ("then", quoted(then.value)), ("after", after.map { quoted($0.value) })])
        case .between(_, let after, let until, let never):
            return mapping([("after", quoted(after.value)), ("until", quoted(until.value)), ("never", names(never))])
        case .everyEntry(_, let to, let runs):
            return mapping([("to", names(to)), ("runs", quoted(runs.value))])
        case .leadsTo(_, let from, let to):
            return mapping([("from", names(from)), ("to", names(to))])
        case .atMost(_, let times, let event, let before):
            return mapping([("times", "\(times.value)"), ("of", quoted(event.value)), ("before", quoted(before.value))])
        case .whenever(_, let event, let to):
            return mapping([("event", quoted(event.value)), ("to", names(to))])
        }
    }

    /// `{ rule: level }`, by rule id so that the same settings give the same text.
    private static func severity(_ settings: [Rule: SeverityLevel]) -> String {
        let entries = settings.sorted { $0.key.rawValue < $1.key.rawValue }.map {
            $0.key.rawValue + ": " + $0.value.rawValue
        }
        return "{ " + entries.joined(separator: ", ") + " }"
    }

    private static func list(_ names: [String]) -> String { "[" + names.map(quoted).joined(separator: ", ") + "]" }

    /// Whether YAML allows a character as written in a stream (YAML 1.2, 5.1): others are
    /// escaped.
    private static func printable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D, 0x20...0x7E, 0x85, 0xA0...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// Text for a YAML comment, which ends at the first line break: control characters, line
    /// breaks (`\n`, `\r`, U+0085, U+2028, U+2029) and invisible characters written as escapes
    /// (`\u{A}`, as findings write them), and any other character YAML does not allow in a
    /// stream as one too. An id or key holding a line break would otherwise end the comment and
    /// write the rest as YAML of the spec.
    static func commentText(_ text: String) -> String {
        var escaped = ""
        for scalar in TextRenderer.visible(text).unicodeScalars {
            if printable(scalar) {
                escaped.unicodeScalars.append(scalar)
            } else {
                escaped += TextRenderer.escape(scalar)
            }
        }
        return escaped
    }

    /// The longest key YAML reads written as `key: value`: a longer one (libyaml allows 1,024
    /// characters to a simple key) is written as an explicit key, `? key`.
    static let longestSimpleKey = 1000

    /// A key in a flow mapping: `key`, or for a long key `? key ` (the `:` follows).
    static func flowKey(_ key: String) -> String {
        let written = quoted(key)
        return written.utf8.count > longestSimpleKey ? "? " + written + " " : written
    }

    /// A scalar as YAML reads it back: plain when it is a plain name that means no other type.
    static func quoted(_ text: String) -> String {
        let plain =
            text.first.map { $0.isASCII && ($0.isLetter || $0 == "_") } == true
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_-.".contains($0)) }
            && ![
                "true", "false", "null", "True", "False", "Null", "TRUE", "FALSE", "NULL", "y", "n", "yes", "no", "on",
                "off"
            ].contains(text)
        if plain { return text }
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\t": escaped += "\\t"
            default:
                if printable(scalar) {
                    escaped.unicodeScalars.append(scalar)
                } else {
                    escaped += yamlEscape(scalar)
                }
            }
        }
        return escaped + "\""
    }
}
