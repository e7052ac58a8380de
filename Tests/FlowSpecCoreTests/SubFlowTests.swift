import FlowSpecTestSupport
import Foundation
import Testing

@testable import FlowSpecCore

/// Sub-flows (`run:`): a state that runs another machine means the compound state that holds a
/// copy of that machine's states. Held here to that meaning against the same machine written
/// out by hand, and the generated code to the simulation on it.
@Suite("Sub-flows: a state that runs another machine")
struct SubFlowTests {
    typealias Gen = DifferentialSpecs

    /// Three machines, each run by the next: `Confirm` from two states of two machines, a
    /// machine-wide `on` in each, an event both a sub-flow and its running state handle
    /// (`cancel`), a retry, timeouts at every level, entry and exit effects and a deep history
    /// around a running state.
    static let composed = """
        flowspec: 1
        machines:
          Confirm:
            initial: asking
            events: [approve, decline, cancel]
            effects: [logConfirm]
            on: { cancel: declined }
            states:
              asking: { kind: input, on: { approve: { to: approved, effects: [logConfirm] }, decline: declined } }
              approved: { kind: terminal }
              declined: { kind: terminal }
          SignIn:
            initial: credentials
            events: [submit, ok, fail, cancel, approve, decline]
            effects: [clearPassword, logConfirm]
            on: { cancel: cancelled }
            states:
              credentials: { kind: input, on: { submit: verifying } }
              verifying:
                on:
                  ok: twoFactor
                  fail: { to: verifying, retry: { max: 2, then: credentials, effects: [clearPassword] } }
                timeout: { after: 10s, to: credentials }
              twoFactor:
                run: Confirm
                done: { approved: signedIn, declined: credentials }
                timeout: { after: 1m, to: credentials }
              signedIn: { kind: terminal }
              cancelled: { kind: terminal }
          App:
            initial: welcome
            events: [start, signOut, back, reauth, away, resume]
            effects: [enterSignIn, leaveSignIn]
            states:
              welcome: { kind: input, on: { start: session } }
              session:
                initial: signIn
                on: { away: paused }
                states:
                  signIn:
                    run: SignIn
                    entry: [enterSignIn]
                    exit: [leaveSignIn]
                    on: { back: welcome }
                    timeout: { after: 5m, to: welcome }
                    done: { signedIn: home, cancelled: welcome }
                  home: { kind: input, on: { signOut: welcome, reauth: reauth } }
                  reauth:
                    run: Confirm
                    done: home
                  again: { kind: history, deep: true }
              paused: { kind: input, on: { resume: again } }

        """

    /// `App` as ``composed`` means it, written out by hand: each running state a compound state
    /// holding a copy of its machine, named `STATE.NAME`.
    static let inlined = """
        flowspec: 1
        machines:
          App:
            initial: welcome
            events: [start, signOut, back, reauth, away, resume, submit, ok, fail, cancel, approve, decline]
            effects: [enterSignIn, leaveSignIn, clearPassword, logConfirm]
            states:
              welcome: { kind: input, on: { start: session } }
              session:
                initial: signIn
                on: { away: paused }
                states:
                  signIn:
                    initial: signIn.credentials
                    entry: [enterSignIn]
                    exit: [leaveSignIn]
                    on: { cancel: signIn.cancelled, back: welcome }
                    timeout: { after: 5m, to: welcome }
                    states:
                      signIn.credentials: { kind: input, on: { submit: signIn.verifying } }
                      signIn.verifying:
                        on:
                          ok: signIn.twoFactor
                          fail:
                            to: signIn.verifying
                            retry: { max: 2, then: signIn.credentials, effects: [clearPassword] }
                        timeout: { after: 10s, to: signIn.credentials }
                      signIn.twoFactor:
                        initial: signIn.twoFactor.asking
                        on: { cancel: signIn.twoFactor.declined }
                        timeout: { after: 1m, to: signIn.credentials }
                        states:
                          signIn.twoFactor.asking:
                            kind: input
                            on:
                              approve: { to: signIn.twoFactor.approved, effects: [logConfirm] }
                              decline: signIn.twoFactor.declined
                          signIn.twoFactor.approved: { kind: choice, always: [signIn.signedIn] }
                          signIn.twoFactor.declined: { kind: choice, always: [signIn.credentials] }
                      signIn.signedIn: { kind: choice, always: [home] }
                      signIn.cancelled: { kind: choice, always: [welcome] }
                  home: { kind: input, on: { signOut: welcome, reauth: reauth } }
                  reauth:
                    initial: reauth.asking
                    on: { cancel: reauth.declined }
                    states:
                      reauth.asking:
                        kind: input
                        on:
                          approve: { to: reauth.approved, effects: [logConfirm] }
                          decline: reauth.declined
                      reauth.approved: { kind: choice, always: [home] }
                      reauth.declined: { kind: choice, always: [home] }
                  again: { kind: history, deep: true }
              paused: { kind: input, on: { resume: again } }

        """

    static func checked(_ text: String, path: String) throws -> SpecChecker.Checked {
        let result = SpecChecker().check(SourceFile(path: path, text: text))
        let errors = result.diagnostics.filter { $0.severity == .error }
        try #require(errors.isEmpty, "\(errors.map { "\($0.location) \($0.message)" })")
        return result
    }

    static func program(_ result: SpecChecker.Checked, _ name: String) throws -> FlowProgram {
        let programs = try #require(SpecGeneration.programs(result, diagnostics: result.diagnostics))
        return try #require(programs.first { $0.name.name == name })
    }

    @Test func aRunningStateMeansTheCompoundStateHoldingACopy() throws {
        let composed = try Self.program(Self.checked(Self.composed, path: "composed.yaml"), "App")
        let inlined = try Self.program(Self.checked(Self.inlined, path: "inlined.yaml"), "App")
        #expect(composed.states.map(\.name) == inlined.states.map(\.name))
        #expect(composed.compounds.map(\.name) == inlined.compounds.map(\.name))
        var random = Gen.SplitMix64(seed: 0x5_B_F10)
        var comparison = TraceComparison(expectedSide: "written out", actualSide: "composed")
        for run in 0..<200 {
            let steps = NestedSpecs.drawSteps(composed, count: 30, &random)
            comparison.compare(
                "run \(run)", expected: try NestedMachineTests.expectedTrace(inlined, steps),
                actual: try NestedMachineTests.expectedTrace(composed, steps), context: "inputs \(Gen.script(steps))")
        }
        #expect(comparison.compared > 4_000, "only \(comparison.compared) lines were compared")
        #expect(comparison.disagreements.count == 0, "\(comparison.disagreements.summary)")
    }

    /// A machine parallel at its top, run as a sub-flow, ends once every region has: the
    /// running state's `done` is taken then, a bare target and a mapping of the machine's name
    /// alike (`Tests/Fixtures/rules/invalid-parallel/clean-parallel-machine.yaml`).
    @Test func aMachineParallelAtItsTopEndsASubFlowOnceEveryRegionHas() throws {
        let path = "Tests/Fixtures/rules/invalid-parallel/clean-parallel-machine.yaml"
        let app = try Self.program(SpecChecker().check(try Fixtures.source(path)), "App")
        let lines = try Simulation(program: app).run(
            ["watch", "play", "pause", "eject", "listen", "tune", "off", "listen", "cancel"].map { .event($0) })
        #expect(
            lines.map { $0.components(separatedBy: " | ")[0] } == [
                "start -> home", "watch -> watching.paused, watching.normal",
                "play -> watching.playing, watching.normal", "pause -> watching.paused, watching.normal",
                "eject -> home",
                "listen -> listening.tuned, listening.quiet", "tune -> listening.tuned, listening.loud",
                "off -> home", "listen -> listening.tuned, listening.quiet", "cancel -> home"
            ], "\(lines)")
    }

    @Test func theDrawReachesWhatSubFlowsAdd() throws {
        let composed = try Self.program(Self.checked(Self.composed, path: "composed.yaml"), "App")
        var random = Gen.SplitMix64(seed: 0x5_B_F10)
        let lines = try (0..<200).flatMap { _ in
            try NestedMachineTests.expectedTrace(composed, NestedSpecs.drawSteps(composed, count: 30, &random))
        }
        // The child's `cancel` wins over the running state's own; both outcomes of the inner
        // sub-flow lead out; the history resumes inside a sub-flow.
        #expect(lines.contains { $0.hasPrefix("cancel -> welcome") })
        #expect(
            lines.contains { $0.hasPrefix("approve -> signIn.signedIn") == false && $0.hasPrefix("approve -> home") })
        #expect(lines.contains { $0.hasPrefix("decline -> signIn.credentials") })
        #expect(lines.contains { $0.hasPrefix("resume -> signIn.") })
        #expect(lines.contains { $0.hasPrefix("@timeout(signIn.twoFactor) -> signIn.credentials") })
    }

    /// Step by step through both machines: the retry of the sub-flow runs out, the inner
    /// sub-flow's outcome leads out of the outer one, and the parent's timeout stops both.
    @Test func aScriptedRunThroughThreeMachines() throws {
        let app = try Self.program(Self.checked(Self.composed, path: "composed.yaml"), "App")
        let script = ["start", "submit", "fail", "fail", "fail", "submit", "ok", "approve", "reauth", "cancel"]
        let stop = ["signOut", "start", "submit", "ok"]
        let lines = try Simulation(program: app).run((script + stop).map { .event($0) } + [.compoundTimeout("signIn")])
        #expect(
            lines == [
                "start -> welcome | effects: - | timeout: -",
                "start -> signIn.credentials | effects: enterSignIn | timeout: signIn 300000ms -> welcome",
                "submit -> signIn.verifying | effects: - | timeout: signIn 300000ms -> welcome, 10000ms -> signIn.credentials",
                "fail -> signIn.verifying | effects: - | timeout: signIn 300000ms -> welcome, 10000ms -> signIn.credentials",
                "fail -> signIn.verifying | effects: - | timeout: signIn 300000ms -> welcome, 10000ms -> signIn.credentials",
                "fail -> signIn.credentials | effects: clearPassword | timeout: signIn 300000ms -> welcome",
                "submit -> signIn.verifying | effects: - | timeout: signIn 300000ms -> welcome, 10000ms -> signIn.credentials",
                "ok -> signIn.twoFactor.asking | effects: - | timeout: signIn 300000ms -> welcome, signIn.twoFactor 60000ms -> signIn.credentials",
                "approve -> home | effects: logConfirm, leaveSignIn | timeout: -",
                "reauth -> reauth.asking | effects: - | timeout: -",
                "cancel -> home | effects: - | timeout: -",
                "signOut -> welcome | effects: - | timeout: -",
                "start -> signIn.credentials | effects: enterSignIn | timeout: signIn 300000ms -> welcome",
                "submit -> signIn.verifying | effects: - | timeout: signIn 300000ms -> welcome, 10000ms -> signIn.credentials",
                "ok -> signIn.twoFactor.asking | effects: - | timeout: signIn 300000ms -> welcome, signIn.twoFactor 60000ms -> signIn.credentials",
                "@timeout(signIn) -> welcome | effects: leaveSignIn | timeout: -"
            ])
    }

    @Test func compiledSubFlowsTraceLikeTheSimulation() throws {
        guard SwiftCompiler.swiftc != nil else {
            Issue.record("swiftc is not on PATH: the test needs the Swift compiler to build the generated code")
            return
        }
        let result = try Self.checked(Self.composed, path: "composed.yaml")
        let programs = try #require(SpecGeneration.programs(result, diagnostics: result.diagnostics))
        var random = Gen.SplitMix64(seed: 0x5_C0DE)
        var runs: [Gen.Run] = []
        // `Confirm` runs no machine and nests nothing: the composed two are the ones to hold.
        for program in programs where !program.compounds.isEmpty {
            for index in 0..<40 {
                let steps = NestedSpecs.drawSteps(program, count: 30, &random)
                runs.append(
                    Gen.Run(
                        machine: program.name.name, key: "\(program.name.name)#\(index)", restoring: nil,
                        steps: steps, expected: try NestedMachineTests.expectedTrace(program, steps)))
            }
        }
        let source = SwiftGenerator.file(for: programs, options: GenerationOptions(sourcePath: "composed.yaml"))
        let files = ["composed.swift": source, "main.swift": Gen.driver(programs: programs, runs: runs, visits: true)]
        let actual = try Gen.runDriver(files)
        var comparison = TraceComparison(expectedSide: "simulation", actualSide: "generated code")
        for run in runs {
            comparison.compare(
                run.key, expected: run.expected, actual: actual[run.key] ?? [],
                context: "inputs \(Gen.script(run.steps))")
        }
        #expect(comparison.compared > 1_000, "only \(comparison.compared) lines were compared")
        #expect(comparison.disagreements.count == 0, "\(comparison.disagreements.summary)")
    }

    /// What is found on a machine is reported once, where it is written, however many states
    /// run it; what composing adds is reported in the parent.
    @Test func aFindingInAMachineRunIsReportedOnceWhereItIsWritten() throws {
        let text = """
            flowspec: 1
            machines:
              Child:
                initial: a
                states:
                  a: { kind: input, on: { go: b } }
                  b: { kind: terminal }
                  lost: { kind: input, on: { go: b } }
              Parent:
                initial: one
                states:
                  one: { run: Child, done: two }
                  two: { run: Child, done: three }
                  three: { kind: terminal }

            """
        let result = SpecChecker().check(SourceFile(path: "once.yaml", text: text))
        let found = result.diagnostics.map { "\($0.rule.rawValue) \($0.location.line):\($0.location.column)" }
        #expect(found == ["unreachable-state 8:7"])
    }

    @Test func anEventBothHandleIsTheSubFlowsAndTheParentsTransitionIsShadowed() throws {
        let result = try Self.checked(Self.composed, path: "composed.yaml")
        let shadowed = result.diagnostics.filter { $0.rule == .shadowedCandidate }
        // `signIn` writes no `cancel`: nothing is shadowed in the reference machine.
        #expect(shadowed.isEmpty)
        let text = Self.composed.replacingOccurrences(
            of: "on: { back: welcome }", with: "on: { back: welcome, cancel: home }")
        let again = SpecChecker().check(SourceFile(path: "shadowed.yaml", text: text))
        let found = again.diagnostics.filter { $0.rule == .shadowedCandidate }
        #expect(found.count == 1)
        #expect(found.first?.location.line == 44)
        #expect(found.first?.message.contains("'SignIn'") == true)
    }

    /// The reference app: the three flows composed check clean, and forgetting where the app goes
    /// once signed in is a located error with the run that gets there.
    @Test func theReferenceAppForgettingAnOutcomeIsALocatedError() throws {
        let text = try String(contentsOfFile: "specs/app.yaml", encoding: .utf8)
        _ = try Self.checked(text, path: "specs/app.yaml")
        let forgot = text.replacingOccurrences(of: "        done: { mainApp: story }\n", with: "")
        #expect(forgot != text)
        let result = SpecChecker().check(SourceFile(path: "specs/app.yaml", text: forgot))
        let errors = result.diagnostics.filter { $0.severity == .error }
        // Then nothing leads to the story: its states and the requirements on them say so too.
        #expect(
            errors.map(\.rule) == [
                .unhandledOutcome, .unreachableState, .unreachableState, .requirementFailed, .requirementFailed
            ])
        #expect(errors.filter { $0.rule == .unreachableState }.map { $0.subjects } == [["story"], ["finished"]])
        let finding = try #require(errors.first)
        let runLine = try #require(
            forgot.split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
                $0.contains("run: LaunchAuth")
            })
        #expect(finding.location.line == runLine + 1)
        #expect(finding.message.contains("'mainApp'"))
        #expect(finding.notes.first?.message.hasSuffix("launch.authenticated → launch.mainApp") == true)
    }

    /// A machine run that can get stuck leaves its running state stuck: reported at the `run`,
    /// with the run through both machines; a way out of the running state's takes a task
    /// state of the sub-flow out, not a loop of choice states, which never sees an event.
    @Test func aStuckSubFlowIsReportedAtEachRunThatCannotLeaveIt() throws {
        let text = """
            flowspec: 1
            machines:
              Child:
                initial: a
                states:
                  a: { kind: input, on: { go: spin, wait: waiting, finish: end } }
                  spin: { kind: choice, always: [spinAgain] }
                  spinAgain: { kind: choice, always: [spin] }
                  waiting: { on: { tick: waiting2 }, timeout: { after: 1s, to: waiting2 } }
                  waiting2: { on: { tick: waiting }, timeout: { after: 1s, to: waiting } }
                  end: { kind: terminal }
              Parent:
                initial: one
                states:
                  one: { run: Child, done: two }
                  two: { kind: input, on: { again: one, other: three, stop: over } }
                  three: { run: Child, done: two, on: { quit: two } }
                  over: { kind: terminal }

            """
        let result = SpecChecker().check(SourceFile(path: "stuck.yaml", text: text))
        let parent = result.diagnostics.filter { $0.location.line >= 12 }
        #expect(
            parent.map { "\($0.rule.rawValue) \($0.location.line)" } == [
                "infinite-loop 15", "no-way-out 15", "infinite-loop 17", "no-way-out 17"
            ])
        let stuck = try #require(parent.first { $0.rule == .noWayOut })
        #expect(stuck.message.hasPrefix("state 'one' runs 'Child', which can get stuck there: from state 'one.spin'"))
        #expect(stuck.notes.first?.message == "reached by: one → one.a → one.spin")
        // The machine run's own findings are reported where it is written, once.
        let child = result.diagnostics.filter { $0.location.line < 12 }.map(\.rule)
        #expect(child.filter { $0 == .noWayOut }.count == 4 && child.filter { $0 == .infiniteLoop }.count == 2)
    }

    /// A composition past the limits is a located `limit-exceeded` at the `run`, never a trap.
    @Test func aCompositionPastTheLimitsIsLimitExceeded() throws {
        // Each machine runs the one after it twice: the first holds 2^12 copies of the last.
        var lines = ["flowspec: 1", "machines:"]
        for level in 0..<12 {
            lines += [
                "  M\(level):", "    initial: a", "    states:",
                "      a: { run: M\(level + 1), done: b }", "      b: { run: M\(level + 1), done: c }",
                "      c: { kind: terminal }"
            ]
        }
        lines += ["  M12:", "    initial: a", "    states:", "      a: { kind: terminal }"]
        var checker = SpecChecker()
        checker.limits.maxStates = 5_000
        let result = checker.check(SourceFile(path: "wide.yaml", text: lines.joined(separator: "\n") + "\n"))
        let limits = result.diagnostics.filter { $0.rule == .limitExceeded }
        // Once per machine over the limit, at the `run` that crosses it.
        #expect(limits.count == Set(limits.map(\.machine)).count && !limits.isEmpty)
        #expect(limits.allSatisfy { $0.message.contains("over 5000 states with the machines it runs") })
        #expect(result.diagnostics.filter { $0.severity == .error }.allSatisfy { $0.rule == .limitExceeded })
    }
}
