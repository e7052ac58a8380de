/// Emits one machine's namespace: its types, queries and transitions (as `switch` expressions,
/// or tables from ``TableEmitter``), conforming to `FlowSpecRuntime.FlowSpec`.
///
/// The generated code is only the spec. The semantics that run it (`FlowMachine`) are the
/// runtime library's, the same for every machine, and so are the members most machines share
/// (no timeouts, no choice states, names that are their own raw value): a machine writes only
/// what its spec says. What each member means is documented once, on the runtime's protocol.
///
/// The generated code never names its own namespace (static members are found unqualified
/// from nested types, and `Self` names it), so no machine name can shadow what the code refers
/// to; standard library types are written `Swift.`-qualified for the same reason.
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
        let subFlowOnly =
            program.isStandalone
            ? ""
            : "\n\nRuns only as a sub-flow (`standalone: false`): the states that run it start it and\nbound its tasks; an app does not start it on its own."
        w.doc((program.summary ?? "The \(program.name.name) flow.") + subFlowOnly)
        let conformance = program.persist == nil ? "FlowSpecRuntime.FlowSpec" : "FlowSpecRuntime.PersistentFlowSpec"
        w.block("\(access)enum \(program.name.swiftName.code): \(conformance)") { w in
            emitState(&w)
            emitNames(program.events, type: "Event", &w)
            emitNames(program.effects, type: "Effect", &w)
            emitConditions(&w)
            statesRead.emitReading(&w, tables: tables != nil)
            emitRuntimeTypes(&w)
            ActivityEmitter(program: program, access: access, tables: tables != nil).emit(&w)
            work.emitProtocol(&w)
            if let tables {
                tables.emitQueries(&w)
            } else {
                emitQueries(&w)
                emitSequences(&w)
            }
            emitPersistence(&w)
            if let tables {
                tables.emitTable(&w)
                tables.emitSteps(&w)
                tables.emitNesting(&w)
                tables.emitDecoders(&w)
            } else {
                TransitionEmitter(program: program, access: access).emitSteps(&w)
            }
        }
        work.emitRegistration(&w)
        subFlows.emit(&w)
    }

    private var work: WorkEmitter {
        WorkEmitter(
            program: program, access: access,
            state: { shape == .tables ? "Spec.State(ordinal: \($0))" : "." + program.states[$0].swiftName.code },
            subFlows: subFlows,
            compound: {
                shape == .tables ? "Spec.Compound(ordinal: \($0))" : "." + program.compounds[$0].swiftName.code
            })
    }

    private var subFlows: SubFlowEmitter { SubFlowEmitter(program: program, access: access, shape: shape) }

    /// An expression for a state: `.name`, or `State(ordinal: n)` in the table form (whose
    /// large types have no member names).
    private func state(_ index: Int) -> String {
        shape == .tables ? "State(ordinal: \(index))" : "." + program.states[index].swiftName.code
    }

    /// `case a, b = "b-c", d`: a case per name, with its raw value where Swift would not give
    /// it that one (its own name for a string, its position for an integer); a new `case` line
    /// once a line is long.
    static func cases(_ names: [(swift: SwiftName, raw: String)]) -> [String] {
        var lines: [String] = []
        var line = ""
        for name in names {
            let item =
                name.raw == literal(name.swift.code) || Int(name.raw) != nil
                ? name.swift.code : "\(name.swift.code) = \(name.raw)"
            if !line.isEmpty, line.count + item.count > 90 {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? "case " + item : ", " + item
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    private func emitState(_ w: inout SwiftWriter) {
        let intRaw = program.persist?.rawValue == .int
        if let tables {
            let names = program.states.map { FlowProgram.Name(name: $0.name, swiftName: $0.swiftName) }
            tables.emitIndexedType(
                "State", names: names, intRaw: intRaw, named: tables.namesStates,
                doc: "The states of \(program.name.name), in the order the spec lists them.",
                summaries: program.states.map(\.summary), &w)
            return
        }
        w.block("\(access)enum State: \(intRaw ? "Swift.Int" : "Swift.String"), \(Self.conformances)") { w in
            // States with a summary get a line of their own, under it; the rest share lines.
            var pending: [(swift: SwiftName, raw: String)] = []
            func flush(_ w: inout SwiftWriter) {
                for line in Self.cases(pending) { w.line(line) }
                pending = []
            }
            for (index, state) in program.states.enumerated() {
                let raw = intRaw ? "\(index)" : Self.literal(state.name)
                if state.summary != nil {
                    flush(&w)
                    w.doc(state.summary)
                    for line in Self.cases([(state.swiftName, raw)]) { w.line(line) }
                } else {
                    pending.append((state.swiftName, raw))
                }
            }
            flush(&w)
        }
    }

    private func emitNames(_ names: [FlowProgram.Name], type: String, _ w: inout SwiftWriter) {
        if names.isEmpty {
            w.line("\(access)typealias \(type) = Swift.Never")
            return
        }
        if let tables {
            tables.emitIndexedType(
                type, names: names, intRaw: false, named: names.count <= TableEmitter.namedMemberLimit,
                doc: type == "Event"
                    ? "The events \(program.name.name) reacts to."
                    : "The effects \(program.name.name) asks the app to carry out, in order.", &w)
            return
        }
        w.block("\(access)enum \(type): Swift.String, \(Self.conformances)") { w in
            for line in Self.cases(names.map { ($0.swiftName, Self.literal($0.name)) }) { w.line(line) }
        }
    }

    /// A Swift string literal of a spec name (names are valid identifiers once checked, but the
    /// raw value keeps the spec's spelling, such as `sign-in`).
    static func literal(_ name: String) -> String { "\"\(name)\"" }

    private var statesRead: StatesReadEmitter {
        StatesReadEmitter(program: program, access: access, state: state)
    }

    private func emitConditions(_ w: inout SwiftWriter) {
        guard !program.conditions.isEmpty || program.readsStates else {
            w.line("\(access)typealias Conditions = FlowSpecRuntime.FlowNoConditions")
            return
        }
        w.block("\(access)struct Conditions: FlowSpecRuntime.FlowConditions") { w in
            for condition in program.conditions {
                w.line("\(access)var \(condition.swiftName.code) = false")
            }
            statesRead.emitWords(&w)
            if !access.isEmpty || program.readsStates {
                // Public, or with the words private to the file: the synthesised initialisers
                // would be internal, or private.
                let parameters = program.conditions.map { "\($0.swiftName.code): Swift.Bool = false" }
                if !parameters.isEmpty {
                    w.block("\(access)init(\(parameters.joined(separator: ", ")))") { w in
                        for condition in program.conditions {
                            w.line("self.\(condition.swiftName.code) = \(condition.swiftName.code)")
                        }
                    }
                }
                w.line("\(access)init() {}")
            }
            w.line(
                "\(access)static let names: [Swift.String] = ["
                    + program.conditions.map { Self.literal($0.name) }.joined(separator: ", ") + "]")
            w.block("\(access)subscript(condition index: Swift.Int) -> Swift.Bool") { w in
                w.block("get") { w in
                    w.switchBlock("switch index") { w in
                        for (index, condition) in program.conditions.enumerated() {
                            w.line("case \(index): self.\(condition.swiftName.code)")
                        }
                        statesRead.emitSubscriptCases(&w)
                        w.line("default: false")
                    }
                }
                w.block("set") { w in
                    w.switchBlock("switch index") { w in
                        for (index, condition) in program.conditions.enumerated() {
                            w.line("case \(index): self.\(condition.swiftName.code) = newValue")
                        }
                        w.line("default: break")
                    }
                }
            }
        }
    }

    /// The runtime's types under the names the machine's API uses, the machine's name and
    /// initial state, and its retry counters.
    private func emitRuntimeTypes(_ w: inout SwiftWriter) {
        w.line("\(access)typealias Machine = FlowSpecRuntime.FlowMachine<Self>")
        w.line("\(access)typealias Effects = FlowSpecRuntime.FlowEffects<Self>")
        w.line("\(access)typealias ArmedTimeout = FlowSpecRuntime.FlowArmedTimeout<State>")
        w.line("\(access)typealias Input = FlowSpecRuntime.FlowInput<Event>")
        w.line("\(access)typealias Kind = FlowSpecRuntime.FlowStateKind")
        w.line("\(access)static let name = \(Self.literal(program.name.name))")
        w.line("\(access)static let initial: State = \(state(program.initial))")
        if program.retrySlotCount > 0 {
            w.line("\(access)static let retrySlotCount = \(program.retrySlotCount)")
        }
    }

    private func emitQueries(_ w: inout SwiftWriter) {
        // The commonest kind is the `default`; the others are listed, a line per kind.
        let kinds = [StateKind.input, .task, .choice, .terminal]
        let counts = kinds.map { kind in program.states.filter { $0.kind == kind }.count }
        let commonest = kinds[counts.firstIndex(of: counts.max()!)!]
        w.block("\(access)static func kind(of state: State) -> Kind") { w in
            w.switchBlock("switch state") { w in
                for kind in kinds where kind != commonest {
                    let members = program.states.indices.filter { program.states[$0].kind == kind }
                    if !members.isEmpty {
                        w.line("case \(members.map(state).joined(separator: ", ")): .\(kind.rawValue)")
                    }
                }
                w.line("default: .\(commonest.rawValue)")
            }
        }
        let timed = program.states.indices.filter { program.states[$0].timeout != nil }
        guard !timed.isEmpty else { return }
        w.block("\(access)static func timeout(of state: State) -> (after: Swift.Duration, to: State)?") { w in
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
        w.block("\(access)enum StateSequence: Swift.String, \(Self.conformances)") { w in
            for line in Self.cases(program.sequences.map { ($0.swiftName, Self.literal($0.name)) }) { w.line(line) }
        }
        w.block("\(access)static func position(of state: State, in sequence: StateSequence) -> Swift.Int?") { w in
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
        w.block("\(access)static func length(of sequence: StateSequence) -> Swift.Int") { w in
            w.switchBlock("switch sequence") { w in
                for sequence in program.sequences {
                    w.line("case .\(sequence.swiftName.code): \(sequence.members.count)")
                }
            }
        }
    }

    /// What restoring needs beyond the runtime's defaults (a state by its raw value, landing on
    /// itself): the clamp of integers, the `resume` map, and names for integer states.
    private func emitPersistence(_ w: inout SwiftWriter) {
        guard let persist = program.persist else { return }
        emitRestoredState(persist, &w)
        if program.hasParallel {
            // By ordinal in the table form, whose compound states may have no named members.
            let regions = program.storedRegions.map {
                shape == .tables ? "Compound(ordinal: \($0))" : ".\(program.compounds[$0].swiftName.code)"
            }
            w.line("\(access)static let storedRegions: [Compound] = [\(regions.joined(separator: ", "))]")
        }
        if persist.rawValue == .int {
            if shape == .switches {
                w.block("\(access)static func name(ofState state: State) -> Swift.String") { w in
                    w.switchBlock("switch state") { w in
                        for (index, state) in program.states.enumerated() {
                            w.line("case \(self.state(index)): \(Self.literal(state.name))")
                        }
                    }
                }
            } else {
                w.line("\(access)static func name(ofState state: State) -> Swift.String { state.description }")
            }
        }
        let resume = persist.resume.sorted { $0.key < $1.key }
        guard !resume.isEmpty else { return }
        w.block("\(access)static func resumed(_ state: State) -> State") { w in
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

    /// `restoredState(from:)` where the runtime's default (the state of that raw value, or
    /// `initial`) is not enough: old values `migrate` maps, then the clamp of integers.
    private func emitRestoredState(_ persist: FlowProgram.Persistence, _ w: inout SwiftWriter) {
        let clamps = persist.rawValue == .int && persist.restore == .clamp
        guard clamps || !persist.migrate.isEmpty else { return }
        let type = persist.rawValue == .int ? "Swift.Int" : "Swift.String"
        w.block("\(access)static func restoredState(from rawValue: \(type)?) -> State") { w in
            w.line("guard let rawValue else { return initial }")
            if !persist.migrate.isEmpty {
                // Values an earlier version stored, before anything else: no state stores them now.
                let migrations = persist.migrate.sorted {
                    $0.key.description.utf8.lexicographicallyPrecedes($1.key.description.utf8)
                }
                w.switchBlock("switch rawValue") { w in
                    for (stored, target) in migrations {
                        let pattern =
                            switch stored {
                            case .int(let value): String(value)
                            case .string(let text): Self.stringLiteral(text)
                            }
                        w.line("case \(pattern): return \(state(target))")
                    }
                    w.line("default: break")
                }
            }
            if clamps {
                w.line("if let state = State(rawValue: rawValue) { return state }")
                w.line("return rawValue < 0 ? \(state(0)) : \(state(program.states.count - 1))")
            } else {
                w.line("return State(rawValue: rawValue) ?? initial")
            }
        }
    }

    /// A Swift string literal of any text: quotes, backslashes and control characters escaped.
    static func stringLiteral(_ text: String) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                literal += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: literal.unicodeScalars.append(scalar)
            }
        }
        return literal + "\""
    }

    /// `.seconds(2)` or `.milliseconds(250)`.
    static func durationLiteral(_ duration: Duration) -> String {
        let milliseconds = duration.wholeMilliseconds
        return milliseconds % 1_000 == 0 ? ".seconds(\(milliseconds / 1_000))" : ".milliseconds(\(milliseconds))"
    }
}
