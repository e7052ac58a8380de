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
    /// The machines it runs, whose own `Work` gives their task states' and activities' work.
    let subFlows: SubFlowEmitter

    /// How a compound state is written inside the driver extension (see ``state``).
    let compound: (Int) -> String

    /// The task states, in document order, each with the run that owns it (`nil`: the
    /// machine's own).
    private var tasks: [(state: Int, owner: Int?)] {
        program.states.indices.filter { program.states[$0].kind == .task }.map { ($0, subFlows.owner(of: $0)) }
    }

    /// The task states whose work the machine's own `Work` gives.
    private var ownTasks: [Int] { tasks.filter { $0.owner == nil }.map(\.state) }

    /// The activities whose work the machine's own `Work` gives.
    private var ownActivities: [FlowProgram.Activity] { subFlows.ownActivities.map { program.activities[$0] } }

    /// The protocol, inside the machine's namespace; nothing for a machine without task states
    /// or activities of its own.
    func emitProtocol(_ w: inout SwiftWriter) {
        guard !ownTasks.isEmpty || !ownActivities.isEmpty else { return }
        let what =
            ownActivities.isEmpty
            ? "The work of the task states, a requirement each: what the state does, ending with the event it sends."
            : "The work of the task states and activities, a requirement each: what a task state does, ending with the event it sends; what an activity does while it runs, sending events."
        let registration =
            hasRunsWithWork
            ? " The machines it runs have their own `Work`: give a conformer to `FlowDriver.work`, with one of each, and a task state or activity without work does not compile."
            : ownActivities.isEmpty
                ? " Give a conformer to `FlowDriver.work(_:)`, and a task state without work does not compile."
                : " Give a conformer to `FlowDriver.work(_:)`, and a task state or activity without work does not compile."
        w.line()
        w.doc(what + registration)
        w.block("\(access)protocol Work: Swift.Sendable") { w in
            for index in ownTasks {
                let state = program.states[index]
                w.doc("The work of `\(state.name)`" + (state.summary.map { ": \($0)" } ?? "."))
                w.line("func \(state.swiftName.code)() async -> Event")
            }
            for activity in ownActivities {
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

    private var hasRunsWithWork: Bool { parameters.contains { $0.run != nil } }

    /// One parameter of the driver method: a conformer to a machine's `Work`.
    private struct Parameter {
        /// `_ work` for the machine's own, `launch work1` for a run's.
        var declaration: String
        var name: String
        var type: String
        /// The run it gives the work of, by position in ``SubFlowEmitter/runs``.
        var run: Int?
    }

    /// The machine's own `Work` (if it has one), then each run's whose machine has work.
    private var parameters: [Parameter] {
        let machine = program.name.swiftName.code
        var parameters: [Parameter] = []
        if !ownTasks.isEmpty || !ownActivities.isEmpty {
            parameters.append(Parameter(declaration: "_ work", name: "work", type: machine, run: nil))
        }
        let tasks = tasks
        let activities = subFlows.activitiesByRun
        for (index, run) in subFlows.runs.enumerated() {
            guard let ran = run.runs, !activities[index].isEmpty || tasks.contains(where: { $0.owner == index })
            else { continue }
            let name = "work\(parameters.count { $0.run != nil } + 1)"
            parameters.append(
                Parameter(
                    declaration: "\(run.swiftName.code) \(name)", name: name, type: ran.machine.swiftName.code,
                    run: index))
        }
        return parameters
    }

    /// The driver method, after the namespace (it names the machine).
    func emitRegistration(_ w: inout SwiftWriter) {
        let parameters = parameters
        guard !parameters.isEmpty else { return }
        let machine = program.name.swiftName.code
        let signature = parameters.map { "\($0.declaration): some \($0.type).Work" }.joined(separator: ", ")
        w.line()
        w.line(SwiftGenerator.driverAvailability)
        w.block("extension FlowSpecRuntime.FlowDriver where Spec == \(machine)") { w in
            w.doc(registrationDoc(parameters))
            w.block("\(access)func work(\(signature))") { w in
                for parameter in parameters { emitRegistrations(of: parameter, &w) }
            }
        }
    }

    private func registrationDoc(_ parameters: [Parameter]) -> String {
        let runs = parameters.compactMap { parameter in
            parameter.run.map { "`\(subFlows.runs[$0].name)`'s from a `\(parameter.type).Work`" }
        }
        guard !runs.isEmpty else {
            return program.activities.isEmpty
                ? "Registers the work of every task state of \(program.name.name): `work`'s requirement of the state's name, started on entering the state and cancelled on leaving it."
                : "Registers the work of every task state and activity of \(program.name.name): `work`'s requirement of its name, started on entering a state that needs it and cancelled on leaving that state."
        }
        let what = program.activities.isEmpty ? "task state" : "task state and activity"
        let own = parameters.first?.run == nil ? "its own from `work`, and " : ""
        return
            "Registers the work of every \(what) of \(program.name.name), each started on entering a state that needs it and cancelled on leaving that state: \(own)that of each machine it runs from a conformer to that machine's own `Work`, its events sent as \(program.name.name)'s: "
            + runs.joined(separator: ", ") + "."
    }

    private func emitRegistrations(of parameter: Parameter, _ w: inout SwiftWriter) {
        let work = parameter.name
        guard let index = parameter.run else {
            for task in ownTasks {
                w.line("self.work(in: \(state(task))) { await \(work).\(program.states[task].swiftName.code)() }")
            }
            for activity in ownActivities {
                let name = activity.swiftName.code
                w.line("self.activity(.\(name)) { send in await \(work).\(name)(send) }")
            }
            return
        }
        let run = subFlows.runs[index]
        let event = "Spec.Event"
        for task in tasks where task.owner == index {
            let requirement = subFlows.nameInRun(program.states[task.state], run).code
            w.line("self.work(in: \(state(task.state))) { await \(event)(\(work).\(requirement)()) }")
        }
        let fallback = Set(subFlows.activitiesByRun[index])
        for activity in run.runs?.activities ?? [] {
            let name = program.activities[activity].swiftName.code
            let body = "{ send in await \(work).\(name) { event in await send(\(event)(event)) } }"
            // Where the machine run lists it, its own work; elsewhere, if no one else's, too.
            w.line("self.activity(.\(name), in: \(compound(subFlows.runCompounds[index]))) \(body)")
            if fallback.contains(activity) { w.line("self.activity(.\(name)) \(body)") }
        }
    }
}
