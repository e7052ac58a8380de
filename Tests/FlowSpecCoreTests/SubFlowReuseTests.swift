import Testing

@testable import FlowSpecCore

/// A parent's generated code reuses the generated types of the machines it runs: their `Work`
/// gives the work of their task states and activities inside the parent, and events, effects
/// and states convert between the two. Compiled by `swiftc` and run on the driver.
struct SubFlowReuseTests {
    /// `Shop` runs `Auth` from two states, and `Auth` runs `Verify`: a machine run twice, a run
    /// inside a run, task states and activities at every level. `Shop` derives its events,
    /// and `Verify` declares one no state uses (which `Shop` has all the same).
    static let spec = """
        flowspec: 1
        machines:
          Verify:
            initial: checking
            events: [ok, declaredOnly]
            states:
              checking: { kind: task, on: { ok: verified }, timeout: { after: 1h, to: failed } }
              verified: { kind: terminal }
              failed: { kind: terminal }
          Auth:
            initial: loading
            events: [loaded, denied, stale]
            effects: [remember]
            activities:
              heartbeat: { sends: [stale] }
            states:
              loading:
                kind: task
                on: { loaded: { to: verify, effects: [remember] }, denied: refused }
                timeout: { after: 1h, to: refused }
              verify:
                run: Verify
                activities: [heartbeat]
                on: { stale: refused }
                done: { verified: signedIn, failed: refused }
              signedIn: { kind: terminal }
              refused: { kind: terminal }
          Shop:
            initial: browse
            activities:
              watchCart: { sends: [cartChanged] }
            states:
              browse: { kind: task, on: { buy: payFirst }, timeout: { after: 1h, to: closed } }
              payFirst: { run: Auth, done: { signedIn: paySecond, refused: closed } }
              paySecond: { run: Auth, activities: [watchCart], on: { cartChanged: closed }, done: closed }
              closed: { kind: terminal }

        """

    static func programs() throws -> [FlowProgram] {
        let result = SpecChecker().check(SourceFile(path: "shop.yaml", text: spec))
        let errors = result.diagnostics.filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(FlowSpecCoreTestsSupport.describe(result))")
        return try #require(SpecGeneration.programs(result, diagnostics: result.diagnostics))
    }

    /// Conformers that log each task's and activity's work, by the state that runs it. Each
    /// `Verify.checking` waits until the heartbeat of the `Auth` around it has run (for a
    /// while: a heartbeat that never comes shows in the log), then answers.
    static let conformers = """
        import FlowSpecRuntime

        actor Log {
            var lines: [Swift.String] = []
            func add(_ line: Swift.String) { lines.append(line) }
            func wait(for line: Swift.String) async {
                for _ in 0..<100_000 where !lines.contains(line) { await Task.yield() }
            }
        }

        struct ShopWork: Shop.Work {
            let log: Log
            func browse() async -> Shop.Event { await log.add("Shop.browse"); return .buy }
            func watchCart(_ send: @escaping @Sendable (Shop.Event) async -> Swift.Void) async {}
        }

        struct AuthWork: Auth.Work {
            let log: Log
            let tag: Swift.String
            func loading() async -> Auth.Event { await log.add("Auth.loading " + tag); return .loaded }
            func heartbeat(_ send: @escaping @Sendable (Auth.Event) async -> Swift.Void) async {
                await log.add("Auth.heartbeat " + tag)
            }
        }

        struct VerifyWork: Verify.Work {
            let log: Log
            let tag: Swift.String
            func checking() async -> Verify.Event {
                await log.wait(for: "Auth.heartbeat " + tag)
                await log.add("Verify.checking " + tag)
                return .ok
            }
        }

        """

    @Test(
        "the parent takes each machine run's own Work, and its types convert",
        arguments: [GenerationOptions.Shape.switches, .tables])
    func theParentReusesTheWorkAndTypesOfTheMachinesItRuns(shape: GenerationOptions.Shape) throws {
        let programs = try Self.programs()
        guard SwiftCompiler.swiftc != nil else {
            Issue.record("swiftc is not on PATH: this test compiles the generated code")
            return
        }
        let swift = FlowSpecCoreTestsSupport.swift(programs, path: "shop.yaml", shape: shape)
        let main = #"""
            import FlowSpecRuntime

            @MainActor func walk() async -> [Swift.String] {
                let log = Log()
                let driver = FlowSpecRuntime.FlowDriver(Shop.self, keepingSteps: true)
                driver.work(
                    ShopWork(log: log), payFirst: AuthWork(log: log, tag: "first"),
                    payFirstVerify: VerifyWork(log: log, tag: "first"), paySecond: AuthWork(log: log, tag: "second"),
                    paySecondVerify: VerifyWork(log: log, tag: "second"))
                driver.start()
                for _ in 0..<1_000_000 where driver.state != .closed { await Task.yield() }
                return await log.lines + [driver.state.rawValue, "problems: \(driver.problems)"]
            }
            for line in await walk() { Swift.print(line) }
            Swift.print(Shop.State.payFirstVerifyChecking.payFirst == .verifyChecking)
            Swift.print(Shop.State.payFirstVerifyChecking.payFirstVerify == .checking)
            Swift.print(Shop.State.paySecondLoading.payFirst == nil, Shop.State.browse.paySecond == nil)
            Swift.print(Shop.State(paySecond: .verifyFailed) == .paySecondVerifyFailed)
            Swift.print(Shop.State(paySecond: .refused) == .paySecondRefused)
            Swift.print(Shop.State(payFirstVerify: .checking) == .payFirstVerifyChecking)
            Swift.print(Shop.Event(Verify.Event.declaredOnly) == .declaredOnly, Shop.Event(Auth.Event.stale) == .stale)
            Swift.print(Auth.Event(Shop.Event.loaded) == .loaded, Auth.Event(Shop.Event.buy) == nil)
            Swift.print(Verify.Event(Shop.Event.loaded) == nil, Verify.Event(Shop.Event.ok) == .ok)
            Swift.print(Auth.Effect(Shop.Effect.remember) == .remember)

            """#
        let program = try SwiftCompiler.compile(
            ["Shop.swift": swift, "Conformers.swift": Self.conformers, "main.swift": main])
        let run = try SwiftCompiler.run(program.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.split(separator: "\n") == [
                "Shop.browse", "Auth.loading first", "Auth.heartbeat first", "Verify.checking first",
                "Auth.loading second", "Auth.heartbeat second", "Verify.checking second", "closed", "problems: []",
                "true", "true", "true true", "true", "true", "true", "true true", "true true", "true true", "true"
            ])
    }

    @Test func aMachineRunsWorkMissingFromItsOwnConformerDoesNotCompile() throws {
        let programs = try Self.programs()
        guard SwiftCompiler.swiftc != nil else {
            Issue.record("swiftc is not on PATH: this test compiles the generated code")
            return
        }
        let swift = FlowSpecCoreTestsSupport.swift(programs, path: "shop.yaml")
        // The parent has no requirement for the work of `Auth`'s states: `Auth.Work` has them.
        #expect(!swift.contains("func payFirstLoading()"))
        let conformers = Self.conformers.replacingOccurrences(
            of: "func heartbeat(_ send: @escaping @Sendable (Auth.Event) async -> Swift.Void) async {",
            with: "func notHeartbeat() async {")
        let main = """
            import FlowSpecRuntime
            @MainActor func register(_ driver: FlowDriver<Shop>, log: Log) {
                driver.work(
                    ShopWork(log: log), payFirst: AuthWork(log: log, tag: ""), payFirstVerify: VerifyWork(log: log, tag: ""),
                    paySecond: AuthWork(log: log, tag: ""), paySecondVerify: VerifyWork(log: log, tag: ""))
            }

            """
        let failure = #expect(throws: SwiftCompiler.Failure.self) {
            try SwiftCompiler.compile(["Shop.swift": swift, "Conformers.swift": conformers, "main.swift": main])
        }
        #expect(
            failure?.description.contains("does not conform to protocol 'Auth.Work'") == true,
            "\(failure?.description ?? "")")
    }

    /// Each piece of work belongs to the innermost machine that has it; an activity the parent
    /// and a machine it runs both declare is the parent's.
    @Test func workBelongsToTheInnermostMachine() throws {
        let programs = try Self.programs()
        let shop = try #require(programs.first { $0.name.name == "Shop" })
        let emitter = SubFlowEmitter(program: shop, access: "", shape: .switches)
        #expect(emitter.runs.map(\.name) == ["payFirst", "payFirst.verify", "paySecond", "paySecond.verify"])
        let owners = shop.states.filter { $0.kind == .task }.map { state in
            "\(state.name): \(emitter.owner(of: shop.states.firstIndex { $0.name == state.name }!).map { emitter.runs[$0].name } ?? "-")"
        }
        #expect(
            owners == [
                "browse: -", "payFirst.loading: payFirst", "payFirst.verify.checking: payFirst.verify",
                "paySecond.loading: paySecond", "paySecond.verify.checking: paySecond.verify"
            ])
        #expect(emitter.ownActivities.map { shop.activities[$0].name } == ["watchCart"])
        // Where `Shop` itself listed `heartbeat`, the first run of `Auth` would give its work.
        #expect(emitter.activitiesByRun.map { $0.map { shop.activities[$0].name } } == [["heartbeat"], [], [], []])
    }
}
