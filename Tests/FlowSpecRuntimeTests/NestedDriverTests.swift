import FlowSpecRuntime
import FlowSpecTesting
import Testing

/// `FlowDriver` on machines with compound states (`Tests/Fixtures/gen/golden/nested.yaml`), on
/// the test clock: one timer per armed timeout, a compound state's kept while the flow moves
/// inside it and cancelled when it leaves, entry and exit effects in order, `done`, and the
/// first armed of two timers due at once firing first.
@MainActor
@Suite("Driver on compound states")
struct NestedDriverTests {
    let clock = FlowTestClock()

    func driver<Spec: FlowSpec>(_ spec: Spec.Type, effects: @escaping @MainActor (Spec.Effect) -> Void = { _ in })
        -> FlowDriver<Spec>
    {
        FlowDriver(spec, clock: clock, keepingSteps: true, effects: effects)
    }

    @Test func aCompoundStatesTimerRunsOnWhileTheFlowMovesInsideIt() async {
        let flow = driver(Auth.self)
        flow.start()
        flow.send(.begin)
        #expect(flow.state == .credentials)
        #expect(flow.machine.isIn(.signIn))
        #expect(flow.machine.armedTimeouts.map(\.after) == [.seconds(300)])
        clock.advance(by: .seconds(240))
        #expect(await FlowSettling.whatIsDue(of: flow, within: .seconds(10)))
        let signInTimer = flow.machine.armedTimeouts.first
        flow.send(.submit)
        #expect(flow.machine.armedTimeouts.map(\.after) == [.seconds(300), .seconds(10)])
        // The same timer, seen from another state inside `signIn`.
        #expect(flow.machine.armedTimeouts.first == signInTimer)
        #expect(flow.machine.armedTimeouts.first?.owner == .verifying && signInTimer?.owner == .credentials)
        clock.advance(by: .seconds(9))
        #expect(await FlowSettling.whatIsDue(of: flow, within: .seconds(10)))
        flow.send(.needsCode)
        #expect(flow.state == .code)
        // 249 s have passed since `signIn` was entered: its timer fires 51 s later, not 300.
        clock.advance(by: .seconds(50))
        #expect(await FlowSettling.whatIsDue(of: flow, within: .seconds(10)))
        #expect(flow.state == .code)
        clock.advance(by: .seconds(1))
        #expect(await FlowSettling.whatIsDue(of: flow, within: .seconds(10)))
        #expect(flow.state == .welcome)
        #expect(!flow.machine.isIn(.signIn))
        #expect(flow.lastStep?.input == .compoundTimeout(.signIn))
        #expect(flow.trace.last == "@timeout(signIn) -> welcome | effects: clearPassword | timeout: -")
    }

    /// `stop()` cancels the timers, but a compound state the flow is still in keeps its
    /// deadline: the next input arms its timer for the time left, not for its whole duration.
    @Test func stoppingKeepsACompoundStatesDeadline() async {
        let flow = driver(Auth.self)
        flow.start()
        flow.send(.begin)
        clock.advance(by: .seconds(200))
        flow.stop()
        flow.send(.submit)
        #expect(flow.state == .verifying)
        flow.send(.needsCode)
        clock.advance(by: .seconds(99))
        #expect(await FlowSettling.whatIsDue(of: flow, within: .seconds(10)))
        #expect(flow.state == .code)
        clock.advance(by: .seconds(1))
        #expect(await FlowSettling.whatIsDue(of: flow, within: .seconds(10)))
        #expect(flow.state == .welcome, "fired 300 s after `signIn` was entered")
        #expect(flow.lastStep?.input == .compoundTimeout(.signIn))
    }

    @Test func leavingACompoundStateCancelsItsTimer() async {
        let flow = driver(Auth.self)
        flow.start()
        flow.send(.begin)
        flow.send(.submit)
        flow.send(.ok)
        #expect(flow.state == .signedIn, "`finished` is terminal: `done` took the flow on at once")
        clock.advance(by: .seconds(600))
        #expect(await FlowSettling.whatIsDue(of: flow, within: .seconds(10)))
        #expect(flow.state == .signedIn)
        #expect(flow.dueTimers == 0)
        #expect(flow.lastStep?.input == .event(.ok), "no timer of `signIn` or its states fired after it was left")
    }

    @Test func exitsRunInnermostFirstThenTheTransitionThenEntriesOutermostFirst() {
        var performed: [Auth.Effect] = []
        let flow = driver(Auth.self) { performed.append($0) }
        flow.start()
        flow.send(.begin)
        #expect(performed == [.trackSignInStarted])
        flow.send(.submit)
        flow.send(.needsCode)
        flow.send(.resend)
        #expect(performed == [.trackSignInStarted, .sendCode], "a transition inside keeps `signIn`")
        flow.send(.cancel)
        #expect(flow.state == .welcome, "`code` inherits `signIn`'s cancel")
        #expect(performed == [.trackSignInStarted, .sendCode, .clearPassword])
    }

    @Test func ofTwoTimersDueAtOnceTheOneArmedFirstFires() async {
        let flow = driver(Race.self)
        flow.start()
        #expect(flow.machine.armedTimeouts.map(\.after) == [.seconds(10), .seconds(10)])
        clock.advance(by: .seconds(10))
        #expect(await FlowSettling.whatIsDue(of: flow, within: .seconds(10)))
        #expect(flow.state == .lost)
        #expect(
            flow.trace == [
                "start -> work | effects: - | timeout: round 10000ms -> lost, 10000ms -> retrying",
                "@timeout(round) -> lost | effects: - | timeout: -"
            ], "the round's timer, armed first, fires first and ends the work's with it")
    }
}

/// A harness that only makes the driver of the nested `Auth` machine.
@MainActor
struct AuthPathHarness: FlowPathHarness {
    typealias Spec = Auth

    mutating func makeDriver(
        clock: FlowTestClock, storage: InMemoryFlowStorage, conditions: @escaping @MainActor () -> Auth.Conditions
    ) -> FlowDriver<Auth> {
        FlowDriver(Auth.self, clock: clock, keepingSteps: true, conditions: conditions)
    }

    func verify(state: Auth.State, driver: FlowDriver<Auth>) async throws {}
}

/// The path runner on a machine with compound states: a wait fires the timer it names, and
/// the compound states' timers armed after each step are compared with the path's.
@MainActor
@Suite("Path runner on compound states")
struct NestedPathRunnerTests {
    static func path(compoundTimers: [FlowPath<Auth>.Timer], firing: Auth.Compound?) -> FlowPath<Auth> {
        FlowPath(
            "sign in, then time out",
            [
                .init(.start, .welcome),
                .init(.event(.begin), .credentials, effects: [.trackSignInStarted], compoundTimers: compoundTimers),
                .init(.wait(.seconds(300), timeoutOf: firing), .welcome, effects: [.clearPassword])
            ])
    }

    @Test func theTimersOfCompoundStatesAreChecked() async {
        let armed: [FlowPath<Auth>.Timer] = [.after(.seconds(300), .welcome)]
        #expect(
            await FlowPathRunner.run(Self.path(compoundTimers: armed, firing: .signIn), harness: AuthPathHarness.self)
                .isEmpty)
        let missing = await FlowPathRunner.run(
            Self.path(compoundTimers: [], firing: .signIn), harness: AuthPathHarness.self)
        #expect(missing.contains { $0.contains("expected compound states' timers []") }, "\(missing)")
        let wrongTimer = await FlowPathRunner.run(
            Self.path(compoundTimers: armed, firing: nil), harness: AuthPathHarness.self)
        #expect(!wrongTimer.isEmpty, "the state's own timer did not fire: `signIn`'s did")
    }
}
