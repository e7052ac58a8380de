/// Emits the table form of a large machine (see ``CodeShape``): index-backed `State`, `Event`
/// and `Effect` structs, the queries, and the `Machine` steps reading one integer table.
///
/// The table's sections are comma-separated integers inside multi-line string literals,
/// decoded once (on first use) into one `[Int32]`, `sharedTable`, which the machine's steps
/// read. Sections, in order (see ``TableLayout``):
///
/// - states: per state, a header of ``headerWidth`` integers at `ordinal * 4` (16 bytes, never
///   across two cache lines): its kind (0 input, 1 task, 2 choice, 3 terminal), plus 4 × its
///   depth in a machine with compound states; a filter of the events it handles (bit
///   `event % 32`); its first row; the group of its `always` branches (choice states), or of
///   its parent's `done` (a terminal state directly inside a compound state with `done`), or
///   -1. One more header ends the last state's rows;
/// - rows: per handled event, the event and an action: the target state (≥ 0) when the first
///   candidate has no condition, effect or retry (the usual case), else `~group`. In a machine
///   with compound states a row has a third integer, and a first candidate needs only no
///   condition or retry: the action is `target | keep << 24` (``TableLayout/keepShift``), the
///   third integer its effects (exits and entries included), `first << 7 | count`
///   (``TableLayout/effectsShift``), 0 after a group; so a step that leaves and enters compound
///   states reads no group either. A state's rows are ordered by `event % 32`, so when no two
///   of its events share a filter bit an event's row is the state's first row plus the number
///   of filter bits below the event's. An ignored event costs one load and a bit test; a
///   handled one a row more, no search;
/// - timeouts: per state, the group of its timeout (-1 for none), milliseconds / 10⁹ and
///   milliseconds % 10⁹;
/// - candidates: groups, each a count then that many candidates of ``TableLayout/candidateWidth``
///   integers: target; first and count of required conditions; first and count of forbidden
///   conditions (ranges of `lists`); first and count of effects (a range of the effect list);
///   retry slot (-1 for none), retry max, fallback; in a machine where some retry runs
///   effects of its own (``TableLayout/recordsRetryEffects``), first and count of those; and,
///   in a machine with compound states (``TableLayout/recordsNesting``), the candidate's `keep`
///   and its retry's. A candidate's effects are all that taking it runs: the exits, its own,
///   the entries (a retry's, likewise, in place of the step's);
/// - lists: condition ordinals;
/// - sequence members, when the machine has sequences;
/// - in a machine with compound states, three sections: nesting, per state, the compound state
///   directly around it (-1) and where its groups start in outer; compounds, per compound
///   state (``TableLayout/compoundWidth`` integers), its first state and the state after its
///   last (the states inside a compound state are a range), the compound state around it
///   (-1), its depth, its timeout's milliseconds / 10⁹ (-1 for none) and % 10⁹; outer, per
///   state, one integer per compound state around it (outermost first): the group of that
///   compound state's timeout as taken from the state (its exits differ from state to state),
///   or -1. States that leave alike share a group, and steps share lists of effects;
/// - entries, in a machine where entering some state from the start runs effects: per state,
///   first and count of those (a range of the effect list);
/// - effects: the effect list, effect ordinals (`effectList` is this tail of the table).
///
/// `step` is `@inline(__always)`: inlined into the runtime's `send`, which is inlined into the
/// caller, it dispatches in a few nanoseconds (the dispatch rows of `Benchmarks/run.sh`).
struct TableEmitter {
    let program: FlowProgram
    let access: String
    let tables: TableLayout

    init(program: FlowProgram, access: String) {
        self.program = program
        self.access = access
        self.tables = TableLayout(program: program)
    }

    static let headerWidth = TableLayout.HeaderField.allCases.count

    /// The header's kind of a choice state, in a machine without compound states.
    static let choiceKind = TableLayout.kinds.firstIndex(of: .choice)!

    /// The emitted read of a field of the candidate's record at `candidate`.
    func field(_ field: TableLayout.CandidateField) -> String { at(field.rawValue) }

    /// The emitted read of the integer `offset` into the candidate's record at `candidate`.
    func at(_ offset: Int) -> String {
        offset == 0 ? "Swift.Int(tables.table[candidate])" : "Swift.Int(tables.table[candidate &+ \(offset)])"
    }

    /// The emitted read of a field of the way into a history at `position`.
    func resume(_ field: TableLayout.ResumeField) -> String {
        field.rawValue == 0
            ? "Swift.Int(tables.table[position])" : "Swift.Int(tables.table[position &+ \(field.rawValue)])"
    }

    /// The emitted read of a field of the state's header at `header`, or of the next state's.
    func header(_ field: TableLayout.HeaderField, ofNext next: Bool = false) -> String {
        "Swift.Int(tables.table[header &+ \(field.rawValue + (next ? Self.headerWidth : 0))])"
    }

    /// Up to this many values, an index-backed type has one named static member per value
    /// (`.splash`). Each member costs about a millisecond of compile time, so larger types
    /// are reached through `init(rawValue:)` and `allCases` instead. `State` and `Compound`
    /// are judged together, on the machine's states, compound ones counted: a machine too
    /// large to name its states names none of them.
    static let namedMemberLimit = 1_000

    /// Whether `State` and `Compound` have a named member per value.
    var namesStates: Bool { program.states.count + program.compounds.count <= Self.namedMemberLimit }

    // MARK: Types

    /// An index-backed type whose static members stand for the enum cases of the switch form.
    /// `named`: whether it has a static member per value (see ``namedMemberLimit``).
    func emitIndexedType(
        _ type: String, names: [FlowProgram.Name], intRaw: Bool, named: Bool, doc: String,
        summaries: [String?] = [], _ w: inout SwiftWriter
    ) {
        let table = type.prefix(1).lowercased() + type.dropFirst() + "Names"
        let rawType = intRaw ? "Swift.Int" : "Swift.String"
        w.line()
        w.doc(doc)
        if !named {
            w.doc(
                "Its \(names.count) values have no member names (they would slow compilation); use `\(type)(rawValue:)` or `allCases`."
            )
        }
        w.block(
            "\(access)struct \(type): Swift.RawRepresentable, Swift.Sendable, Swift.Hashable, Swift.CaseIterable, Swift.Codable, Swift.CustomStringConvertible"
        ) { w in
            w.doc("The position in the spec, from 0.")
            w.line("\(access)let ordinal: Swift.Int")
            w.line()
            w.line("fileprivate init(ordinal: Swift.Int) { self.ordinal = ordinal }")
            w.line()
            w.block("\(access)init?(rawValue: \(rawType))") { w in
                if intRaw {
                    w.line("guard rawValue >= 0, rawValue < \(names.count) else { return nil }")
                    w.line("self.ordinal = rawValue")
                } else {
                    w.line("guard let ordinal = \(table)Index[rawValue] else { return nil }")
                    w.line("self.ordinal = ordinal")
                }
            }
            w.line()
            w.line("\(access)var rawValue: \(rawType) { \(intRaw ? "ordinal" : "Swift.String(\(table)[ordinal])") }")
            w.line()
            w.doc(
                "Compares positions (the standard library's `==` for raw-representable types would compare raw values)."
            )
            w.line("\(access)static func == (lhs: Self, rhs: Self) -> Swift.Bool { lhs.ordinal == rhs.ordinal }")
            w.line()
            w.line("\(access)func hash(into hasher: inout Swift.Hasher) { hasher.combine(ordinal) }")
            w.line()
            w.line("\(access)var description: Swift.String { Swift.String(\(table)[ordinal]) }")
            w.line()
            w.line("\(access)static var allCases: [Self] { (0..<\(names.count)).map(Self.init(ordinal:)) }")
            w.line()
            w.block("\(access)init(from decoder: any Swift.Decoder) throws") { w in
                w.line("let container = try decoder.singleValueContainer()")
                w.line("let raw = try container.decode(\(rawType).self)")
                w.block("guard let value = Self(rawValue: raw) else") { w in
                    w.line(
                        "throw Swift.DecodingError.dataCorruptedError(in: container, debugDescription: \"no \(type) \\(raw)\")"
                    )
                }
                w.line("self = value")
            }
            w.line()
            w.block("\(access)func encode(to encoder: any Swift.Encoder) throws") { w in
                w.line("var container = encoder.singleValueContainer()")
                w.line("try container.encode(rawValue)")
            }
            guard named else { return }
            w.line()
            for (index, name) in names.enumerated() {
                w.doc(index < summaries.count ? summaries[index] : nil)
                w.line("\(access)static var \(name.swiftName.code): Self { Self(ordinal: \(index)) }")
            }
        }
        w.line()
        w.multilineLiteral("private static let \(table): [Swift.Substring] = lines(", names.map(\.name), ")")
        if !intRaw {
            w.line("private static let \(table)Index: [Swift.String: Swift.Int] = index(\(table))")
        }
    }

    // MARK: Queries

    func emitQueries(_ w: inout SwiftWriter) {
        w.line()
        w.doc("What the state waits for.")
        w.line("\(access)static func kind(of state: State) -> Kind { kind(of: state, in: tables) }")
        w.line()
        w.doc("How long the state may be occupied, and where its timeout leads.")
        w.block("\(access)static func timeout(of state: State) -> (after: Swift.Duration, to: State)?") { w in
            w.line("let base = timeoutsStart + state.ordinal * 3")
            w.line("let group = Swift.Int(sharedTable[base])")
            w.line("guard group >= 0 else { return nil }")
            w.line(
                "let milliseconds = Swift.Int64(sharedTable[base + 1]) * 1_000_000_000 + Swift.Int64(sharedTable[base + 2])"
            )
            w.line(
                "return (.milliseconds(milliseconds), State(ordinal: Swift.Int(sharedTable[candidatesStart + group + 1])))"
            )
        }
        guard !program.sequences.isEmpty else { return }
        w.line()
        w.doc("The named, ordered groups of states.")
        w.block("\(access)enum StateSequence: Swift.String, \(MachineEmitter.conformances)") { w in
            for sequence in program.sequences { w.line("case \(sequence.swiftName.code) = \"\(sequence.name)\"") }
        }
        w.line()
        w.block("private static func members(of sequence: StateSequence) -> Swift.Range<Swift.Int>") { w in
            w.switchBlock("switch sequence") { w in
                var start = 0
                for sequence in program.sequences {
                    w.line("case .\(sequence.swiftName.code): \(start)..<\(start + sequence.members.count)")
                    start += sequence.members.count
                }
            }
        }
        w.line()
        w.doc("The state's position in the sequence, from 0, or `nil` if it is not a member.")
        w.block("\(access)static func position(of state: State, in sequence: StateSequence) -> Swift.Int?") { w in
            w.line("let range = members(of: sequence)")
            w.line(
                "return range.firstIndex { Swift.Int(sharedTable[sequencesStart + $0]) == state.ordinal }.map { $0 - range.lowerBound }"
            )
        }
        w.line()
        w.doc("How many states the sequence has (for a progress indicator).")
        w.block("\(access)static func length(of sequence: StateSequence) -> Swift.Int") { w in
            w.line("members(of: sequence).count")
        }
    }

    // MARK: The table

    func emitTable(_ w: inout SwiftWriter) {
        let sections = tables.sections(withSequences: !program.sequences.isEmpty)
        for section in sections {
            w.line()
            w.doc(section.doc)
            var lines: [String] = []
            var index = 0
            while index < section.values.count {
                lines.append(
                    section.values[index..<min(index + 24, section.values.count)].map(String.init).joined(
                        separator: ",") + ",")
                index += 24
            }
            w.multilineLiteral(
                "private static let \(section.name)Section: Swift.StaticString = ", lines.isEmpty ? [""] : lines, "")
        }
        w.line()
        w.doc("Where the sections start in `sharedTable`.")
        var start = 0
        for section in sections {
            if section.name != "states" {
                w.line("private static let \(section.name)Start = \(start)")
            }
            start += section.values.count
        }
        w.line()
        w.doc("The sections, decoded once, end to end.")
        w.line(
            "private static let sharedTable: [Swift.Int32] = integers("
                + sections.map { $0.name + "Section" }.joined(separator: ", ") + ")")
    }

    // MARK: Steps

    /// `step`, `always` and `timeoutStep` of the table form, with the effect list, reading
    /// the machine's `Tables` (`sharedTable`, held). A candidate is the position of its record
    /// in the table, -1 for none.
    func emitSteps(_ w: inout SwiftWriter) {
        let width = tables.candidateWidth
        let stepType = "FlowSpecRuntime.FlowStep<State>"
        w.line()
        w.doc("The decoded table, which every `Machine` holds.")
        w.block("\(access)struct Tables: Swift.Sendable") { w in
            w.line("fileprivate let table: [Swift.Int32]")
        }
        w.line("\(access)static var tables: Tables { Tables(table: sharedTable) }")
        w.line()
        w.doc("What the state waits for, read from the machine's table.")
        w.line("@inline(__always)")
        w.block("\(access)static func kind(of state: State, in tables: Tables) -> Kind") { w in
            // In a machine with compound states the kind shares its integer with the depth.
            let mask = tables.recordsNesting ? " & 3" : ""
            w.switchBlock("switch tables.table[state.ordinal &* \(Self.headerWidth)]\(mask)") { w in
                for (value, kind) in TableLayout.kinds.enumerated().dropLast() { w.line("case \(value): .\(kind)") }
                w.line("default: .\(TableLayout.kinds.last!)")
            }
        }
        w.line()
        w.line("private typealias Step = \(stepType)")
        if program.retrySlotCount > 0 { w.line("private typealias Retry = FlowSpecRuntime.FlowRetry<State>") }
        w.line()
        w.doc("The effects of the transitions, each list once: a step runs a range of it.")
        if program.effects.isEmpty {
            w.line("\(access)static let effectList: [Effect] = []")
        } else {
            w.line(
                "\(access)static let effectList: [Effect] = sharedTable[effectsStart..<sharedTable.count].map { Effect(ordinal: Swift.Int($0)) }"
            )
        }
        // A machine without events has the runtime's `step`, for `Never`.
        if !program.events.isEmpty {
            w.line()
            w.doc("The step `event` leads to in `state`, or `nil` if the state ignores it.")
            w.line("@inline(__always)")
            w.block(
                "\(access)static func step(_ state: State, on event: Event, _ conditions: Conditions, _ tables: Tables) -> \(stepType)?"
            ) { w in
                emitRowLookup(missing: "nil", &w)
                w.line("let action = Swift.Int(tables.table[row &+ 1])")
                if tables.recordsNesting {
                    let mask = "0x" + String((1 << TableLayout.keepShift) - 1, radix: 16, uppercase: true)
                    let shift = TableLayout.effectsShift
                    w.block("if action >= 0") { w in
                        w.line("let effects = Swift.Int(tables.table[row &+ 2])")
                        w.line("let first = effects &>> \(shift)")
                        w.line(
                            "return Step(State(ordinal: action & \(mask)), effects: first..<(first &+ effects & \((1 << shift) - 1)), keep: action &>> \(TableLayout.keepShift))"
                        )
                    }
                } else {
                    w.line("if action >= 0 { return Step(State(ordinal: action)) }")
                }
                w.line("let candidate = firstHolding(~action, conditions, tables)")
                w.line("return candidate >= 0 ? step(candidate, tables) : nil")
            }
            w.line()
            w.doc(
                "The row of `event` among the rows of the state whose header is at `header`, or -1 (when two of its events share a filter bit)."
            )
            w.block("private static func search(_ event: Event, _ header: Swift.Int, _ tables: Tables) -> Swift.Int") {
                w in
                w.line("var row = rowsStart &+ \(header(.firstRow)) &* \(tables.rowWidth)")
                w.line(
                    "let end = rowsStart &+ \(header(.firstRow, ofNext: true)) &* \(tables.rowWidth)"
                )
                w.block("while row < end") { w in
                    w.line("if Swift.Int(tables.table[row]) == event.ordinal { return row }")
                    w.line("row &+= \(tables.rowWidth)")
                }
                w.line("return -1")
            }
        }
        w.line()
        emitAlways(&w)
        if tables.recordsEventless { emitEventless(&w) }
        w.line()
        w.doc("The step the state's timeout takes, or `nil` if it has none.")
        w.block("\(access)static func timeoutStep(_ state: State, _ tables: Tables) -> \(stepType)?") { w in
            w.line("let group = Swift.Int(tables.table[timeoutsStart &+ state.ordinal &* 3])")
            w.line("return group >= 0 ? step(candidatesStart &+ group &+ 1, tables) : nil")
        }
        w.line()
        w.doc("The step of the candidate whose record is at `candidate`.")
        w.block("private static func step(_ candidate: Swift.Int, _ tables: Tables) -> Step") { w in
            if program.hasTargetless {
                // A candidate without a target records its source as `~source`.
                w.line("let written = \(field(.target))")
                if program.effects.isEmpty {
                    w.line("if written < 0 { return Step(State(ordinal: ~written), stays: true) }")
                } else {
                    w.block("if written < 0") { w in
                        w.line("let effects = \(field(.effectsStart))")
                        w.line(
                            "return Step(State(ordinal: ~written), effects: effects..<(effects &+ \(field(.effectsCount))), stays: true)"
                        )
                    }
                }
                w.line("let target = State(ordinal: written)")
            } else {
                w.line("let target = State(ordinal: \(field(.target)))")
            }
            var arguments = ["target"]
            if !program.effects.isEmpty {
                w.line("let effects = \(field(.effectsStart))")
                arguments.append("effects: effects..<(effects &+ \(field(.effectsCount)))")
            }
            if program.retrySlotCount > 0 {
                w.line("let slot = \(field(.retrySlot))")
                var retry =
                    "Retry(slot: slot, max: \(field(.retryMax)), "
                    + "fallback: State(ordinal: \(field(.retryFallback)))"
                if tables.recordsRetryEffects {
                    w.line("let fallbackEffects = \(at(TableLayout.retryEffectsOffset))")
                    retry +=
                        ", effects: fallbackEffects..<(fallbackEffects &+ \(at(TableLayout.retryEffectsOffset + 1)))"
                }
                if tables.recordsNesting {
                    retry += ", keep: \(at(tables.keepOffset + 1))"
                }
                if tables.recordsHistory {
                    retry +=
                        ", resume: resume(candidate &+ \(tables.historyOffset + TableLayout.historyFields), tables)"
                }
                if tables.recordsStepEntries {
                    retry += ", entries: entries(candidate &+ \(tables.stepEntriesOffset + 2), tables)"
                }
                w.line("let retry = slot < 0 ? nil : \(retry))")
                arguments.append("retry: retry")
            }
            if tables.recordsNesting {
                arguments.append("keep: \(at(tables.keepOffset))")
            }
            if tables.recordsHistory {
                arguments.append("resume: resume(candidate &+ \(tables.historyOffset), tables)")
            }
            if tables.recordsStepEntries {
                arguments.append("entries: entries(candidate &+ \(tables.stepEntriesOffset), tables)")
            }
            w.line("return Step(\(arguments.joined(separator: ", ")))")
        }
        if tables.recordsStepEntries {
            w.line()
            w.doc(
                "The entries recorded at `position` of a candidate's record (first, count), or `nil` (a count of -1) for the target's usual ones."
            )
            w.block("private static func entries(_ position: Swift.Int, _ tables: Tables) -> Swift.Range<Swift.Int>?") {
                w in
                w.line("let count = Swift.Int(tables.table[position &+ 1])")
                w.line("guard count >= 0 else { return nil }")
                w.line("let first = Swift.Int(tables.table[position])")
                w.line("return first..<(first &+ count)")
            }
        }
        if tables.recordsHistory {
            w.line()
            w.doc(
                "The way into a history recorded at `position` of a candidate's record (slot, depth × 2 + deep, first and count of the effects before the entries), if any."
            )
            w.block(
                "private static func resume(_ position: Swift.Int, _ tables: Tables) -> FlowSpecRuntime.FlowResume?"
            ) { w in
                w.line("let slot = \(resume(.slot))")
                w.line("guard slot >= 0 else { return nil }")
                w.line("let depth = \(resume(.depthAndDeep))")
                w.line("let first = \(resume(.beforeStart))")
                w.line(
                    "return FlowSpecRuntime.FlowResume(slot: slot, depth: depth &>> 1, deep: depth & 1 == 1, before: first..<(first &+ \(resume(.beforeCount))))"
                )
            }
        }
        w.line()
        w.doc("The first candidate of the group at `group` in the candidates section whose conditions hold, or -1.")
        w.block(
            "private static func firstHolding(_ group: Swift.Int, _ conditions: Conditions, _ tables: Tables) -> Swift.Int"
        ) { w in
            w.line("let count = candidatesStart &+ group")
            if program.conditions.isEmpty && !program.readsStates {
                w.line("return tables.table[count] > 0 ? count &+ 1 : -1")
                return
            }
            w.line("var candidate = count &+ 1")
            w.line("let end = candidate &+ Swift.Int(tables.table[count]) &* \(width)")
            w.block("while candidate < end") { w in
                w.line("if holds(candidate, conditions, tables) { return candidate }")
                w.line("candidate &+= \(width)")
            }
            w.line("return -1")
        }
        guard !program.conditions.isEmpty || program.readsStates else { return }
        w.line()
        w.block(
            "private static func holds(_ candidate: Swift.Int, _ conditions: Conditions, _ tables: Tables) -> Swift.Bool"
        ) { w in
            w.line("let required = listsStart &+ \(field(.requiresStart))")
            w.block("for item in required..<(required &+ \(field(.requiresCount)))") { w in
                w.line("if !conditions[condition: Swift.Int(tables.table[item])] { return false }")
            }
            w.line("let forbidden = listsStart &+ \(field(.forbidsStart))")
            w.block("for item in forbidden..<(forbidden &+ \(field(.forbidsCount)))") { w in
                w.line("if conditions[condition: Swift.Int(tables.table[item])] { return false }")
            }
            w.line("return true")
        }
    }

    /// The lines that find the row of `event` among `state`'s rows in `tables` into `row`,
    /// returning `missing` when the state ignores the event: written into `step` itself, as
    /// every table-form machine has it, and into the regions' `row(of:on:)`.
    private func emitRowLookup(missing: String, _ w: inout SwiftWriter) {
        w.line("let header = state.ordinal &* \(Self.headerWidth)")
        w.line("let bit = Swift.UInt32(truncatingIfNeeded: event.ordinal) & 31")
        w.line(
            "let filter = Swift.UInt32(bitPattern: tables.table[header &+ \(TableLayout.HeaderField.eventFilter.rawValue)])"
        )
        w.line("guard (filter >> bit) & 1 != 0 else { return \(missing) }")
        w.line(
            "var row = rowsStart &+ (\(header(.firstRow)) &+ (filter & ((1 << bit) &- 1)).nonzeroBitCount) &* \(tables.rowWidth)"
        )
        w.block("if Swift.Int(tables.table[row]) != event.ordinal") { w in
            w.line("row = search(event, header, tables)")
            w.line("if row < 0 { return \(missing) }")
        }
    }

    /// `always`: a choice state's branches; in a machine with compound states, also the
    /// `done` a terminal state takes at once (both are the header's group, -1 for none).
    private func emitAlways(_ w: inout SwiftWriter) {
        let stepType = "FlowSpecRuntime.FlowStep<State>"
        if tables.recordsNesting {
            w.doc(
                "The `always` branch a choice state takes at once, the `done` a terminal state takes at once, or `nil`."
            )
        } else {
            w.doc("The `always` branch a choice state takes at once, or `nil` for other states.")
        }
        w.block(
            "\(access)static func always(_ state: State, _ conditions: Conditions, _ tables: Tables) -> \(stepType)?"
        ) { w in
            w.line("let header = state.ordinal &* \(Self.headerWidth)")
            if tables.recordsNesting {
                w.line("let group = \(header(.alwaysGroup))")
                w.line("guard group >= 0 else { return nil }")
                w.line("let candidate = firstHolding(group, conditions, tables)")
            } else {
                w.line("guard tables.table[header] == \(Self.choiceKind) else { return nil }")
                w.line("let candidate = firstHolding(\(header(.alwaysGroup)), conditions, tables)")
            }
            w.line("return candidate >= 0 ? step(candidate, tables) : nil")
        }
    }

    /// `eventless`: the `always` branch a state that waits takes once its condition holds,
    /// with how deep the state that writes it stands.
    private func emitEventless(_ w: inout SwiftWriter) {
        w.line()
        w.line("\(access)static let hasEventless = true")
        w.line()
        w.doc(
            "The `always` branch the state takes while it waits (its own, then its compound states'), with how deep the state that writes it stands, or `nil`."
        )
        w.block(
            "\(access)static func eventless(_ state: State, _ conditions: Conditions, _ tables: Tables) -> (step: FlowSpecRuntime.FlowStep<State>, declaredAt: Swift.Int)?"
        ) { w in
            w.line("let base = eventlessStart &+ state.ordinal &* 2")
            w.line("let group = Swift.Int(tables.table[base])")
            w.line("guard group >= 0 else { return nil }")
            w.line("let candidate = firstHolding(group, conditions, tables)")
            w.line("guard candidate >= 0 else { return nil }")
            w.line("let position = (candidate &- candidatesStart &- group &- 1) / \(tables.candidateWidth)")
            w.line(
                "return (step(candidate, tables), Swift.Int(tables.table[eventlessStart &+ Swift.Int(tables.table[base &+ 1]) &+ position]))"
            )
        }
    }

    // MARK: Nesting

    /// What a machine with compound states (or `entry` effects) adds, read from the table: the
    /// effects of entering a state from the start; the depth of each state; the compound
    /// states, which states each holds and which hold each state; and the compound states'
    /// timeouts. A flat machine without `entry` effects adds nothing.
    func emitNesting(_ w: inout SwiftWriter) {
        if tables.recordsEntries {
            w.line()
            w.doc("The effects of entering the state from the start, a range of `effectList`.")
            w.block("\(access)static func entryEffects(of state: State) -> Swift.Range<Swift.Int>") { w in
                w.line("let base = entriesStart &+ state.ordinal &* 2")
                w.line("let first = Swift.Int(sharedTable[base])")
                w.line("return first..<(first &+ Swift.Int(sharedTable[base &+ 1]))")
            }
        }
        guard tables.recordsNesting else { return }
        let width = TableLayout.compoundWidth
        w.line()
        w.line("\(access)static let maximumDepth = \(program.maximumDepth)")
        w.line()
        w.doc("How many compound states hold the state (the header's kind + 4 × depth).")
        w.block("\(access)static func depth(of state: State) -> Swift.Int") { w in
            w.line("depth(of: state, in: tables)")
        }
        w.line()
        w.doc("How many compound states hold the state, read from the machine's table.")
        w.line("@inline(__always)")
        w.block("\(access)static func depth(of state: State, in tables: Tables) -> Swift.Int") { w in
            w.line("Swift.Int(tables.table[state.ordinal &* \(Self.headerWidth)]) &>> 2")
        }
        let names = program.compounds.map { FlowProgram.Name(name: $0.name, swiftName: $0.swiftName) }
        emitIndexedType(
            "Compound", names: names, intRaw: false, named: namesStates,
            doc: "The compound states of \(program.name.name), in the order the spec lists them.", &w)
        w.line()
        w.doc("Whether the state is inside the compound state (whose states are a range of positions).")
        w.block("\(access)static func contains(_ compound: Compound, _ state: State) -> Swift.Bool") { w in
            w.line("let base = compoundsStart &+ compound.ordinal &* \(width)")
            w.line(
                "return state.ordinal >= Swift.Int(sharedTable[base]) && state.ordinal < Swift.Int(sharedTable[base &+ 1])"
            )
        }
        w.line()
        w.doc("The compound state around the state at `depth`, found from the innermost one outwards.")
        w.block("\(access)static func compound(around state: State, atDepth depth: Swift.Int) -> Compound?") { w in
            w.line("guard depth >= 0, depth < Self.depth(of: state) else { return nil }")
            w.line("var compound = Swift.Int(sharedTable[nestingStart &+ state.ordinal &* 2])")
            w.block("while compound >= 0") { w in
                w.line("let base = compoundsStart &+ compound &* \(width)")
                w.line("if Swift.Int(sharedTable[base &+ 3]) == depth { return Compound(ordinal: compound) }")
                w.line("compound = Swift.Int(sharedTable[base &+ 2])")
            }
            w.line("return nil")
        }
        emitHistory(&w)
        emitInitialEffects(&w)
        emitRegions(&w)
        guard program.states.contains(where: { !$0.outerTimeouts.isEmpty }) else { return }
        emitOuterTimeouts(&w)
    }

    /// What a machine whose `initial` or history defaults run effects adds, read from the
    /// section `initialEntries`: what starting runs, and what entering a state a shallow
    /// history resumes runs (looked up along the section: resuming is rare).
    private func emitInitialEffects(_ w: inout SwiftWriter) {
        guard tables.recordsInitialEntries else { return }
        w.line()
        w.line("\(access)static let hasInitialEffects = true")
        w.line()
        w.doc("What starting the flow enters runs, a range of `effectList`.")
        w.block("\(access)static var startEffects: Swift.Range<Swift.Int>") { w in
            w.line("let first = Swift.Int(sharedTable[initialEntriesStart])")
            w.line("return first..<(first &+ Swift.Int(sharedTable[initialEntriesStart &+ 1]))")
        }
        w.line()
        w.doc(
            "What entering `target` keeping `keep` compound states, those from `initialFrom` down through `initial`, runs."
        )
        w.block(
            "\(access)static func entryEffects(of target: State, keeping keep: Swift.Int, initialFrom: Swift.Int) -> Swift.Range<Swift.Int>"
        ) { w in
            w.line("var position = initialEntriesStart &+ 2")
            w.block("while position < initialEntriesStart &+ \(tables.initialEntries.count)") { w in
                w.block(
                    "if Swift.Int(sharedTable[position]) == target.ordinal, Swift.Int(sharedTable[position &+ 1]) == keep, Swift.Int(sharedTable[position &+ 2]) == initialFrom"
                ) { w in
                    w.line("let first = Swift.Int(sharedTable[position &+ 3])")
                    w.line("return first..<(first &+ Swift.Int(sharedTable[position &+ 4]))")
                }
                w.line("position &+= 5")
            }
            w.line("return 0..<0")
        }
    }

    /// What a machine with parallel states adds, read from the sections `declared`,
    /// `regionStates`, `regionRuns`, `enteredStates` and `regionCompounds`: what the kernel
    /// asks to run several states at once (``FlowSpecKernel/FlowRules``' parallel members).
    private func emitRegions(_ w: inout SwiftWriter) {
        guard tables.recordsRegions else { return }
        let stepType = "FlowSpecRuntime.FlowStep<State>"
        w.line()
        w.line("\(access)static let maximumLeaves = \(program.steps.maximumLeaves)")
        w.line("\(access)static let compoundCount = \(program.compounds.count)")
        w.line()
        w.block("\(access)static func compoundIndex(of compound: Compound) -> Swift.Int") { w in
            w.line("compound.ordinal")
        }
        w.line()
        w.doc("The depth of the innermost parallel state around the state, if there is one.")
        w.block("\(access)static func parallelDepth(around state: State) -> Swift.Int?") { w in
            w.line("let depth = Swift.Int(sharedTable[regionStatesStart &+ state.ordinal &* 2])")
            w.line("return depth >= 0 ? depth : nil")
        }
        w.line()
        w.doc("How deep the state that writes the transition `state` takes on `event` stands.")
        w.block("\(access)static func declaringDepth(of state: State, on event: Event) -> Swift.Int") { w in
            if program.events.isEmpty {
                w.line("depth(of: state)")
                return
            }
            w.line("let row = row(of: state, on: event, tables)")
            w.line(
                "return row < 0 ? depth(of: state) : Swift.Int(sharedTable[declaredStart &+ (row &- rowsStart) / \(tables.rowWidth)])"
            )
        }
        if !program.events.isEmpty {
            w.line()
            w.doc("Where the row of `event` among the state's rows is in the table, or -1 if the state ignores it.")
            w.block("private static func row(of state: State, on event: Event, _ tables: Tables) -> Swift.Int") { w in
                emitRowLookup(missing: "-1", &w)
                w.line("return row")
            }
        }
        w.line()
        w.doc(
            "The pair of `regionRuns` for the state at `depth` of its block `block` (0 exits, 1 entries, 2 states entered)."
        )
        w.block(
            "private static func regionRun(_ state: State, _ block: Swift.Int, _ depth: Swift.Int) -> (first: Swift.Int, count: Swift.Int)"
        ) { w in
            w.line("let run = regionRunsStart &+ Swift.Int(sharedTable[regionStatesStart &+ state.ordinal &* 2 &+ 1])")
            w.line("let pair = run &+ (block &* (Self.depth(of: state) &+ 1) &+ depth) &* 2")
            w.line("return (Swift.Int(sharedTable[pair]), Swift.Int(sharedTable[pair &+ 1]))")
        }
        w.line()
        w.doc("The `exit` effects of leaving the state and the compound states around it down to `depth`.")
        w.block("\(access)static func exitEffects(of state: State, through depth: Swift.Int) -> Swift.Range<Swift.Int>")
        {
            w in
            w.line("let run = regionRun(state, 0, depth)")
            w.line("return run.first..<(run.first &+ run.count)")
        }
        w.line()
        w.doc("The `entry` effects of entering `target` with `keep` compound states kept, the other regions included.")
        w.block(
            "\(access)static func entryEffects(of target: State, keeping keep: Swift.Int) -> Swift.Range<Swift.Int>"
        ) { w in
            w.line("let run = regionRun(target, 1, keep)")
            w.line("return run.first..<(run.first &+ run.count)")
        }
        w.line()
        w.doc("Appends the states the machine is in once it enters `target` with `keep` compound states kept.")
        w.block(
            "\(access)static func enteredStates(_ target: State, keeping keep: Swift.Int, into states: inout [State])"
        ) { w in
            w.line("let run = regionRun(target, 2, keep)")
            w.block(
                "for position in (enteredStatesStart &+ run.first)..<(enteredStatesStart &+ run.first &+ run.count)"
            ) {
                w in
                w.line("states.append(State(ordinal: Swift.Int(sharedTable[position])))")
            }
        }
        w.line()
        w.doc("The step a parallel state's `done` takes under `conditions` (its own effects), if it has one.")
        w.block(
            "\(access)static func parallelDone(of compound: Compound, _ conditions: Conditions, _ tables: Tables) -> \(stepType)?"
        ) { w in
            w.line("let group = Swift.Int(tables.table[regionCompoundsStart &+ compound.ordinal &* 2 &+ 1])")
            w.line("guard group >= 0 else { return nil }")
            w.line("let candidate = firstHolding(group, conditions, tables)")
            w.line("return candidate >= 0 ? step(candidate, tables) : nil")
        }
        // A machine with history states has it from `histories`.
        guard !tables.recordsHistory else { return }
        w.line()
        w.doc("How many `entry` effects the compound state runs itself.")
        w.block("\(access)static func entryEffectCount(of compound: Compound) -> Swift.Int") { w in
            w.line("Swift.Int(sharedTable[regionCompoundsStart &+ compound.ordinal &* 2])")
        }
    }

    /// What a machine with history states adds, read from the section `histories`: which
    /// compound states remember where they were left, the state each one's `initial` chain
    /// leads to, and how many `entry` effects each runs itself.
    private func emitHistory(_ w: inout SwiftWriter) {
        guard tables.recordsHistory else { return }
        let width = TableLayout.historyWidth
        w.line()
        w.line("\(access)static let memorySlotCount = \(program.memorySlotCount)")
        w.line("\(access)static let memorySlotNames: [Swift.String] = [\(program.memorySlotNameLiterals)]")
        w.line()
        w.doc("The memory slot of a compound state with a history state inside, or `nil`.")
        w.block("\(access)static func memorySlot(of compound: Compound) -> Swift.Int?") { w in
            w.line("let slot = Swift.Int(sharedTable[historiesStart &+ compound.ordinal &* \(width) &+ 2])")
            w.line("return slot >= 0 ? slot : nil")
        }
        w.line()
        w.doc("The state the compound state's `initial` chain leads to.")
        w.block("\(access)static func initialState(of compound: Compound) -> State") { w in
            w.line("State(ordinal: Swift.Int(sharedTable[historiesStart &+ compound.ordinal &* \(width)]))")
        }
        w.line()
        w.doc("How many `entry` effects the compound state runs itself.")
        w.block("\(access)static func entryEffectCount(of compound: Compound) -> Swift.Int") { w in
            w.line("Swift.Int(sharedTable[historiesStart &+ compound.ordinal &* \(width) &+ 1])")
        }
        let compoundWidth = TableLayout.compoundWidth
        w.line()
        w.doc("Records the state for each compound state around it from `keep` down that has memory, in one walk out.")
        w.block(
            "\(access)static func record(_ state: State, leaving keep: Swift.Int, in memory: inout [State?], _ tables: Tables)"
        ) { w in
            w.line("var compound = Swift.Int(tables.table[nestingStart &+ state.ordinal &* 2])")
            w.block("while compound >= 0") { w in
                w.line("let base = compoundsStart &+ compound &* \(compoundWidth)")
                w.line("if Swift.Int(tables.table[base &+ 3]) < keep { return }")
                w.line("let slot = Swift.Int(tables.table[historiesStart &+ compound &* \(width) &+ 2])")
                w.line("if slot >= 0 { memory[slot] = state }")
                w.line("compound = Swift.Int(tables.table[base &+ 2])")
            }
        }
    }

    private func emitOuterTimeouts(_ w: inout SwiftWriter) {
        let width = TableLayout.compoundWidth
        w.line()
        w.doc("The group in candidates of the timeout of the compound state around the state at `depth`, or -1.")
        w.block(
            "private static func outerGroup(_ state: State, _ depth: Swift.Int, _ table: [Swift.Int32]) -> Swift.Int"
        ) {
            w in
            w.line(
                "guard depth >= 0, depth < Swift.Int(table[state.ordinal &* \(Self.headerWidth)]) &>> 2 else { return -1 }"
            )
            w.line(
                "return Swift.Int(table[outerStart &+ Swift.Int(table[nestingStart &+ state.ordinal &* 2 &+ 1]) &+ depth])"
            )
        }
        w.line()
        w.doc("The timeout of the compound state around the state at `depth`, if it has one.")
        w.block(
            "\(access)static func outerTimeout(of state: State, atDepth depth: Swift.Int) -> (after: Swift.Duration, to: State)?"
        ) { w in
            w.line("let group = outerGroup(state, depth, sharedTable)")
            w.line("guard group >= 0, let compound = compound(around: state, atDepth: depth) else { return nil }")
            w.line("let base = compoundsStart &+ compound.ordinal &* \(width)")
            w.line(
                "let milliseconds = Swift.Int64(sharedTable[base &+ 4]) * 1_000_000_000 + Swift.Int64(sharedTable[base &+ 5])"
            )
            w.line(
                "return (.milliseconds(milliseconds), State(ordinal: Swift.Int(sharedTable[candidatesStart &+ group &+ 1])))"
            )
        }
        w.line()
        w.doc("The step that timeout takes from the state, or `nil` if there is none.")
        w.block(
            "\(access)static func outerTimeoutStep(_ state: State, atDepth depth: Swift.Int, _ tables: Tables) -> FlowSpecRuntime.FlowStep<State>?"
        ) { w in
            w.line("let group = outerGroup(state, depth, tables.table)")
            w.line("return group >= 0 ? step(candidatesStart &+ group &+ 1, tables) : nil")
        }
    }

    /// The decoders every table-shaped machine carries, private to its namespace.
    func emitDecoders(_ w: inout SwiftWriter) {
        w.line()
        w.doc("Decodes sections written as comma-separated integers, one after the other.")
        w.block("private static func integers(_ sections: Swift.StaticString...) -> [Swift.Int32]") { w in
            w.line("var values: [Swift.Int32] = []")
            w.line("var current: Swift.Int32 = 0")
            w.line("var negative = false")
            w.line("var inNumber = false")
            w.nested("for text in sections { text.withUTF8Buffer { buffer in", closing: "} }") { w in
                w.block("for byte in buffer") { w in
                    w.switchBlock("switch byte") { w in
                        w.line("case 48...57:")
                        w.line("    current = current &* 10 &+ Swift.Int32(byte &- 48)")
                        w.line("    inNumber = true")
                        w.line("case 45:")
                        w.line("    negative = true")
                        w.line("default:")
                        w.line("    if inNumber { values.append(negative ? 0 &- current : current) }")
                        w.line("    current = 0")
                        w.line("    negative = false")
                        w.line("    inNumber = false")
                    }
                }
            }
            w.line("if inNumber { values.append(negative ? 0 &- current : current) }")
            w.line("return values")
        }
        w.line()
        w.doc("Splits a table of names written one per line.")
        w.block("private static func lines(_ text: Swift.StaticString) -> [Swift.Substring]") { w in
            w.line("let string = text.withUTF8Buffer { Swift.String(decoding: $0, as: Swift.UTF8.self) }")
            w.line("return string.split(separator: \"\\n\", omittingEmptySubsequences: false)")
        }
        w.line()
        w.block("private static func index(_ names: [Swift.Substring]) -> [Swift.String: Swift.Int]") { w in
            w.line("var result: [Swift.String: Swift.Int] = [:]")
            w.line("for (ordinal, name) in names.enumerated() { result[Swift.String(name)] = ordinal }")
            w.line("return result")
        }
    }
}

/// The integer tables of a machine, in the layout ``TableEmitter`` documents.
struct TableLayout {
    /// The integers of a state's header in `states`, in order: the layout writes them and the
    /// emitted reader reads them by these offsets.
    enum HeaderField: Int, CaseIterable {
        /// The state's kind (input, task, choice, terminal: 0 to 3) + 4 × its depth.
        case kind
        /// Bit `event % 32` set for each event it handles, so a lookup skips most states.
        case eventFilter
        /// Its first row (the next header's ends its rows).
        case firstRow
        /// Its `always` group (a choice state's branches, a terminal state's `done`), or -1.
        case alwaysGroup
    }

    /// The integers every candidate's record starts with, in order; the optional parts follow
    /// (``retryEffectsOffset``, ``keepOffset``, ``historyOffset``).
    enum CandidateField: Int, CaseIterable {
        /// The state it goes to.
        case target
        /// Where its required conditions start in `lists`, and how many there are.
        case requiresStart, requiresCount
        /// Where its forbidden conditions start in `lists`, and how many there are.
        case forbidsStart, forbidsCount
        /// The first and count of its effects (a range of the effect list).
        case effectsStart, effectsCount
        /// Its retry's counter (-1: no retry), bound and fallback.
        case retrySlot, retryMax, retryFallback
    }

    /// The integers of a step's way into a history, from ``historyOffset`` (the step's) and
    /// after it (its retry's), in order.
    enum ResumeField: Int, CaseIterable {
        /// The memory slot of the compound state it resumes (-1: no history).
        case slot
        /// That compound state's depth × 2, + 1 if the history is deep.
        case depthAndDeep
        /// The first and count of what it runs before its entries (a range of the effect list).
        case beforeStart, beforeCount
    }

    /// The kinds a header writes, by their value (a history state is never one the flow is in).
    static let kinds: [StateKind] = [.input, .task, .choice, .terminal]

    var states: [Int] = []
    var timeouts: [Int] = []
    var candidates: [Int] = []
    var lists: [Int] = []
    var effects: [Int] = []
    var sequenceMembers: [Int] = []
    /// Per state, in a machine with compound states: the compound state directly around it
    /// (-1 at the top level), and where its groups of `outer` start.
    var nesting: [Int] = []
    /// Per compound state: its first state, the state after its last, the compound state
    /// around it (-1), its depth, and its timeout's milliseconds / 10⁹ (-1 for none) and % 10⁹.
    var compounds: [Int] = []
    /// Per state, one for each compound state around it (outermost first): the group of that
    /// compound state's timeout taken from the state, or -1.
    var outer: [Int] = []
    /// Per state, in a machine where entering some state runs effects: the first and the
    /// count of the effects of entering it from the start (a range of the effect list).
    var entries: [Int] = []
    /// Per compound state, in a machine with history states (``historyWidth`` integers).
    var histories: [Int] = []
    /// With parallel states (``recordsRegions``): per state, the depth of the innermost
    /// parallel state around it (-1 for none) and where its runs start in `regionRuns`.
    var regionStates: [Int] = []
    /// Per state, three blocks of one pair per depth from 0 to its own: the first and count of
    /// its exits down to that depth, of its entries keeping that many compound states (the
    /// other regions entered included), and of the states then entered, in `enteredStates`.
    var regionRuns: [Int] = []
    var enteredStates: [Int] = []
    /// Per compound state: how many `entry` effects it runs itself, and the group of a parallel
    /// state's `done` in candidates (-1 for none).
    var regionCompounds: [Int] = []
    /// Per row: how deep the state that writes its transition stands (-1: the machine's `on`).
    var declared: [Int] = []
    /// In a machine where states take `always` branches while they wait (``recordsEventless``):
    /// per state, the group of those branches in candidates (-1 for none) and where their
    /// declaring depths start in this section, which lists them after the states' pairs.
    var eventless: [Int] = []

    var rows: [Int] = []
    /// Whether a candidate's record ends with the range of the effects its retry's way out runs:
    /// only in a machine where some has any, so that other tables keep their size.
    let recordsRetryEffects: Bool
    /// Whether the machine has compound states, which add to its tables: each candidate's
    /// record ends with its `keep` and its retry's; a state's kind carries its depth (`kind +
    /// 4 × depth`); a terminal state's `always` group is its parent's `done`; a row's target
    /// carries the step's `keep` (`target | keep << 24`, see ``keepShift``); and the sections
    /// `nesting`, `compounds` and `outer` follow.
    let recordsNesting: Bool
    /// Whether the machine has history states: each candidate's record then ends with how its
    /// step resumes a history (``historyFields``) and how its retry's does, and the section
    /// `histories` follows.
    let recordsHistory: Bool
    /// Whether entering some state from the start runs effects: the section `entries` follows.
    let recordsEntries: Bool
    /// Whether the machine has parallel states: the sections `declared`, `regionStates`,
    /// `regionRuns`, `enteredStates` and `regionCompounds` follow, what the kernel asks to run
    /// several states at once.
    let recordsRegions: Bool
    /// Whether some state takes `always` branches while it waits: the section `eventless`
    /// follows.
    let recordsEventless: Bool
    /// Whether a compound state's `initial` or a history state's default runs effects: the
    /// section `initialEntries` follows and, with parallel states, each candidate's record ends
    /// with the entries its step and its retry's run when they are not their target's usual ones.
    let recordsInitialEntries: Bool
    /// In a machine with `initial` effects (``recordsInitialEntries``): the first and count of
    /// what starting runs; then, per state a shallow history may resume, the state, the
    /// compound states kept, the depth entered through `initial` from, and the first and count
    /// of what entering it then runs.
    var initialEntries: [Int] = []
    private let program: FlowProgram
    /// With `initial` effects and parallel states: what entering each state runs, however it
    /// is entered (what a step's entries are made of).
    private let regions: ProgramSteps.Regions?
    /// The state whose candidates are being added.
    private var source = 0
    /// How many integers a candidate's record holds.
    var candidateWidth: Int {
        CandidateField.allCases.count + (recordsRetryEffects ? 2 : 0) + (recordsNesting ? 2 : 0)
            + (recordsHistory ? 2 * Self.historyFields : 0) + (recordsStepEntries ? 4 : 0)
    }
    /// Whether each candidate's record ends with the entries of its step and of its retry's
    /// (first, count; a count of -1 for the target's usual ones).
    var recordsStepEntries: Bool { recordsInitialEntries && recordsRegions }
    /// Where a candidate's record holds its step's entries, then its retry's.
    var stepEntriesOffset: Int { historyOffset + (recordsHistory ? 2 * Self.historyFields : 0) }
    /// How many integers a step's way into a history takes in a candidate's record: the memory
    /// slot (-1: no history), the compound state's depth × 2 + 1 if the history is deep, and the
    /// first and count of what it runs before its entries (a range of the effect list).
    static let historyFields = ResumeField.allCases.count
    /// How many integers a compound state's record holds in `histories`: the state its
    /// `initial` chain leads to, how many `entry` effects it runs itself, its memory slot (-1).
    static let historyWidth = 3
    /// Where a candidate's record holds the first and count of what its retry's way out runs
    /// (machines where some runs any, ``recordsRetryEffects``).
    static let retryEffectsOffset = CandidateField.allCases.count
    /// Where a candidate's record holds its `keep`, then its retry's (machines with compound
    /// states).
    var keepOffset: Int { Self.retryEffectsOffset + (recordsRetryEffects ? 2 : 0) }
    /// Where a candidate's record holds its history site (machines with history states).
    var historyOffset: Int { keepOffset + 2 }
    /// How many integers a row holds: its event, its action and, in a machine with compound
    /// states, its effects.
    var rowWidth: Int { recordsNesting ? 3 : 2 }
    /// How many integers a compound state's record holds in `compounds`.
    static let compoundWidth = 6
    /// A row's effects, in a machine with compound states, are `first << effectsShift | count`.
    static let effectsShift = 7
    /// A row's plain action is `target | keep << keepShift`: targets below 2²⁴, `keep` below 2⁷
    /// (any other step goes through its group).
    static let keepShift = 24

    /// The groups of the compound states' timeouts, by what they hold: leaves that leave the
    /// same states share one.
    private var outerGroups: [OuterGroup: Int] = [:]
    /// Where each list of effects starts in the effect list, in a machine with compound states.
    private var effectRuns: [[Int]: Int] = [:]

    private struct OuterGroup: Hashable {
        var candidate: FlowProgram.Candidate
        var effects: [Int]
        var fallbackEffects: [Int]
        /// How its step and its retry's resume a history: what they run before their entries
        /// differs from state to state.
        var resumes: [Int]
    }

    init(program: FlowProgram) {
        recordsRetryEffects = program.states.indices.contains { index in
            let state = program.states[index]
            func runs(_ candidate: FlowProgram.Candidate) -> Bool {
                !program.fallbackEffects(of: candidate, from: index).isEmpty
            }
            return state.transitions.contains { $0.candidates.contains(where: runs) }
                || state.always.contains(where: runs) || state.eventless.contains(where: runs)
                || state.timeout.map { runs($0.candidate) } == true
                || state.outerTimeouts.contains { runs($0.timeout.candidate) }
        }
        recordsNesting = !program.compounds.isEmpty
        recordsHistory = !program.histories.isEmpty
        recordsEntries = program.states.indices.contains { !program.entryEffects(of: $0, keeping: 0).isEmpty }
        recordsRegions = program.hasParallel
        recordsEventless = program.hasEventless
        recordsInitialEntries = program.hasInitialEffects
        regions = recordsInitialEntries && recordsRegions ? ProgramSteps.Regions(program) : nil
        self.program = program
        for (index, state) in program.states.enumerated() {
            source = index
            var filter: UInt32 = 0
            for transition in state.transitions { filter |= 1 << UInt32(transition.event % 32) }
            let always =
                state.kind == .choice ? add(state.always) : state.done.isEmpty ? -1 : add(state.done)
            let kind = Self.kinds.firstIndex(of: state.kind)!
            states += HeaderField.allCases.map { field in
                switch field {
                case .kind: kind + 4 * state.depth
                case .eventFilter: Int(Int32(bitPattern: filter))
                case .firstRow: rows.count / rowWidth
                case .alwaysGroup: always
                }
            }
            let ordered = state.transitions.sorted { ($0.event % 32, $0.event) < ($1.event % 32, $1.event) }
            let shape = program.steps.states[index]
            for transition in ordered {
                rows += [transition.event] + action(transition.candidates)
                if recordsRegions {
                    declared.append(shape.declaredAt[shape.position(of: transition.event)!])
                }
            }
            if let timeout = state.timeout {
                let milliseconds = timeout.after.wholeMilliseconds
                timeouts += [
                    add([timeout.candidate]), Int(milliseconds / 1_000_000_000), Int(milliseconds % 1_000_000_000)
                ]
            } else {
                timeouts += [-1, 0, 0]
            }
        }
        // The header after the last ends its rows.
        states += HeaderField.allCases.map { $0 == .firstRow ? rows.count / rowWidth : $0 == .alwaysGroup ? -1 : 0 }
        for sequence in program.sequences { sequenceMembers += sequence.members }
        if recordsNesting { addNesting() }
        if recordsEntries { addEntries() }
        if recordsHistory {
            for compound in program.compounds {
                histories += [compound.initialState, compound.entry.count, compound.memorySlot ?? -1]
            }
        }
        if recordsRegions { addRegions() }
        if recordsEventless { addEventless() }
        if recordsInitialEntries { addInitialEntries() }
    }

    /// The section `initialEntries`, from the lowering `simulate` runs.
    private mutating func addInitialEntries() {
        let steps = program.steps
        func run(_ range: Range<Int>) -> [Int] { [effectRun(Array(steps.effectList[range])), range.count] }
        initialEntries = run(steps.startRun ?? 0..<0)
        let resumed = steps.resumedRuns.filter { !$0.value.isEmpty }.sorted {
            ($0.key.state, $0.key.keep, $0.key.initialFrom) < ($1.key.state, $1.key.keep, $1.key.initialFrom)
        }
        for (key, range) in resumed { initialEntries += [key.state, key.keep, key.initialFrom] + run(range) }
    }

    /// The section of a machine whose states take `always` branches while they wait.
    private mutating func addEventless() {
        var depths: [Int] = []
        var pairs: [Int] = []
        for (index, shape) in program.steps.states.enumerated() {
            source = index
            let group = program.states[index].eventless.isEmpty ? -1 : add(program.states[index].eventless)
            pairs += [group, 2 * program.states.count + depths.count]
            depths += shape.eventlessDeclaredAt
        }
        eventless = pairs + depths
    }

    /// The sections of a machine with parallel states, from the lowering `simulate` runs
    /// (``ProgramSteps``): each run of effects once in the effect list.
    private mutating func addRegions() {
        let steps = program.steps
        for shape in steps.states {
            regionStates += [shape.parallelDepth ?? -1, regionRuns.count]
            for range in shape.exits + shape.entriesKeeping {
                regionRuns += [effectRun(Array(steps.effectList[range])), range.count]
            }
            for entered in shape.enteredKeeping {
                regionRuns += [enteredStates.count, entered.count]
                enteredStates += entered
            }
        }
        for compound in program.compounds {
            // Its own effects only (the kernel adds exits and entries): any state inside lowers it alike.
            source = compound.states.lowerBound
            let done = compound.isParallel && !compound.done.isEmpty ? add(compound.done) : -1
            regionCompounds += [compound.entry.count, done]
        }
    }

    /// A candidate's ways into a history taken from the current source, its step's then its
    /// retry's (``historyFields`` each; -1 and zeros for none), its lists put in the effect list.
    private mutating func resumes(of candidate: FlowProgram.Candidate) -> [Int] {
        [false, true].flatMap { fellBack -> [Int] in
            let resume = HistoryResume(candidate, from: source, fellBack: fellBack, program)
            let before = resume.map { effectRun($0.before) } ?? 0
            return ResumeField.allCases.map { field in
                switch field {
                case .slot: resume?.slot ?? -1
                case .depthAndDeep: resume.map { $0.depth * 2 + ($0.deep ? 1 : 0) } ?? 0
                case .beforeStart: before
                case .beforeCount: resume?.before.count ?? 0
                }
            }
        }
    }

    /// The sections in the order they are laid end to end, with their documentation.
    func sections(withSequences: Bool) -> [(name: String, values: [Int], doc: String)] {
        var sections = [
            (
                "states", states,
                recordsNesting
                    ? "Per state: kind (0 input, 1 task, 2 choice, 3 terminal) + 4 × depth, filter of the events handled "
                        + "(bit `event % 32`), first row, `always` group in candidates (choice states; a terminal "
                        + "state's parent's `done`) or -1; then the end of the rows."
                    : "Per state: kind (0 input, 1 task, 2 choice, 3 terminal), filter of the events handled "
                        + "(bit `event % 32`), first row, `always` group in candidates (choice states) or -1; then the end of the rows."
            ),
            (
                "rows", rows,
                recordsNesting
                    ? "Per handled event, by `event % 32`: the event, then the target state | keep << 24 (≥ 0: no "
                        + "condition or retry) or `~group` in candidates, then the effects, first << 7 | count (0 for a group)."
                    : "Per handled event, by `event % 32`: the event, then the target state (≥ 0: no condition, "
                        + "effect or retry) or `~group` in candidates."
            ),
            (
                "timeouts", timeouts,
                "Per state: the group of its timeout in candidates (-1 for none), milliseconds / 10⁹, milliseconds % 10⁹."
            ),
            (
                "candidates", candidates,
                "Groups: a count, then that many candidates of \(candidateWidth) integers (see the generator's TableEmitter)."
            ),
            ("lists", lists, "Condition ordinals that candidates refer to by range.")
        ]
        if withSequences {
            sections.append(("sequences", sequenceMembers, "The members of every sequence, in order."))
        }
        if recordsNesting {
            sections += [
                (
                    "nesting", nesting,
                    "Per state: the compound state directly around it (-1 for none), the first of its groups in outer."
                ),
                (
                    "compounds", compounds,
                    "Per compound state: its first state, the state after its last, the compound state around it "
                        + "(-1 for none), its depth, its timeout's milliseconds / 10⁹ (-1 for none) and % 10⁹."
                ),
                (
                    "outer", outer,
                    "Per state, per compound state around it (outermost first): the group in candidates of that "
                        + "compound state's timeout, taken from the state, or -1."
                )
            ]
        }
        if recordsEntries {
            sections.append(
                ("entries", entries, "Per state: the first and the count of the effects of entering it from the start.")
            )
        }
        if recordsHistory {
            sections.append(
                (
                    "histories", histories,
                    "Per compound state: the state its `initial` chain leads to, how many `entry` effects it runs itself, "
                        + "its memory slot (-1 for none)."
                ))
        }
        if recordsRegions {
            sections += [
                (
                    "declared", declared,
                    "Per row: how deep the state that writes its transition stands (-1: the machine's `on`)."
                ),
                (
                    "regionStates", regionStates,
                    "Per state: the depth of the innermost parallel state around it (-1 for none), where its runs start."
                ),
                (
                    "regionRuns", regionRuns,
                    "Per state, a pair per depth from 0 to its own: first and count of its exits down to that depth; "
                        + "of its entries keeping that many compound states; of the states then entered."
                ),
                ("enteredStates", enteredStates, "The states entered, by runs of regionRuns."),
                (
                    "regionCompounds", regionCompounds,
                    "Per compound state: how many `entry` effects it runs itself, the group of a parallel state's "
                        + "`done` in candidates (-1 for none)."
                )
            ]
        }
        if recordsInitialEntries {
            sections.append(
                (
                    "initialEntries", initialEntries,
                    "The first and count of what starting runs; then per state a shallow history may resume: the "
                        + "state, the compound states kept, the depth entered through `initial` from, the first and "
                        + "count of what entering it runs."
                ))
        }
        if recordsEventless {
            sections.append(
                (
                    "eventless", eventless,
                    "Per state: the group in candidates of the `always` branches it takes while it waits (-1 for "
                        + "none), where their declaring depths start here; then those depths."
                ))
        }
        // Last, so that the effect list is the table's tail.
        sections.append(("effects", effects, "The effect list: effect ordinals that candidates refer to by range."))
        return sections
    }

    /// A row after its event: the target of a first candidate without condition, effects or
    /// retry (later candidates can never be taken), else `~group` of all the candidates. In a
    /// machine with compound states, the first candidate needs no condition or retry: its target
    /// carries its `keep`, and the row's third integer its effects (exits and entries included),
    /// `first << effectsShift | count`.
    private mutating func action(_ list: [FlowProgram.Candidate]) -> [Int] {
        // A step whose entries are not its target's usual ones carries them in its group.
        guard let first = list.first, first.requires.isEmpty, first.forbids.isEmpty, first.retry == nil,
            first.history == nil, !first.isTargetless,
            !recordsStepEntries || InitialEntries.stepEntries(of: first, fellBack: false, program, regions) == nil
        else {
            return [~add(list)] + (recordsNesting ? [0] : [])
        }
        let ran = program.effects(of: first, from: source)
        if !recordsNesting {
            return [ran.isEmpty ? first.target : ~add(list)]
        }
        guard first.target < 1 << Self.keepShift, first.keep < 1 << 7, ran.count < 1 << Self.effectsShift else {
            return [~add(list), 0]
        }
        let start = effectRun(ran)
        guard start < 1 << (31 - Self.effectsShift) else { return [~add(list), 0] }
        return [first.target | first.keep << Self.keepShift, start << Self.effectsShift | ran.count]
    }

    /// Where `list` starts in the effect list, appending it unless it is there already (machines
    /// with compound states: their steps share lists of exits and entries).
    private mutating func effectRun(_ list: [Int]) -> Int {
        if list.isEmpty { return 0 }
        if let start = effectRuns[list] { return start }
        effectRuns[list] = effects.count
        effects += list
        return effects.count - list.count
    }

    /// Appends a group (a count, then the candidates ``CandidateChoice`` may take) and returns
    /// its position in candidates.
    private mutating func add(_ list: [FlowProgram.Candidate]) -> Int {
        let group = candidates.count
        let takeable = list.prefix(CandidateChoice.takeable(list))
        candidates.append(takeable.count)
        for candidate in takeable {
            // A guard's terms as the generated `holds` reads them: those that must hold, then
            // those that must not.
            let terms = CandidateChoice.terms(of: candidate)
            let requires = lists.count
            lists += terms.filter(\.holds).map(\.condition)
            let forbids = lists.count
            lists += terms.filter { !$0.holds }.map(\.condition)
            let ran = program.effects(of: candidate, from: source)
            let effects = recordsNesting ? effectRun(ran) : self.effects.count
            if !recordsNesting { self.effects += ran }
            candidates += CandidateField.allCases.map { field in
                switch field {
                // A candidate without a target stays in its source: `~source`.
                case .target: candidate.isTargetless ? ~source : candidate.target
                case .requiresStart: requires
                case .requiresCount: forbids - requires
                case .forbidsStart: forbids
                case .forbidsCount: lists.count - forbids
                case .effectsStart: effects
                case .effectsCount: ran.count
                case .retrySlot: candidate.retry?.slot ?? -1
                case .retryMax: candidate.retry?.max ?? 0
                case .retryFallback: candidate.retry?.fallback ?? 0
                }
            }
            if recordsRetryEffects {
                let fallback = program.fallbackEffects(of: candidate, from: source)
                let fallbackEffects = recordsNesting ? effectRun(fallback) : self.effects.count
                if !recordsNesting { self.effects += fallback }
                candidates += [fallbackEffects, fallback.count]
            }
            if recordsNesting {
                candidates += [candidate.keep, candidate.retry?.keep ?? 0]
            }
            if recordsHistory {
                let fields = resumes(of: candidate)
                candidates += fields
            }
            if recordsStepEntries {
                for fellBack in [false, true] {
                    if let entries = InitialEntries.stepEntries(of: candidate, fellBack: fellBack, program, regions) {
                        candidates += [effectRun(entries), entries.count]
                    } else {
                        candidates += [0, -1]
                    }
                }
            }
        }
        return group
    }

    /// The sections `nesting`, `compounds` and `outer`, and the groups of the compound states'
    /// timeouts (one per distinct step: many leaves of a compound state leave it alike).
    private mutating func addNesting() {
        for (index, state) in program.states.enumerated() {
            source = index
            nesting += [state.ancestors.first ?? -1, outer.count]
            var groups = [Int](repeating: -1, count: state.depth)
            for entry in state.outerTimeouts {
                let key = OuterGroup(
                    candidate: entry.timeout.candidate,
                    effects: program.effects(of: entry.timeout.candidate, from: index),
                    fallbackEffects: program.fallbackEffects(of: entry.timeout.candidate, from: index),
                    resumes: resumes(of: entry.timeout.candidate))
                if let group = outerGroups[key] {
                    groups[entry.depth] = group
                } else {
                    let group = add([entry.timeout.candidate])
                    outerGroups[key] = group
                    groups[entry.depth] = group
                }
            }
            outer += groups
        }
        for compound in program.compounds {
            let milliseconds = compound.timeout?.after.wholeMilliseconds
            compounds += [
                compound.states.lowerBound, compound.states.upperBound, compound.parent ?? -1, compound.depth,
                milliseconds.map { Int($0 / 1_000_000_000) } ?? -1, milliseconds.map { Int($0 % 1_000_000_000) } ?? 0
            ]
        }
    }

    /// The section `entries`: each distinct list of effects entering a state runs once in the
    /// effect list.
    private mutating func addEntries() {
        for index in program.states.indices {
            let list = program.entryEffects(of: index, keeping: 0)
            entries += [effectRun(list), list.count]
        }
    }
}
