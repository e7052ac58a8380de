import FlowSpecTestSupport
import Foundation
import Testing

@testable import FlowSpecCore

/// flowspec's semantics of compound states held to the W3C algorithm (``StatechartOracle``) and
/// the generated code held to flowspec's semantics, on random nested machines.
///
/// The oracle's chart is made from the spec as written (``NestedChart``), not from the
/// lowered program: transitions where they are declared, targets as written (a compound
/// state's `initial` chain is the oracle's to follow), `done` as `done.state.ID`, `entry` and
/// `exit` as `onentry` and `onexit`. What only flowspec says is stated once, in SCXML's terms,
/// in ``NestedChart``.
@Suite("Nested machines: semantics and generated code")
struct NestedMachineTests {
    typealias Gen = DifferentialSpecs

    /// Random valid nested machines, checked by the real checker, with their decoded model and
    /// their program.
    static func machines(seed: UInt64, count: Int) throws -> [(
        spec: NestedSpecs.Machine, model: MachineSpec, program: FlowProgram
    )] {
        var random = Gen.SplitMix64(seed: seed)
        var found: [(NestedSpecs.Machine, MachineSpec, FlowProgram)] = []
        var discarded: [String: Int] = [:]
        var attempts = 0
        while found.count < count {
            attempts += 1
            try #require(attempts < count * 30, "the nested generator keeps drawing invalid machines: \(discarded)")
            let spec = NestedSpecs.draw(name: "N\(found.count)", &random)
            let text = NestedSpecs.specText([spec])
            let result = SpecChecker().check(SourceFile(path: "nested.yaml", text: text))
            let errors = result.diagnostics.filter { $0.severity == .error }
            guard errors.isEmpty else {
                for error in errors { discarded[error.rule.rawValue, default: 0] += 1 }
                continue
            }
            let programs = try #require(SpecGeneration.programs(result, diagnostics: result.diagnostics))
            found.append((spec, result.graphs[0].machine, programs[0]))
        }
        return found
    }

    @Test func theDrawCoversWhatNestingAdds() throws {
        let drawn = try Self.machines(seed: 0x0_4E57, count: 120)
        let programs = drawn.map(\.program)
        #expect(programs.allSatisfy { !$0.compounds.isEmpty })
        #expect(programs.contains { $0.maximumDepth >= 2 })
        #expect(programs.contains { $0.compounds.contains { $0.timeout != nil } })
        #expect(programs.contains { $0.states.contains { !$0.done.isEmpty } })
        #expect(programs.contains { $0.compounds.contains { $0.done.count > 1 } })
        #expect(programs.contains { $0.compounds.contains { $0.done.contains { !$0.effects.isEmpty } } })
        #expect(programs.contains { $0.hasEntryOrExitEffects })
        #expect(
            programs.contains {
                $0.states.contains { $0.scopes.contains { if case .compound = $0 { true } else { false } } }
            })
        #expect(programs.contains { $0.persist != nil })
        #expect(programs.contains { $0.histories.contains(where: \.deep) })
        #expect(programs.contains { $0.histories.contains { !$0.deep } })
        #expect(programs.contains { $0.compounds.contains { !$0.initialEffects.isEmpty } })
        #expect(programs.contains { $0.histories.contains { !$0.defaultEffects.isEmpty } })
        // A transition to a compound state around its source, written as such.
        #expect(
            drawn.contains { drawn in
                drawn.spec.ancestorTargets.contains { leaf, ancestor in
                    NestedSpecs.member(drawn.spec, .leaf(leaf), indent: "").contains(": \(ancestor)\n")
                }
            })
    }

    /// An inherited edge says in 7 bits how many levels up its transition is written: nesting
    /// past that, possible with a raised `--max-depth`, is a located `limit-exceeded`, not a trap.
    @Test func nestingPastTheLimitIsLimitExceeded() throws {
        var lines = ["flowspec: 1", "machines:", "  M:", "    initial: s0", "    on: { reset: s0 }", "    states:"]
        var indent = "      "
        for level in 0...StateDecoder.maximumNesting {
            lines += [indent + "s\(level):", indent + "  states:"]
            indent += "    "
        }
        lines.append(indent + "leaf: { kind: input }")
        var checker = SpecChecker()
        checker.limits.maxDepth = 1_000
        let result = checker.check(SourceFile(path: "deep.yaml", text: lines.joined(separator: "\n") + "\n"))
        let limits = result.diagnostics.filter { $0.rule == .limitExceeded }
        #expect(limits.count == 1)
        #expect(limits.first?.message.contains("over the limit of \(StateDecoder.maximumNesting)") == true)
        // At the `states` key of the state at the limit (its states would be one level too deep).
        #expect(limits.first?.location.line == 8 + 2 * StateDecoder.maximumNesting)
    }

    @Test func everyStepAgreesWithTheW3CAlgorithm() throws {
        var random = Gen.SplitMix64(seed: 0x0_0AC1E)
        var comparison = TraceComparison(expectedSide: "flowspec", actualSide: "oracle")
        for (spec, model, program) in try Self.machines(seed: 0x0_4E57, count: 120) {
            let chart = try NestedChart.chart(model, program)
            for index in 0..<10 {
                let steps = NestedSpecs.drawSteps(program, count: 25, &random)
                let expected = try Simulation(program: program).run(steps)
                    .filter { !$0.hasPrefix("+") && !$0.hasPrefix("-") }.map(Self.stateAndEffects)
                let actual = try NestedChart.run(chart, program, steps)
                comparison.compare(
                    "\(program.name.name)#\(index)", expected: expected, actual: actual,
                    context: "inputs \(Gen.script(steps))\n\(NestedSpecs.specText([spec]))")
            }
        }
        #expect(comparison.compared > 20_000, "only \(comparison.compared) steps were compared")
        #expect(comparison.disagreements.count == 0, "\(comparison.disagreements.summary)")
    }

    /// A trace line without its timeouts and whether the input was ignored: what the oracle can say.
    static func stateAndEffects(_ line: String) -> String {
        let kept = line.range(of: " | timeout: ").map { String(line[..<$0.lowerBound]) } ?? line
        return kept.replacingOccurrences(of: " (ignored) | ", with: " | ")
    }

    @Test func compiledMachinesTraceLikeTheSimulation() throws {
        guard SwiftCompiler.swiftc != nil else {
            Issue.record("swiftc is not on PATH: the test needs the Swift compiler to build the generated code")
            return
        }
        let drawn = try Self.machines(seed: 0x0_C0DE, count: 40)
        let programs = drawn.map(\.program)
        // Every other machine `N…` also as `T…` in the table form, held to the same traces.
        let twins = try Self.tableTwins(drawn.map(\.spec).filter { Self.hasTableTwin($0.flat.name) })
        Self.expectTwinCoverage(twins)
        var random = Gen.SplitMix64(seed: 0x0_D21E)
        var runs: [Gen.Run] = []
        for program in programs {
            let first = runs.count
            for index in 0..<6 {
                let steps = NestedSpecs.drawSteps(program, count: 25, &random)
                runs.append(
                    Gen.Run(
                        machine: program.name.name, key: "\(program.name.name)#\(index)", restoring: nil, steps: steps,
                        expected: try Self.expectedTrace(program, steps)))
            }
            for (offset, raw) in Gen.restoreValues(program, &random).enumerated() {
                let steps = NestedSpecs.drawSteps(program, restoring: .some(raw), count: 10, &random)
                runs.append(
                    Gen.Run(
                        machine: program.name.name, key: "\(program.name.name)#r\(offset)", restoring: .some(raw),
                        steps: steps, expected: try Self.expectedTrace(program, steps, restoring: .some(raw))))
            }
            guard Self.hasTableTwin(program.name.name) else { continue }
            runs += runs[first...].map { run in
                var twin = run
                twin.machine = Gen.tableTwinName(run.machine)
                twin.key = Gen.tableTwinName(run.key)
                return twin
            }
        }
        let lines = runs.flatMap(\.expected)
        #expect(lines.contains { $0.hasPrefix("@timeout(") && !$0.contains("(ignored)") })
        let source = SwiftGenerator.file(for: programs, options: GenerationOptions(sourcePath: "nested.yaml"))
        let tableSource = SwiftGenerator.file(
            for: twins, options: GenerationOptions(sourcePath: "tables.yaml", shape: .tables))
        #expect(tableSource.contains("sharedTable") && !tableSource.contains("switch (state, event)"))
        // Which compound states each state is in, as the generated `contains` says.
        var membership = ""
        var expectedMembership: [String] = []
        for program in programs + twins {
            let name = program.name.swiftName.code
            membership += """
                for state in \(name).State.allCases {
                    for compound in \(name).Compound.allCases where \(name).contains(compound, state) {
                        print("isIn|\(program.name.name) \\(\(name).name(ofState: state)) \\(\(name).name(ofCompound: compound))")
                    }
                }

                """
            for state in program.states {
                for compound in program.compounds.indices where state.ancestors.contains(compound) {
                    expectedMembership.append("\(program.name.name) \(state.name) \(program.compounds[compound].name)")
                }
            }
        }
        let files = [
            "nested.swift": source, "tables.swift": tableSource,
            "main.swift": Gen.driver(programs: programs + twins, runs: runs, visits: true) + membership
        ]
        let actual = try Gen.runDriver(files)
        #expect((actual["isIn"] ?? []).sorted() == expectedMembership.sorted())
        var comparison = TraceComparison(expectedSide: "simulation", actualSide: "generated code")
        for run in runs {
            comparison.compare(
                run.key, expected: run.expected, actual: actual[run.key] ?? [],
                context: "inputs \(Gen.script(run.steps))")
        }
        #expect(comparison.compared > 7_000, "only \(comparison.compared) lines were compared")
        #expect(comparison.disagreements.count == 0, "\(comparison.disagreements.summary)")
    }

    /// A machine where each step's `keep` shows: a retry used up goes from `left` to `right`
    /// (keeping `outer`, where its step keeps `left` too), plain steps keep two compound
    /// states, compound timeouts lead in and out, and a terminal state's `done` leaves `outer`.
    static let keepsSpec = """
        flowspec: 1
        machines:
          NAME:
            initial: outer
            events: [go, fail, finish, home]
            effects: [enterOuter, leaveOuter, enterLeft, enterRight, leaveRight]
            on: { home: away }
            states:
              outer:
                initial: left
                entry: [enterOuter]
                exit: [leaveOuter]
                timeout: { after: 5m, to: away }
                done: away
                states:
                  left:
                    entry: [enterLeft]
                    timeout: { after: 1m, to: right }
                    states:
                      a1:
                        kind: task
                        on:
                          fail: { to: a1, retry: { max: 1, then: b1 } }
                          go: a2
                        timeout: { after: 10s, to: a2 }
                      a2: { kind: input, on: { go: b1, finish: end } }
                  right:
                    entry: [enterRight]
                    exit: [leaveRight]
                    timeout: { after: 2m, to: a1 }
                    states:
                      b1: { kind: input, on: { go: a1 } }
                  end: { kind: terminal }
              away: { kind: input, on: { go: a1 } }

        """

    @Test func bothFormsLeaveAndEnterWhatEachStepSays() throws {
        guard SwiftCompiler.swiftc != nil else {
            Issue.record("swiftc is not on PATH: the test needs the Swift compiler to build the generated code")
            return
        }
        var programs: [FlowProgram] = []
        for name in ["KeepsS", "KeepsT"] {
            let text = Self.keepsSpec.replacingOccurrences(of: "NAME", with: name)
            let result = SpecChecker().check(SourceFile(path: "\(name).yaml", text: text))
            programs += try #require(
                SpecGeneration.programs(result, diagnostics: result.diagnostics),
                "\(FlowSpecCoreTestsSupport.describe(result))")
        }
        let fellBack = Self.candidatesOf(programs[1]).contains { candidate in
            candidate.retry.map { $0.keep != candidate.keep } == true
        }
        #expect(fellBack, "no retry whose way out keeps other compound states than its step")
        let script: [Simulation.Step] = [
            .event("fail"), .event("fail"), .event("go"), .event("go"), .event("finish"), .event("go"), .timeout,
            .compoundTimeout("left"), .compoundTimeout("right"), .event("fail"), .event("fail"), .event("home"),
            .event("go"), .compoundTimeout("outer")
        ]
        var random = Gen.SplitMix64(seed: 0x0_4EE9)
        var runs: [Gen.Run] = []
        for index in 0..<30 {
            let steps = index == 0 ? script : NestedSpecs.drawSteps(programs[0], count: 20, &random)
            let expected = try Self.expectedTrace(programs[0], steps)
            for program in programs {
                runs.append(
                    Gen.Run(
                        machine: program.name.name, key: "\(program.name.name)#\(index)", restoring: nil, steps: steps,
                        expected: expected))
            }
        }
        let files = [
            "switches.swift": SwiftGenerator.file(
                for: [programs[0]], options: GenerationOptions(sourcePath: "KeepsS.yaml", shape: .switches)),
            "tables.swift": SwiftGenerator.file(
                for: [programs[1]], options: GenerationOptions(sourcePath: "KeepsT.yaml", shape: .tables)),
            "main.swift": Gen.driver(programs: programs, runs: runs, visits: true)
        ]
        let actual = try Gen.runDriver(files)
        var comparison = TraceComparison(expectedSide: "simulation", actualSide: "generated code")
        for run in runs {
            comparison.compare(
                run.key, expected: run.expected, actual: actual[run.key] ?? [],
                context: "inputs \(Gen.script(run.steps))")
        }
        #expect(comparison.compared > 900, "only \(comparison.compared) lines were compared")
        #expect(comparison.disagreements.count == 0, "\(comparison.disagreements.summary)")
    }

    /// Every name that is tricky elsewhere, and the names the nesting code declares, as a
    /// compound state holding one state of a chain.
    static let trickyCompoundNames = Set(
        HostileNameGenerationTests.trickyNames + [
            "Compound", "compound", "depth", "maximumDepth", "contains", "entryEffects", "outerTimeout",
            "outerTimeoutStep", "outerGroup", "nesting", "compounds", "outer", "entries", "nestingStart",
            "compoundsStart", "outerStart", "entriesStart", "sharedTable", "tables", "Tables"
        ]
    ).sorted()

    @Test(
        "tricky names of compound states compile and read back in both forms",
        arguments: [GenerationOptions.Shape.switches, .tables])
    func trickyCompoundNames(shape: GenerationOptions.Shape) throws {
        let names = Self.trickyCompoundNames
        var spec = "flowspec: 1\nmachines:\n  Tricky:\n    initial: l0\n    events: [go]\n    states:\n"
        for (index, name) in names.enumerated() {
            let next = index + 1 < names.count ? "{ kind: input, on: { go: l\(index + 1) } }" : "{ kind: terminal }"
            spec += "      \"\(name)\":\n        states:\n          l\(index): \(next)\n"
        }
        let result = SpecChecker().check(SourceFile(path: "tricky.yaml", text: spec))
        #expect(result.diagnostics.isEmpty, "\(FlowSpecCoreTestsSupport.describe(result))")
        guard SwiftCompiler.swiftc != nil else {
            Issue.record("swiftc is not on PATH: this test compiles the generated code")
            return
        }
        let programs = try #require(SpecGeneration.programs(result, diagnostics: result.diagnostics))
        let swift = SwiftGenerator.file(
            for: programs, options: GenerationOptions(sourcePath: "tricky.yaml", shape: shape))
        // Walks the chain; in each state, the compound states it is in must be the one around it.
        let driver = #"""
            var (machine, _) = Tricky.Machine.start()
            var names: [Swift.String] = []
            var inside = 0
            for compound in Tricky.Compound.allCases {
                names.append(Tricky.name(ofCompound: compound))
                if Tricky.Compound(rawValue: Tricky.name(ofCompound: compound)) != compound { Swift.print("raw", compound) }
            }
            for index in names.indices {
                for (position, compound) in Tricky.Compound.allCases.enumerated() where machine.isIn(compound) {
                    if position == index && Tricky.compound(around: machine.state, atDepth: 0) == compound { inside += 1 }
                }
                machine.send(.go)
            }
            Swift.print(names.joined(separator: " "))
            Swift.print(inside)

            """#
        let program = try SwiftCompiler.compile(["Tricky.swift": swift, "main.swift": driver])
        let run = try SwiftCompiler.run(program.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == names.joined(separator: " ") + "\n\(names.count)\n")
    }

    /// The simulation's trace of `steps`, each line ending with the visits the reference
    /// runtime is at (``DifferentialSpecs/visits(_:_:)``): a step that leaves and enters the
    /// wrong compound states, with no effect to show it, changes them.
    static func expectedTrace(_ program: FlowProgram, _ steps: [Simulation.Step], restoring: String?? = nil) throws
        -> [String]
    {
        let lines = try Simulation(program: program).run(steps, restoring: restoring)
        let leading = steps.prefix { if case .condition = $0 { true } else { false } }
        var conditions = [Bool](repeating: false, count: program.conditions.count)
        func set(_ name: String, _ value: Bool) {
            conditions[program.conditions.firstIndex { $0.name == name }!] = value
        }
        for case .condition(let name, let value) in leading { set(name, value) }
        var runtime =
            restoring.map { ProgramRun.restore(program, rawValue: $0, conditions: conditions).0 }
            ?? ProgramRun.start(program, conditions: conditions).0
        var visits = [Gen.visits(runtime, program)]
        for step in steps.dropFirst(leading.count) {
            switch step {
            case .condition(let name, let value):
                set(name, value)
                continue
            case .event(let name):
                _ = runtime.send(program.events.firstIndex { $0.name == name }!, program, conditions: conditions)
            case .timeout:
                _ = runtime.fireTimeout(visit: runtime.visit, program, conditions: conditions)
            case .compoundTimeout(let name):
                let compound = program.compounds.firstIndex { $0.name == name }!
                let state = program.states[runtime.state]
                let depth = state.outerTimeouts.first { state.compound(atDepth: $0.depth) == compound }?.depth
                _ = runtime.fireTimeout(
                    visit: depth.map { runtime.outerVisits[$0] } ?? -1, program, conditions: conditions)
            case .relaunch, .conditionsChanged:
                throw Simulation.Failure(description: "\(step) is not drawn here")
            }
            visits.append(Gen.visits(runtime, program))
        }
        try #require(lines.count == visits.count)
        return zip(lines, visits).map { "\($0) | \($1)" }
    }

    /// Every candidate a machine's states may take: on events, `always`, timeouts, the
    /// compound states' timeouts.
    static func candidatesOf(_ program: FlowProgram) -> [FlowProgram.Candidate] {
        program.states.flatMap { state in
            state.transitions.flatMap(\.candidates) + state.always + (state.timeout.map { [$0.candidate] } ?? [])
                + state.outerTimeouts.map(\.timeout.candidate)
        }
    }

    /// Whether machine `N<n>` also goes through the table form: every other one.
    static func hasTableTwin(_ name: String) -> Bool { (Int(name.dropFirst()) ?? 1) % 2 == 0 }

    /// The programs of the machines renamed `T…`, checked again.
    static func tableTwins(_ specs: [NestedSpecs.Machine]) throws -> [FlowProgram] {
        let renamed = specs.map { spec in
            var twin = spec
            twin.flat.name = Gen.tableTwinName(spec.flat.name)
            return twin
        }
        let result = SpecChecker().check(SourceFile(path: "tables.yaml", text: NestedSpecs.specText(renamed)))
        let programs = try #require(
            SpecGeneration.programs(result, diagnostics: result.diagnostics),
            "\(FlowSpecCoreTestsSupport.describe(result))")
        try #require(programs.count == specs.count)
        return programs
    }

    /// The table form's twins must meet what its nesting records: compound timeouts, `done`,
    /// `entry` and `exit` effects, steps that keep compound states (plain rows and groups),
    /// retries, and persistence.
    static func expectTwinCoverage(_ twins: [FlowProgram]) {
        let candidates = candidatesOf
        #expect(twins.contains { $0.maximumDepth >= 2 })
        #expect(twins.contains { $0.states.contains { !$0.outerTimeouts.isEmpty } })
        #expect(twins.contains { $0.states.contains { !$0.done.isEmpty } })
        #expect(twins.contains { $0.hasEntryOrExitEffects })
        #expect(twins.contains { program in candidates(program).contains { $0.keep > 0 && $0.effects.isEmpty } })
        #expect(
            twins.contains { program in
                candidates(program).contains { candidate in candidate.retry.map { $0.keep != candidate.keep } == true }
            })
        #expect(twins.contains { $0.persist?.rawValue == .int } && twins.contains { $0.persist?.rawValue == .string })
        #expect(twins.contains { !$0.histories.isEmpty })
    }
}

/// Random nested machines: a random flat machine of ``DifferentialSpecs`` whose states are then
/// grouped into compound states (up to three deep), which get `initial`, `entry`, `exit`, `on`,
/// a timeout and `done` at random; leaves get `entry` and `exit` now and then.
enum NestedSpecs {
    typealias Gen = DifferentialSpecs

    /// A compound state `gN` and what is inside it.
    struct Compound {
        var name: String
        var members: [Member] = []
        var initial: String?
        var entry: [Int] = []
        var exit: [Int] = []
        var on: [(event: Int, target: String)] = []
        var timeout: (after: String, target: String)?
        /// `done`'s last candidate, taken when no branch before it holds.
        var done: String?
        /// `done`'s candidates before the last, each with a condition (`unless` when negated).
        var doneBranches: [(target: String, condition: Int, negated: Bool, effects: [Int])] = []
        /// The last candidate's effects.
        var doneEffects: [Int] = []
        /// The effects of its `initial`, run when it is entered through it.
        var initialEffects: [Int] = []
    }

    /// A history state `hN` and what it resumes.
    struct History {
        var name: String
        var deep: Bool
        var defaultTarget: String?
        /// The effects of its `default`, run when it takes it.
        var defaultEffects: [Int] = []
    }

    indirect enum Member {
        case leaf(Int)
        case compound(Compound)
        case history(History)
    }

    struct Machine {
        var flat: Gen.Machine
        var top: [Member]
        var initial: String
        var leafEntry: [Int: [Int]] = [:]
        var leafExit: [Int: [Int]] = [:]
        /// Leaves written as other lines (a state that runs a machine, say), by index.
        var writtenAs: [Int: [String]] = [:]
        /// Leaves whose first plain event transition goes to a compound state around them
        /// instead, which leaves and enters that compound state (SCXML's transition domain).
        var ancestorTargets: [Int: String] = [:]
    }

    static func draw(name: String, _ random: inout Gen.SplitMix64) -> Machine {
        let flat = Gen.drawMachine(name: name, &random)
        let kinds = flat.states.map(\.kind)
        // The states a compound state's own transitions may go to without making loops of
        // task and choice states: input and terminal states.
        let free = kinds.indices.filter { kinds[$0] == .input || kinds[$0] == .terminal }.map { "s\($0)" }
        var compounds = 0
        var stack: [Compound] = []
        var top: [Member] = []
        func close(_ random: inout Gen.SplitMix64) {
            var compound = stack.removeLast()
            decorate(&compound, flat: flat, free: free, &random)
            if stack.isEmpty {
                top.append(.compound(compound))
            } else {
                stack[stack.count - 1].members.append(.compound(compound))
            }
        }
        for index in flat.states.indices {
            if stack.count < 3, random.percent(30) {
                stack.append(Compound(name: "g\(compounds)"))
                compounds += 1
            }
            if stack.isEmpty { top.append(.leaf(index)) } else { stack[stack.count - 1].members.append(.leaf(index)) }
            while !stack.isEmpty, random.percent(30) { close(&random) }
        }
        while !stack.isEmpty { close(&random) }
        if compounds == 0 {
            // At least one compound state: around everything after the first state.
            var compound = Compound(name: "g0", members: Array(top.dropFirst()))
            decorate(&compound, flat: flat, free: free, &random)
            top = [top[0], .compound(compound)]
        }
        var histories: [String] = []
        top = top.map { addHistories($0, &histories, &random) }
        if !histories.isEmpty { top = top.map { retarget($0, to: histories, &random) } }
        var machine = Machine(flat: flat, top: top, initial: "s\(flat.initial)")
        if flat.effectCount > 0 {
            for index in flat.states.indices {
                if random.percent(20) { machine.leafEntry[index] = [random.below(flat.effectCount)] }
                if random.percent(20) { machine.leafExit[index] = [random.below(flat.effectCount)] }
            }
        }
        // Now and then the machine starts in the compound state around its initial state.
        if random.percent(30), let around = compound(around: flat.initial, in: top) { machine.initial = around }
        var side = Gen.SplitMix64(seed: random.state ^ 0xA2CE_5702)
        func retargetToAncestors(_ members: [Member], around: [String]) {
            for member in members {
                switch member {
                case .leaf(let index) where !around.isEmpty && side.percent(25):
                    machine.ancestorTargets[index] = side.pick(around)
                case .compound(let compound): retargetToAncestors(compound.members, around: around + [compound.name])
                default: break
                }
            }
        }
        retargetToAncestors(top, around: [])
        return machine
    }

    private static func decorate(
        _ compound: inout Compound, flat: Gen.Machine, free: [String], _ random: inout Gen.SplitMix64
    ) {
        let names = compound.members.map(name)
        if random.percent(50) { compound.initial = random.pick(names) }
        if flat.effectCount > 0 {
            if random.percent(40) { compound.entry = [random.below(flat.effectCount)] }
            if random.percent(40) { compound.exit = [random.below(flat.effectCount)] }
        }
        let targets = free + [compound.name]
        if random.percent(50) {
            for event in random.shuffled(Array(0..<flat.eventCount)).prefix(1 + random.below(2)) {
                compound.on.append((event, random.pick(targets)))
            }
        }
        if random.percent(35) { compound.timeout = (random.pick(Gen.durations), random.pick(targets)) }
        let terminals = compound.members.contains {
            if case .leaf(let index) = $0 { flat.states[index].kind == .terminal } else { false }
        }
        if terminals, random.percent(70), !free.isEmpty {
            compound.done = random.pick(free)
            // Conditions and effects on `done` from a side generator: the machines drawn
            // before they existed are drawn alike.
            var side = Gen.SplitMix64(seed: random.state ^ 0xD0_4E_D0_4E)
            if flat.conditionCount > 0, side.percent(40) {
                for _ in 0..<(1 + side.below(2)) {
                    let effects = flat.effectCount > 0 && side.percent(40) ? [side.below(flat.effectCount)] : []
                    compound.doneBranches.append(
                        (side.pick(free), side.below(flat.conditionCount), side.percent(40), effects))
                }
            }
            if flat.effectCount > 0, side.percent(25) { compound.doneEffects = [side.below(flat.effectCount)] }
        }
        // Effects on the way in, from a side generator of their own.
        var wayIn = Gen.SplitMix64(seed: random.state ^ 0x1417_1A1E)
        if flat.effectCount > 0, wayIn.percent(30) { compound.initialEffects = [wayIn.below(flat.effectCount)] }
    }

    /// Whether the member is the state named, or holds it.
    static func holds(_ member: Member, _ name: String) -> Bool {
        switch member {
        case .leaf, .history: self.name(member) == name
        case .compound(let compound): compound.name == name || compound.members.contains { holds($0, name) }
        }
    }

    static func name(_ member: Member) -> String {
        switch member {
        case .leaf(let index): "s\(index)"
        case .compound(let compound): compound.name
        case .history(let history): history.name
        }
    }

    /// Now and then a history state inside a compound state, shallow or deep, at any place
    /// among its states, sometimes with a `default`.
    private static func addHistories(_ member: Member, _ names: inout [String], _ random: inout Gen.SplitMix64)
        -> Member
    {
        guard case .compound(var compound) = member else { return member }
        compound.members = compound.members.map { addHistories($0, &names, &random) }
        guard random.percent(45) else { return .compound(compound) }
        var inside: [String] = []
        func collect(_ members: [Member]) {
            for member in members {
                switch member {
                case .leaf(let index): inside.append("s\(index)")
                case .compound(let inner):
                    inside.append(inner.name)
                    collect(inner.members)
                case .history: break
                }
            }
        }
        collect(compound.members)
        var history = History(
            name: "h\(names.count)", deep: random.percent(50),
            defaultTarget: random.percent(30) ? random.pick(inside) : nil)
        var wayIn = Gen.SplitMix64(seed: random.state ^ 0xDEFA_0017)
        if history.defaultTarget != nil, wayIn.percent(40) { history.defaultEffects = [wayIn.below(4)] }
        names.append(history.name)
        compound.members.insert(.history(history), at: random.below(compound.members.count + 1))
        return .compound(compound)
    }

    /// Sends some of the compound states' transitions, timeouts and `done` to history states.
    private static func retarget(_ member: Member, to histories: [String], _ random: inout Gen.SplitMix64) -> Member {
        guard case .compound(var compound) = member else { return member }
        for index in compound.on.indices where random.percent(40) {
            compound.on[index].target = random.pick(histories)
        }
        if compound.timeout != nil, random.percent(30) { compound.timeout?.target = random.pick(histories) }
        // Without effects into a history state: python-statemachine 3.2.2 runs them twice
        // (``NestedEngineDifferentialTests/withoutContentIntoHistory``).
        if compound.done != nil, random.percent(30) {
            compound.done = random.pick(histories)
            compound.doneEffects = []
        }
        var side = Gen.SplitMix64(seed: random.state ^ 0x4157_0D0E)
        for index in compound.doneBranches.indices where side.percent(30) {
            compound.doneBranches[index].target = side.pick(histories)
            compound.doneBranches[index].effects = []
        }
        compound.members = compound.members.map { retarget($0, to: histories, &random) }
        return .compound(compound)
    }

    /// The compound state directly around a leaf, if any.
    private static func compound(around leaf: Int, in members: [Member]) -> String? {
        for member in members {
            guard case .compound(let compound) = member else { continue }
            if compound.members.contains(where: { if case .leaf(leaf) = $0 { true } else { false } }) {
                return compound.name
            }
            if let inner = self.compound(around: leaf, in: compound.members) { return inner }
        }
        return nil
    }

    // MARK: Writing YAML

    static func specText(_ machines: [Machine]) -> String {
        var text = "flowspec: 1\nmachines:\n"
        for machine in machines { text += yaml(machine) }
        return text
    }

    static func yaml(_ machine: Machine) -> String {
        Gen.header(machine.flat, initial: machine.initial) + "    states:\n"
            + machine.top.map { member(machine, $0, indent: "      ") }.joined()
    }

    private static func effects(_ list: [Int]) -> String {
        "[" + list.map { "f\($0)" }.joined(separator: ", ") + "]"
    }

    static func member(_ machine: Machine, _ member: Member, indent: String) -> String {
        let inner = indent + "  "
        switch member {
        case .leaf(let index):
            if let lines = machine.writtenAs[index] {
                return "\(indent)s\(index):\n" + lines.map { inner + $0 + "\n" }.joined()
            }
            var body = Gen.body(machine.flat.states[index], of: machine.flat, indent: inner)
            if let ancestor = machine.ancestorTargets[index],
                let plain = body.firstMatch(of: /(?m)^(\s+e\d+: )s\d+$/)
            {
                body.replaceSubrange(plain.range, with: plain.output.1 + ancestor)
            }
            if let entry = machine.leafEntry[index] { body += "\(inner)entry: \(effects(entry))\n" }
            if let exit = machine.leafExit[index] { body += "\(inner)exit: \(effects(exit))\n" }
            return "\(indent)s\(index):\n" + body
        case .compound(let compound):
            var text = "\(indent)\(compound.name):\n"
            if !compound.initialEffects.isEmpty, let first = compound.initial ?? firstEntered(compound) {
                text += "\(inner)initial: { to: \(first), effects: \(effects(compound.initialEffects)) }\n"
            } else if let initial = compound.initial {
                text += "\(inner)initial: \(initial)\n"
            }
            if !compound.entry.isEmpty { text += "\(inner)entry: \(effects(compound.entry))\n" }
            if !compound.exit.isEmpty { text += "\(inner)exit: \(effects(compound.exit))\n" }
            if !compound.on.isEmpty {
                text += "\(inner)on:\n"
                for (event, target) in compound.on { text += "\(inner)  e\(event): \(target)\n" }
            }
            if let timeout = compound.timeout {
                text += "\(inner)timeout: { after: \(timeout.after), to: \(timeout.target) }\n"
            }
            if let done = compound.done {
                let branches = compound.doneBranches.map { branch in
                    "{ to: \(branch.target), \(branch.negated ? "unless" : "if"): c\(branch.condition)"
                        + (branch.effects.isEmpty ? "" : ", effects: \(effects(branch.effects))") + " }"
                }
                let last =
                    compound.doneEffects.isEmpty ? done : "{ to: \(done), effects: \(effects(compound.doneEffects)) }"
                text +=
                    "\(inner)done: "
                    + (branches.isEmpty ? last : "[" + (branches + [last]).joined(separator: ", ") + "]") + "\n"
            }
            text += "\(inner)states:\n"
            for child in compound.members { text += self.member(machine, child, indent: inner + "  ") }
            return text
        case .history(let history):
            var text = "\(indent)\(history.name):\n\(inner)kind: history\n"
            if history.deep { text += "\(inner)deep: true\n" }
            if let target = history.defaultTarget, !history.defaultEffects.isEmpty, machine.flat.effectCount > 0 {
                let effects = history.defaultEffects.map { $0 % machine.flat.effectCount }
                text += "\(inner)default: { to: \(target), effects: \(self.effects(effects)) }\n"
            } else if let target = history.defaultTarget {
                text += "\(inner)default: \(target)\n"
            }
            return text
        }
    }

    /// The state a compound state without `initial` enters first: its first that is no
    /// history state.
    private static func firstEntered(_ compound: Compound) -> String? {
        compound.members.first {
            if case .history = $0 { false } else { true }
        }.map(name)
    }

    // MARK: Inputs

    /// Random inputs as ``DifferentialSpecs/drawSteps(_:restoring:count:_:)`` draws them, with
    /// the timeouts of the compound states around the current state among the timeouts.
    static func drawSteps(
        _ program: FlowProgram, restoring: String?? = nil, count: Int, _ random: inout Gen.SplitMix64
    ) -> [Simulation.Step] {
        let conditions = program.conditions.map(\.name)
        var values = [Bool](repeating: false, count: conditions.count)
        var steps: [Simulation.Step] = []
        var runtime =
            restoring.map { ProgramRun.restore(program, rawValue: $0, conditions: values).0 }
            ?? ProgramRun.start(program, conditions: values).0
        var taken = 0
        var inTerminal = 0
        while taken < count && inTerminal < 3 {
            if !conditions.isEmpty && random.percent(20) {
                let index = random.below(conditions.count)
                values[index].toggle()
                steps.append(.condition(conditions[index], values[index]))
                continue
            }
            let state = program.states[runtime.state]
            var inputs: [Simulation.Step] = program.events.map { .event($0.name) }
            if state.kind != .terminal {
                inputs += state.transitions.map { .event(program.events[$0.event].name) }
                inputs += state.transitions.map { .event(program.events[$0.event].name) }
            }
            if state.timeout != nil { inputs += [.timeout, .timeout] }
            for outer in state.outerTimeouts {
                let name = program.compounds[state.compound(atDepth: outer.depth)].name
                inputs += [.compoundTimeout(name), .compoundTimeout(name)]
            }
            if random.percent(5) {
                inputs.append(.compoundTimeout(random.pick(program.compounds).name))  // often not armed: ignored
            }
            let input = random.pick(inputs)
            steps.append(input)
            switch input {
            case .event(let name):
                _ = runtime.send(program.events.firstIndex { $0.name == name }!, program, conditions: values)
            case .timeout:
                _ = runtime.fireTimeout(visit: runtime.visit, program, conditions: values)
            case .compoundTimeout(let name):
                let compound = program.compounds.firstIndex { $0.name == name }!
                let current = program.states[runtime.state]
                if let outer = current.outerTimeouts.first(where: { current.compound(atDepth: $0.depth) == compound }) {
                    _ = runtime.fireTimeout(visit: runtime.outerVisits[outer.depth], program, conditions: values)
                }
            case .condition, .relaunch, .conditionsChanged:
                break
            }
            taken += 1
            if program.states[runtime.state].kind == .terminal { inTerminal += 1 }
        }
        return steps
    }
}

/// A machine with compound states as a chart of the oracle's, from the spec as written. What
/// only flowspec says, in SCXML's terms:
///
/// - the machine's `on` belongs to a compound state around every top-level state;
/// - a state that handles an event overrides what the states around it do on that event, even
///   when none of its candidates' conditions holds: it ends its candidates with a targetless
///   transition on the event that does nothing;
/// - a terminal state ignores every event and every timeout around it, so it ends with such
///   a transition for each of those; one inside a compound state with `done` is final there;
/// - a retry is two guarded transitions (``FlatChart``'s); entering an input or terminal state
///   resets every counter; each state's timeout is an event `timeout_ID`.
enum NestedChart {
    typealias Chart = StatechartOracle.Chart

    static func chart(_ machine: MachineSpec, _ program: FlowProgram) throws -> Chart {
        let (chart, slots, _) = try chart(machine, conditions: program.conditions.map(\.name))
        guard slots == program.retrySlotCount else {
            throw Simulation.Failure(
                description: "\(slots) retry counters in the chart, \(program.retrySlotCount) in the program")
        }
        return chart
    }

    /// The chart of a machine as checked (which need not generate: it may have errors), with
    /// its number of retry counters and of conditions: condition N of the chart is
    /// `conditions[N]`; with `unknownConditions`, as the graph rules read a machine ("whatever
    /// its condition"), each candidate of an event or of an `always` but the last has a
    /// condition of its own, and each retry a transition to its `then`, on a condition of its own.
    static func chart(_ machine: MachineSpec, conditions: [String], unknownConditions: Bool = false) throws -> (
        chart: Chart, retrySlots: Int, conditionCount: Int
    ) {
        let nesting = machine.nesting
        var chart = Chart(nodes: [Chart.Node(id: "root", kind: .root, parent: nil)])
        // Node 1 holds the machine's `on`; state i of the spec is node i + 2.
        chart.nodes.append(Chart.Node(id: "machine", kind: .compound, parent: 0))
        chart.nodes[0].children = [1]
        func node(_ state: Int) -> Int { state + 2 }
        // The nodes that start every retry counter again, once their number is known.
        var resetting: [Int] = []
        for index in machine.states.indices {
            let parent = nesting.parent(of: index).map(node) ?? 1
            let kind: Chart.Kind
            if machine.isParallel(index) {
                kind = .parallel
            } else if machine.isCompound(index) {
                kind = .compound
            } else if machine.isHistory(index) {
                kind = .history(deep: nesting.details[index]?.deep?.value == true)
            } else if machine.states[index].kind == .terminal, let up = nesting.parent(of: index),
                nesting.details[up]?.done != nil
            {
                kind = .final
            } else if endsRegion(index, machine) {
                kind = .final
            } else {
                kind = .atomic
            }
            var added = Chart.Node(id: machine.name(of: index), kind: kind, parent: parent)
            let state = machine.states[index]
            if !machine.isCompound(index), state.kind == .input || state.kind == .terminal {
                resetting.append(node(index))
            }
            added.onentry += nesting.entry(of: index).map { .log($0.value) }
            added.onexit = nesting.exit(of: index).map { .log($0.value) }
            chart.nodes.append(added)
            chart.nodes[parent].children.append(node(index))
        }
        guard let initial = machine.initial else { throw Simulation.Failure(description: "no initial state") }
        chart.nodes[1].initial = [node(try stateIndex(initial.value, machine))]
        for index in machine.states.indices {
            if let written = nesting.details[index]?.initial {
                chart.nodes[node(index)].initial = [node(try stateIndex(written.value, machine))]
            }
        }
        // A history state's default transition, its first: to its `default`, else its compound
        // state's `initial` (the first state inside that is no history state).
        for index in machine.states.indices where machine.isHistory(index) {
            guard let parent = nesting.parent(of: index) else { continue }
            let target: Int
            if let written = nesting.details[index]?.historyDefault {
                target = node(try stateIndex(machine.names[written.value], machine))
            } else if let initial = chart.nodes[node(parent)].initial.first {
                target = initial
            } else {
                target = try #require(
                    chart.nodes[node(parent)].children.first {
                        if case .history = chart.nodes[$0].kind { false } else { true }
                    })
            }
            // Its default's effects; without a `default`, its compound state's `initial`'s.
            let effects =
                nesting.details[index]?.historyDefault == nil
                ? nesting.details[parent]?.initialEffects ?? [] : nesting.details[index]?.defaultEffects ?? []
            append(node(index), nil, [], [target], effects.map { .log($0.value) }, &chart)
        }
        // flowspec's decision for a transition into a history state from inside its compound
        // state: every state inside the compound state is left, as for the history state itself
        // (SCXML would leave only up to the state it resumes). In SCXML's terms: the transition
        // goes to a router directly inside the compound state, which goes on to the history
        // state at once; the compound state is not left, so nothing more is recorded.
        var routers: [Int: Int] = [:]
        func routed(_ source: Int, _ target: Int) -> Int {
            // A parallel state is no transition domain: SCXML leaves and enters it, as flowspec does.
            guard case .history = chart.nodes[target].kind, let parent = chart.nodes[target].parent,
                chart.nodes[parent].kind != .parallel
            else {
                return target
            }
            var ancestor = chart.nodes[source].parent
            while let current = ancestor, current != parent { ancestor = chart.nodes[current].parent }
            guard ancestor == parent else { return target }
            if let router = routers[target] { return router }
            let router = chart.nodes.count
            chart.nodes.append(Chart.Node(id: "route_" + chart.nodes[target].id, kind: .atomic, parent: parent))
            chart.nodes[parent].children.append(router)
            append(router, nil, [], [target], [], &chart)
            routers[target] = router
            return router
        }
        var slots = 0
        var freeConditions = 0
        func add(
            _ source: Int, _ event: String?, _ candidates: Candidates, isTimeout: Bool = false, waits: Bool = false,
            isDone: Bool = false
        ) throws {
            let count = candidates.count
            for (position, candidate) in candidates.enumerated() {
                var guards: [Chart.Guard] = []
                if unknownConditions {
                    // Whatever its condition: taken or not as an input chooses, but for a
                    // timeout and the last candidate of a choice state's `always` or of a `done`,
                    // which are always taken (every branch of a state that waits has a condition).
                    if !isTimeout && !((event == nil && !waits || isDone) && position == count - 1) {
                        guards.append(.condition(freeConditions))
                        chart.writtenGuards[freeConditions] =
                            (candidate.condition.map { [($0.value, true)] } ?? [])
                            + (candidate.unlessCondition.map { [($0.value, false)] } ?? [])
                        freeConditions += 1
                    }
                } else {
                    if let written = candidate.condition {
                        guards.append(.condition(try condition(written.value, conditions)))
                    }
                    if let written = candidate.unlessCondition {
                        guards.append(.not(try condition(written.value, conditions)))
                    }
                }
                // Where the flow is is no condition: read from the configuration, known or not.
                let statesRead = try candidate.stateTerms.map { term -> Chart.Guard in
                    let read = node(try stateIndex(machine.names[term.state.value], machine))
                    return term.holds ? .inState(read) : .notInState(read)
                }
                guards += statesRead
                let effects = candidate.effects.map { Chart.Action.log($0.value) }
                // A candidate without a target is SCXML's targetless transition: no targets.
                guard let written = candidate.target else {
                    append(source, event, guards, [], effects, &chart)
                    continue
                }
                let target = routed(source, node(try stateIndex(machine.names[written.value], machine)))
                guard let retry = candidate.retry, let max = retry.max?.value else {
                    append(source, event, guards, [target], effects, &chart)
                    continue
                }
                let slot = slots
                slots += 1
                let fallback = routed(source, node(try stateIndex(machine.names[retry.then.value], machine)))
                let givingUp = effects + retry.effects.map { Chart.Action.log($0.value) }
                if unknownConditions {
                    // Its `then` whatever the count: the retries given up as an input chooses.
                    append(source, event, [.condition(freeConditions)] + statesRead, [fallback], givingUp, &chart)
                    chart.writtenGuards[freeConditions] =
                        (candidate.condition.map { [($0.value, true)] } ?? [])
                        + (candidate.unlessCondition.map { [($0.value, false)] } ?? [])
                    freeConditions += 1
                }
                append(source, event, guards + [.below(slot, max)], [target], [.increment(slot)] + effects, &chart)
                append(source, event, guards + [.atLeast(slot, max)], [fallback], givingUp, &chart)
            }
        }
        // Slots in the program's order: the machine's `on` first, then each state's (see
        // ``FlowProgramBuilder``); a counter's number is the oracle's own, so only sharing matters.
        for transition in machine.machineWide {
            try add(1, machine.names[transition.event.value], transition.candidates)
        }
        let handledAbove = handledEvents(machine)
        for index in machine.states.indices {
            let source = node(index)
            let state = machine.states[index]
            let own = machine.transitions(of: index)
            for position in own.indices {
                let event = machine.names[own[position].event.value]
                try add(source, event, own[position].candidates)
                if handledAbove[index].contains(event) { appendIgnore(source, event, &chart) }
            }
            if let always = state.always {
                try add(source, nil, always.value, waits: state.kind != .choice || machine.isCompound(index))
            }
            if let timeout = state.timeout {
                try add(
                    source, "timeout_" + machine.name(of: index),
                    Candidates(
                        Candidate(
                            location: timeout.location, target: timeout.target, effects: timeout.effects,
                            retry: timeout.retry)), isTimeout: true)
            }
            if let done = nesting.details[index]?.done {
                try add(source, "done.state." + machine.name(of: index), done.value, isDone: true)
            }
            // A resting terminal state ignores everything around it (one that ends a region too).
            if !machine.isCompound(index), state.kind == .terminal,
                chart.nodes[source].kind != .final || endsRegion(index, machine)
            {
                for event in handledAbove[index].sorted() { appendIgnore(source, event, &chart) }
                for ancestor in nesting.ancestors(of: index) where machine.states[ancestor].timeout != nil {
                    appendIgnore(source, "timeout_" + machine.name(of: ancestor), &chart)
                }
            }
        }
        for index in resetting { chart.nodes[index].onentry.insert(contentsOf: (0..<slots).map { .reset($0) }, at: 0) }
        chart.addInitialTransitions()
        // An `initial` with effects is SCXML's `<initial>` whose transition runs them.
        for index in machine.states.indices {
            guard let effects = nesting.details[index]?.initialEffects, !effects.isEmpty,
                let transition = chart.initialTransitions[node(index)]
            else { continue }
            chart.transitions[transition].content = effects.map { .log($0.value) }
        }
        return (chart, slots, unknownConditions ? freeConditions : conditions.count)
    }

    /// Whether a state is a terminal state directly inside a region with no `done` of its own:
    /// it ends the region (final in SCXML's terms), and rests there.
    static func endsRegion(_ index: Int, _ machine: MachineSpec) -> Bool {
        guard machine.states[index].kind == .terminal, !machine.isCompound(index),
            let region = machine.nesting.parent(of: index), let parallel = machine.nesting.parent(of: region)
        else { return false }
        return machine.isParallel(parallel) && machine.nesting.details[region]?.done == nil
    }

    /// Per state, the events the states around it (and the machine) handle.
    private static func handledEvents(_ machine: MachineSpec) -> [Set<String>] {
        let machineWide = Set(machine.machineWide.map { machine.names[$0.event.value] })
        return machine.states.indices.map { index in
            var events = machineWide
            for ancestor in machine.nesting.ancestors(of: index) {
                for transition in machine.transitions(of: ancestor) {
                    events.insert(machine.names[transition.event.value])
                }
            }
            return events
        }
    }

    private static func append(
        _ source: Int, _ event: String?, _ guards: [Chart.Guard], _ targets: [Int], _ content: [Chart.Action],
        _ chart: inout Chart
    ) {
        chart.transitions.append(
            Chart.Transition(source: source, event: event, guards: guards, targets: targets, content: content))
        chart.nodes[source].transitions.append(chart.transitions.count - 1)
    }

    /// A targetless transition that ends the search for `event` in `source`: flowspec's
    /// decision that a state handling an event under conditions none of which holds ignores it.
    private static func appendIgnore(_ source: Int, _ event: String, _ chart: inout Chart) {
        append(source, event, [], [], [], &chart)
        chart.transitions[chart.transitions.count - 1].ignores = true
    }

    private static func stateIndex(_ name: String, _ machine: MachineSpec) throws -> Int {
        guard let index = machine.states.indices.first(where: { machine.name(of: $0) == name }) else {
            throw Simulation.Failure(description: "no state '\(name)'")
        }
        return index
    }

    private static func condition(_ name: String, _ program: FlowProgram) throws -> Int {
        try condition(name, program.conditions.map(\.name))
    }

    private static func condition(_ name: String, _ conditions: [String]) throws -> Int {
        guard let index = conditions.firstIndex(of: name) else {
            throw Simulation.Failure(description: "no condition '\(name)'")
        }
        return index
    }

    /// The oracle's trace of `steps`, as ``NestedMachineTests/stateAndEffects(_:)`` keeps flowspec's.
    static func run(_ chart: Chart, _ program: FlowProgram, _ steps: [Simulation.Step]) throws -> [String] {
        var conditions = [Bool](repeating: false, count: program.conditions.count)
        var rest = steps[...]
        while case .condition(let name, let value)? = rest.first {
            conditions[try condition(name, program)] = value
            rest = rest.dropFirst()
        }
        let leaves = Set(program.states.map(\.name))
        var oracle = try StatechartOracle(chart, conditions: conditions, counters: program.retrySlotCount)
        func line(_ input: String) -> String {
            let state = oracle.activeIDs.filter(leaves.contains).joined(separator: ",")
            let effects = oracle.takeLog()
            return "\(input) -> \(state) | effects: \(effects.isEmpty ? "-" : effects.joined(separator: ", "))"
        }
        var lines = [line("start")]
        for step in rest {
            switch step {
            case .condition(let name, let value):
                oracle.conditions[try condition(name, program)] = value
            case .event(let name):
                _ = try FlatChart.settle(&oracle)
                try oracle.send(name)
                lines.append(line(name))
            case .timeout:
                // The current state's own timeout, unless the `always` branches the conditions
                // enable leave it first.
                let current = oracle.activeIDs.filter(leaves.contains).first ?? ""
                _ = try FlatChart.settle(&oracle)
                if oracle.activeIDs.contains(current) { try oracle.send("timeout_" + current) }
                lines.append(line("@timeout"))
            case .compoundTimeout(let name):
                // Only while inside it: elsewhere its timer is not armed.
                _ = try FlatChart.settle(&oracle)
                if oracle.activeIDs.contains(name) { try oracle.send("timeout_" + name) }
                lines.append(line("@timeout(\(name))"))
            case .relaunch, .conditionsChanged:
                throw Simulation.Failure(description: "\(step) is not drawn here")
            }
        }
        return lines
    }
}
