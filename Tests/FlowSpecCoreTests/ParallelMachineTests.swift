import FlowSpecTestSupport
import Foundation
import Testing

@testable import FlowSpecCore

/// Parallel regions as `flowspec simulate` runs them (the kernel the generated code will run):
/// on random machines against the W3C algorithm (``StatechartOracle``), and on the decisions
/// `docs/language.md` makes where flowspec departs from it or SCXML leaves a choice.
@Suite("Parallel regions run")
struct ParallelMachineTests {
    typealias Gen = DifferentialSpecs

    /// Random valid machines with a parallel state, checked by the real checker.
    static func machines(seed: UInt64, count: Int) throws -> [(text: String, model: MachineSpec, program: FlowProgram)]
    {
        var random = Gen.SplitMix64(seed: seed)
        var found: [(String, MachineSpec, FlowProgram)] = []
        var attempts = 0
        var discarded: [String: Int] = [:]
        while found.count < count {
            attempts += 1
            try #require(attempts < count * 30, "the parallel generator keeps drawing invalid machines: \(discarded)")
            let text = "flowspec: 1\nmachines:\n" + ParallelSpecs.draw(name: "P\(found.count)", &random)
            let result = SpecChecker().check(SourceFile(path: "parallel.yaml", text: text))
            let errors = result.diagnostics.filter { $0.severity == .error }
            guard errors.isEmpty else {
                for error in errors { discarded[error.rule.rawValue, default: 0] += 1 }
                continue
            }
            let programs = try #require(
                SpecGeneration.programs(result, diagnostics: result.diagnostics))
            found.append((text, result.graphs[0].machine, programs[0]))
        }
        return found
    }

    @Test func theDrawCoversWhatRegionsAdd() throws {
        let drawn = try Self.machines(seed: 0x9A4A, count: 80)
        let programs = drawn.map(\.program)
        #expect(programs.allSatisfy { $0.hasParallel })
        #expect(programs.contains { $0.steps.maximumLeaves >= 3 })
        #expect(programs.contains { $0.compounds.contains { $0.isParallel && !$0.done.isEmpty } })
        #expect(programs.contains { $0.compounds.contains { $0.isParallel && $0.done.count > 1 } })
        #expect(programs.contains { $0.compounds.contains { $0.isParallel && $0.timeout != nil } })
        #expect(programs.contains { !$0.histories.isEmpty })
        // A shallow history state beside the regions, with and without a `default`.
        #expect(drawn.contains { $0.text.contains("hp0: { kind: history }") })
        #expect(drawn.contains { $0.text.contains("hp0: { kind: history, default: r2 }") })
        // A region's transition that reads where another region is.
        #expect(drawn.contains { $0.text.contains(", in: r") } && drawn.contains { $0.text.contains(", notIn: r") })
        #expect(programs.contains { $0.readsStates })
        #expect(programs.contains { $0.hasEntryOrExitEffects })
        // A region whose `initial` runs effects, and a compound state inside a region whose does.
        #expect(
            programs.contains { program in
                program.compounds.contains { compound in
                    !compound.initialEffects.isEmpty && compound.parent.map { program.compounds[$0].isParallel } == true
                }
            })
        #expect(
            programs.contains { program in
                program.compounds.contains { compound in
                    !compound.initialEffects.isEmpty
                        && compound.parent.map { !program.compounds[$0].isParallel } == true
                        && program.compounds.contains(where: \.isParallel)
                }
            })
    }

    @Test func everyStepAgreesWithTheW3CAlgorithm() throws {
        var random = Gen.SplitMix64(seed: 0x0_9A7A)
        var comparison = TraceComparison(expectedSide: "flowspec", actualSide: "oracle")
        var severalAtOnce = 0
        for (text, model, program) in try Self.machines(seed: 0x9A4A, count: 80) {
            let chart = try NestedChart.chart(model, program)
            for index in 0..<10 {
                let steps = ParallelSpecs.drawSteps(program, count: 25, &random)
                let expected = try Simulation(program: program).run(steps)
                    .filter { !$0.hasPrefix("+") && !$0.hasPrefix("-") }.map(Self.comparable)
                let actual = try NestedChart.run(chart, program, steps)
                severalAtOnce += expected.count { $0.split(separator: "|")[0].contains(",") }
                comparison.compare(
                    "\(program.name.name)#\(index)", expected: expected, actual: actual,
                    context: "inputs \(Gen.script(steps))\n\(text)")
            }
        }
        #expect(comparison.compared > 10_000, "only \(comparison.compared) steps were compared")
        #expect(severalAtOnce > 3_000, "only \(severalAtOnce) steps ran several regions")
        #expect(comparison.disagreements.count == 0, "\(comparison.disagreements.summary)")
    }

    @Test func compiledMachinesTraceLikeTheSimulation() throws {
        guard SwiftCompiler.swiftc != nil else {
            Issue.record("swiftc is not on PATH: the test needs the Swift compiler to build the generated code")
            return
        }
        let drawn = try Self.machines(seed: 0x0_C0DE, count: 30)
        let programs = drawn.map(\.program)
        // Every other machine also through the table form, renamed `T…`.
        let twinText =
            "flowspec: 1\nmachines:\n"
            + drawn.enumerated().filter { $0.offset % 2 == 0 }.map { offset, machine in
                machine.text.components(separatedBy: "machines:\n")[1]
                    .replacingOccurrences(of: "  P\(offset):\n", with: "  T\(offset):\n")
            }.joined()
        let twinResult = SpecChecker().check(SourceFile(path: "tables.yaml", text: twinText))
        let twins = try #require(SpecGeneration.programs(twinResult, diagnostics: twinResult.diagnostics))
        var random = Gen.SplitMix64(seed: 0x0_D21F)
        var runs: [Gen.Run] = []
        for program in programs {
            let first = runs.count
            defer {
                if programs.firstIndex(where: { $0.name.name == program.name.name })! % 2 == 0 {
                    runs += runs[first...].map { run in
                        var twin = run
                        twin.machine = Gen.tableTwinName(run.machine)
                        twin.key = Gen.tableTwinName(run.key)
                        return twin
                    }
                }
            }
            for index in 0..<6 {
                let steps = ParallelSpecs.drawSteps(program, count: 25, &random)
                runs.append(
                    Gen.Run(
                        machine: program.name.name, key: "\(program.name.name)#\(index)", restoring: nil, steps: steps,
                        expected: try Simulation(program: program).run(steps)))
            }
            // Persisted machines restore from stored texts: regions' values inside their region
            // or not, memory, nothing at all.
            for (index, text) in ParallelSpecs.restoreTexts(program, &random).enumerated() {
                let steps = ParallelSpecs.drawSteps(program, count: 8, restoring: .some(text), &random)
                runs.append(
                    Gen.Run(
                        machine: program.name.name, key: "\(program.name.name)#r\(index)", restoring: .some(text),
                        steps: steps, expected: try Simulation(program: program).run(steps, restoring: .some(text))))
            }
        }
        let restoredInRegions = runs.count { run in
            guard run.restoring != nil, let first = run.expected.first else { return false }
            return first.components(separatedBy: " -> ")[1].components(separatedBy: " | ")[0].contains(", ")
        }
        #expect(restoredInRegions > 20, "only \(restoredInRegions) restores entered regions")
        let source = SwiftGenerator.file(for: programs, options: GenerationOptions(sourcePath: "parallel.yaml"))
        #expect(source.contains("static func enteredStates(") && !source.contains("sharedTable"))
        let tableSource = SwiftGenerator.file(
            for: twins, options: GenerationOptions(sourcePath: "tables.yaml", shape: .tables))
        #expect(tableSource.contains("regionRunsSection") && !tableSource.contains("switch (state, event)"))
        #expect(twins.contains { $0.persist != nil } && twins.contains { !$0.histories.isEmpty })
        let actual = try Gen.runDriver([
            "parallel.swift": source, "tables.swift": tableSource,
            "main.swift": Gen.driver(programs: programs + twins, runs: runs)
        ])
        var comparison = TraceComparison(expectedSide: "simulation", actualSide: "generated code")
        for run in runs {
            comparison.compare(
                run.key, expected: run.expected, actual: actual[run.key] ?? [],
                context: "inputs \(Gen.script(run.steps))")
        }
        #expect(runs.count { $0.machine.hasPrefix("T") } > 60, "the table form's runs")
        #expect(comparison.compared > 6_000, "only \(comparison.compared) lines were compared")
        #expect(comparison.disagreements.count == 0, "\(comparison.disagreements.summary)")
    }

    /// `gen --tests` on random parallel machines: each path, through the real driver on a test
    /// clock, reaches the states and arms the timers the spec says, region by region.
    @Test func generatedPathSuitesPass() throws {
        guard SwiftCompiler.swiftc != nil else {
            Issue.record("swiftc is not on PATH: generated test suites cannot be compiled")
            return
        }
        // Regions' timers multiply configurations (each keeps its time left while another
        // region moves): machines whose graph stays small, so that the suite runs in seconds.
        var small = PathCover.Limits()
        small.maxConfigurations = 2_000
        var drawn: [String] = []
        for candidate in try Self.machines(seed: 0x7E57_9A4A, count: 16) where drawn.count < 6 {
            if (try? PathCover(program: candidate.program, machine: candidate.model, limits: small)) != nil {
                drawn.append(candidate.text)
            }
        }
        try #require(drawn.count == 6, "only \(drawn.count) small machines")
        let text = "flowspec: 1\nmachines:\n" + drawn.map { $0.components(separatedBy: "machines:\n")[1] }.joined()
        let result = SpecChecker().check(SourceFile(path: "parallel.yaml", text: text))
        let programs = try #require(SpecGeneration.programs(result, diagnostics: result.diagnostics))
        let options = GenerationOptions(sourcePath: "parallel.yaml")
        let suites = try SpecGeneration.testSuites(programs, of: result, singleFileNamed: "", options: options)
        #expect(suites[0].contents.contains(".regionWait("))
        // A persisted machine's paths relaunch the real driver over its storage.
        #expect(suites[0].contents.contains(".relaunch"))
        try GeneratedTestSuiteTests.expectPasses(
            [
                "main.swift": GeneratedTestSuiteTests.main,
                "Parallel.swift": SwiftGenerator.file(for: programs, options: options),
                "ParallelTests.swift": suites[0].contents,
                "Harnesses.swift": GeneratedTestSuiteTests.harnesses(programs)
            ], suites: programs.count, "random parallel machines")
        // Every path replays in `simulate`, exercises what it was planned to, and covers every
        // item a brute-force walk of the machine can exercise (as for any machine).
        for (program, graph) in zip(programs, result.graphs) {
            try PathCoverTests.expectFaithful(program, graph.machine, program.name.name)
        }
    }

    /// A trace line as the oracle's run writes it: the states sorted by name, no spaces between,
    /// no timeouts, and not whether the input was ignored.
    static func comparable(_ line: String) -> String {
        let kept = NestedMachineTests.stateAndEffects(line)
        guard let arrow = kept.range(of: " -> "), let bar = kept.range(of: " | ") else { return kept }
        let states = kept[arrow.upperBound..<bar.lowerBound].components(separatedBy: ", ").sorted()
        return String(kept[..<arrow.upperBound]) + states.joined(separator: ",") + String(kept[bar.lowerBound...])
    }

    // MARK: Decisions

    static let spec = """
        flowspec: 1
        machines:
          App:
            initial: welcome
            effects: [enterArea, leaveArea, enterNavigation, leaveNavigation, enterHome, leaveHome, enterOnline, leaveOnline, reset, lose]
            states:
              welcome: { kind: input, on: { start: signedIn, startInSettings: settings } }
              signedIn:
                entry: [enterArea]
                exit: [leaveArea]
                on: { sessionExpired: reauth, signOut: welcome }
                timeout: { after: 30m, to: welcome }
                done: welcome
                parallel:
                  navigation:
                    initial: home
                    entry: [enterNavigation]
                    exit: [leaveNavigation]
                    on: { restart: navigation }
                    states:
                      home: { kind: input, entry: [enterHome], exit: [leaveHome], on: { open: settings, finish: navigationDone } }
                      settings: { kind: input, on: { back: home, signOut: home } }
                      resume: { kind: history, deep: true }
                      navigationDone: { kind: terminal }
                  connectivity:
                    initial: online
                    states:
                      online: { kind: input, entry: [enterOnline], exit: [leaveOnline], on: { lost: { to: offline, effects: [lose] }, finish: connectivityDone } }
                      offline: { kind: task, on: { found: online }, timeout: { after: 5s, to: online } }
                      connectivityDone: { kind: terminal }
              reauth: { kind: input, on: { signedInAgain: resume } }
        """

    static func run(_ inputs: [Simulation.Step], restoring: String?? = nil) throws -> [String] {
        let result = SpecChecker().check(SourceFile(path: "app.yaml", text: spec))
        #expect(result.diagnostics.filter { $0.severity == .error }.isEmpty, "\(result.diagnostics)")
        let programs = try #require(
            SpecGeneration.programs(result, diagnostics: result.diagnostics))
        return try Simulation(program: programs[0]).run(inputs).map(NestedMachineTests.stateAndEffects)
    }

    /// A radio whose parallel state `on` has a shallow history state `last` beside its regions.
    static let radio = """
        flowspec: 1
        machines:
          Radio:
            initial: off
            events: [power, halt, up, pause, back, restart]
            effects: [turnOn, turnOff, rewind, resetVolume, startPlaying, startPause]
            defaults: { kind: input }
            states:
              off: { on: { power: on, back: last } }
              on:
                entry: [turnOn]
                exit: [turnOff]
                on: { halt: off }
                parallel:
                  playback:
                    initial: { to: playing, effects: [rewind] }
                    states:
                      playing: { entry: [startPlaying], on: { pause: paused } }
                      paused: { entry: [startPause], on: { restart: last } }
                  last: { kind: history, default: paused }
                  volume:
                    initial: { to: normal, effects: [resetVolume] }
                    states:
                      normal: { on: { up: loud } }
                      loud: {}

        """

    /// A shallow history state beside the regions: before the parallel state was first left,
    /// its `default`; after, the parallel state afresh, every region at its `initial` (SCXML
    /// records the regions and enters each through its `initial`); from inside a region, it
    /// leaves and enters the parallel state (a parallel state is no transition domain).
    @Test func aHistoryOfAParallelStateEntersItAfresh() throws {
        let spec = Self.radio
        let result = SpecChecker().check(SourceFile(path: "radio.yaml", text: spec))
        #expect(result.diagnostics.filter { $0.severity == .error }.isEmpty, "\(result.diagnostics)")
        let program = try #require(SpecGeneration.programs(result, diagnostics: result.diagnostics)?.first)
        let lines = try Simulation(program: program).run(
            ["back", "halt", "power", "pause", "up", "halt", "back", "pause", "restart"].map { .event($0) }
        ).map(NestedMachineTests.stateAndEffects)
        #expect(
            lines == [
                "start -> off | effects: -",
                "back -> paused, normal | effects: turnOn, startPause, resetVolume",
                "halt -> off | effects: turnOff",
                "power -> playing, normal | effects: turnOn, rewind, startPlaying, resetVolume",
                "pause -> paused, normal | effects: startPause",
                "up -> paused, loud | effects: -",
                "halt -> off | effects: turnOff",
                "back -> playing, normal | effects: turnOn, rewind, startPlaying, resetVolume",
                "pause -> paused, normal | effects: startPause",
                "restart -> playing, normal | effects: turnOff, turnOn, rewind, startPlaying, resetVolume"
            ], "\(lines)")
        // The same on the W3C-literal oracle, from the spec as written.
        let machine = try #require(result.graphs.first?.machine)
        var oracle = try StatechartOracle(try NestedChart.chart(machine, program), conditions: [])
        var logged = [oracle.takeLog()]
        for event in ["back", "halt", "power", "pause", "up", "halt", "back", "pause", "restart"] {
            try oracle.send(event)
            logged.append(oracle.takeLog())
        }
        #expect(
            logged.map { $0.joined(separator: ", ") }
                == lines.map {
                    let effects = $0.components(separatedBy: "effects: ")[1]
                    return effects == "-" ? "" : effects
                })
    }

    @Test func enteringEntersEveryRegionAndLeavingLeavesThemInReverse() throws {
        #expect(
            try Self.run([.event("start"), .event("lost"), .event("sessionExpired")]) == [
                "start -> welcome | effects: -",
                "start -> home, online | effects: enterArea, enterNavigation, enterHome, enterOnline",
                "lost -> home, offline | effects: leaveOnline, lose",
                "sessionExpired -> reauth | effects: leaveHome, leaveNavigation, leaveArea"
            ])
    }

    @Test func aTargetInOneRegionEntersTheOthersThroughTheirInitial() throws {
        #expect(
            try Self.run([.event("startInSettings")]).last
                == "startInSettings -> settings, online | effects: enterArea, enterNavigation, enterOnline")
    }

    @Test func regionsTakeOneEventTogether() throws {
        // `finish` ends both regions in one step; then the parallel state's `done` leaves it.
        #expect(
            try Self.run([.event("start"), .event("finish")]).last
                == "finish -> welcome | effects: leaveOnline, leaveHome, leaveNavigation, leaveArea")
    }

    @Test func aRegionThatEndsWaitsForTheOthers() throws {
        let lines = try Self.run([.event("start"), .event("open"), .event("finish"), .event("back"), .event("finish")])
        #expect(lines[3] == "finish -> settings, connectivityDone | effects: leaveOnline")
        // An ended region ignores events; the others go on.
        #expect(lines[4] == "back -> home, connectivityDone | effects: enterHome")
        #expect(lines[5] == "finish -> welcome | effects: leaveHome, leaveNavigation, leaveArea")
    }

    @Test func aRegionsOwnHandlerOverridesTheParallelStates() throws {
        // `settings` handles `signOut` itself: its region goes home, and the parallel state's
        // `signOut` is not taken by the other region either.
        #expect(
            try Self.run([.event("start"), .event("open"), .event("signOut")]).last
                == "signOut -> home, online | effects: enterHome")
        // From `home`, no region handles it: the parallel state's is taken once.
        #expect(
            try Self.run([.event("start"), .event("signOut")]).last
                == "signOut -> welcome | effects: leaveOnline, leaveHome, leaveNavigation, leaveArea")
    }

    @Test func aRegionRestartsAlone() throws {
        #expect(
            try Self.run([.event("start"), .event("open"), .event("lost"), .event("restart")]).last
                == "restart -> home, offline | effects: leaveNavigation, enterNavigation, enterHome")
    }

    @Test func aDeepHistoryInARegionResumesItAndEntersTheOthersAfresh() throws {
        #expect(
            try Self.run([
                .event("start"), .event("open"), .event("lost"), .event("sessionExpired"), .event("signedInAgain")
            ]).last == "signedInAgain -> settings, online | effects: enterArea, enterNavigation, enterOnline")
    }

    @Test func everyRegionsTimersAreArmedAndFireByName() throws {
        let result = SpecChecker().check(SourceFile(path: "app.yaml", text: Self.spec))
        let program = try #require(
            SpecGeneration.programs(result, diagnostics: result.diagnostics)?.first)
        let lines = try Simulation(program: program).run([
            .event("start"), .event("lost"), .compoundTimeout("offline"), .compoundTimeout("signedIn")
        ])
        #expect(
            lines[2]
                == "lost -> home, offline | effects: leaveOnline, lose | timeout: signedIn 1800000ms -> welcome, offline 5000ms -> online"
        )
        #expect(
            lines[3]
                == "@timeout(offline) -> home, online | effects: enterOnline | timeout: signedIn 1800000ms -> welcome")
        #expect(
            lines[4]
                == "@timeout(signedIn) -> welcome | effects: leaveOnline, leaveHome, leaveNavigation, leaveArea | timeout: -"
        )
        // `@timeout` fires the first state's own timeout: `home` has none, `offline` is not first.
        #expect(
            try Simulation(program: program).run([.event("start"), .event("lost"), .timeout]).last?.hasPrefix(
                "@timeout -> home, offline (ignored) |") == true)
    }

    @Test func theJSONTraceListsTheConfiguration() throws {
        let result = SpecChecker().check(SourceFile(path: "app.yaml", text: Self.spec))
        let program = try #require(
            SpecGeneration.programs(result, diagnostics: result.diagnostics)?.first)
        let json = try Simulation(program: program).json([.event("start"), .event("lost")])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let steps = try #require(document["steps"] as? [[String: Any]])
        #expect(steps[2]["configuration"] as? [String] == ["home", "offline"])
        #expect(
            steps[2]["active"] as? [String] == ["signedIn", "navigation", "home", "connectivity", "offline"])
        let timeouts = try #require(steps[2]["timeouts"] as? [[String: Any]])
        #expect(timeouts.map { $0["compound"] as? String } == ["signedIn", nil])
        #expect(timeouts.map { $0["state"] as? String } == [nil, "offline"])
    }

    // MARK: Persistence

    /// A persisted machine with a parallel state whose second region holds another.
    static let storedSpec = """
        flowspec: 1
        machines:
          Stored:
            initial: welcome
            persist: { rawValue: string }
            effects: [enterArea, enterHome, enterSync, enterOnline]
            states:
              welcome: { kind: input, on: { start: area } }
              area:
                entry: [enterArea]
                on: { signOut: welcome }
                parallel:
                  navigation:
                    initial: home
                    states:
                      home: { kind: input, entry: [enterHome], on: { open: settings } }
                      settings: { kind: input, on: { back: home } }
                  background:
                    initial: idle
                    states:
                      idle: { kind: input, on: { sync: syncing } }
                      syncing:
                        entry: [enterSync]
                        on: { synced: idle }
                        parallel:
                          upload:
                            initial: queued
                            states:
                              queued: { kind: input, on: { send: sending } }
                              sending: { kind: input, on: { sent: queued } }
                          connectivity:
                            initial: online
                            states:
                              online: { kind: input, entry: [enterOnline], on: { lost: offline } }
                              offline: { kind: input, on: { found: online } }
        """

    static func runStored(_ inputs: [Simulation.Step], restoring: String?? = nil) throws -> [String] {
        let result = SpecChecker().check(SourceFile(path: "stored.yaml", text: storedSpec))
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let programs = try #require(SpecGeneration.programs(result, diagnostics: result.diagnostics))
        return try Simulation(program: programs[0]).run(inputs, restoring: restoring)
            .map(NestedMachineTests.stateAndEffects)
    }

    /// A relaunch stores the flow's state and, per region a restore needs, the first state the
    /// flow is in inside it; restoring enters every state stored, each region's `entry` effects
    /// in document order.
    @Test func aRelaunchRestoresEveryRegionWhereItWas() throws {
        let inputs = ["start", "open", "sync", "send", "lost"].map(Simulation.Step.event) + [.relaunch]
        #expect(
            try Self.runStored(inputs).suffix(2) == [
                "lost -> settings, sending, offline | effects: -",
                "restore(settings, background=sending, connectivity=offline) -> settings, sending, offline | effects: enterArea, enterSync"
            ])
    }

    /// **Decision:** the flow's own state places the regions around it, then each region, in
    /// document order, that holds none of the states placed so far takes its stored state (an
    /// outer region's state places the regions inside it); a value outside its region, or for
    /// a region that is not active, is ignored; the other regions start at their `initial`.
    @Test(arguments: [
        ("home, navigation=settings, upload=sending, background=idle", "home, idle | effects: enterArea, enterHome"),
        (
            "home, background=queued, upload=sending",
            "home, queued, online | effects: enterArea, enterHome, enterSync, enterOnline"
        ),
        ("home, connectivity=settings", "home, idle | effects: enterArea, enterHome"),
        ("welcome, background=sending", "welcome | effects: -"),
        // A value stored before the machine had regions: a state inside one.
        ("offline", "home, queued, offline | effects: enterArea, enterHome, enterSync")
    ])
    func eachRegionTakesItsStoredStateUnlessPlacedAlready(stored: String, restored: String) throws {
        #expect(try Self.runStored([], restoring: .some(stored)) == ["restore(\(stored)) -> \(restored)"])
    }
}

/// Random machines with a parallel state: a nested machine as ``NestedSpecs`` draws it, beside
/// a parallel state `p0` whose regions are more such machines, renamed (`r1s0`, `r1g0`, …). A
/// region's states go only to states of the region; the parallel state and its regions go to
/// the outer machine's `input` and `terminal` states, so that regions conflict now and then.
enum ParallelSpecs {
    typealias Gen = DifferentialSpecs

    /// A nested machine that checks without errors on its own; as a region (`region`), with
    /// no `on` of its own, no `persist` or `sequences`, and starting at a state directly inside.
    static func valid(name: String, region: Bool, _ random: inout Gen.SplitMix64) -> NestedSpecs.Machine {
        while true {
            var machine = NestedSpecs.draw(name: name, &random)
            if region {
                machine.flat.machineWide = []
                machine.flat.persist = nil
                machine.flat.sequence = nil
                let first = machine.top.first { NestedSpecs.holds($0, machine.initial) } ?? machine.top[0]
                machine.initial = NestedSpecs.name(first)
            }
            let result = SpecChecker().check(SourceFile(path: "m.yaml", text: NestedSpecs.specText([machine])))
            if !result.diagnostics.contains(where: { $0.severity == .error }) { return machine }
        }
    }

    /// A machine with a parallel state; `mutate` changes each of its parts once drawn valid.
    static func draw(
        name: String, mutate: ((inout NestedSpecs.Machine, inout Gen.SplitMix64) -> Void)? = nil,
        _ random: inout Gen.SplitMix64
    ) -> String {
        var outer = valid(name: name, region: false, &random)
        var regions = (0..<(2 + random.below(2))).map { valid(name: "R\($0)", region: true, &random) }
        if let mutate {
            mutate(&outer, &random)
            for index in regions.indices { mutate(&regions[index], &random) }
        }
        let free = outer.flat.states.indices.filter {
            outer.flat.states[$0].kind == .input || outer.flat.states[$0].kind == .terminal
        }.map { "s\($0)" }
        outer.flat.effectCount = ([outer] + regions).map(\.flat.effectCount).max() ?? 0
        outer.flat.conditionCount = ([outer] + regions).map(\.flat.conditionCount).max() ?? 0
        outer.flat.eventCount = ([outer] + regions).map(\.flat.eventCount).max() ?? 1
        for index in regions.indices { regions[index].flat.defaultKind = outer.flat.defaultKind }
        // The way in: a transition of a top-level compound state (the draw has one at least).
        for (position, member) in outer.top.enumerated() {
            guard case .compound(var written) = member,
                let event = random.shuffled(Array(0..<outer.flat.eventCount)).first(where: { event in
                    !written.on.contains { $0.event == event }
                })
            else { continue }
            written.on.append((event, "p0"))
            outer.top[position] = .compound(written)
            break
        }
        // Now and then a shallow history state beside the regions (`hp0`), which a top-level
        // compound state's transition goes to, from a side generator of its own.
        var back = Gen.SplitMix64(seed: random.state ^ 0xBAC0_0017)
        var history: String?
        if back.percent(40) {
            history =
                back.percent(50)
                ? "          hp0: { kind: history }\n" : "          hp0: { kind: history, default: r2 }\n"
            for (position, member) in outer.top.enumerated() {
                guard case .compound(var written) = member,
                    let event = back.shuffled(Array(0..<outer.flat.eventCount)).first(where: { event in
                        !written.on.contains { $0.event == event }
                    })
                else { continue }
                written.on.append((event, "hp0"))
                outer.top[position] = .compound(written)
                break
            }
        }
        var text = NestedSpecs.yaml(outer)
        text += "      p0:\n"
        var unused = Gen.SplitMix64(seed: 0)
        text += decoration(outer.flat, free: free, done: true, &random, indent: "        ", &unused)
        text += "        parallel:\n"
        // Now and then a region's `initial` runs effects, from a side generator of its own.
        var wayIn = Gen.SplitMix64(seed: random.state ^ 0x1417_1A1E)
        // Now and then a region's transition reads where another region is (`in:`, `notIn:`).
        var reads = Gen.SplitMix64(seed: random.state ^ 0x15EA_D0)
        for (index, region) in regions.enumerated() {
            text += "          r\(index + 1):\n"
            if outer.flat.effectCount > 0, wayIn.percent(30) {
                let effect = wayIn.below(outer.flat.effectCount)
                text += rename(
                    "            initial: { to: \(region.initial), effects: [f\(effect)] }\n", region: index + 1)
            } else {
                text += rename("            initial: \(region.initial)\n", region: index + 1)
            }
            let other = "r\((index + 1) % regions.count + 1)s0"
            let read = reads.percent(40) ? (reads.percent(50) ? "in: " : "notIn: ") + other : nil
            text += decoration(
                outer.flat, free: free, done: false, &random, indent: "            ", read: read, &reads)
            text += "            states:\n"
            let members = region.top.map { NestedSpecs.member(region, $0, indent: "              ") }.joined()
            text += rename(members, region: index + 1)
        }
        return text + (history ?? "")
    }

    /// A parallel state's or region's `entry`, `exit`, `on`, `timeout` and (for a parallel
    /// state) `done`, now and then, going to the outer machine's free states.
    private static func decoration(
        _ flat: Gen.Machine, free: [String], done: Bool, _ random: inout Gen.SplitMix64, indent: String,
        read: String? = nil, _ side: inout Gen.SplitMix64
    ) -> String {
        var text = ""
        if flat.effectCount > 0 {
            if random.percent(50) { text += "\(indent)entry: [f\(random.below(flat.effectCount))]\n" }
            if random.percent(50) { text += "\(indent)exit: [f\(random.below(flat.effectCount))]\n" }
        }
        guard !free.isEmpty else { return text }
        if random.percent(50) {
            text += "\(indent)on:\n"
            for (position, event) in random.shuffled(Array(0..<flat.eventCount)).prefix(1 + random.below(2))
                .enumerated()
            {
                let target = random.pick(free)
                // A guard on where another region is, with a way on when it fails (drawn apart).
                if position == 0, let read {
                    text += "\(indent)  e\(event): [{ to: \(target), \(read) }, \(side.pick(free))]\n"
                } else {
                    text += "\(indent)  e\(event): \(target)\n"
                }
            }
        }
        if random.percent(35) {
            text += "\(indent)timeout: { after: \(random.pick(Gen.durations)), to: \(random.pick(free)) }\n"
        }
        if done, random.percent(70) {
            let last = random.pick(free)
            // Now and then a condition and effects first, from a side generator: the machines
            // drawn before `done` had them are drawn alike.
            var side = Gen.SplitMix64(seed: random.state ^ 0xD0_4E)
            if flat.conditionCount > 0, side.percent(40) {
                let effect = flat.effectCount > 0 ? ", effects: [f\(side.below(flat.effectCount))]" : ""
                let guardKey = side.percent(50) ? "if" : "unless"
                text +=
                    "\(indent)done: [{ to: \(side.pick(free)), \(guardKey): c\(side.below(flat.conditionCount))\(effect) }, \(last)]\n"
            } else {
                text += "\(indent)done: \(last)\n"
            }
        }
        return text
    }

    /// Renames a region's own states in what was written for it: `s3` becomes `rNs3`, and so on.
    private static func rename(_ text: String, region index: Int) -> String {
        var renamed = text
        for prefix in ["s", "g", "h"] {
            renamed = renamed.replacingOccurrences(
                of: "\\b\(prefix)([0-9]+)\\b", with: "r\(index)\(prefix)$1", options: .regularExpression)
        }
        return renamed
    }

    /// Stored texts a persisted machine restores from (none for another): nothing stored, and
    /// a state with values for some of its regions, mostly states inside them, and for some of
    /// its memory.
    static func restoreTexts(_ program: FlowProgram, _ random: inout Gen.SplitMix64) -> [String?] {
        guard program.persist != nil else { return [] }
        func value(_ state: Int) -> String { ProgramRun.storedValue(of: state, program) }
        func inside(_ compound: FlowProgram.Compound) -> Int {
            compound.states.lowerBound + random.below(compound.states.count)
        }
        var texts: [String?] = [nil]
        for _ in 0..<4 {
            var text = value(random.below(program.states.count))
            for region in program.storedRegions where random.percent(70) {
                let state = random.percent(80) ? inside(program.compounds[region]) : random.below(program.states.count)
                text += ", \(program.compounds[region].name)=\(value(state))"
            }
            for compound in program.compounds where compound.memorySlot != nil && random.percent(50) {
                text += "; \(compound.name)=\(value(inside(compound)))"
            }
            texts.append(text)
        }
        return texts
    }

    /// Random inputs: events (those the active states handle more often), conditions, and the
    /// timeouts armed, fired by the name of their state or compound state.
    static func drawSteps(
        _ program: FlowProgram, count: Int, restoring: String?? = nil, _ random: inout Gen.SplitMix64
    ) -> [Simulation.Step] {
        let conditions = program.conditions.map(\.name)
        var values = [Bool](repeating: false, count: conditions.count)
        var steps: [Simulation.Step] = []
        var runtime =
            restoring.map { ProgramRun.restore(program, rawValue: $0, conditions: values).0 }
            ?? ProgramRun.start(program, conditions: values).0
        var taken = 0
        while taken < count {
            if !conditions.isEmpty && random.percent(20) {
                let index = random.below(conditions.count)
                values[index].toggle()
                steps.append(.condition(conditions[index], values[index]))
                continue
            }
            var inputs: [Simulation.Step] = program.events.map { .event($0.name) }
            for state in runtime.states where program.states[state].kind != .terminal {
                inputs += program.states[state].transitions.map { .event(program.events[$0.event].name) }
            }
            for armed in runtime.armedTimeouts(program) {
                guard let owner = runtime.timeoutOwner(forVisit: armed.visit, program) else { continue }
                let name = owner.compound.map { program.compounds[$0].name } ?? program.states[owner.state].name
                inputs += [.compoundTimeout(name), .compoundTimeout(name)]
            }
            guard !inputs.isEmpty else { break }  // a machine with no event, whose timers are done
            let input = random.pick(inputs)
            steps.append(input)
            switch input {
            case .event(let name):
                _ = runtime.send(program.events.firstIndex { $0.name == name }!, program, conditions: values)
            case .compoundTimeout(let name):
                let visit = runtime.armedTimeouts(program).first { armed in
                    guard let owner = runtime.timeoutOwner(forVisit: armed.visit, program) else { return false }
                    return (owner.compound.map { program.compounds[$0].name } ?? program.states[owner.state].name)
                        == name
                }?.visit
                if let visit { _ = runtime.fireTimeout(visit: visit, program, conditions: values) }
            case .condition, .relaunch, .timeout, .conditionsChanged:
                break
            }
            taken += 1
        }
        return steps
    }
}
