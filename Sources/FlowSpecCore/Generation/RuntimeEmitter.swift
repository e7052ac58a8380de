/// Emits `Effects`, `Machine` (the value an app keeps for a running flow) and the pure
/// `reduce`: the same semantics as ``FlowRuntime``.
///
/// Dispatch allocates nothing and touches no reference count on the way: `send` returns
/// ``Effects``, a small value naming a run of the machine's effect list (an array only when one
/// input runs the effects of several transitions, through choice states), and in the table form
/// the machine holds the decoded table itself, so a step reads it without the lazy-global check
/// of a `static let` (see ``TableEmitter``).
struct RuntimeEmitter {
    let program: FlowProgram
    let access: String
    /// The table form's emitter, for a machine in that form; `nil` in the switch form.
    let tables: TableEmitter?

    var shape: CodeShape { tables == nil ? .switches : .tables }

    /// Whether the machine has retry counters (the code for them is left out otherwise).
    var hasRetries: Bool { program.retrySlotCount > 0 }

    func emit(into w: inout SwiftWriter) {
        emitSupportTypes(&w)
        emitEffects(&w)
        w.line()
        w.doc(
            """
            A running \(program.name.name) flow: the current state, the visit counter that tells \
            timeouts of different visits apart, and the retry counters. A plain value: copy it, \
            compare it, keep it in your model.
            """)
        w.block("\(access)struct Machine: Swift.Sendable, Swift.Hashable") { w in
            emitStorage(&w)
            emitStart(&w)
            emitInputs(&w)
            if let tables {
                tables.emitStepping(&w)
            } else {
                emitStepping(&w)
            }
        }
        emitReduce(&w)
    }

    private func emitSupportTypes(_ w: inout SwiftWriter) {
        w.line()
        w.doc("A timeout armed for one visit of a state: fire it with `Machine.fireTimeout(visit:)` after `after`.")
        w.block("\(access)struct ArmedTimeout: Swift.Sendable, Swift.Hashable") { w in
            w.doc("How long after entering the state it fires.")
            w.line("\(access)let after: Swift.Duration")
            w.doc("Where it leads.")
            w.line("\(access)let target: State")
            w.doc("The visit it belongs to; firing it for any other visit does nothing.")
            w.line("\(access)let visit: Swift.Int")
        }
        w.line()
        w.doc("What can happen to a machine: an event, or the timeout of a visit.")
        w.block("\(access)enum Input: Swift.Sendable, Swift.Hashable") { w in
            if !program.events.isEmpty { w.line("case event(Event)") }
            w.line("case timeout(visit: Swift.Int)")
        }
    }

    // MARK: Effects

    static let effectsConformances =
        "Swift.RandomAccessCollection, Swift.Sendable, Swift.Hashable, "
        + "Swift.ExpressibleByArrayLiteral, Swift.CustomStringConvertible"

    /// `Effects`: what `send`, `fireTimeout`, `start`, `restore` and `reduce` return.
    private func emitEffects(_ w: inout SwiftWriter) {
        w.line()
        guard !program.effects.isEmpty else {
            w.doc(
                "The effects an input ran: always none (\(program.name.name) has no effects). A collection, like the other machines' `Effects`."
            )
            w.block("\(access)struct Effects: \(Self.effectsConformances)") { w in
                w.line("\(access)init() {}")
                w.line()
                w.line("\(access)init(arrayLiteral elements: Effect...) {}")
                w.line()
                w.line("\(access)var startIndex: Swift.Int { 0 }")
                w.line()
                w.line("\(access)var endIndex: Swift.Int { 0 }")
                w.line()
                w.line(
                    "\(access)subscript(position: Swift.Int) -> Effect { Swift.preconditionFailure(\"Index out of range\") }"
                )
                w.line()
                w.line("\(access)var description: Swift.String { \"[]\" }")
            }
            return
        }
        let element =
            shape == .tables
            ? "Effect(ordinal: Swift.Int(sharedTable[listsStart + Swift.Int(runStart) + position]))"
            : "effectList[Swift.Int(runStart) + position]"
        let listed =
            shape == .tables
            ? "Effect(ordinal: Swift.Int(sharedTable[listsStart + index]))"
            : "effectList[index]"
        w.doc(
            """
            The effects an input ran, in order: a collection of `Effect` (compare it with an array \
            literal, iterate it, or make an `Array` of it). The effects of one transition are a run \
            of the machine's effect list, so sending an event allocates nothing; only an input that \
            runs the effects of several transitions (through choice states) keeps them in an array.
            """)
        w.block("\(access)struct Effects: \(Self.effectsConformances)") { w in
            w.doc("The run of the effect list, when `spilled` is `nil`.")
            w.line("private var runStart: Swift.Int32 = 0")
            w.line("private var runCount: Swift.Int32 = 0")
            w.doc("The effects, when they are not one run.")
            w.line("private var spilled: [Effect]? = nil")
            w.line()
            w.line("\(access)init() {}")
            w.line()
            w.block("\(access)init(arrayLiteral elements: Effect...)") { w in
                w.line("if !elements.isEmpty { spilled = elements }")
            }
            w.line()
            w.line("\(access)var startIndex: Swift.Int { 0 }")
            w.line()
            w.line("\(access)var endIndex: Swift.Int { spilled?.count ?? Swift.Int(runCount) }")
            w.line()
            w.block("\(access)subscript(position: Swift.Int) -> Effect") { w in
                w.line("if let spilled { return spilled[position] }")
                w.line("Swift.precondition(position >= 0 && position < Swift.Int(runCount), \"Index out of range\")")
                w.line("return \(element)")
            }
            w.line()
            w.doc("Appends the run of `count` effects from `start` in the effect list (one transition's effects).")
            w.block("fileprivate mutating func append(_ start: Swift.Int, _ count: Swift.Int)") { w in
                w.line("guard count > 0 else { return }")
                w.block("if spilled == nil, runCount == 0") { w in
                    w.line("runStart = Swift.Int32(start)")
                    w.line("runCount = Swift.Int32(count)")
                    w.line("return")
                }
                w.line("var all = Swift.Array(self)")
                w.line("for index in start..<(start + count) { all.append(\(listed)) }")
                w.line("spilled = all")
            }
            w.line()
            w.doc("Equal when they hold the same effects in the same order, however they are stored.")
            w.line("\(access)static func == (lhs: Self, rhs: Self) -> Swift.Bool { lhs.elementsEqual(rhs) }")
            w.line()
            w.block("\(access)func hash(into hasher: inout Swift.Hasher)") { w in
                w.line("hasher.combine(count)")
                w.line("for effect in self { hasher.combine(effect) }")
            }
            w.line()
            w.line("\(access)var description: Swift.String { Swift.Array(self).description }")
        }
    }

    // MARK: Machine

    private func emitStorage(_ w: inout SwiftWriter) {
        w.doc("The current state (never a choice state: those are left at once).")
        w.line("\(access)private(set) var state: State")
        w.doc("How many times a state has been entered; identifies the current visit.")
        w.line("\(access)private(set) var visit: Swift.Int")
        if hasRetries {
            w.line("private var retries: [Swift.Int]")
        }
        if shape == .tables {
            w.doc("`sharedTable`, held here so that a step reads it without the lazy-global check of a `static let`.")
            w.line("private let table: [Swift.Int32]")
        }
        w.line()
        w.block("private init(state: State)") { w in
            w.line("self.state = state")
            w.line("self.visit = 0")
            if hasRetries {
                w.line("self.retries = [Swift.Int](repeating: 0, count: \(program.retrySlotCount))")
            }
            if shape == .tables {
                w.line("self.table = sharedTable")
            }
        }
        guard shape == .tables else { return }
        // The table is the same in every machine: equality and hashing leave it out.
        let compared = ["state", "visit"] + (hasRetries ? ["retries"] : [])
        w.line()
        w.line(
            "\(access)static func == (lhs: Self, rhs: Self) -> Swift.Bool { "
                + compared.map { "lhs.\($0) == rhs.\($0)" }.joined(separator: " && ") + " }")
        w.line()
        w.block("\(access)func hash(into hasher: inout Swift.Hasher)") { w in
            for name in compared { w.line("hasher.combine(\(name))") }
        }
    }

    private func emitStart(_ w: inout SwiftWriter) {
        w.line()
        w.doc("Starts the flow at `initial`, taking `always` branches at once; returns the effects they ran.")
        w.block(
            "\(access)static func start(conditions: Conditions = Conditions()) -> (machine: Machine, effects: Effects)"
        ) { w in
            w.line("var machine = Machine(state: initial)")
            w.line("var effects = Effects()")
            w.line("machine.settle(conditions, &effects)")
            w.line("return (machine, effects)")
        }
        guard let persist = program.persist else { return }
        let rawType = persist.rawValue == .int ? "Swift.Int" : "Swift.String"
        w.line()
        w.doc("Restores the flow from a stored raw value (see `restoredState(from:)` and `resumed(_:)`); never traps.")
        w.block(
            "\(access)static func restore(from rawValue: \(rawType)?, conditions: Conditions = Conditions()) -> (machine: Machine, effects: Effects)"
        ) { w in
            w.line("var machine = Machine(state: resumed(restoredState(from: rawValue)))")
            w.line("var effects = Effects()")
            w.line("machine.settle(conditions, &effects)")
            w.line("return (machine, effects)")
        }
    }

    private func emitInputs(_ w: inout SwiftWriter) {
        w.line()
        w.doc("The timeout armed for the current visit, if the state has one.")
        w.block("\(access)var armedTimeout: ArmedTimeout?") { w in
            w.line("guard let timeout = timeout(of: state) else { return nil }")
            w.line("return ArmedTimeout(after: timeout.after, target: timeout.to, visit: visit)")
        }
        if let tables {
            tables.emitInputs(&w)
            return
        }
        if !program.events.isEmpty {
            w.line()
            w.doc(Self.sendDoc)
            w.line("@discardableResult @inline(__always)")
            w.block("\(access)mutating func send(_ event: Event, conditions: Conditions = Conditions()) -> Effects") {
                w in
                w.line("var effects = Effects()")
                w.line("if let step = step(state, on: event, conditions) { take(step, conditions, &effects) }")
                w.line("return effects")
            }
        }
        w.line()
        w.doc(Self.fireTimeoutDoc)
        w.line("@discardableResult")
        w.block(
            "\(access)mutating func fireTimeout(visit: Swift.Int, conditions: Conditions = Conditions()) -> Effects"
        ) { w in
            w.line("var effects = Effects()")
            w.line("if visit == self.visit, let step = timeoutStep(state) { take(step, conditions, &effects) }")
            w.line("return effects")
        }
    }

    /// Counts one more use of a retry `slot`, or, once `max` uses are spent, sends `target` to
    /// the `fallback` instead (the same in both code forms; the arguments are Swift expressions).
    static func emitRetryCount(slot: String, max: String, fallback: String, _ w: inout SwiftWriter) {
        w.line("if retries[\(slot)] < \(max) {")
        w.line("    retries[\(slot)] += 1")
        w.line("} else {")
        w.line("    target = \(fallback)")
        w.line("}")
    }

    static let sendDoc =
        "Sends an event; returns the effects to carry out, in order. An event the state does not handle changes nothing."
    static let fireTimeoutDoc = "Fires the timeout armed for `visit`; a timeout of an earlier visit changes nothing."

    /// `take`, `enter` and `settle` of the switch form.
    private func emitStepping(_ w: inout SwiftWriter) {
        w.line()
        w.block("private mutating func take(_ first: Step, _ conditions: Conditions, _ effects: inout Effects)") { w in
            w.line("var next: Step? = first")
            w.block("while let step = next") { w in
                if !program.effects.isEmpty {
                    w.line("effects.append(step.effects.lowerBound, step.effects.count)")
                }
                if hasRetries {
                    w.line("var target = step.target")
                    w.block("if let retry = step.retry") { w in
                        Self.emitRetryCount(slot: "retry.slot", max: "retry.max", fallback: "retry.fallback", &w)
                    }
                    w.line("state = target")
                } else {
                    w.line("state = step.target")
                }
                w.line("visit += 1")
                w.line("next = enter(conditions)")
            }
        }
        w.line()
        w.doc("Entering a state: input and terminal states reset the retry counters; a choice state is left at once.")
        w.block("private mutating func enter(_ conditions: Conditions) -> Step?") { w in
            w.switchBlock("switch kind(of: state)") { w in
                w.line("case .input, .terminal:")
                if hasRetries {
                    w.line("    for slot in retries.indices where retries[slot] != 0 { retries[slot] = 0 }")
                }
                w.line("    return nil")
                w.line("case .choice:")
                w.line("    return always(state, conditions)")
                w.line("case .task:")
                w.line("    return nil")
            }
        }
        w.line()
        w.block("private mutating func settle(_ conditions: Conditions, _ effects: inout Effects)") { w in
            w.line("if let branch = enter(conditions) { take(branch, conditions, &effects) }")
        }
    }

    private func emitReduce(_ w: inout SwiftWriter) {
        w.line()
        w.doc("The pure reducer: the machine after `input` under `conditions`, and the effects to carry out, in order.")
        w.block(
            "\(access)static func reduce(_ machine: Machine, _ input: Input, conditions: Conditions = Conditions()) -> (machine: Machine, effects: Effects)"
        ) { w in
            w.line("var next = machine")
            w.switchBlock("switch input") { w in
                if !program.events.isEmpty {
                    w.line("case .event(let event):")
                    w.line("    let effects = next.send(event, conditions: conditions)")
                    w.line("    return (next, effects)")
                }
                w.line("case .timeout(let visit):")
                w.line("    let effects = next.fireTimeout(visit: visit, conditions: conditions)")
                w.line("    return (next, effects)")
            }
        }
    }
}
