/// Emits one machine's namespace: its types, queries and transition functions (as `switch`
/// statements), and the runtime value from ``RuntimeEmitter``.
///
/// The generated code never names its own namespace (static members are found unqualified
/// from nested types), so no machine name can shadow what the code refers to; standard
/// library types are written `Swift.`-qualified for the same reason.
struct MachineEmitter {
    let program: FlowProgram
    let access: String
    let requestedShape: GenerationOptions.Shape

    static let conformances = "Swift.Sendable, Swift.Hashable, Swift.CaseIterable, Swift.Codable"

    let shape: CodeShape
    /// The table form's emitter (its tables are built once), for a machine in that form.
    let tables: TableEmitter?

    init(program: FlowProgram, access: String, requestedShape: GenerationOptions.Shape) {
        self.program = program
        self.access = access
        self.requestedShape = requestedShape
        shape = CodeShape.choose(for: program, requestedShape)
        tables = shape == .tables ? TableEmitter(program: program, access: access) : nil
    }

    func emit(into w: inout SwiftWriter) {
        w.doc(program.summary ?? "The \(program.name.name) flow.")
        w.block("\(access)enum \(program.name.swiftName.code)") { w in
            emitState(&w)
            emitNames(program.events, type: "Event", what: "The events \(program.name.name) reacts to.", &w)
            emitNames(
                program.effects, type: "Effect",
                what: "The effects \(program.name.name) asks the app to carry out, in order.", &w)
            emitConditions(&w)
            emitKind(&w)
            emitInitial(&w)
            if let tables {
                tables.emitQueries(&w)
            } else {
                emitQueries(&w)
                emitSequences(&w)
            }
            emitPersistence(&w)
            if let tables {
                tables.emitTable(&w)
                tables.emitDecoders(&w)
            } else {
                let transitions = TransitionEmitter(program: program)
                transitions.emitStepTypes(&w)
                transitions.emitSteps(&w)
            }
            RuntimeEmitter(program: program, access: access, tables: tables).emit(into: &w)
        }
    }

    /// An expression for a state: `.name`, or `State(ordinal: n)` in the table form (whose
    /// large types have no member names).
    private func state(_ index: Int) -> String {
        shape == .tables ? "State(ordinal: \(index))" : "." + program.states[index].swiftName.code
    }

    private func emitState(_ w: inout SwiftWriter) {
        let rawType = program.persist?.rawValue == .int ? "Swift.Int" : "Swift.String"
        if let tables {
            let names = program.states.map { FlowProgram.Name(name: $0.name, swiftName: $0.swiftName) }
            tables.emitIndexedType(
                "State", names: names, intRaw: rawType == "Swift.Int",
                doc: "The states of \(program.name.name), in the order the spec lists them.",
                summaries: program.states.map(\.summary), &w)
            return
        }
        w.doc("The states of \(program.name.name), in the order the spec lists them.")
        w.block("\(access)enum State: \(rawType), \(Self.conformances)") { w in
            for (index, state) in program.states.enumerated() {
                w.doc(state.summary)
                let raw = rawType == "Swift.Int" ? "\(index)" : "\"\(state.name)\""
                w.line("case \(state.swiftName.code) = \(raw)")
            }
        }
    }

    private func emitNames(_ names: [FlowProgram.Name], type: String, what: String, _ w: inout SwiftWriter) {
        w.line()
        if names.isEmpty {
            w.doc("\(program.name.name) has no \(type == "Event" ? "events" : "effects").")
            w.line("\(access)typealias \(type) = Swift.Never")
            return
        }
        if let tables {
            tables.emitIndexedType(type, names: names, intRaw: false, doc: what, &w)
            return
        }
        w.doc(what)
        w.block("\(access)enum \(type): Swift.String, \(Self.conformances)") { w in
            for name in names { w.line("case \(name.swiftName.code) = \"\(name.name)\"") }
        }
    }

    private func emitConditions(_ w: inout SwiftWriter) {
        w.line()
        w.doc("The conditions the app supplies at each transition.")
        w.block("\(access)struct Conditions: Swift.Sendable, Swift.Hashable") { w in
            for condition in program.conditions {
                w.line("\(access)var \(condition.swiftName.code): Swift.Bool")
            }
            if !program.conditions.isEmpty { w.line() }
            let parameters = program.conditions.map { "\($0.swiftName.code): Swift.Bool = false" }
            w.block("\(access)init(\(parameters.joined(separator: ", ")))") { w in
                for condition in program.conditions {
                    w.line("self.\(condition.swiftName.code) = \(condition.swiftName.code)")
                }
            }
            if shape == .tables {
                w.line()
                w.doc("A condition by its position in the spec's list (for the transition tables).")
                w.block("fileprivate subscript(condition index: Swift.Int) -> Swift.Bool") { w in
                    w.switchBlock("switch index") { w in
                        for (index, condition) in program.conditions.enumerated() {
                            w.line("case \(index): self.\(condition.swiftName.code)")
                        }
                        w.line("default: false")
                    }
                }
            }
        }
    }

    private func emitKind(_ w: inout SwiftWriter) {
        w.line()
        w.doc("What a state waits for.")
        w.block("\(access)enum Kind: Swift.String, \(Self.conformances)") { w in
            w.line("case input, task, choice, terminal")
        }
    }

    private func emitInitial(_ w: inout SwiftWriter) {
        w.line()
        w.doc("The state every cold start begins in.")
        w.line("\(access)static let initial: State = \(state(program.initial))")
    }

    private func emitQueries(_ w: inout SwiftWriter) {
        w.line()
        w.doc("What the state waits for.")
        w.block("\(access)static func kind(of state: State) -> Kind") { w in
            w.switchBlock("switch state") { w in
                for (index, state) in program.states.enumerated() {
                    w.line("case \(self.state(index)): .\(state.kind.rawValue)")
                }
            }
        }
        MachineEmitter.emitIsTerminal(access: access, &w)
        w.line()
        w.doc("How long the state may be occupied, and where its timeout leads.")
        w.block("\(access)static func timeout(of state: State) -> (after: Swift.Duration, to: State)?") { w in
            let timed = program.states.indices.filter { program.states[$0].timeout != nil }
            guard !timed.isEmpty else {
                w.line("nil")
                return
            }
            w.switchBlock("switch state") { w in
                for index in timed {
                    let timeout = program.states[index].timeout!
                    w.line(
                        "case \(state(index)): (\(Self.durationLiteral(timeout.after)), \(state(timeout.candidate.target)))"
                    )
                }
                if timed.count < program.states.count { w.line("default: nil") }
            }
        }
    }

    private func emitSequences(_ w: inout SwiftWriter) {
        guard !program.sequences.isEmpty else { return }
        w.line()
        w.doc("The named, ordered groups of states.")
        w.block("\(access)enum Sequence: Swift.String, \(Self.conformances)") { w in
            for sequence in program.sequences { w.line("case \(sequence.swiftName.code) = \"\(sequence.name)\"") }
        }
        w.line()
        w.doc("The state's position in the sequence, from 0, or `nil` if it is not a member.")
        w.block("\(access)static func position(of state: State, in sequence: Sequence) -> Swift.Int?") { w in
            w.switchBlock("switch (sequence, state)") { w in
                var cases = 0
                for sequence in program.sequences {
                    var seen = Set<Int>()
                    for (position, member) in sequence.members.enumerated() where seen.insert(member).inserted {
                        w.line("case (.\(sequence.swiftName.code), \(state(member))): \(position)")
                        cases += 1
                    }
                }
                if cases < program.sequences.count * program.states.count { w.line("default: nil") }
            }
        }
        w.line()
        w.doc("How many states the sequence has (for a progress indicator).")
        w.block("\(access)static func length(of sequence: Sequence) -> Swift.Int") { w in
            w.switchBlock("switch sequence") { w in
                for sequence in program.sequences {
                    w.line("case .\(sequence.swiftName.code): \(sequence.members.count)")
                }
            }
        }
    }

    private func emitPersistence(_ w: inout SwiftWriter) {
        guard let persist = program.persist else { return }
        w.line()
        switch persist.rawValue {
        case .int:
            let policy =
                persist.restore == .clamp
                ? "A value below the range restores the first state, above it the last."
                : "A value out of range restores `initial`."
            w.doc("The state a stored raw value restores to: `nil` restores `initial`. \(policy) Never traps.")
            w.block("\(access)static func restoredState(from rawValue: Swift.Int?) -> State") { w in
                w.line("guard let rawValue else { return initial }")
                w.line("if let state = State(rawValue: rawValue) { return state }")
                if persist.restore == .clamp {
                    w.line("return rawValue < 0 ? \(state(0)) : \(state(program.states.count - 1))")
                } else {
                    w.line("return initial")
                }
            }
        case .string:
            w.doc("The state a stored raw value restores to: `nil` or an unknown name restores `initial`. Never traps.")
            w.block("\(access)static func restoredState(from rawValue: Swift.String?) -> State") { w in
                w.line("guard let rawValue, let state = State(rawValue: rawValue) else { return initial }")
                w.line("return state")
            }
        }
        w.line()
        w.doc("Where a restored state lands (`resume`): itself unless the spec says otherwise.")
        w.block("\(access)static func resumed(_ state: State) -> State") { w in
            let resume = persist.resume.sorted { $0.key < $1.key }
            guard !resume.isEmpty else {
                w.line("state")
                return
            }
            if shape == .tables {
                w.switchBlock("switch state.ordinal") { w in
                    for (from, to) in resume { w.line("case \(from): \(self.state(to))") }
                    w.line("default: state")
                }
                return
            }
            w.switchBlock("switch state") { w in
                for (from, to) in resume { w.line("case \(self.state(from)): \(self.state(to))") }
                if resume.count < program.states.count { w.line("default: state") }
            }
        }
    }

    /// `isTerminal(_:)`, the same in both forms.
    static func emitIsTerminal(access: String, _ w: inout SwiftWriter) {
        w.line()
        w.doc("Whether the flow has ended in the state (a terminal state ignores every event).")
        w.block("\(access)static func isTerminal(_ state: State) -> Swift.Bool") { w in
            w.line("kind(of: state) == .terminal")
        }
    }

    /// `.seconds(2)` or `.milliseconds(250)`.
    static func durationLiteral(_ duration: Duration) -> String {
        let milliseconds = duration.wholeMilliseconds
        return milliseconds % 1_000 == 0 ? ".seconds(\(milliseconds / 1_000))" : ".milliseconds(\(milliseconds))"
    }
}
