import FlowSpecRuntime
import FlowSpecTesting
import Testing

/// LaunchAuth with one transition redirected by hand: a successful login goes back to the
/// login screen. The generated paths must catch it.
enum MisroutedLaunchAuth: FlowSpec {
    typealias State = LaunchAuth.State
    typealias Event = LaunchAuth.Event
    typealias Effect = LaunchAuth.Effect
    typealias Conditions = LaunchAuth.Conditions

    static let name = LaunchAuth.name
    static var initial: State { LaunchAuth.initial }
    static var retrySlotCount: Int { LaunchAuth.retrySlotCount }
    static var effectList: [Effect] { LaunchAuth.effectList }
    static func kind(of state: State) -> FlowStateKind { LaunchAuth.kind(of: state) }
    static func timeout(of state: State) -> (after: Duration, to: State)? { LaunchAuth.timeout(of: state) }
    static func always(_ state: State, _ conditions: Conditions, _ tables: FlowNoTables) -> FlowStep<State>? {
        LaunchAuth.always(state, conditions, tables)
    }
    static func timeoutStep(_ state: State, _ tables: FlowNoTables) -> FlowStep<State>? {
        LaunchAuth.timeoutStep(state, tables)
    }
    static func step(_ state: State, on event: Event, _ conditions: Conditions, _ tables: FlowNoTables)
        -> FlowStep<State>?
    {
        if state == .authLoading, event == .loginSucceeded { return FlowStep(.unauthenticated) }
        return LaunchAuth.step(state, on: event, conditions, tables)
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
struct MisroutedLaunchAuthHarness: FlowPathHarness {
    typealias Spec = MisroutedLaunchAuth
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
struct PlainLaunchAuthHarness: FlowPathHarness {
    typealias Spec = LaunchAuth
}

/// A harness that keeps how many steps it verified, and fails the third: only a runner that
/// keeps what `verify` stores from step to step reaches it.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
struct CountingLaunchAuthHarness: FlowPathHarness {
    typealias Spec = LaunchAuth
    struct ThirdStep: Error {}
    private var verified = 0

    mutating func verify(state: LaunchAuth.State, driver: FlowDriver<LaunchAuth>) async throws {
        verified += 1
        if verified == 3 { throw ThirdStep() }
    }
}

@Suite("Path runner")
@MainActor
struct FlowPathRunnerTests {
    /// The same path, typed for the misrouted machine (its types are LaunchAuth's).
    static func misrouted(_ path: FlowPath<LaunchAuth>) -> FlowPath<MisroutedLaunchAuth> {
        FlowPath(
            path.name, budget: path.budget.map { .init(fromStep: $0.fromStep, max: $0.max) },
            path.steps.map { step in
                let input: FlowPath<MisroutedLaunchAuth>.Input =
                    switch step.input {
                    case .start: .start
                    case .event(let event): .event(event)
                    case .timeout: .timeout
                    case .wait(let duration, _), .regionWait(let duration, _):
                        .wait(duration, timeoutOf: nil)
                    case .relaunch: .relaunch
                    case .conditionsChanged: .conditionsChanged
                    }
                return .init(
                    input, when: step.conditions, step.state, effects: step.effects,
                    timer: step.timer.map { .after($0.after, $0.target) })
            })
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func whatVerifyKeepsLastsFromStepToStep() async throws {
        let path = try #require(LaunchAuthPaths.all.first { $0.steps.count >= 3 })
        let problems = await FlowPathRunner.run(path, harness: CountingLaunchAuthHarness.self)
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.contains("threw ThirdStep()") == true, "\(problems)")
    }

    // On older systems Swift Testing skips it, saying why, rather than passing it unrun.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func aRedirectedTransitionFailsThePathsThatTakeIt() async throws {
        var failing: [String] = []
        for path in LaunchAuthPaths.all {
            let plain = await FlowPathRunner.run(path, harness: PlainLaunchAuthHarness.self)
            #expect(plain.isEmpty, "\(plain)")
            let problems = await FlowPathRunner.run(Self.misrouted(path), harness: MisroutedLaunchAuthHarness.self)
            let takesIt = path.steps.indices.dropFirst().contains {
                path.steps[$0 - 1].state == .authLoading && path.steps[$0].state == .authenticated
            }
            #expect(problems.isEmpty == !takesIt, "\(path.name): \(problems)")
            failing += problems
        }
        #expect(!failing.isEmpty)
        for problem in failing {
            #expect(
                problem.contains("(loginSucceeded): expected state 'authenticated', the flow is in 'unauthenticated'"),
                "\(problem)")
        }
    }

    // On older systems Swift Testing skips it, saying why, rather than passing it unrun.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func aWrongExpectationIsLocatedAtItsStep() async throws {
        let path = FlowPath<LaunchAuth>(
            "hand-written",
            [
                .init(.start, .splash, timer: .after(.seconds(2), .onboardingCheck)),
                .init(.timeout, .onboardingCheck, timer: .after(.seconds(3), .authCheck)),
                .init(.event(.onboardingCheckFailed), .error, effects: [], timer: nil)
            ])
        let problems = await FlowPathRunner.run(path, harness: PlainLaunchAuthHarness.self)
        #expect(
            problems == [
                "hand-written, step 3 (onboardingCheckFailed): expected effects [], the flow ran [showError]"
            ])
    }

    // On older systems Swift Testing skips it, saying why, rather than passing it unrun.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func aBudgetShorterThanThePathTakesFails() async throws {
        let within = try #require(LaunchAuthPaths.all.first { $0.budget != nil })
        var tight = within
        tight.budget?.max = .seconds(9)
        let problems = await FlowPathRunner.run(tight, harness: PlainLaunchAuthHarness.self)
        #expect(problems.count == 1)
        #expect(
            problems.first?.contains("took 10.0 seconds, more than its `within` budget of 9.0 seconds") == true,
            "\(problems)")
        #expect(await FlowPathRunner.run(within, harness: PlainLaunchAuthHarness.self).isEmpty)
    }
}

@Suite("Test clock")
struct FlowTestClockTests {
    @Test func sleepersWakeWhenTheirDeadlineComesAndCancelledOnesThrow() async throws {
        let clock = FlowTestClock()
        let early = Task { try await clock.sleep(for: .seconds(1)) }
        let late = Task { try await clock.sleep(for: .seconds(5)) }
        let cancelled = Task { try await clock.sleep(for: .seconds(2)) }
        while clock.sleeperCount < 3 { await Task.yield() }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        clock.advance(by: .seconds(1))
        try await early.value
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(4))
        try await late.value
        #expect(clock.elapsed == .seconds(5))
        try await clock.sleep(for: .zero)
    }
}
