/// Emits what lets a machine's generated code reuse the generated types of the machines it
/// runs (its sub-flows), which its own `State`, `Event` and `Effect` hold as copies:
///
/// - `App.Event(_: LaunchAuth.Event)`, total (a machine has every event of the machines it
///   runs), and `LaunchAuth.Event(_: App.Event)` and `LaunchAuth.Effect(_: App.Effect)`, `nil`
///   for a name the machine run does not have: an app sends a sub-flow's events to the whole
///   flow, and hands the whole flow's effects to the sub-flow's handler;
/// - `App.State.launch`, the state of the sub-flow `launch` runs as that machine's own
///   `LaunchAuth.State` (`nil` outside `launch`), and `App.State(launch:)`, back: the views
///   written for the sub-flow show it inside the whole flow;
/// - the ownership ``WorkEmitter`` registers work by: each task state and activity belongs to
///   the innermost machine that has it, so that `FlowDriver.work(_:launch:)` takes the
///   sub-flow's own `LaunchAuth.Work` conformer.
///
/// The conversions switch over the named members of both types (the machine run has fewer
/// states and events than the machine running it, so it names them when that one does). A
/// machine too large to name its states or events (over ``TableEmitter/namedMemberLimit``)
/// reuses nothing: its `Work` then has a requirement for every task state, as a flat machine.
struct SubFlowEmitter {
    let program: FlowProgram
    let access: String
    let shape: CodeShape

    /// The compound states that run a machine, outermost first, when the machine's types can
    /// reuse theirs; none otherwise.
    let runs: [FlowProgram.Compound]
    /// Their positions in the program's compound states.
    let runCompounds: [Int]

    init(program: FlowProgram, access: String, shape: CodeShape) {
        self.program = program
        self.access = access
        self.shape = shape
        let limit = TableEmitter.namedMemberLimit
        let named =
            program.states.count + program.compounds.count <= limit && program.events.count <= limit
            && program.effects.count <= limit
        runCompounds = named ? program.compounds.indices.filter { program.compounds[$0].runs != nil } : []
        runs = runCompounds.map { program.compounds[$0] }
    }

    /// The position in ``runs`` of the innermost run that holds a state, or `nil` for a state
    /// of the machine's own.
    func owner(of state: Int) -> Int? {
        runs.indices.filter { runs[$0].states.contains(state) }.max { runs[$0].depth < runs[$1].depth }
    }

    /// The activities whose work the machine itself is given: those it declares, or all of them
    /// when it reuses no sub-flow's work.
    var ownActivities: Range<Int> {
        runs.isEmpty ? program.activities.indices : 0..<program.ownActivityCount
    }

    /// Per run, the activities its machine's work gives wherever no machine's own listing
    /// says otherwise (``WorkEmitter``): those it declares that no run before it, nor the
    /// machine itself, declares.
    var activitiesByRun: [[Int]] {
        var registered = Set(ownActivities)
        return runs.map { run in (run.runs?.activities ?? []).filter { registered.insert($0).inserted } }
    }

    /// The name a state has in the machine a run runs: its own, without the running state's.
    func nameInRun(_ state: FlowProgram.State, _ run: FlowProgram.Compound) -> SwiftName {
        let name = String(state.name.dropFirst(run.name.count + 1))
        guard case .success(let swiftName) = SwiftName.make(name, scope: .enumCase) else { return state.swiftName }
        return swiftName
    }

    // MARK: Conversions

    /// The conversions, after the machine's namespace.
    func emit(_ w: inout SwiftWriter) {
        guard !runs.isEmpty else { return }
        let machine = program.name.swiftName.code
        var seen = Set<String>()
        for run in runs {
            guard let ran = run.runs, seen.insert(ran.machine.name).inserted else { continue }
            if !ran.events.isEmpty { emitEvents(of: ran, machine, &w) }
            emitEffects(of: ran, machine, &w)
        }
        w.line()
        w.block("extension \(machine).State") { w in
            for (index, run) in runs.enumerated() {
                if index > 0 { w.line() }
                emitStates(of: run, machine, &w)
            }
        }
    }

    private func emitEvents(of ran: FlowProgram.Run, _ machine: String, _ w: inout SwiftWriter) {
        let child = ran.machine.swiftName.code
        let names = ran.events.map { program.events[$0].swiftName.code }
        w.line()
        w.block("extension \(machine).Event") { w in
            w.doc(
                "A `\(ran.machine.name)` event as the same \(program.name.name) event: a machine has every event of the machines it runs."
            )
            w.block("\(access)init(_ event: \(child).Event)") { w in
                w.switchBlock("switch event") { w in
                    for name in names.dropLast() { w.line("case .\(name): self = .\(name)") }
                    if let last = names.last {
                        w.line("default: self = .\(last)  // the last of \(ran.machine.name)'s events")
                    }
                }
            }
        }
        w.line()
        w.block("extension \(child).Event") { w in
            w.doc(
                "A \(program.name.name) event as the same `\(ran.machine.name)` event: `nil` for one `\(ran.machine.name)` does not have."
            )
            emitFailable(parameter: "event", of: "\(machine).Event", names, all: program.events.count, &w)
        }
    }

    private func emitEffects(of ran: FlowProgram.Run, _ machine: String, _ w: inout SwiftWriter) {
        guard !ran.effects.isEmpty else { return }
        let names = ran.effects.map { program.effects[$0].swiftName.code }
        w.line()
        w.block("extension \(ran.machine.swiftName.code).Effect") { w in
            w.doc(
                "A \(program.name.name) effect as the same `\(ran.machine.name)` effect, for a handler written for `\(ran.machine.name)`: `nil` for one it does not have."
            )
            emitFailable(parameter: "effect", of: "\(machine).Effect", names, all: program.effects.count, &w)
        }
    }

    /// `init?(_ x: Parent.X)`: the names both have, and `nil` for the rest.
    private func emitFailable(
        parameter: String, of type: String, _ names: [String], all: Int, _ w: inout SwiftWriter
    ) {
        w.block("\(access)init?(_ \(parameter): \(type))") { w in
            w.switchBlock("switch \(parameter)") { w in
                for name in names { w.line("case .\(name): self = .\(name)") }
                // An enum whose every case is listed takes no `default` (the compiler warns).
                if shape == .tables || names.count < all { w.line("default: return nil") }
            }
        }
    }

    private func emitStates(of run: FlowProgram.Compound, _ machine: String, _ w: inout SwiftWriter) {
        guard let ran = run.runs else { return }
        let child = ran.machine.swiftName.code
        let name = run.swiftName.code
        let inside = run.states.map {
            (mine: program.states[$0].swiftName.code, theirs: nameInRun(program.states[$0], run))
        }
        w.doc(
            "Where `\(run.name)` is in the `\(ran.machine.name)` it runs, as that machine's state: `nil` when the flow is not in `\(run.name)`."
        )
        w.block("\(access)var \(name): \(child).State?") { w in
            w.switchBlock("switch self") { w in
                for state in inside { w.line("case .\(state.mine): .\(state.theirs.code)") }
                if shape == .tables || inside.count < program.states.count { w.line("default: nil") }
            }
        }
        w.line()
        w.doc("The state inside `\(run.name)` that is this `\(ran.machine.name)` state.")
        w.block("\(access)init(\(name) state: \(child).State)") { w in
            w.switchBlock("switch state") { w in
                // The last state as `default`: the other machine's form (enum or table) decides
                // whether a `default` is needed, and this way one always is, and never unused.
                for state in inside.dropLast() { w.line("case .\(state.theirs.code): self = .\(state.mine)") }
                if let last = inside.last {
                    w.line(
                        "default: self = .\(last.mine)  // .\(last.theirs.code), the last of \(ran.machine.name)'s states"
                    )
                }
            }
        }
    }
}
