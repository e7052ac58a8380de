import Testing

@testable import FlowSpecCore

/// The reference flows' written rules (`../shared/design/reference-flows.md`), checked on
/// `specs/app.yaml` by running it: not what the spec says about itself, but what a user meets.
@Suite("Reference flows' rules")
struct ReferenceFlowRulesTests {
    /// The launch and authentication flow, as generation and simulation run it (own and
    /// inherited transitions, timeouts, retries and their fallbacks resolved).
    let program: FlowProgram

    init() throws {
        let result = SpecChecker().check(try Fixtures.source("specs/app.yaml"))
        let graph = try #require(result.graphs.first { $0.machine.name.value == "LaunchAuth" })
        program = try #require(FlowProgramBuilder.build(graph))
    }

    private func state(_ name: String) throws -> Int {
        try #require(program.states.firstIndex { $0.name == name }, "no state '\(name)'")
    }

    /// "Every error has a visible UI and an action": every way into `error` that the machine
    /// can take (events, inherited transitions, timeouts, retries used up), from every
    /// reachable configuration, runs `showError`.
    @Test func everyEntryIntoTheErrorScreenShowsItsMessage() throws {
        let error = try state("error")
        let showError = try #require(program.effects.firstIndex { $0.name == "showError" })
        let graph = try ConfigurationGraph(program: program, bound: 10_000)
        var entries: Set<String> = []
        for (node, edges) in graph.edges.enumerated() {
            let from = program.states[graph.nodes[node].state].name
            for edge in edges where graph.nodes[edge.target].state == error && from != "error" {
                let entry = "\(from) on \(describe(edge.input))"
                entries.insert(entry)
                #expect(edge.effects.contains(showError), "\(entry) enters the error screen without showError")
            }
        }
        // Every way in the spec writes, so that the check above cannot pass on fewer.
        #expect(
            entries == [
                "splash on splashFailed", "onboardingCheck on onboardingCheckFailed", "onboarding on onboardingFailed",
                "authCheck on authCheckFailed", "authLoading on timeout", "authLoading on networkError",
                "authenticated on mainAppLoadFailed", "authenticated on timeout"
            ])
    }

    /// "At most 3 automatic retries before showing an error": the fourth network error in a
    /// row on the sign-in lands on `error` and shows it; the first three stay and show nothing.
    @Test func theFourthNetworkErrorShowsTheError() throws {
        let unauthenticated = try state("unauthenticated")
        let error = try state("error")
        let loginAttempted = try #require(program.events.firstIndex { $0.name == "loginAttempted" })
        let networkError = try #require(program.events.firstIndex { $0.name == "networkError" })
        let conditions = [Bool](repeating: false, count: program.conditions.count)
        var (runtime, _) = ProgramRun.start(program, conditions: conditions)
        for event in ["splashAnimationCompleted", "onboardingCheckSucceeded", "noSession"] {
            let index = try #require(program.events.firstIndex { $0.name == event })
            _ = runtime.send(index, program, conditions: conditions)
        }
        try #require(runtime.state == unauthenticated)
        _ = runtime.send(loginAttempted, program, conditions: conditions)
        for attempt in 1...3 {
            let effects = runtime.send(networkError, program, conditions: conditions)
            #expect(effects == [], "retry \(attempt) shows nothing")
            #expect(runtime.state != error, "retry \(attempt) stays")
        }
        let fallback = runtime.send(networkError, program, conditions: conditions)
        let effects = try #require(fallback)
        #expect(runtime.state == error)
        #expect(effects.map { program.effects[$0].name } == ["showError"])
    }

    private func describe(_ input: ConfigurationGraph.Input) -> String {
        switch input {
        case .event(let event): program.events[event].name
        case .timeout: "timeout"
        case .relaunch: "relaunch"
        case .conditionsChanged: "conditions changed"
        }
    }
}
