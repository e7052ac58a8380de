/// Emits `Machine`, the value an app keeps for a running flow, and the pure `reduce`: the
/// same semantics as ``FlowRuntime``.
struct RuntimeEmitter {
    let program: FlowProgram
    let access: String

    func emit(into w: inout SwiftWriter) {
        emitSupportTypes(&w)
        w.line()
        w.doc("""
            A running \(program.name.name) flow: the current state, the visit counter that tells \
            timeouts of different visits apart, and the retry counters. A plain value: copy it, \
            compare it, keep it in your model.
            """)
        w.block("\(access)struct Machine: Swift.Sendable, Swift.Hashable") { w in
            emitStorage(&w)
            emitStart(&w)
            emitInputs(&w)
            emitStepping(&w)
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

    private func emitStorage(_ w: inout SwiftWriter) {
        w.doc("The current state (never a choice state: those are left at once).")
        w.line("\(access)private(set) var state: State")
        w.doc("How many times a state has been entered; identifies the current visit.")
        w.line("\(access)private(set) var visit: Swift.Int")
        w.line("private var retries: [Swift.Int]")
        w.line()
        w.block("private init(state: State)") { w in
            w.line("self.state = state")
            w.line("self.visit = 0")
            w.line("self.retries = [Swift.Int](repeating: 0, count: \(program.retrySlotCount))")
        }
    }

    private func emitStart(_ w: inout SwiftWriter) {
        w.line()
        w.doc("Starts the flow at `initial`, taking `always` branches at once; returns the effects they ran.")
        w.block("\(access)static func start(conditions: Conditions = Conditions()) -> (machine: Machine, effects: [Effect])") { w in
            w.line("var machine = Machine(state: initial)")
            w.line("var effects: [Effect] = []")
            w.line("machine.settle(conditions, &effects)")
            w.line("return (machine, effects)")
        }
        guard let persist = program.persist else { return }
        let rawType = persist.rawValue == .int ? "Swift.Int" : "Swift.String"
        w.line()
        w.doc("Restores the flow from a stored raw value (see `restoredState(from:)` and `resumed(_:)`); never traps.")
        w.block("\(access)static func restore(from rawValue: \(rawType)?, conditions: Conditions = Conditions()) -> (machine: Machine, effects: [Effect])") { w in
            w.line("var machine = Machine(state: resumed(restoredState(from: rawValue)))")
            w.line("var effects: [Effect] = []")
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
        emitSend(&w)
        w.line()
        w.doc("Fires the timeout armed for `visit`; a timeout of an earlier visit changes nothing.")
        w.line("@discardableResult")
        w.block("\(access)mutating func fireTimeout(visit: Swift.Int, conditions: Conditions = Conditions()) -> [Effect]") { w in
            w.line("guard visit == self.visit, let step = timeoutStep(state) else { return [] }")
            w.line("var effects: [Effect] = []")
            w.line("take(step, conditions, &effects)")
            w.line("return effects")
        }
    }

    private func emitSend(_ w: inout SwiftWriter) {
        guard !program.events.isEmpty else { return }
        w.line()
        w.doc("Sends an event; returns the effects to carry out, in order. An event the state does not handle changes nothing.")
        w.line("@discardableResult")
        w.block("\(access)mutating func send(_ event: Event, conditions: Conditions = Conditions()) -> [Effect]") { w in
            w.line("guard let step = step(state, on: event, conditions) else { return [] }")
            w.line("var effects: [Effect] = []")
            w.line("take(step, conditions, &effects)")
            w.line("return effects")
        }
    }

    private func emitStepping(_ w: inout SwiftWriter) {
        w.line()
        w.block("private mutating func take(_ first: Step, _ conditions: Conditions, _ effects: inout [Effect])") { w in
            w.line("var next: Step? = first")
            w.block("while let step = next") { w in
                w.line("effects += step.effects")
                w.line("var target = step.target")
                w.block("if let retry = step.retry") { w in
                    w.line("if retries[retry.slot] < retry.max {")
                    w.line("    retries[retry.slot] += 1")
                    w.line("} else {")
                    w.line("    target = retry.fallback")
                    w.line("}")
                }
                w.line("state = target")
                w.line("visit += 1")
                w.line("next = enter(conditions)")
            }
        }
        w.line()
        w.doc("Entering a state: input and terminal states reset the retry counters; a choice state is left at once.")
        w.block("private mutating func enter(_ conditions: Conditions) -> Step?") { w in
            w.switchBlock("switch kind(of: state)") { w in
                w.line("case .input, .terminal:")
                w.line("    for slot in retries.indices { retries[slot] = 0 }")
                w.line("    return nil")
                w.line("case .choice:")
                w.line("    return always(state, conditions)")
                w.line("case .task:")
                w.line("    return nil")
            }
        }
        w.line()
        w.block("private mutating func settle(_ conditions: Conditions, _ effects: inout [Effect])") { w in
            w.line("if let branch = enter(conditions) { take(branch, conditions, &effects) }")
        }
    }

    private func emitReduce(_ w: inout SwiftWriter) {
        w.line()
        w.doc("The pure reducer: the machine after `input` under `conditions`, and the effects to carry out, in order.")
        w.block("\(access)static func reduce(_ machine: Machine, _ input: Input, conditions: Conditions = Conditions()) -> (machine: Machine, effects: [Effect])") { w in
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
