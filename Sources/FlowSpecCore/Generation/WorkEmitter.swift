/// Emits the work a machine's task states and activities need as a protocol with a requirement
/// per task state and per activity (`LaunchAuth.Work`), and the `FlowDriver` method that
/// registers a conformer's work for all of them at once. An app that conforms gets a compile
/// error for a task state or activity it gives no work, where the closure API (`work(in:_:)`,
/// `activity(_:_:)`, kept for gradual adoption) reports a missing registration only at run
/// time.
struct WorkEmitter {
    let program: FlowProgram
    let access: String
    /// How a state is written inside the driver extension: `.x`, or `Spec.State(ordinal: n)`
    /// in the table form (whose large types have no member names).
    let state: (Int) -> String

    /// The task states, in document order.
    var tasks: [Int] { program.states.indices.filter { program.states[$0].kind == .task } }

    /// Whether the machine needs work from the app.
    private var isEmpty: Bool { tasks.isEmpty && program.activities.isEmpty }

    /// The protocol, inside the machine's namespace; nothing for a machine without task states
    /// or activities.
    func emitProtocol(_ w: inout SwiftWriter) {
        guard !isEmpty else { return }
        w.line()
        w.doc(
            program.activities.isEmpty
                ? "The work of the task states, a requirement each: what the state does, ending with the event it sends. Give a conformer to `FlowDriver.work(_:)`, and a task state without work does not compile."
                : "The work of the task states and activities, a requirement each: what a task state does, ending with the event it sends; what an activity does while it runs, sending events. Give a conformer to `FlowDriver.work(_:)`, and a task state or activity without work does not compile."
        )
        w.block("\(access)protocol Work: Swift.Sendable") { w in
            for index in tasks {
                let state = program.states[index]
                w.doc("The work of `\(state.name)`" + (state.summary.map { ": \($0)" } ?? "."))
                w.line("func \(state.swiftName.code)() async -> Event")
            }
            for activity in program.activities {
                let sends = activity.sends.map { "`\(program.events[$0].name)`" }.joined(separator: ", ")
                w.doc(
                    "The activity `\(activity.name)`" + (activity.summary.map { ": \($0)" } ?? ".")
                        + " It may send \(sends), while a state that lists it is active, and is cancelled when that state is left."
                )
                w.line(
                    "func \(activity.swiftName.code)(_ send: @escaping @Sendable (Event) async -> Swift.Void) async")
            }
        }
        w.line()
    }

    /// The driver method, after the namespace (it names the machine).
    func emitRegistration(_ w: inout SwiftWriter) {
        guard !isEmpty else { return }
        let machine = program.name.swiftName.code
        w.line()
        w.line(SwiftGenerator.driverAvailability)
        w.block("extension FlowSpecRuntime.FlowDriver where Spec == \(machine)") { w in
            w.doc(
                program.activities.isEmpty
                    ? "Registers the work of every task state of \(program.name.name): `work`'s requirement of the state's name, started on entering the state and cancelled on leaving it."
                    : "Registers the work of every task state and activity of \(program.name.name): `work`'s requirement of its name, started on entering a state that needs it and cancelled on leaving that state."
            )
            w.block("\(access)func work(_ work: some \(machine).Work)") { w in
                for index in tasks {
                    w.line("self.work(in: \(state(index))) { await work.\(program.states[index].swiftName.code)() }")
                }
                for activity in program.activities {
                    let name = activity.swiftName.code
                    w.line("self.activity(.\(name)) { send in await work.\(name)(send) }")
                }
            }
        }
    }
}
