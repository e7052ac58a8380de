/// Emits the table form of a large machine (see ``CodeShape``): index-backed `State`, `Event`
/// and `Effect` structs, the queries, and the transition functions reading integer tables.
///
/// Tables are comma-separated integers inside multi-line string literals, decoded once on
/// first use into `[Int32]`. Each candidate takes ``candidateWidth`` integers: target; first
/// and count of required conditions; first and count of forbidden conditions; first and count
/// of effects (the three ranges index `lists`); retry slot (-1 for none), retry max, fallback.
struct TableEmitter {
    let program: FlowProgram
    let access: String

    static let candidateWidth = 10

    /// Up to this many values, an index-backed type has one named static member per value
    /// (`.splash`). Each member costs about a millisecond of compile time, so larger types
    /// are reached through `init(rawValue:)` and `allCases` instead.
    static let namedMemberLimit = 1_000

    // MARK: Types

    /// An index-backed type whose static members stand for the enum cases of the switch form.
    func emitIndexedType(_ type: String, names: [FlowProgram.Name], intRaw: Bool, doc: String,
                         summaries: [String?] = [], _ w: inout SwiftWriter) {
        let table = type.prefix(1).lowercased() + type.dropFirst() + "Names"
        let rawType = intRaw ? "Swift.Int" : "Swift.String"
        w.line()
        w.doc(doc)
        if names.count > Self.namedMemberLimit {
            w.doc("Its \(names.count) values have no member names (they would slow compilation); use `\(type)(rawValue:)` or `allCases`.")
        }
        w.block("\(access)struct \(type): Swift.RawRepresentable, Swift.Sendable, Swift.Hashable, Swift.CaseIterable, Swift.Codable, Swift.CustomStringConvertible") { w in
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
            w.doc("Compares positions (the standard library's `==` for raw-representable types would compare raw values).")
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
                    w.line("throw Swift.DecodingError.dataCorruptedError(in: container, debugDescription: \"no \(type) \\(raw)\")")
                }
                w.line("self = value")
            }
            w.line()
            w.block("\(access)func encode(to encoder: any Swift.Encoder) throws") { w in
                w.line("var container = encoder.singleValueContainer()")
                w.line("try container.encode(rawValue)")
            }
            guard names.count <= Self.namedMemberLimit else { return }
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
        w.block("\(access)static func kind(of state: State) -> Kind") { w in
            w.switchBlock("switch kinds[state.ordinal]") { w in
                w.line("case 0: .input")
                w.line("case 1: .task")
                w.line("case 2: .choice")
                w.line("default: .terminal")
            }
        }
        MachineEmitter.emitIsTerminal(access: access, &w)
        w.line()
        w.doc("How long the state may be occupied, and where its timeout leads.")
        w.block("\(access)static func timeout(of state: State) -> (after: Swift.Duration, to: State)?") { w in
            w.line("let base = state.ordinal * 3")
            w.line("let candidate = Swift.Int(timeouts[base])")
            w.line("guard candidate >= 0 else { return nil }")
            w.line("let milliseconds = Swift.Int64(timeouts[base + 1]) * 1_000_000_000 + Swift.Int64(timeouts[base + 2])")
            w.line("return (.milliseconds(milliseconds), State(ordinal: Swift.Int(candidates[candidate * \(Self.candidateWidth)])))")
        }
        guard !program.sequences.isEmpty else { return }
        w.line()
        w.doc("The named, ordered groups of states.")
        w.block("\(access)enum Sequence: Swift.String, \(MachineEmitter.conformances)") { w in
            for sequence in program.sequences { w.line("case \(sequence.swiftName.code) = \"\(sequence.name)\"") }
        }
        w.line()
        w.block("private static func members(of sequence: Sequence) -> Swift.Range<Swift.Int>") { w in
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
        w.block("\(access)static func position(of state: State, in sequence: Sequence) -> Swift.Int?") { w in
            w.line("let range = members(of: sequence)")
            w.line("return range.firstIndex { Swift.Int(sequenceMembers[$0]) == state.ordinal }.map { $0 - range.lowerBound }")
        }
        w.line()
        w.doc("How many states the sequence has (for a progress indicator).")
        w.block("\(access)static func length(of sequence: Sequence) -> Swift.Int") { w in
            w.line("members(of: sequence).count")
        }
    }

    // MARK: Transitions

    func emitTransitions(_ w: inout SwiftWriter) {
        let tables = Tables(program: program)
        emitTable("stateRows", tables.stateRows, doc: "Where each state's rows start in `rows` (one more entry at the end).", &w)
        emitTable("rows", tables.rows, doc: "Per handled event: event ordinal, first candidate, candidate count.", &w)
        emitTable("alwaysRanges", tables.alwaysRanges, doc: "Per state: first `always` candidate and count.", &w)
        emitTable("timeouts", tables.timeouts, doc: "Per state: timeout candidate (-1 for none), milliseconds / 10⁹, milliseconds % 10⁹.", &w)
        emitTable("kinds", tables.kinds, doc: "Per state: 0 input, 1 task, 2 choice, 3 terminal.", &w)
        emitTable("candidates", tables.candidates, doc: "Candidates, \(Self.candidateWidth) integers each (see the generator's TableEmitter).", &w)
        emitTable("lists", tables.lists, doc: "Condition and effect ordinals that candidates refer to by range.", &w)
        if !program.sequences.isEmpty {
            emitTable("sequenceMembers", tables.sequenceMembers, doc: "The members of every sequence, in order.", &w)
        }
        emitLookups(&w)
    }

    private func emitTable(_ name: String, _ values: [Int], doc: String, _ w: inout SwiftWriter) {
        w.line()
        w.doc(doc)
        var lines: [String] = []
        var index = 0
        while index < values.count {
            lines.append(values[index..<min(index + 24, values.count)].map(String.init).joined(separator: ",") + ",")
            index += 24
        }
        w.multilineLiteral("private static let \(name): [Swift.Int32] = integers(", lines.isEmpty ? [""] : lines, ")")
    }

    private func emitLookups(_ w: inout SwiftWriter) {
        let width = Self.candidateWidth
        if !program.events.isEmpty {
            w.line()
            w.doc("The step `event` leads to in `state`, or `nil` if the state ignores it.")
            w.block("private static func step(_ state: State, on event: Event, _ conditions: Conditions) -> Step?") { w in
                w.line("var row = Swift.Int(stateRows[state.ordinal])")
                w.line("let end = Swift.Int(stateRows[state.ordinal + 1])")
                w.block("while row < end") { w in
                    w.block("if Swift.Int(rows[row * 3]) == event.ordinal") { w in
                        w.line("return firstHolding(Swift.Int(rows[row * 3 + 1]), Swift.Int(rows[row * 3 + 2]), conditions)")
                    }
                    w.line("row += 1")
                }
                w.line("return nil")
            }
        }
        w.line()
        w.doc("The `always` branch a choice state takes at once, or `nil` for other states.")
        w.block("private static func always(_ state: State, _ conditions: Conditions) -> Step?") { w in
            w.line("firstHolding(Swift.Int(alwaysRanges[state.ordinal * 2]), Swift.Int(alwaysRanges[state.ordinal * 2 + 1]), conditions)")
        }
        w.line()
        w.doc("The step the state's timeout takes, or `nil` if it has none.")
        w.block("private static func timeoutStep(_ state: State) -> Step?") { w in
            w.line("let candidate = Swift.Int(timeouts[state.ordinal * 3])")
            w.line("return candidate >= 0 ? makeStep(candidate * \(width)) : nil")
        }
        w.line()
        w.doc("The first of `count` candidates from `first` whose conditions hold.")
        w.block("private static func firstHolding(_ first: Swift.Int, _ count: Swift.Int, _ conditions: Conditions) -> Step?") { w in
            w.block("for candidate in first..<(first + count)") { w in
                w.line("let base = candidate * \(width)")
                w.line("if holds(base, conditions) { return makeStep(base) }")
            }
            w.line("return nil")
        }
        w.line()
        w.block("private static func holds(_ base: Swift.Int, _ conditions: Conditions) -> Swift.Bool") { w in
            w.block("for item in Swift.Int(candidates[base + 1])..<Swift.Int(candidates[base + 1] + candidates[base + 2])") { w in
                w.line("if !conditions[condition: Swift.Int(lists[item])] { return false }")
            }
            w.block("for item in Swift.Int(candidates[base + 3])..<Swift.Int(candidates[base + 3] + candidates[base + 4])") { w in
                w.line("if conditions[condition: Swift.Int(lists[item])] { return false }")
            }
            w.line("return true")
        }
        w.line()
        w.block("private static func makeStep(_ base: Swift.Int) -> Step") { w in
            if program.effects.isEmpty {
                w.line("let effects: [Effect] = []")
            } else {
                w.line("let first = Swift.Int(candidates[base + 5])")
                w.line("let effects = (first..<(first + Swift.Int(candidates[base + 6]))).map { Effect(ordinal: Swift.Int(lists[$0])) }")
            }
            w.line("let slot = Swift.Int(candidates[base + 7])")
            w.line("let retry = slot < 0 ? nil : Retry(slot: slot, max: Swift.Int(candidates[base + 8]), fallback: State(ordinal: Swift.Int(candidates[base + 9])))")
            w.line("return Step(State(ordinal: Swift.Int(candidates[base])), effects: effects, retry: retry)")
        }
    }

    /// The decoders every table-shaped machine carries, private to its namespace.
    func emitDecoders(_ w: inout SwiftWriter) {
        w.line()
        w.doc("Decodes a table written as comma-separated integers.")
        w.block("private static func integers(_ text: Swift.StaticString) -> [Swift.Int32]") { w in
            w.line("var values: [Swift.Int32] = []")
            w.line("var current: Swift.Int32 = 0")
            w.line("var negative = false")
            w.line("var inNumber = false")
            w.nested("text.withUTF8Buffer { buffer in") { w in
                w.block("for byte in buffer") { w in
                    w.switchBlock("switch byte") { w in
                        w.line("case 48...57:")
                        w.line("    current = current &* 10 &+ Swift.Int32(byte &- 48)")
                        w.line("    inNumber = true")
                        w.line("case 45:")
                        w.line("    negative = true")
                        w.line("default:")
                        w.line("    if inNumber { values.append(negative ? -current : current) }")
                        w.line("    current = 0")
                        w.line("    negative = false")
                        w.line("    inNumber = false")
                    }
                }
            }
            w.line("if inNumber { values.append(negative ? -current : current) }")
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
private struct Tables {
    var stateRows: [Int] = [0]
    var rows: [Int] = []
    var alwaysRanges: [Int] = []
    var timeouts: [Int] = []
    var kinds: [Int] = []
    var candidates: [Int] = []
    var lists: [Int] = []
    var sequenceMembers: [Int] = []

    init(program: FlowProgram) {
        for state in program.states {
            for transition in state.transitions {
                let first = add(transition.candidates)
                rows += [transition.event, first, transition.candidates.count]
            }
            stateRows.append(rows.count / 3)
            alwaysRanges += [add(state.always), state.always.count]
            if let timeout = state.timeout {
                let milliseconds = timeout.after.wholeMilliseconds
                timeouts += [add([timeout.candidate]), Int(milliseconds / 1_000_000_000), Int(milliseconds % 1_000_000_000)]
            } else {
                timeouts += [-1, 0, 0]
            }
            kinds.append([StateKind.input, .task, .choice, .terminal].firstIndex(of: state.kind)!)
        }
        for sequence in program.sequences { sequenceMembers += sequence.members }
    }

    /// Appends candidates and returns the index of the first.
    private mutating func add(_ list: [FlowProgram.Candidate]) -> Int {
        let first = candidates.count / TableEmitter.candidateWidth
        for candidate in list {
            let requires = lists.count
            lists += candidate.requires
            let forbids = lists.count
            lists += candidate.forbids
            let effects = lists.count
            lists += candidate.effects
            candidates += [candidate.target, requires, candidate.requires.count, forbids, candidate.forbids.count,
                           effects, candidate.effects.count, candidate.retry?.slot ?? -1, candidate.retry?.max ?? 0,
                           candidate.retry?.fallback ?? 0]
        }
        return first
    }
}
