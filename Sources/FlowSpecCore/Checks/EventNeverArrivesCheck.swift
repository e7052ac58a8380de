/// `event-never-arrives`: a state handles an event that only activities send, and none of those
/// activities ever runs while the state is active. An activity runs while a state that lists
/// it, or a state inside that one, is active, so the event arrives in a state when a state
/// that runs a sender is the state itself, a state around it, a state inside it, or a state of
/// another region of a parallel state around both. Elsewhere the transition is never taken.
///
/// A machine-wide transition is reported only when no state runs a sender at all: the states
/// that inherit it include those where one runs. A state with a finding inside it is not judged,
/// and while a state runs an activity the machine does not declare (`undeclared-name`), the
/// rule waits: that activity may be the sender meant.
struct EventNeverArrivesCheck: MachineCheck {
    static let definition = RuleDefinition(
        rule: .eventNeverArrives, defaultSeverity: .warning,
        summary: "A state handles an event only activities send, and none of them runs while it is active.",
        reportedAt: "the event of the transition",
        finding:
            "a transition on an event that only activities `send`, in a state where none of them ever runs: not the state, a state around it or inside it, nor a state of another region of a parallel state around it"
    )

    func check(_ analysis: MachineAnalysis, _ reporter: RuleReporter) {
        let machine = analysis.machine
        guard let activities = machine.activities, !activities.isEmpty,
            analysis.nameUses.activities.undeclared.isEmpty
        else { return }
        var senders: [String: [Int]] = [:]
        for (index, activity) in activities.enumerated() {
            for event in activity.sends { senders[event.value, default: []].append(index) }
        }
        let runners = Self.runners(of: activities, in: machine)
        for transition in machine.machineWide {
            let event = machine.names.text(transition.event)
            guard let sending = senders[event.value], sending.allSatisfy({ runners[$0].isEmpty }) else { continue }
            reporter.report(
                "the machine's `on` handles '\(event.value)', which only \(Self.list(sending, activities)) \(sending.count == 1 ? "sends" : "send"), and no state runs \(sending.count == 1 ? "it" : "any of them")",
                at: event.location, subjects: [event.value],
                notes: [.init(Self.advice(sending, activities, state: nil))])
        }
        for state in machine.states.indices where !machine.states[state].isMalformed {
            for transition in machine.transitions(of: state) {
                let event = machine.names.text(transition.event)
                guard let sending = senders[event.value],
                    !sending.contains(where: { runners[$0].contains { Self.coActive(state, $0, machine.nesting) } })
                else { continue }
                let name = machine.name(of: state)
                reporter.report(
                    "state '\(name)' handles '\(event.value)', which only \(Self.list(sending, activities)) \(sending.count == 1 ? "sends" : "send"), but \(sending.count == 1 ? "it never runs" : "none of them ever runs") while '\(name)' is active",
                    at: event.location, subjects: [name, event.value],
                    notes: [.init(Self.advice(sending, activities, state: name))])
            }
        }
    }

    /// Per activity, the states that list it, in document order.
    private static func runners(of activities: [Activity], in machine: MachineSpec) -> [[Int]] {
        var position: [String: Int] = [:]
        for (index, activity) in activities.enumerated() { position[activity.name.value] = index }
        var runners = [[Int]](repeating: [], count: activities.count)
        for (state, details) in machine.nesting.details.sorted(by: { $0.key < $1.key }) {
            for activity in details.activities {
                if let index = position[activity.value] { runners[index].append(state) }
            }
        }
        return runners
    }

    /// Whether two states can be active at once: one holds the other, or the innermost state
    /// around both is a parallel state (they are in two of its regions).
    static func coActive(_ state: Int, _ other: Int, _ nesting: Nesting) -> Bool {
        if nesting.isWithin(state, other) || nesting.isWithin(other, state) { return true }
        let around = Set(nesting.ancestors(of: state))
        guard let shared = nesting.ancestors(of: other).first(where: around.contains) else { return false }
        return nesting.isParallel(shared)
    }

    private static func list(_ sending: [Int], _ activities: [Activity]) -> String {
        (sending.count == 1 ? "activity " : "activities ")
            + sending.map { "'\(activities[$0].name.value)'" }.joined(separator: ", ")
    }

    private static func advice(_ sending: [Int], _ activities: [Activity], state: String?) -> String {
        let names = sending.map { "`\(activities[$0].name.value)`" }.joined(separator: " or ")
        guard let state else { return "list \(names) in the `activities` of a state, or remove the transition" }
        return
            "list \(names) in the `activities` of '\(state)', of a state around it or of a state inside it; or remove the transition"
    }
}
