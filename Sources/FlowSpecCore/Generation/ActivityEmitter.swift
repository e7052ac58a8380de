/// Emits a machine's activities: the `Activity` type, which states and compound states list
/// each, and the events each sends. Nothing for a machine without activities, which keeps the
/// runtime's defaults (none).
struct ActivityEmitter {
    let program: FlowProgram
    let access: String
    /// Whether the machine is in the table form, whose large types have no member names: its
    /// states, compound states and events are then written by position.
    let tables: Bool

    func emit(_ w: inout SwiftWriter) {
        guard !program.activities.isEmpty else { return }
        w.block("\(access)enum Activity: Swift.String, \(MachineEmitter.conformances)") { w in
            var pending: [(swift: SwiftName, raw: String)] = []
            func flush(_ w: inout SwiftWriter) {
                for line in MachineEmitter.cases(pending) { w.line(line) }
                pending = []
            }
            for activity in program.activities {
                let name = (activity.swiftName, MachineEmitter.literal(activity.name))
                guard let summary = activity.summary else {
                    pending.append(name)
                    continue
                }
                flush(&w)
                w.doc(summary)
                for line in MachineEmitter.cases([name]) { w.line(line) }
            }
            flush(&w)
        }
        w.line("\(access)static let hasActivities = true")
        emitListing(
            of: program.states.indices.map { program.states[$0].activities }, parameter: "state", type: "State",
            function: "activities(of", item: state, &w)
        emitListing(
            of: program.compounds.map(\.activities), parameter: "compound", type: "Compound",
            function: "activities(ofCompound", item: compound, &w)
        w.block("\(access)static func sends(_ activity: Activity) -> [Event]") { w in
            w.switchBlock("switch activity") { w in
                for activity in program.activities {
                    w.line("case .\(activity.swiftName.code): [\(activity.sends.map(event).joined(separator: ", "))]")
                }
            }
        }
    }

    /// `static func activities(of state: State) -> [Activity]`, a case per state that lists any;
    /// nothing when none does (the runtime's default lists none).
    private func emitListing(
        of lists: [[Int]], parameter: String, type: String, function: String, item: (Int) -> String,
        _ w: inout SwiftWriter
    ) {
        let listing = lists.indices.filter { !lists[$0].isEmpty }
        guard !listing.isEmpty else { return }
        w.block("\(access)static func \(function) \(parameter): \(type)) -> [Activity]") { w in
            w.switchBlock(tables ? "switch \(parameter).ordinal" : "switch \(parameter)") { w in
                for index in listing {
                    let activities = lists[index].map { ".\(program.activities[$0].swiftName.code)" }
                    w.line("case \(item(index)): [\(activities.joined(separator: ", "))]")
                }
                if listing.count < lists.count || tables { w.line("default: []") }
            }
        }
    }

    private func state(_ index: Int) -> String {
        tables ? "\(index)" : "." + program.states[index].swiftName.code
    }

    private func compound(_ index: Int) -> String {
        tables ? "\(index)" : "." + program.compounds[index].swiftName.code
    }

    private func event(_ index: Int) -> String {
        tables ? "Event(ordinal: \(index))" : "." + program.events[index].swiftName.code
    }
}
