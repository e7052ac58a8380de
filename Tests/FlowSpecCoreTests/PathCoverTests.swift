import FlowSpecTestSupport
import Foundation
import Testing

@testable import FlowSpecCore

/// Test paths (`flowspec paths`, `gen --tests`): every step's expectation is the reference
/// semantics', and the paths exercise everything reachable.
@Suite("Test paths")
struct PathCoverTests {
    /// Checks one machine's paths: each replays through ``Simulation`` exactly as written
    /// (state, effects, armed timeout after every step), together they exercise every item
    /// not reported as not covered, and each requirement path ends where it should.
    static func expectFaithful(
        _ program: FlowProgram, _ machine: MachineSpec, _ where_: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let cover = try PathCover(program: program, machine: machine)
        var exercised: Set<CoverageItem>? = []
        for (index, path) in cover.paths.enumerated() {
            let text = PathReport.traceLines(path, program).joined(separator: "\n")
            let outcome = TraceReplay.check(text, program: program, exercised: &exercised)
            #expect(
                outcome == .agrees(steps: path.steps.count), "\(where_) path \(index + 1):\n\(text)",
                sourceLocation: sourceLocation)
            switch path.purpose {
            case .cover:
                break
            case .within(let requirement, let from, let worst, let max):
                let waited = path.steps[(from + 1)...].reduce(Duration.zero) { $0 + $1.waited }
                #expect(waited == worst && worst <= max, sourceLocation: sourceLocation)
                guard case .within(_, _, let goals, _) = machine.requirements[requirement] else {
                    Issue.record("requirement \(requirement) is not `within`", sourceLocation: sourceLocation)
                    continue
                }
                let last = program.states[path.steps.last!.state]
                #expect(
                    goals.contains { $0.value == last.name } || last.kind == .input, sourceLocation: sourceLocation)
            case .reach(_, let target):
                #expect(path.steps.last?.state == target, sourceLocation: sourceLocation)
            case .witness(let requirement, _), .counterexample(let requirement, _, _):
                #expect(machine.requirements[requirement].isProperty, sourceLocation: sourceLocation)
            }
        }
        let expected = Set(cover.items).subtracting(cover.notCovered.map(\.item))
        #expect(exercised == expected, "\(where_): exercised and planned differ", sourceLocation: sourceLocation)
        if program.conditions.count <= 4, program.states.count <= 64 {
            // Untimed, every armed timer may fire at any time: with compound states' timers, or
            // several regions' timers, that is more than a run on a clock can do, so the planned
            // items are only among them.
            let possible = exhaustive(program)
            let timed =
                program.compounds.contains { $0.timeout != nil }
                || program.hasParallel && program.states.count { $0.timeout != nil } > 1
            #expect(
                timed ? expected.isSubset(of: possible) : possible == expected,
                "\(where_): not covered but possible: \(possible.subtracting(expected).map { $0.description(in: program) })",
                sourceLocation: sourceLocation)
        }
    }

    /// Everything a machine can exercise, found by brute force: every input under every
    /// assignment of the conditions, from every configuration reachable that way.
    static func exhaustive(_ program: FlowProgram) -> Set<CoverageItem> {
        let assignments = (0..<(1 << program.conditions.count)).map { bits in
            program.conditions.indices.map { bits & (1 << $0) != 0 }
        }
        var found = Set<CoverageItem>()
        var seen = Set<ProgramRun>()
        // Runs as they left the machine, visits and all; configurations (without visits) tell
        // them apart.
        var queue: [ProgramRun] = []
        func record(_ runtime: ProgramRun, _ moves: [ProgramRun.Move]?) {
            for move in moves ?? [] {
                found.formUnion(CoverageItem.items(of: move, in: program))
                found.formUnion(CoverageItem.entering(move.to, in: program))
            }
            if program.hasParallel {
                // The other regions' states are entered through their `initial`, which no move names.
                for state in runtime.states { found.formUnion(CoverageItem.entering(state, in: program)) }
            }
            if seen.insert(runtime.configuration).inserted { queue.append(runtime) }
        }
        for conditions in assignments {
            var moves: [ProgramRun.Move]? = []
            let (runtime, _) = ProgramRun.start(program, conditions: conditions, moves: &moves)
            found.formUnion(CoverageItem.entering(program.initial, in: program))
            record(runtime, moves)
        }
        while let runtime = queue.popLast() {
            for conditions in assignments {
                for event in program.events.indices where Self.arrives(event, in: runtime.states, program) {
                    var copy = runtime
                    var moves: [ProgramRun.Move]? = []
                    if copy.send(event, program, conditions: conditions, moves: &moves) != nil { record(copy, moves) }
                }
                for visit in runtime.armedTimeouts(program).map(\.visit) {
                    var copy = runtime
                    var moves: [ProgramRun.Move]? = []
                    if copy.fireTimeout(visit: visit, program, conditions: conditions, moves: &moves) != nil {
                        record(copy, moves)
                    }
                }
                if program.persist != nil {
                    var moves: [ProgramRun.Move]? = []
                    // What the app stores: the state, and what compound states remember.
                    let stored = runtime.storedText(program)
                    let (restored, _) = ProgramRun.restore(
                        program, rawValue: stored, conditions: conditions, moves: &moves)
                    found.insert(.relaunch(state: runtime.state))
                    found.formUnion(CoverageItem.entering(moves?.first?.from ?? restored.state, in: program))
                    record(restored, moves)
                }
            }
        }
        return found
    }

    /// Whether an event can arrive in these states, written out here rather than asked of the
    /// program: an event some activity sends arrives only while a state that lists one of its
    /// senders, or a compound state around such a state, is active.
    static func arrives(_ event: Int, in states: [Int], _ program: FlowProgram) -> Bool {
        let senders = program.activities.indices.filter { program.activities[$0].sends.contains(event) }
        guard !senders.isEmpty else { return true }
        return states.contains { state in
            let listed =
                program.states[state].activities
                + program.states[state].ancestors.flatMap {
                    program.compounds[$0].activities
                }
            return listed.contains(where: senders.contains)
        }
    }

    static func checked(_ text: String, path: String = "spec.yaml") throws -> [(FlowProgram, MachineSpec)] {
        let result = SpecChecker().check(SourceFile(path: path, text: text))
        let findings = SeverityPolicy().apply(to: result.diagnostics, spec: result.spec.severity)
        let programs = try #require(
            SpecGeneration.programs(result, diagnostics: findings),
            "\(path) has errors:\n\(FlowSpecCoreTestsSupport.describe(result))")
        return Array(zip(programs, result.graphs.map(\.machine)))
    }

    @Test func theReferenceFlowsAndEveryCleanFixture() throws {
        var specs = ["specs/app.yaml"] + Fixtures.specs(under: "rules")
        specs += Fixtures.specs(under: "reference") + Fixtures.specs(under: "input")
        var machines = 0
        for path in specs {
            let source = try Fixtures.source(path)
            let result = SpecChecker().check(source)
            guard let programs = SpecGeneration.programs(result, diagnostics: result.diagnostics) else { continue }
            for (program, graph) in zip(programs, result.graphs) {
                try Self.expectFaithful(program, graph.machine, "\(path) \(program.name.name)")
                machines += 1
            }
        }
        #expect(machines > 40, "too few machines were checked: \(machines)")
    }

    @Test func randomMachines() throws {
        var random = DifferentialSpecs.SplitMix64(seed: 0x9A7A_0001)
        var checked = 0
        for index in 0..<300 {
            let machine = DifferentialSpecs.drawMachine(name: "M\(index)", &random)
            let result = SpecChecker().check(
                SourceFile(path: "draw.yaml", text: DifferentialSpecs.specText([machine])))
            guard let programs = SpecGeneration.programs(result, diagnostics: result.diagnostics) else { continue }
            try Self.expectFaithful(programs[0], result.graphs[0].machine, "random machine \(index)")
            checked += 1
        }
        #expect(checked > 100, "too few random machines were valid: \(checked)")
    }

    @Test func theRetryIsTakenUpToItsBoundThenItsThen() throws {
        let source = try Fixtures.source("specs/app.yaml")
        let result = SpecChecker().check(source)
        let programs = try #require(SpecGeneration.programs(result, diagnostics: result.diagnostics))
        let index = try #require(programs.firstIndex { $0.name.name == "LaunchAuth" })
        let cover = try PathCover(program: programs[index], machine: result.graphs[index].machine)
        let texts = cover.paths.map { PathReport.traceLines($0, programs[index]).joined(separator: "\n") }
        #expect(
            texts.contains {
                $0.contains(
                    String(
                        repeating: "networkError -> authLoading | effects: - | timeout: 10000ms -> error\n", count: 3)
                        + "networkError -> error | effects: showError | timeout: -")
            })
        #expect(cover.notCovered.isEmpty)
    }

    /// A chain of states and a loop back to the start each make one path, as long as the
    /// machine has transitions: the cover grows linearly, not with the square.
    @Test(arguments: [false, true])
    func aChainIsOnePath(loops: Bool) throws {
        let count = 2_000
        var text = "flowspec: 1\nmachines:\n  Chain:\n    initial: s0\n    defaults: { kind: input }\n    states:\n"
        for index in 0..<count {
            let next = index + 1 < count ? "s\(index + 1)" : (loops ? "s0" : nil)
            text += next.map { "      s\(index): { on: { go: \($0) } }\n" } ?? "      s\(index): { kind: terminal }\n"
        }
        let (program, machine) = try #require(try Self.checked(text).first)
        let cover = try PathCover(program: program, machine: machine)
        #expect(cover.paths.count == 1)
        #expect(cover.paths[0].steps.count == count + (loops ? 1 : 0))
        #expect(cover.notCovered.isEmpty)
    }

    @Test func whatIsUnreachableIsReportedWithWhere() throws {
        let text = """
            flowspec: 1
            machines:
              M:
                initial: a
                defaults: { kind: input }
                severity: { unreachable-state: off }
                states:
                  a: { on: { go: b } }
                  b: { kind: terminal }
                  lost: { on: { go: b } }

            """
        let (program, machine) = try #require(try Self.checked(text).first)
        let cover = try PathCover(program: program, machine: machine)
        let report = PathReport.text([PathReport.Machine(cover: cover, machine: machine)], file: "spec.yaml")
        #expect(report.contains("# not covered: state 'lost' (spec.yaml:10:7): 'lost' is not reachable"), "\(report)")
        #expect(report.contains("# not covered: 'lost' on 'go' -> 'b' (spec.yaml:10:25): 'lost' is not reachable"))
        #expect(report.contains("# M: 1 path covers 3 of 5 states"))
        let suite = SwiftGenerator.testSuite(cover)
        #expect(suite.contains("// Not covered: state 'lost': 'lost' is not reachable.\n"), "\(suite)")
    }

    @Test func aMachineTooLargeToCoverSaysHowManyPathsItWouldTake() throws {
        var text = "flowspec: 1\nmachines:\n  Fan:\n    initial: hub\n    defaults: { kind: input }\n    states:\n"
        text += "      hub:\n        on:\n"
        for index in 0..<50 { text += "          e\(index): s\(index)\n" }
        for index in 0..<50 { text += "      s\(index): { kind: terminal }\n" }
        let (program, machine) = try #require(try Self.checked(text).first)
        var limits = PathCover.Limits()
        limits.maxPaths = 20
        let error = #expect(throws: PathCover.Failure.self) {
            try PathCover(program: program, machine: machine, limits: limits)
        }
        #expect(
            error?.description.contains("machine 'Fan' needs 50 paths of 100 steps") == true,
            "\(String(describing: error))")
        #expect(error?.description.contains("the limit is 20 paths") == true)
        limits.maxPaths = 50
        #expect(try PathCover(program: program, machine: machine, limits: limits).paths.count == 50)
    }

    /// Two regions with timers that run on while the other moves: every combination of the
    /// time left on them is a configuration. Exploration stops at the breadth that finds the
    /// last item, and what it built is the full graph's beginning, edge for edge.
    @Test func explorationStopsOnceEveryItemIsFound() throws {
        let text = """
            flowspec: 1
            machines:
              Both:
                initial: both
                states:
                  welcome: { kind: input, on: { start: both } }
                  both:
                    timeout: { after: 30m, to: welcome }
                    parallel:
                      sync:
                        initial: syncing
                        states:
                          syncing: { kind: task, on: { synced: idle }, timeout: { after: 20s, to: idle } }
                          idle: { kind: input, on: { refresh: syncing } }
                      link:
                        initial: online
                        states:
                          online: { kind: input, on: { lost: offline } }
                          offline: { kind: task, on: { found: online }, timeout: { after: 5s, to: online } }

            """
        let (program, _) = try #require(try Self.checked(text).first)
        let wanted = Set(CoverageItem.all(in: program))
        let full = try ConfigurationGraph(program: program, bound: 100_000)
        let early = try ConfigurationGraph(program: program, bound: 100_000, stoppingOnceFound: wanted)
        #expect(full.isComplete)
        #expect(!early.isComplete)
        #expect(early.nodes.count * 10 < full.nodes.count, "\(early.nodes.count) of \(full.nodes.count)")
        var found = Set<CoverageItem>()
        for root in early.roots { found.formUnion(root.items) }
        for node in early.nodes.indices {
            #expect(early.nodes[node] == full.nodes[node])
            guard !early.edges[node].isEmpty else { continue }
            #expect(early.edges[node].map(\.target) == full.edges[node].map(\.target))
            for edge in early.edges[node] { found.formUnion(edge.items) }
        }
        #expect(found == wanted)
        // A machine with an item no run takes is explored to the end, which is what shows it.
        // (`link` resumed before it was ever left: only the 30-minute timeout leads to
        // `welcome`, and it leaves `link`.)
        let online = "online: { kind: input, on: { lost: offline } }"
        let indent = try #require(text.split(separator: "\n").first { $0.contains(online) }).prefix { $0 == " " }
        let stuck = text.replacingOccurrences(of: "{ start: both }", with: "{ start: both, resume: back }")
            .replacingOccurrences(of: online, with: online + "\n" + indent + "back: { kind: history }")
        let (unreachable, _) = try #require(try Self.checked(stuck).first)
        let whole = try ConfigurationGraph(
            program: unreachable, bound: 100_000, stoppingOnceFound: Set(CoverageItem.all(in: unreachable)))
        #expect(whole.isComplete)
    }
}

@Suite("Trace coverage")
struct TraceCoverageTests {
    /// A file of two runs: the second begins at its conditions, not at its `start` line.
    @Test func aFileOfSeveralRunsIsSplitAtEachStart() throws {
        let text = """
            start -> a | effects: - | timeout: -
            +c
            go -> b | effects: - | timeout: -
            -c
            start -> a | effects: - | timeout: -
            """
        let runs = TraceCoverage.runs(of: text)
        #expect(runs.map(\.firstLine) == [1, 4])
        #expect(runs.map { $0.text.split(separator: "\n").count } == [3, 2])
    }

    @Test func aRunThatDisagreesCountsNothingAndIsLocatedInTheFile() throws {
        let source = try Fixtures.source("specs/app.yaml")
        let result = SpecChecker().check(source)
        let programs = try #require(SpecGeneration.programs(result, diagnostics: result.diagnostics))
        let program = try #require(programs.first { $0.name.name == "FirstRun" })
        var coverage = TraceCoverage(program: program)
        let good = "start -> splash | effects: - | timeout: -\nsplashFinished -> slide0 | effects: - | timeout: -\n"
        #expect(coverage.add(good) == nil)
        #expect(coverage.exercised.contains(.state(2)))
        let bad = good + "start -> splash | effects: - | timeout: -\nslideAdvance -> slide2 | effects: - | timeout: -\n"
        let problem = coverage.add(bad)
        #expect(problem?.line == 4)
        #expect(coverage.runs == 2, "the first run of the second file counts, not the one that disagrees")
        #expect(!coverage.exercised.contains(.state(4)))
    }
}
