/// Emits the work a machine's task states need as a protocol with a requirement per task
/// state (`LaunchAuth.Work`), and the `FlowDriver` method that registers a conformer's work
/// for every task state at once. An app that conforms gets a compile error for a task state
/// it gives no work, where the closure API (`work(in:_:)`, kept for gradual adoption) reports a
/// missing registration only at run time.
struct WorkEmitter {
    let program: FlowProgram
    let access: String
    /// How a state is written inside the driver extension: `.x`, or `Spec.State(ordinal: n)`
    /// in the table form (whose large types have no member names).
    let state: (Int) -> String

    /// The task states, in document order.
    var tasks: [Int] { program.states.indices.filter { program.states[$0].kind == .task } }

    /// The protocol, inside the machine's namespace; nothing for a machine without task states.
    func emitProtocol(_ w: inout SwiftWriter) {
        guard !tasks.isEmpty else { return }
        w.line()
        w.doc(
            "The work of the task states, a requirement each: what the state does, ending with the event it sends. Give a conformer to `FlowDriver.work(_:)`, and a task state without work does not compile."
        )
        w.block("\(access)protocol Work: Swift.Sendable") { w in
            for index in tasks {
                let state = program.states[index]
                w.doc("The work of `\(state.name)`" + (state.summary.map { ": \($0)" } ?? "."))
                w.line("func \(state.swiftName.code)() async -> Event")
            }
        }
        w.line()
    }

    /// The driver method, after the namespace (it names the machine).
    func emitRegistration(_ w: inout SwiftWriter) {
        guard !tasks.isEmpty else { return }
        let machine = program.name.swiftName.code
        w.line()
        w.line(SwiftGenerator.driverAvailability)
        w.block("extension FlowSpecRuntime.FlowDriver where Spec == \(machine)") { w in
            w.doc(
                "Registers the work of every task state of \(program.name.name): `work`'s requirement of the state's name, started on entering the state and cancelled on leaving it."
            )
            w.block("\(access)func work(_ work: some \(machine).Work)") { w in
                for index in tasks {
                    w.line("self.work(in: \(state(index))) { await work.\(program.states[index].swiftName.code)() }")
                }
            }
        }
    }
}
