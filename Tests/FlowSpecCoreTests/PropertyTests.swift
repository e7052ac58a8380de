import Foundation
import Testing

@testable import FlowSpecCore

/// `never` and `before`, proved over every run or refuted with the shortest run that breaks
/// them: the counterexamples replay, and a brute-force explorer that tries every run up to a
/// bound, written apart from the product search, agrees with it on random machines.
struct PropertyTests {
    static let fixtures = [
        "Tests/Fixtures/rules/requirement-failed/found-never-after-retries.yaml",
        "Tests/Fixtures/rules/requirement-failed/found-before-skipped-by-a-condition.yaml",
        "Tests/Fixtures/rules/requirement-failed/found-every-entry-without-its-effect.yaml"
    ]

    /// Each counterexample is a trace `flowspec simulate --replay` accepts.
    @Test(arguments: fixtures)
    func aCounterexampleReplays(path: String) throws {
        let result = SpecChecker().check(try Fixtures.source(path))
        let program = try #require(result.graphs.first.flatMap(FlowProgramBuilder.build))
        let failures = result.diagnostics.filter { $0.rule == .requirementFailed }
        #expect(!failures.isEmpty)
        for failure in failures {
            let lines = failure.notes.dropFirst().map { String($0.message.dropFirst(2)) }
            #expect(
                TraceReplay.check(lines.joined(separator: "\n"), program: program)
                    == .agrees(
                        steps: lines.count {
                            !$0.hasPrefix("+") && !$0.hasPrefix("-") && !$0.hasPrefix("#")
                        }), "\(lines)")
        }
    }

    @Test func theRetryCounterexampleUsesTheRetryUp() throws {
        let result = SpecChecker().check(try Fixtures.source(Self.fixtures[0]))
        let failure = try #require(result.diagnostics.first { $0.rule == .requirementFailed })
        #expect(failure.message == "requirement failed: a run enters 'error', which `never` rules out")
        #expect(
            failure.notes.dropFirst().map(\.message) == [
                "  start -> form | effects: - | timeout: -",
                "  submit -> sending | effects: - | timeout: 10000ms -> form",
                "  networkError -> sending | effects: - | timeout: 10000ms -> form",
                "  networkError -> sending | effects: - | timeout: 10000ms -> form",
                "  networkError -> error | effects: - | timeout: -"
            ])
    }

    /// The reference flows' rules, as `specs/app.yaml` states them, are proved; broken in a
    /// copy, each is refuted with the run that breaks it.
    @Test func theReferenceRulesAreProvedAndABrokenCopyIsRefuted() throws {
        let spec = try String(decoding: Fixtures.source("specs/app.yaml").bytes, as: UTF8.self)
        let clean = SpecChecker().check(SourceFile(path: "app.yaml", text: spec))
        #expect(!clean.diagnostics.contains { $0.rule == .requirementFailed })
        let breaks: [(from: String, to: String, message: String, run: [String])] = [
            (
                "on: { completeCurrentChapter: { to: cipher, effects: [saveCheckpoint] } }",
                "on: { completeCurrentChapter: { to: firewall, effects: [saveCheckpoint] } }",
                "requirement failed: a run enters 'firewall' before it has been in 'cipher'",
                [
                    "start -> handshake | effects: - | timeout: -",
                    "completeCurrentChapter -> packetRun | effects: saveCheckpoint | timeout: -",
                    "completeCurrentChapter -> firewall | effects: saveCheckpoint | timeout: -"
                ]
            ),
            (
                "        entry: [showError]\n", "        entry: []\n",
                "requirement failed: a run enters 'error' in a step that does not run 'showError'",
                [
                    "start -> splash | effects: - | timeout: 2000ms -> onboardingCheck",
                    "splashFailed -> error | effects: - | timeout: -"
                ]
            ),
            (
                "on: { signIn: launch }", "on: { signIn: story }",
                "requirement failed: a run enters 'story' before it has been in 'launch.authenticated'",
                [
                    "# firstRun runs FirstRun", "start -> firstRun.splash | effects: - | timeout: -",
                    "# firstRun: FirstRun stopped", "# story runs Chapters",
                    "signIn -> story.handshake | effects: - | timeout: -"
                ]
            )
        ]
        for broken in breaks {
            #expect(spec.contains(broken.from))
            let result = SpecChecker().check(
                SourceFile(path: "app.yaml", text: spec.replacingOccurrences(of: broken.from, with: broken.to)))
            let failures = result.diagnostics.filter { $0.rule == .requirementFailed }
            #expect(failures.map(\.message) == [broken.message])
            #expect(failures.first?.notes.dropFirst().map { String($0.message.dropFirst(2)) } == broken.run)
        }
    }

    // MARK: Brute force

    /// Every run of at most `depth` inputs (each event and the state's timeout, under every
    /// combination of the conditions, and a relaunch of a persisted machine): the fewest
    /// inputs of one that breaks the property, or `nil`.
    static func bruteForce(_ property: PropertyCheck.Property, _ program: FlowProgram, depth: Int) -> Int? {
        let vectors = (0..<(1 << program.conditions.count)).map { bits in
            program.conditions.indices.map { bits & (1 << $0) != 0 }
        }
        var shortest: Int?
        // A run that gets where another got in as few inputs goes on alike: not tried again.
        var tried: [Pair: Int] = [:]
        func walk(_ runtime: FlowRuntime, seen: Bool, inputs: Int) {
            guard inputs < depth, shortest.map({ inputs + 1 < $0 }) ?? true else { return }
            let pair = Pair(states: runtime.states, retries: runtime.retries, memory: runtime.memory, seen: seen)
            if let earlier = tried[pair], earlier <= inputs { return }
            tried[pair] = inputs
            for conditions in vectors {
                // What each input leads to, the states it enters in order and its effects.
                var attempts: [(FlowRuntime, [Int], [Int])] = []
                for event in program.events.indices {
                    var next = runtime
                    var moves: [FlowRuntime.Move]? = []
                    if let effects = next.send(event, program, conditions: conditions, moves: &moves) {
                        attempts.append((next, (moves ?? []).map(\.to), effects))
                    }
                }
                if program.states[runtime.state].timeout != nil {
                    var next = runtime
                    var moves: [FlowRuntime.Move]? = []
                    if let effects = next.fireTimeout(
                        visit: runtime.visit, program, conditions: conditions, moves: &moves)
                    {
                        attempts.append((next, (moves ?? []).map(\.to), effects))
                    }
                }
                if program.persist != nil {
                    var moves: [FlowRuntime.Move]? = []
                    let (next, effects) = FlowRuntime.restore(
                        program, rawValue: runtime.storedText(program), conditions: conditions, moves: &moves)
                    attempts.append((next, [moves?.first?.from ?? next.state] + (moves ?? []).map(\.to), effects))
                }
                for (next, entered, effects) in attempts {
                    switch observe(property, entered, effects, seen: seen, program) {
                    case nil: shortest = min(shortest ?? .max, inputs + 1)
                    case let seen?: walk(next, seen: seen, inputs: inputs + 1)
                    }
                }
            }
        }
        for conditions in vectors {
            var moves: [FlowRuntime.Move]? = []
            let (runtime, effects) = FlowRuntime.start(program, conditions: conditions, moves: &moves)
            let entered = [moves?.first?.from ?? runtime.state] + (moves ?? []).map(\.to)
            switch observe(property, entered, effects, seen: false, program) {
            case nil: return 0
            case let seen?: walk(runtime, seen: seen, inputs: 0)
            }
        }
        return shortest
    }

    /// What a run's future depends on, in a machine whose only timers are its states' own:
    /// visits left out, since a timer's visit is always the current one.
    struct Pair: Hashable {
        var states: [Int]
        var retries: [Int]
        var memory: [Int]
        var seen: Bool
    }

    /// The observer, written apart from ``PropertyCheck``: `nil` once broken, else whether
    /// `first` has been passed.
    static func observe(
        _ property: PropertyCheck.Property, _ states: [Int], _ effects: [Int], seen: Bool, _ program: FlowProgram
    ) -> Bool? {
        func active(_ state: Int) -> [PropertyCheck.Place] {
            program.states[state].ancestors.reversed().map(PropertyCheck.Place.compound) + [.state(state)]
        }
        var seen = seen
        for state in states {
            // Outermost first, as the runtime enters them.
            for place in active(state) {
                switch property {
                case .never(let forbidden):
                    if place == forbidden { return nil }
                case .before(let first, let then):
                    if place == first { seen = true }
                    if place == then, !seen { return nil }
                case .everyEntry(let target, let effect):
                    if place == target, !effects.contains(effect) { return nil }
                }
            }
        }
        return seen
    }

    static let machineCount = Int(ProcessInfo.processInfo.environment["FLOWSPEC_PROPERTY_MACHINES"] ?? "") ?? 1_000
    static let depth = 4

    @Test func theSearchAgreesWithEveryRunUpToABound() throws {
        var random = DifferentialSpecs.SplitMix64(seed: 0xB0FE)
        var compared = (refuted: 0, proved: 0)
        for index in 0..<Self.machineCount {
            let text =
                index % 2 == 0
                ? DifferentialSpecs.specText([DifferentialSpecs.drawMachine(name: "M", &random)])
                : NestedSpecs.specText([NestedSpecs.draw(name: "M", &random)])
            let result = SpecChecker().check(SourceFile(path: "m.yaml", text: text))
            guard !result.diagnostics.contains(where: { $0.severity == .error }),
                let program = result.graphs.first.flatMap(FlowProgramBuilder.build),
                program.conditions.count <= 2, program.events.count <= 4,
                !program.compounds.contains(where: { $0.timeout != nil }), !program.hasParallel,
                // Kept small: the brute force explores every run up to its bound.
                case .success(let graph) = PropertyCheck.configurations(of: program, bound: 5_000)
            else { continue }
            let search = PropertyCheck(program: program, graph: graph)
            let count = program.states.count
            var properties: [PropertyCheck.Property] = [
                .never(.state(random.below(count))),
                .before(first: .state(random.below(count)), then: .state(random.below(count)))
            ]
            if !program.effects.isEmpty {
                properties.append(.everyEntry(.state(random.below(count)), runs: random.below(program.effects.count)))
            }
            for property in properties {
                let depth = Self.depth
                let brute = Self.bruteForce(property, program, depth: depth)
                if let lines = search.counterexample(property) {
                    let inputs = lines.count { !$0.hasPrefix("+") && !$0.hasPrefix("-") && !$0.hasPrefix("#") } - 1
                    #expect(brute == (inputs <= depth ? inputs : nil), "\(text)\n\(property)\n\(lines)")
                    compared.refuted += 1
                } else {
                    #expect(brute == nil, "\(text)\n\(property)")
                    compared.proved += 1
                }
            }
        }
        #expect(compared.refuted > 50 && compared.proved > 50, "\(compared)")
    }
}
