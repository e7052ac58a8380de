import Foundation
import Testing

@testable import FlowSpecCore

/// `never` and `before`, proved over every run or refuted with the shortest run that breaks
/// them: the counterexamples replay, and a brute-force explorer that tries every run up to a
/// bound, written apart from the product search, agrees with it on random machines.
struct PropertyTests {
    static let fixtures = [
        "found-never-after-retries", "found-never-while-a-way-in-that-does-not-check",
        "found-before-skipped-by-a-condition", "found-before-an-effect-on-one-way-only",
        "found-between-a-shortcut-past-the-last-step", "found-every-entry-without-its-effect",
        "found-leads-to-a-polling-loop", "found-at-most-one-retry-too-many", "found-whenever-a-screen-that-ignores-it",
        "found-parallel-regions-playing-offline"
    ].map { "Tests/Fixtures/rules/requirement-failed/\($0).yaml" }

    /// A counterexample's trace lines, as its finding carries them; its notes print them.
    static func trace(_ failure: Diagnostic) -> [String] {
        let trace = failure.counterexample?.trace ?? []
        #expect(failure.notes.suffix(from: 1).map(\.message).filter { $0.hasPrefix("  ") } == trace.map { "  " + $0 })
        return trace
    }

    /// Each counterexample is a trace `flowspec simulate --replay` accepts.
    @Test(arguments: fixtures)
    func aCounterexampleReplays(path: String) throws {
        let result = SpecChecker().check(try Fixtures.source(path))
        let program = try #require(result.graphs.first.flatMap(FlowProgramBuilder.build))
        let failures = result.diagnostics.filter { $0.rule == .requirementFailed }
        #expect(!failures.isEmpty)
        for failure in failures {
            let lines = Self.trace(failure)
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

    /// A `leadsTo` broken by a loop says how many steps repeat; by a stop, where it stops.
    @Test func aRunThatNeverArrivesSaysHowItGoesOn() throws {
        let result = SpecChecker().check(try Fixtures.source(Self.fixtures[6]))
        let failures = result.diagnostics.filter { $0.rule == .requirementFailed }
        #expect(
            failures.map { $0.notes.last?.message } == [
                "then the last 2 steps repeat forever, with no input from the user",
                "then the flow stops in 'gaveUp': nothing more can happen"
            ])
        #expect(
            failures.map(Self.trace) == [
                [
                    "start -> checking | effects: - | timeout: 10000ms -> failed",
                    "notYet -> waiting | effects: - | timeout: 30000ms -> checking",
                    "@timeout -> checking | effects: - | timeout: 10000ms -> failed"
                ],
                [
                    "start -> checking | effects: - | timeout: 10000ms -> failed",
                    "giveUp -> gaveUp | effects: - | timeout: -"
                ]
            ])
    }

    /// The reference flows' rules, as `specs/app.yaml` states them, are proved; broken in a
    /// copy, each is refuted with the run that breaks it.
    @Test(arguments: ReferenceBreak.all)
    func aReferenceRuleBrokenInACopyIsRefuted(_ broken: ReferenceBreak) throws {
        let spec = try String(decoding: Fixtures.source("specs/app.yaml").bytes, as: UTF8.self)
        var text = spec
        for (from, to) in broken.edits {
            #expect(text.contains(from))
            text = text.replacingOccurrences(of: from, with: to)
        }
        let result = SpecChecker().check(SourceFile(path: "app.yaml", text: text))
        let failures = result.diagnostics.filter { $0.rule == .requirementFailed }
        #expect(failures.map(\.message) == [broken.message])
        #expect(failures.first.map(Self.trace) == broken.run)
    }

    @Test func theReferenceRulesAreProved() throws {
        let result = SpecChecker().check(try Fixtures.source("specs/app.yaml"))
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let kinds = Set(result.graphs.flatMap(\.machine.requirements).map(\.key))
        #expect(kinds.isSuperset(of: ["never", "before", "between", "everyEntry", "leadsTo", "atMost", "whenever"]))
    }

    // MARK: Brute force

    /// What a run feeds the machine, for the brute force.
    enum Input: Equatable {
        case start
        case event(Int)
        case timeout, relaunch, conditionsChanged
    }

    /// One input a run can take from a configuration: where it leads, the states it enters in
    /// order, its effects, and whether the flow takes it on its own.
    struct Attempt {
        var next: ProgramRun
        var input: Input
        var entered: [Int]
        var effects: [Int]
        var automatic: Bool
    }

    /// Every input from `runtime` under `conditions`: each event, the state's timeout, and a
    /// relaunch of a persisted machine (which enters none of the states it restores).
    static func attempts(from runtime: ProgramRun, _ conditions: [Bool], _ program: FlowProgram) -> [Attempt] {
        var attempts: [Attempt] = []
        let state = program.states[runtime.state]
        for event in program.events.indices {
            var next = runtime
            var moves: [ProgramRun.Move]? = []
            if let effects = next.send(event, program, conditions: conditions, moves: &moves) {
                // The work of a task state ends with an event it handles itself.
                let own =
                    state.kind == .task
                    && state.transitions.indices.contains {
                        state.transitions[$0].event == event && state.scopes[$0] == .own
                    }
                attempts.append(
                    Attempt(
                        next: next, input: .event(event), entered: (moves ?? []).compactMap(\.entered),
                        effects: effects,
                        automatic: own && !(moves ?? []).allSatisfy(\.stays)))
            }
        }
        if state.timeout != nil {
            var next = runtime
            var moves: [ProgramRun.Move]? = []
            if let effects = next.fireTimeout(visit: runtime.visit, program, conditions: conditions, moves: &moves) {
                attempts.append(
                    Attempt(
                        next: next, input: .timeout, entered: (moves ?? []).compactMap(\.entered), effects: effects,
                        automatic: true
                    ))
            }
        }
        if program.hasEventless {
            var next = runtime
            var moves: [ProgramRun.Move]? = []
            if let effects = next.conditionsChanged(program, conditions: conditions, moves: &moves) {
                attempts.append(
                    Attempt(
                        next: next, input: .conditionsChanged, entered: (moves ?? []).compactMap(\.entered),
                        effects: effects, automatic: false))
            }
        }
        if program.persist != nil {
            var moves: [ProgramRun.Move]? = []
            let (next, effects) = ProgramRun.restore(
                program, rawValue: runtime.storedText(program), conditions: conditions, moves: &moves)
            let entered = [moves?.first?.from ?? next.state] + (moves ?? []).compactMap(\.entered)
            attempts.append(
                Attempt(
                    next: next, input: .relaunch, entered: entered.filter { !runtime.states.contains($0) },
                    effects: effects, automatic: false))
        }
        return attempts
    }

    /// Every run of at most `depth` inputs (each event and the state's timeout, under every
    /// combination of the conditions, and a relaunch of a persisted machine): the fewest
    /// inputs of one that breaks a safety property, or `nil`.
    static func bruteForce(_ property: PropertyCheck.Property, _ program: FlowProgram, depth: Int) -> Int? {
        let vectors = conditionVectors(program)
        var shortest: Int?
        // A run that gets where another got in as few inputs goes on alike: not tried again.
        var tried: [Pair: Int] = [:]
        func walk(_ runtime: ProgramRun, observer: Int, inputs: Int) {
            guard inputs < depth, shortest.map({ inputs + 1 < $0 }) ?? true else { return }
            let pair = Pair(
                states: runtime.states, retries: runtime.retries, memory: runtime.memory, observer: observer)
            if let earlier = tried[pair], earlier <= inputs { return }
            tried[pair] = inputs
            for conditions in vectors {
                for attempt in attempts(from: runtime, conditions, program) {
                    let step = Step(
                        input: attempt.input, entered: attempt.entered, effects: attempt.effects, conditions: conditions
                    )
                    switch observe(property, step, observer, program) {
                    case nil: shortest = min(shortest ?? .max, inputs + 1)
                    case let observer?: walk(attempt.next, observer: observer, inputs: inputs + 1)
                    }
                }
            }
        }
        for conditions in vectors {
            var moves: [ProgramRun.Move]? = []
            let (runtime, effects) = ProgramRun.start(program, conditions: conditions, moves: &moves)
            let entered = [moves?.first?.from ?? runtime.state] + (moves ?? []).compactMap(\.entered)
            let step = Step(input: .start, entered: entered, effects: effects, conditions: conditions)
            switch observe(property, step, property.startState, program) {
            case nil: return 0
            case let observer?: walk(runtime, observer: observer, inputs: 0)
            }
        }
        return shortest
    }

    /// Every run of at most `depth` inputs: the fewest inputs of one that enters `from` and
    /// then, without entering `to`, stops (no input does anything) or comes back to a
    /// configuration through steps the flow takes on its own; or `nil`.
    static func bruteForceLeadsTo(
        _ property: PropertyCheck.Property, _ program: FlowProgram, depth: Int
    ) -> Int? {
        let vectors = conditionVectors(program)
        var shortest: Int?
        // The run so far: each configuration with the observer, and whether the step into it
        // was the flow's own.
        var run: [(pair: Pair, automatic: Bool)] = []
        func walk(_ runtime: ProgramRun, observer: Int, inputs: Int) {
            let pair = Pair(
                states: runtime.states, retries: runtime.retries, memory: runtime.memory, observer: observer)
            if observer == 1 {
                // Back where it was, through the flow's own steps alone, waiting all along.
                for earlier in run.indices.reversed() {
                    guard run[earlier].automatic, run[earlier].pair.observer == 1 else { break }
                    if run[earlier].pair == pair {
                        shortest = min(shortest ?? .max, inputs)
                        return
                    }
                }
            }
            let possible = vectors.map { attempts(from: runtime, $0, program) }
            if observer == 1, possible.allSatisfy(\.isEmpty) {
                // Stopped, waiting.
                shortest = min(shortest ?? .max, inputs)
                return
            }
            guard inputs < depth, shortest.map({ inputs + 1 < $0 }) ?? true else { return }
            // The conditions do not matter to `leadsTo` beyond where each input leads.
            var seen: Set<Pair> = []
            for (conditions, attempts) in zip(vectors, possible) {
                for attempt in attempts {
                    let next = attempt.next
                    let key = Pair(
                        states: next.states + attempt.entered + [attempt.automatic ? 1 : 0], retries: next.retries,
                        memory: next.memory, observer: attempt.input == .timeout ? -1 : 0)
                    guard seen.insert(key).inserted else { continue }
                    let step = Step(
                        input: attempt.input, entered: attempt.entered, effects: attempt.effects, conditions: conditions
                    )
                    guard let next = observe(property, step, observer, program) else { continue }
                    run.append((pair, attempt.automatic))
                    walk(attempt.next, observer: next, inputs: inputs + 1)
                    run.removeLast()
                }
            }
        }
        for conditions in vectors {
            var moves: [ProgramRun.Move]? = []
            let (runtime, effects) = ProgramRun.start(program, conditions: conditions, moves: &moves)
            let entered = [moves?.first?.from ?? runtime.state] + (moves ?? []).compactMap(\.entered)
            let step = Step(input: .start, entered: entered, effects: effects, conditions: conditions)
            walk(runtime, observer: observe(property, step, 0, program) ?? 0, inputs: 0)
        }
        return shortest
    }

    static func conditionVectors(_ program: FlowProgram) -> [[Bool]] {
        (0..<(1 << program.conditions.count)).map { bits in
            program.conditions.indices.map { bits & (1 << $0) != 0 }
        }
    }

    /// What a run's future depends on, in a machine whose only timers are its states' own:
    /// visits left out, since a timer's visit is always the current one.
    struct Pair: Hashable {
        var states: [Int]
        var retries: [Int]
        var memory: [Int]
        var observer: Int
    }

    /// One step of a run, as the brute force's observer reads it.
    struct Step {
        var input: Input
        var entered: [Int]
        var effects: [Int]
        var conditions: [Bool]
    }

    /// The observer, written apart from ``PropertyCheck``, over each place a step enters,
    /// outermost first: `nil` once broken, else its state (as numbered there).
    static func observe(
        _ property: PropertyCheck.Property, _ step: Step, _ observer: Int, _ program: FlowProgram
    ) -> Int? {
        func entered() -> [PropertyCheck.Place] {
            step.entered.flatMap { state in
                program.states[state].ancestors.reversed().map(PropertyCheck.Place.compound) + [.state(state)]
            }
        }
        func matches(_ place: PropertyCheck.Place, _ named: PropertyCheck.Place) -> Bool {
            if case .any(let places) = named { return places.contains(place) }
            return place == named
        }
        var observer = observer
        switch property {
        case .never(let forbidden, let condition):
            let holds = condition.map { step.conditions[$0] } ?? true
            if holds, entered().contains(where: { matches($0, forbidden) }) { return nil }
        case .everyEntry(let target, let effect):
            if !step.effects.contains(effect), entered().contains(where: { matches($0, target) }) { return nil }
        case .before(let first, let then, let after):
            var ran = false
            if case .effect(let effect) = first { ran = step.effects.contains(effect) }
            for place in entered() {
                if let after, matches(place, after) { observer = 1 }
                guard observer == 1 else { continue }
                if case .place(let first) = first, matches(place, first) { observer = 2 }
                if observer == 1, matches(place, then), !ran { return nil }
            }
            if ran, observer == 1 { observer = 2 }
        case .between(let after, let until, let never):
            for place in entered() {
                if observer == 1, matches(place, never) { return nil }
                if matches(place, until) { observer = 0 }
                if matches(place, after) { observer = 1 }
            }
        case .leadsTo(let from, let to):
            for place in entered() {
                if matches(place, from) { observer = 1 }
                if matches(place, to) { observer = 0 }
            }
        case .atMost(let times, let event, let before):
            guard step.input == .event(event), !entered().contains(where: { matches($0, before) }) else { return 0 }
            if observer == times { return nil }
            observer += 1
        case .whenever:
            break
        }
        return observer
    }

    /// Every configuration at most `depth` inputs from the start, breadth first: the fewest
    /// inputs to one where the flow has not ended and the event, under some combination of
    /// the conditions, is ignored or leads outside `to`; or `nil`.
    static func bruteForceWhenever(_ event: Int, _ to: PropertyCheck.Place, _ program: FlowProgram, depth: Int)
        -> Int?
    {
        func isIn(_ state: Int) -> Bool {
            let places = program.states[state].ancestors.map(PropertyCheck.Place.compound) + [.state(state)]
            if case .any(let named) = to { return places.contains { named.contains($0) } }
            return places.contains(to)
        }
        let vectors = conditionVectors(program)
        var frontier = vectors.map { ProgramRun.start(program, conditions: $0).0 }
        var seen = Set<Pair>()
        for inputs in 0...depth {
            var next: [ProgramRun] = []
            for runtime in frontier {
                guard
                    seen.insert(
                        Pair(states: runtime.states, retries: runtime.retries, memory: runtime.memory, observer: 0)
                    ).inserted
                else { continue }
                if !runtime.states.allSatisfy({ program.states[$0].kind == .terminal }) {
                    for conditions in vectors {
                        var sent = runtime
                        guard sent.send(event, program, conditions: conditions) != nil,
                            sent.states.contains(where: isIn)
                        else { return inputs }
                    }
                }
                for conditions in vectors { next += attempts(from: runtime, conditions, program).map(\.next) }
            }
            frontier = next
        }
        return nil
    }

    static let machineCount = Int(ProcessInfo.processInfo.environment["FLOWSPEC_PROPERTY_MACHINES"] ?? "") ?? 1_000
    static let depth = 4

    /// Properties of each kind over random states of `program`.
    static func randomProperties(_ program: FlowProgram, _ random: inout DifferentialSpecs.SplitMix64)
        -> [PropertyCheck.Property]
    {
        let count = program.states.count
        func place() -> PropertyCheck.Place { .state(random.below(count)) }
        var properties: [PropertyCheck.Property] = [
            .never(place(), while: nil),
            .before(first: .place(place()), then: place(), after: random.below(2) == 0 ? nil : place()),
            .between(after: place(), until: place(), never: .any([place(), place()])),
            .leadsTo(from: place(), to: place()),
            .atMost(times: 1 + random.below(2), of: random.below(program.events.count), before: place())
        ]
        if !program.conditions.isEmpty {
            properties.append(.never(place(), while: random.below(program.conditions.count)))
        }
        // Into any state, half the time: then it holds where the event is never ignored.
        let anywhere = PropertyCheck.Place.any(program.states.indices.map(PropertyCheck.Place.state))
        properties.append(
            .whenever(event: random.below(program.events.count), to: random.below(2) == 0 ? anywhere : place()))
        if !program.effects.isEmpty {
            let effect = random.below(program.effects.count)
            properties.append(.everyEntry(place(), runs: effect))
            properties.append(
                .before(first: .effect(effect), then: place(), after: random.below(2) == 0 ? nil : place()))
        }
        return properties
    }

    @Test func theSearchAgreesWithEveryRunUpToABound() throws {
        var random = DifferentialSpecs.SplitMix64(seed: 0xB0FE)
        var compared: [String: (refuted: Int, proved: Int)] = [:]
        for index in 0..<Self.machineCount {
            let text =
                index % 2 == 0
                ? DifferentialSpecs.specText([DifferentialSpecs.drawMachine(name: "M", &random)])
                : NestedSpecs.specText([NestedSpecs.draw(name: "M", &random)])
            let result = SpecChecker().check(SourceFile(path: "m.yaml", text: text))
            guard !result.diagnostics.contains(where: { $0.severity == .error }),
                let program = result.graphs.first.flatMap(FlowProgramBuilder.build),
                program.conditions.count <= 2, (1...4).contains(program.events.count),
                !program.compounds.contains(where: { $0.timeout != nil }), !program.hasParallel,
                // Kept small: the brute force explores every run up to its bound.
                case .success(let graph) = PropertyCheck.configurations(
                    of: program, bound: 5_000, watching: Array(program.conditions.indices))
            else { continue }
            let search = PropertyCheck(program: program, graph: graph)
            for property in Self.randomProperties(program, &random) {
                let kind = String("\(property)".prefix { $0 != "(" })
                let depth = Self.depth
                let isLeadsTo: Bool
                if case .leadsTo = property { isLeadsTo = true } else { isLeadsTo = false }
                let brute: Int?
                switch property {
                case .leadsTo: brute = Self.bruteForceLeadsTo(property, program, depth: depth)
                case .whenever(let event, let to): brute = Self.bruteForceWhenever(event, to, program, depth: depth)
                default: brute = Self.bruteForce(property, program, depth: depth)
                }
                switch search.check(property) {
                case .broken(let counterexample):
                    let inputs = counterexample.steps
                    if case .whenever = property {
                        // The configuration where it fails, by a shortest run; the event taken
                        // elsewhere, or ignored, ends the trace.
                        let atNode = inputs - 1
                        #expect(brute == (atNode <= depth ? atNode : nil), "\(text)\n\(property)\n\(counterexample)")
                    } else if isLeadsTo {
                        // The search's run reaches the loop by a shortest way, then goes round
                        // it: no shorter than the shortest, and found by the brute force when
                        // within its bound.
                        if inputs <= depth {
                            #expect(brute.map { $0 <= inputs } == true, "\(text)\n\(property)\n\(counterexample)")
                        }
                    } else {
                        #expect(brute == (inputs <= depth ? inputs : nil), "\(text)\n\(property)\n\(counterexample)")
                    }
                    compared[kind, default: (0, 0)].refuted += 1
                case .holds:
                    #expect(brute == nil, "\(text)\n\(property)")
                    compared[kind, default: (0, 0)].proved += 1
                case .refused(let why):
                    Issue.record("refused: \(why)")
                }
            }
        }
        for kind in ["never", "before", "between", "everyEntry", "leadsTo", "atMost", "whenever"] {
            let counts = compared[kind] ?? (0, 0)
            #expect(counts.refuted > 20 && counts.proved > 20, "\(kind): \(counts)")
        }
    }
}

/// One of the reference flows' rules broken in a copy of `specs/app.yaml`: the edits, and the
/// finding with its run.
struct ReferenceBreak: CustomTestStringConvertible, Sendable {
    var rule: String
    var edits: [(String, String)]
    var message: String
    var run: [String]

    var testDescription: String { rule }

    static let all = [
        ReferenceBreak(
            rule: "FirstRun: returning users skip the splash",
            edits: [("          - { to: demoCTA, if: onboardingCompleted }\n", "")],
            message: "requirement failed: a run enters 'splash' at an input where 'onboardingCompleted' holds",
            run: ["+onboardingCompleted", "start -> splash | effects: - | timeout: -"]),
        ReferenceBreak(
            rule: "FirstRun: three slides in order",
            edits: [("on: { slideAdvance: slide1 }", "on: { slideAdvance: slide2 }")],
            message: "requirement failed: a run enters 'slide2' before it has been in 'slide1'",
            run: [
                "start -> splash | effects: - | timeout: -", "splashFinished -> slide0 | effects: - | timeout: -",
                "slideAdvance -> slide2 | effects: - | timeout: -"
            ]),
        ReferenceBreak(
            rule: "FirstRun: the CTA only after the last slide",
            edits: [
                (
                    "on: { slideAdvance: slide2 }",
                    "on: { slideAdvance: slide2, onboardingComplete: { to: demoCTA, effects: [persistOnboardingCompleted] } }"
                )
            ],
            message: "requirement failed: a run enters 'demoCTA' or 'demoStub' after 'splash' and before 'slide2'",
            run: [
                "start -> splash | effects: - | timeout: -", "splashFinished -> slide0 | effects: - | timeout: -",
                "slideAdvance -> slide1 | effects: - | timeout: -",
                "onboardingComplete -> demoCTA | effects: persistOnboardingCompleted | timeout: -"
            ]),
        ReferenceBreak(
            rule: "FirstRun: the flag is persisted before the CTA",
            edits: [
                (
                    "onboardingComplete: { to: demoCTA, effects: [persistOnboardingCompleted] }",
                    "onboardingComplete: { to: demoCTA }"
                )
            ],
            message:
                "requirement failed: a run enters 'demoCTA' before it has run 'persistOnboardingCompleted' since it last entered 'splash'",
            run: [
                "start -> splash | effects: - | timeout: -", "splashFinished -> slide0 | effects: - | timeout: -",
                "slideAdvance -> slide1 | effects: - | timeout: -", "slideAdvance -> slide2 | effects: - | timeout: -",
                "onboardingComplete -> demoCTA | effects: - | timeout: -"
            ]),
        ReferenceBreak(
            rule: "LaunchAuth: every error has a visible UI",
            edits: [("        entry: [showError]\n", "        entry: []\n")],
            message: "requirement failed: a run enters 'error' in a step that does not run 'showError'",
            run: [
                "start -> splash | effects: - | timeout: 2000ms -> onboardingCheck",
                "splashFailed -> error | effects: - | timeout: -"
            ]),
        ReferenceBreak(
            rule: "LaunchAuth: the user can always force-reset",
            edits: [
                (
                    "          loginAttempted: authLoading\n",
                    "          loginAttempted: authLoading\n          forceReset: onboardingCheck\n"
                )
            ],
            message: "requirement failed: a run gets where 'forceReset' does not take the flow to 'unauthenticated'",
            run: [
                "start -> splash | effects: - | timeout: 2000ms -> onboardingCheck",
                "forceReset -> unauthenticated | effects: - | timeout: -",
                "forceReset -> onboardingCheck | effects: - | timeout: 3000ms -> authCheck"
            ]),
        ReferenceBreak(
            rule: "LaunchAuth: no state loops infinitely",
            edits: [
                ("          loginFailed: unauthenticated", "          loginFailed: locked"),
                (
                    "      mainApp:\n        kind: terminal\n",
                    "      mainApp:\n        kind: terminal\n      locked:\n        kind: terminal\n"
                )
            ],
            message:
                "requirement failed: a run enters 'splash', 'onboardingCheck', 'authCheck', 'authLoading' or 'authenticated' "
                + "and never reaches 'onboarding', 'unauthenticated', 'error' or 'mainApp', though it does not wait on the user",
            run: [
                "start -> splash | effects: - | timeout: 2000ms -> onboardingCheck",
                "forceReset -> unauthenticated | effects: - | timeout: -",
                "loginAttempted -> authLoading | effects: - | timeout: 10000ms -> error",
                "loginFailed -> locked | effects: - | timeout: -"
            ]),
        ReferenceBreak(
            rule: "LaunchAuth: at most 3 automatic retries",
            edits: [("retry: { max: 3, then: error }", "retry: { max: 4, then: error }")],
            message:
                "requirement failed: a run takes 'networkError' more than 3 times in a row without entering 'error'",
            run: [
                "start -> splash | effects: - | timeout: 2000ms -> onboardingCheck",
                "forceReset -> unauthenticated | effects: - | timeout: -",
                "loginAttempted -> authLoading | effects: - | timeout: 10000ms -> error"
            ] + Array(repeating: "networkError -> authLoading | effects: - | timeout: 10000ms -> error", count: 4)),
        ReferenceBreak(
            rule: "Chapters: no chapter skipped",
            edits: [
                (
                    "on: { completeCurrentChapter: { to: cipher, effects: [saveCheckpoint] } }",
                    "on: { completeCurrentChapter: { to: firewall, effects: [saveCheckpoint] } }"
                )
            ],
            message: "requirement failed: a run enters 'firewall' before it has been in 'cipher'",
            run: [
                "start -> handshake | effects: - | timeout: -",
                "completeCurrentChapter -> packetRun | effects: saveCheckpoint | timeout: -",
                "completeCurrentChapter -> firewall | effects: saveCheckpoint | timeout: -"
            ]),
        ReferenceBreak(
            rule: "Chapters: the checkpoint is saved on every advance",
            edits: [
                (
                    "on: { completeCurrentChapter: { to: firewall, effects: [saveCheckpoint] } }",
                    "on: { completeCurrentChapter: firewall }"
                )
            ],
            message:
                "requirement failed: a run enters 'packetRun', 'cipher', 'firewall', 'blueprint' or 'eventHorizon' in a step "
                + "that does not run 'saveCheckpoint'",
            run: [
                "start -> handshake | effects: - | timeout: -",
                "completeCurrentChapter -> packetRun | effects: saveCheckpoint | timeout: -",
                "completeCurrentChapter -> cipher | effects: saveCheckpoint | timeout: -",
                "completeCurrentChapter -> firewall | effects: - | timeout: -"
            ]),
        ReferenceBreak(
            rule: "App: the main app only once authenticated",
            edits: [("on: { signIn: launch }", "on: { signIn: story }")],
            message: "requirement failed: a run enters 'story' before it has been in 'launch.authenticated'",
            run: [
                "# firstRun runs FirstRun", "start -> firstRun.splash | effects: - | timeout: -",
                "# firstRun: FirstRun stopped", "# story runs Chapters",
                "signIn -> story.handshake | effects: - | timeout: -"
            ])
    ]
}
