import FlowSpecTestSupport
import Foundation
import Testing

@testable import FlowSpecCore

/// Differential test of `flowspec gen`: many random valid machines are generated, checked,
/// turned into Swift and compiled into one program together with a driver; random input
/// sequences are run both through the compiled reducers and through ``Simulation`` (the
/// reference semantics of ``ProgramRun``), and every trace line must agree.
@Suite("Differential generation")
struct DifferentialGenerationTests {
    typealias Gen = DifferentialSpecs

    /// How the random specs are drawn: three files of fifty machines, one seed each.
    static let seeds: [UInt64] = [0x5EED_0001, 0x5EED_0002, 0x5EED_0003]
    static let machinesPerFile = 50
    /// Start runs per machine and their length in inputs.
    static let startRuns = 6
    static let stepsPerRun = 25
    /// Steps of each restore run (persisting machines only).
    static let restoreSteps = 10

    @Test func compiledReducersTraceLikeTheSimulation() throws {
        guard SwiftCompiler.swiftc != nil else {
            Issue.record(
                "swiftc is not on PATH: the differential test needs the Swift compiler to build the generated code")
            return
        }

        // 1. Random valid specs, checked by the real checker.
        var files: [(path: String, text: String, machines: [Gen.Machine])] = []
        var discarded: [String: Int] = [:]
        var nextMachine = 0
        for (fileIndex, seed) in Self.seeds.enumerated() {
            var random = Gen.SplitMix64(seed: seed)
            var machines: [Gen.Machine] = []
            var attempts = 0
            while machines.count < Self.machinesPerFile {
                attempts += 1
                try #require(
                    attempts < Self.machinesPerFile * 20,
                    "the spec generator keeps drawing invalid machines: \(discarded)")
                let machine = Gen.drawMachine(name: "M\(nextMachine)", &random)
                let text = Gen.specText([machine])
                let result = SpecChecker().check(SourceFile(path: "draw.yaml", text: text))
                let errors = result.diagnostics.filter { $0.severity == .error }
                if errors.isEmpty {
                    machines.append(machine)
                    nextMachine += 1
                } else {
                    for error in errors { discarded[error.rule.rawValue, default: 0] += 1 }
                }
            }
            files.append((path: "random\(fileIndex).yaml", text: Gen.specText(machines), machines: machines))
        }

        // Machines `M…` in the switch form; every fifth one also as `T…` in the table form (which
        // takes about three times as long to compile), held to the same traces.
        var programs: [FlowProgram] = []
        var tablePrograms: [FlowProgram] = []
        var models: [Gen.Machine] = []
        var swiftFiles: [String: String] = [:]
        for file in files {
            for shape in [GenerationOptions.Shape.switches, .tables] {
                let path = shape == .switches ? file.path : file.path.replacingOccurrences(of: "random", with: "table")
                let machines =
                    shape == .switches
                    ? file.machines
                    : file.machines.filter { Gen.hasTableTwin($0.name) }.map(Gen.tableTwin)
                let text = Gen.specText(machines)
                let result = SpecChecker().check(SourceFile(path: path, text: text))
                let programsOfFile = try #require(
                    SpecGeneration.programs(result, diagnostics: result.diagnostics),
                    "\(path) has errors:\n\(FlowSpecCoreTestsSupport.describe(result))")
                try #require(programsOfFile.count == machines.count)
                if shape == .switches {
                    programs += programsOfFile
                    models += machines
                } else {
                    tablePrograms += programsOfFile
                }
                swiftFiles[path.replacingOccurrences(of: ".yaml", with: ".swift")] =
                    SwiftGenerator.file(for: programsOfFile, options: GenerationOptions(sourcePath: path, shape: shape))
            }
        }
        #expect(programs.count == Self.seeds.count * Self.machinesPerFile)
        #expect(tablePrograms.count == programs.count / 5)
        #expect(
            tablePrograms.contains { $0.persist?.rawValue == .int }
                && tablePrograms.contains { $0.persist?.rawValue == .string }
                && tablePrograms.contains { $0.effects.isEmpty } && tablePrograms.contains { $0.retrySlotCount > 0 }
                && tablePrograms.contains(where: \.hasRetryEffects)
                && tablePrograms.contains { $0.retrySlotCount > 0 && !$0.hasRetryEffects },
            "the table-form machines miss a persistence kind, a machine without effects, or retries with and without effects"
        )
        Self.expectCoverage(programs: programs, models: models)

        // 2. Random runs and their expected traces (the same for a machine's table twin).
        var runs: [Gen.Run] = []
        var random = Gen.SplitMix64(seed: 0xD1FF_E4E7)
        for program in programs {
            var runsOfMachine: [Gen.Run] = []
            for index in 0..<Self.startRuns {
                let steps = Gen.drawSteps(program, count: Self.stepsPerRun, &random)
                runsOfMachine.append(
                    Gen.Run(
                        machine: program.name.name, key: "\(program.name.name)#\(index)", restoring: nil,
                        steps: steps, expected: try Simulation(program: program).run(steps)))
            }
            for (offset, raw) in Gen.restoreValues(program, &random).enumerated() {
                let steps = Gen.drawSteps(program, restoring: .some(raw), count: Self.restoreSteps, &random)
                runsOfMachine.append(
                    Gen.Run(
                        machine: program.name.name, key: "\(program.name.name)#r\(offset)",
                        restoring: .some(raw), steps: steps,
                        expected: try Simulation(program: program).run(steps, restoring: .some(raw))))
            }
            runs += runsOfMachine
            guard Gen.hasTableTwin(program.name.name) else { continue }
            runs += runsOfMachine.map { run in
                var twin = run
                twin.machine = Gen.tableTwinName(run.machine)
                twin.key = Gen.tableTwinName(run.key)
                return twin
            }
        }

        // Most inputs are taken, many are ignored (unhandled events, failed conditions, terminal
        // states, states without a timeout), and restores start runs of every persisting machine.
        let lines = runs.flatMap(\.expected)
        let ignored = lines.filter { $0.contains(" (ignored) | ") }.count
        #expect(
            ignored > lines.count / 10 && ignored < lines.count / 2,
            "\(ignored) of \(lines.count) lines are ignored inputs")
        #expect(lines.filter { $0.hasPrefix("restore(") }.count > 300)

        // 3. One program: the generated machines and a driver replaying the runs.
        swiftFiles["main.swift"] = Gen.driver(programs: programs + tablePrograms, runs: runs)
        let actual = try Gen.runDriver(swiftFiles)
        var compared = 0
        var mismatches: [String] = []
        var mismatchedMachines = Set<String>()
        for run in runs {
            let lines = actual[run.key] ?? []
            var firstMismatch: String?
            for (step, expected) in run.expected.enumerated() {
                let got = step < lines.count ? lines[step] : "<no line>"
                compared += 1
                if got != expected, firstMismatch == nil {
                    firstMismatch = """
                        machine \(run.machine) (\(run.machine.hasPrefix("T") ? "table" : "switch") form), run \(run.key) (\(run.restoring.map { "restore(\($0 ?? "nil"))" } ?? "start")), \
                        trace line \(step)
                          inputs:   \(Gen.script(run.steps))
                          expected: \(expected)
                          actual:   \(got)
                        """
                }
            }
            if lines.count != run.expected.count, firstMismatch == nil {
                firstMismatch =
                    "machine \(run.machine), run \(run.key): \(lines.count) lines printed, \(run.expected.count) expected"
            }
            if let firstMismatch {
                mismatchedMachines.insert(run.machine)
                mismatches.append(firstMismatch)
            }
        }
        #expect(compared == runs.reduce(0) { $0 + $1.expected.count })
        #expect(compared > 20_000, "only \(compared) trace lines were compared")
        if !mismatches.isEmpty {
            let machineTexts = mismatchedMachines.sorted { $0.count != $1.count ? $0.count < $1.count : $0 < $1 }
                .prefix(2)
                .compactMap { name in models.first { $0.name == "M" + name.dropFirst() }.map { Gen.specText([$0]) } }
            Issue.record(
                """
                \(mismatches.count) of \(runs.count) runs differ (\(mismatchedMachines.count) machines); first ones:
                \(mismatches.prefix(8).joined(separator: "\n"))
                spec of the first mismatching machines:
                \(machineTexts.joined(separator: "\n"))
                """)
        }
    }

    /// The draw must exercise every feature the generator is meant to cover.
    static func expectCoverage(programs: [FlowProgram], models: [Gen.Machine]) {
        var count: [String: Int] = [:]
        func note(_ feature: String, _ present: Bool = true) { if present { count[feature, default: 0] += 1 } }
        for program in programs {
            var predecessors = [Set<Int>](repeating: [], count: program.states.count)
            for (index, state) in program.states.enumerated() {
                note("kind \(state.kind.rawValue)")
                var outgoing: [(FlowProgram.Candidate, String)] = state.transitions.flatMap { transition in
                    transition.candidates.map { ($0, "event") }
                }
                outgoing += state.always.map { ($0, "always") }
                outgoing += state.eventless.map { ($0, "always of a state that waits") }
                note("always of a state that waits", !state.eventless.isEmpty)
                if let timeout = state.timeout { outgoing.append((timeout.candidate, "timeout")) }
                if state.kind == .task { note("task without timeout", state.timeout == nil) }
                for transition in state.transitions { note("candidate list", transition.candidates.count > 1) }
                note("always list", state.always.count > 1)
                for (candidate, place) in outgoing {
                    note("if", !candidate.requires.isEmpty)
                    note("unless", !candidate.forbids.isEmpty)
                    note("effects on \(place)", !candidate.effects.isEmpty)
                    note("retry on \(place)", candidate.retry != nil)
                    note("effects on a retry", candidate.retry?.effects.isEmpty == false)
                    note("self-loop", candidate.target == index)
                    note("without a target", candidate.isTargetless)
                    guard !candidate.isTargetless else { continue }
                    predecessors[candidate.target].insert(index)
                    if let retry = candidate.retry { predecessors[retry.fallback].insert(index) }
                }
            }
            for (index, sources) in predecessors.enumerated() where index != program.initial && !sources.isEmpty {
                note("reached only through choice states", sources.allSatisfy { program.states[$0].kind == .choice })
            }
            switch (program.persist?.rawValue, program.persist?.restore) {
            case (.int?, .clamp?): note("persist int clamp")
            case (.int?, _): note("persist int")
            case (.string?, _): note("persist string")
            case (nil, _): break
            }
            note("migrate int", program.persist?.rawValue == .int && program.persist?.migrate.isEmpty == false)
            note("migrate string", program.persist?.rawValue == .string && program.persist?.migrate.isEmpty == false)
            note("no events", program.events.isEmpty)
            note("no effects", program.effects.isEmpty)
        }
        for model in models {
            note("machine-wide on", !model.machineWide.isEmpty)
            let wide = Set(model.machineWide.map(\.event))
            note(
                "state overrides a machine-wide event",
                model.states.contains { state in
                    (state.kind == .input || state.kind == .task) && state.on.contains { wide.contains($0.event) }
                })
            note("retry on machine-wide", model.machineWide.contains { $0.candidates.contains { $0.retry != nil } })
            note(
                "machine-wide without a target", model.machineWide.contains { $0.candidates.contains(where: \.stays) })
            note("declared events", model.declareEvents)
        }
        let required = [
            "kind input", "kind task", "kind choice", "kind terminal", "candidate list", "always list",
            "if", "unless", "effects on event", "effects on always", "effects on timeout",
            "retry on event", "retry on always", "retry on timeout", "effects on a retry", "self-loop",
            "reached only through choice states", "persist int clamp", "persist int", "persist string",
            "migrate int", "migrate string", "machine-wide on", "state overrides a machine-wide event",
            "retry on machine-wide", "without a target", "machine-wide without a target",
            "declared events", "no effects", "always of a state that waits",
            "effects on always of a state that waits"
        ]
        for feature in required {
            #expect(count[feature, default: 0] > 0, "no random machine has: \(feature)")
        }
        #expect(count["task without timeout", default: 0] == 0)
    }
}

/// The random spec generator, input sequences and the driver program of the differential test.
enum DifferentialSpecs {
    /// The shared seeded generator (Tests/Support).
    typealias SplitMix64 = FlowSpecTestSupport.SplitMix64

    // MARK: The spec model

    enum Kind: String { case input, task, choice, terminal }

    struct Candidate {
        var target: Int
        var ifCondition: Int?
        var unlessCondition: Int?
        var effects: [Int] = []
        var retry: (max: Int, then: Int)?
        /// The effects the retry runs when it goes to `then`.
        var retryEffects: [Int] = []
        /// Written as a bare state name when it can be.
        var bare = false
        /// Without a target (``target`` is then its source): it runs its effects and stays.
        var stays = false

        var isPlain: Bool {
            ifCondition == nil && unlessCondition == nil && effects.isEmpty && retry == nil && !stays
        }
    }

    struct Transition {
        var event: Int
        var candidates: [Candidate]
        /// Written as a block list rather than a flow list.
        var block = false
    }

    struct State {
        var kind: Kind
        var on: [Transition] = []
        var always: [Candidate] = []
        var timeout: (after: String, candidate: Candidate)?
    }

    struct Machine {
        var name: String
        var states: [State]
        var initial: Int
        var defaultKind: Kind?
        var conditionCount: Int
        var effectCount: Int
        var eventCount: Int
        var declareEvents: Bool
        var machineWide: [Transition]
        var persist: String?
        var sequence: [Int]?
    }

    /// The same machine named `T…` instead of `M…`, for the table form.
    static func tableTwin(_ machine: Machine) -> Machine {
        var twin = machine
        twin.name = tableTwinName(machine.name)
        return twin
    }

    static func tableTwinName(_ name: String) -> String { "T" + name.dropFirst() }

    /// Whether machine `M<n>` also goes through the table form: every fifth one.
    static func hasTableTwin(_ name: String) -> Bool { (Int(name.dropFirst()) ?? 1) % 5 == 0 }

    static let durations = ["250ms", "1s", "2s", "1500ms", "30s", "90s", "5m", "1h", "10ms"]

    // MARK: Drawing a machine

    /// A random machine, valid by construction as far as the generator knows (the caller checks
    /// it and draws again if not). Loops among task and choice states are avoided by ordering
    /// the states: an unbounded transition from a task or choice state only goes to an input or
    /// terminal state or to a later state in the order; `retry` transitions may go anywhere.
    /// Every state is reached from an earlier one in the order (a spanning tree).
    static func drawMachine(name: String, _ random: inout SplitMix64) -> Machine {
        let count = 3 + random.below(8)
        var kinds: [Kind] = (0..<count).map { _ in
            let roll = random.below(100)
            return roll < 35 ? .input : roll < 63 ? .task : roll < 85 ? .choice : .terminal
        }
        let initial: Int
        let nonTerminal = kinds.indices.filter { kinds[$0] != .terminal }
        if !nonTerminal.isEmpty {
            initial = random.pick(nonTerminal)
        } else {
            initial = random.below(count)
            kinds[initial] = .input
        }
        if !kinds.contains(where: { $0 == .input || $0 == .terminal }) {
            let other = random.pick(kinds.indices.filter { $0 != initial })
            kinds[other] = random.percent(60) ? .input : .terminal
        }
        let order = [initial] + random.shuffled(kinds.indices.filter { $0 != initial })
        var position = [Int](repeating: 0, count: count)
        for (index, state) in order.enumerated() { position[state] = index }

        let conditionCount = random.below(4)
        let effectCount = random.below(4)
        let eventCount = 1 + random.below(5)
        var states = kinds.map { State(kind: $0) }

        func isFree(_ target: Int) -> Bool { kinds[target] == .input || kinds[target] == .terminal }
        func legal(from source: Int) -> [Int] {
            kinds.indices.filter { kinds[source] == .input || isFree($0) || position[$0] > position[source] }
        }
        /// A candidate from `source`: a legal target, or with a bounded retry any target
        /// (often itself) with a legal `then`.
        func candidate(from source: Int, retryChance: Int, _ random: inout SplitMix64) -> Candidate {
            if random.percent(retryChance) {
                let target = random.percent(40) ? source : random.below(count)
                return Candidate(target: target, retry: (1 + random.below(3), random.pick(legal(from: source))))
            }
            return Candidate(target: random.pick(legal(from: source)))
        }
        func addEvent(_ candidate: Candidate, to source: Int, _ random: inout SplitMix64) {
            let event = random.below(eventCount)
            if let existing = states[source].on.firstIndex(where: { $0.event == event }) {
                states[source].on[existing].candidates.append(candidate)
            } else {
                states[source].on.append(Transition(event: event, candidates: [candidate]))
            }
        }

        // Spanning edges: each state in the order is reached from an earlier non-terminal one,
        // from a choice state when there is one, half of the time.
        for index in 1..<count {
            let state = order[index]
            let parents = order[..<index].filter { kinds[$0] != .terminal }
            let choices = parents.filter { kinds[$0] == .choice }
            let parent = !choices.isEmpty && random.percent(50) ? random.pick(choices) : random.pick(Array(parents))
            var edge = Candidate(target: state)
            if random.percent(15) {
                edge.retry = (1 + random.below(3), random.pick(legal(from: parent)))
            }
            switch kinds[parent] {
            case .choice:
                states[parent].always.append(edge)
            case .task, .input:
                if states[parent].timeout == nil && random.percent(kinds[parent] == .task ? 50 : 25) {
                    states[parent].timeout = (random.pick(durations), edge)
                } else {
                    addEvent(edge, to: parent, &random)
                }
            case .terminal:
                break
            }
        }

        // Machine-wide transitions: to input or terminal states, or with a bounded retry anywhere
        // (their `then` to an input or terminal state).
        var machineWide: [Transition] = []
        let free = kinds.indices.filter(isFree)
        if random.percent(40) {
            for event in random.shuffled(Array(0..<eventCount)).prefix(1 + random.below(2)) {
                var candidates: [Candidate] = []
                for _ in 0..<(1 + random.below(2)) {
                    if random.percent(25) {
                        candidates.append(
                            Candidate(
                                target: random.below(count),
                                retry: (1 + random.below(3), random.pick(free))))
                    } else {
                        candidates.append(Candidate(target: random.pick(free)))
                    }
                }
                machineWide.append(Transition(event: event, candidates: candidates, block: random.percent(30)))
            }
        }

        // Complete every state.
        for source in 0..<count {
            switch kinds[source] {
            case .choice:
                for _ in 0..<random.below(3) {
                    let extra = candidate(from: source, retryChance: 20, &random)
                    states[source].always.insert(extra, at: random.below(states[source].always.count + 1))
                }
                if states[source].always.isEmpty {
                    states[source].always.append(candidate(from: source, retryChance: 20, &random))
                }
            case .task, .input:
                let extras = kinds[source] == .input ? random.below(4) : random.below(3)
                for _ in 0..<extras {
                    addEvent(
                        candidate(from: source, retryChance: kinds[source] == .task ? 20 : 10, &random),
                        to: source, &random)
                }
                let needsTimeout =
                    kinds[source] == .task
                    || (states[source].on.isEmpty && machineWide.isEmpty) || random.percent(30)
                if states[source].timeout == nil && needsTimeout {
                    states[source].timeout = (
                        random.pick(durations),
                        candidate(from: source, retryChance: 25, &random)
                    )
                }
            case .terminal:
                break
            }
        }

        // Conditions, effects and forms.
        func decorate(_ candidate: inout Candidate, conditional: Bool, _ random: inout SplitMix64) {
            if conditional && conditionCount > 0 {
                let roll = random.below(100)
                if roll < 45 {
                    candidate.ifCondition = random.below(conditionCount)
                } else if roll < 70 {
                    candidate.unlessCondition = random.below(conditionCount)
                } else if roll < 85 {
                    candidate.ifCondition = random.below(conditionCount)
                    candidate.unlessCondition = random.below(conditionCount)
                }
            }
            if effectCount > 0 && random.percent(35) {
                candidate.effects = (0..<(1 + random.below(2))).map { _ in random.below(effectCount) }
            }
            decorateRetry(&candidate, &random)
            candidate.bare = random.percent(50)
        }
        func decorateRetry(_ candidate: inout Candidate, _ random: inout SplitMix64) {
            if candidate.retry != nil && effectCount > 0 && random.percent(40) {
                candidate.retryEffects = (0..<(1 + random.below(2))).map { _ in random.below(effectCount) }
            }
        }
        for source in 0..<count {
            for transition in states[source].on.indices {
                states[source].on[transition].block = random.percent(30)
                for index in states[source].on[transition].candidates.indices {
                    decorate(&states[source].on[transition].candidates[index], conditional: true, &random)
                }
            }
            let last = states[source].always.count - 1
            for index in states[source].always.indices {
                // The last branch is unconditional; now and then an earlier one too (shadowing).
                decorate(&states[source].always[index], conditional: index < last && random.percent(90), &random)
            }
            if var timeout = states[source].timeout {
                decorate(&timeout.candidate, conditional: false, &random)
                if timeout.candidate.retry == nil && random.percent(15) {
                    timeout.candidate.retry = (1 + random.below(3), random.pick(legal(from: source)))
                    decorateRetry(&timeout.candidate, &random)
                }
                states[source].timeout = timeout
            }
        }
        for transition in machineWide.indices {
            for index in machineWide[transition].candidates.indices {
                decorate(&machineWide[transition].candidates[index], conditional: true, &random)
            }
        }

        // Transitions without a target, among a state's or the machine's, anywhere in a list: drawn
        // from a generator of their own, so that the rest of each machine, and the machines after
        // it, are drawn as before they were added.
        var side = SplitMix64(seed: random.state ^ 0x57A7_5057_A75)
        func staying(from source: Int, _ random: inout SplitMix64) -> Candidate {
            var candidate = Candidate(target: source, stays: true)
            if effectCount > 0 && random.percent(85) {
                candidate.effects = (0..<(1 + random.below(2))).map { _ in random.below(effectCount) }
            }
            if conditionCount > 0 && random.percent(40) { candidate.ifCondition = random.below(conditionCount) }
            return candidate
        }
        func insert(_ candidate: Candidate, into list: inout [Transition], _ random: inout SplitMix64) {
            let event = random.below(eventCount)
            if let existing = list.firstIndex(where: { $0.event == event }) {
                let count = list[existing].candidates.count
                list[existing].candidates.insert(candidate, at: random.below(count + 1))
            } else {
                list.append(Transition(event: event, candidates: [candidate], block: random.percent(30)))
            }
        }
        for source in 0..<count where (kinds[source] == .input || kinds[source] == .task) && side.percent(20) {
            insert(staying(from: source, &side), into: &states[source].on, &side)
        }
        // `always` branches of states that wait, each with a condition, from the same side generator.
        for source in 0..<count where (kinds[source] == .input || kinds[source] == .task) && conditionCount > 0 {
            guard side.percent(25) else { continue }
            for _ in 0..<(1 + side.below(2)) {
                var branch = Candidate(target: side.pick(legal(from: source)))
                if side.percent(60) {
                    branch.ifCondition = side.below(conditionCount)
                } else {
                    branch.unlessCondition = side.below(conditionCount)
                }
                if effectCount > 0 && side.percent(40) {
                    branch.effects = (0..<(1 + side.below(2))).map { _ in side.below(effectCount) }
                }
                if side.percent(10) { branch.retry = (1 + side.below(3), side.pick(legal(from: source))) }
                branch.bare = side.percent(50)
                states[source].always.append(branch)
            }
        }
        if side.percent(12) { insert(staying(from: -1, &side), into: &machineWide, &side) }

        let defaultKind: Kind? = random.pick([nil, nil, .input, .task, .terminal])
        var persist: String?
        switch random.below(100) {
        case ..<18: persist = "rawValue: int, restore: clamp"
        case ..<30: persist = random.percent(50) ? "rawValue: int" : "rawValue: int, restore: initial"
        case ..<45: persist = "rawValue: string"
        default: break
        }
        if let text = persist, random.percent(30) {
            let from = random.below(count)
            let to = random.below(count)
            persist = text + ", resume: { s\(from): s\(to) }"
        }
        // Values earlier versions stored: `restoreValues` restores from them.
        if let text = persist, random.percent(40) {
            let old = text.contains("int") ? "\(count + 7)" : "oldS0"
            persist = text + ", migrate: { \(old): s\(random.below(count)) }"
        }
        var sequence: [Int]?
        if random.percent(15) {
            sequence = Array(random.shuffled(Array(0..<count)).prefix(2))
        }
        return Machine(
            name: name, states: states, initial: initial, defaultKind: defaultKind,
            conditionCount: conditionCount, effectCount: effectCount, eventCount: eventCount,
            declareEvents: random.percent(30), machineWide: machineWide, persist: persist,
            sequence: sequence)
    }

    // MARK: Writing YAML

    static func specText(_ machines: [Machine]) -> String {
        var text = "flowspec: 1\nmachines:\n"
        for machine in machines { text += yaml(machine) }
        return text
    }

    static func yaml(_ machine: Machine) -> String {
        var text = header(machine)
        text += "    states:\n"
        for (index, state) in machine.states.enumerated() {
            text += "      s\(index):\n" + body(state, of: machine, indent: "        ")
        }
        return text
    }

    /// `[p0, p1, …]`.
    static func names(_ prefix: String, _ count: Int) -> String {
        "[" + (0..<count).map { "\(prefix)\($0)" }.joined(separator: ", ") + "]"
    }

    /// Everything of a machine before its `states:`.
    static func header(_ machine: Machine, initial: String? = nil) -> String {
        var text = "  \(machine.name):\n"
        text += "    summary: Random machine \(machine.name).\n"
        text += "    initial: \(initial ?? "s\(machine.initial)")\n"
        if let kind = machine.defaultKind { text += "    defaults: { kind: \(kind.rawValue) }\n" }
        if machine.conditionCount > 0 { text += "    conditions: \(names("c", machine.conditionCount))\n" }
        if machine.effectCount > 0 { text += "    effects: \(names("f", machine.effectCount))\n" }
        if machine.declareEvents { text += "    events: \(names("e", machine.eventCount))\n" }
        if !machine.machineWide.isEmpty {
            text += "    on:\n" + transitions(machine.machineWide, indent: "      ")
        }
        if let persist = machine.persist { text += "    persist: { \(persist) }\n" }
        if let sequence = machine.sequence {
            text +=
                "    sequences:\n      q0: { states: [" + sequence.map { "s\($0)" }.joined(separator: ", ") + "] }\n"
        }
        return text
    }

    /// The body of a state (its kind, `on`, `always`, timeout), each line at `indent`.
    static func body(_ state: State, of machine: Machine, indent: String) -> String {
        var body = ""
        if state.kind != (machine.defaultKind ?? .task) { body += "\(indent)kind: \(state.kind.rawValue)\n" }
        if !state.on.isEmpty { body += "\(indent)on:\n" + transitions(state.on, indent: indent + "  ") }
        if !state.always.isEmpty {
            body += "\(indent)always:\n"
            for item in state.always { body += "\(indent)  - \(candidate(item, bareAllowed: true))\n" }
        }
        if let timeout = state.timeout { body += "\(indent)timeout: \(timeoutText(timeout))\n" }
        return body
    }

    /// `{ after: 2s, to: s3, effects: [..], retry: {..} }`.
    static func timeoutText(_ timeout: (after: String, candidate: Candidate), target: String? = nil) -> String {
        var fields = "after: \(timeout.after), to: \(target ?? "s\(timeout.candidate.target)")"
        if !timeout.candidate.effects.isEmpty {
            fields += ", effects: [" + timeout.candidate.effects.map { "f\($0)" }.joined(separator: ", ") + "]"
        }
        if let retry = timeout.candidate.retry {
            fields += ", retry: { max: \(retry.max), then: s\(retry.then) }"
        }
        return "{ \(fields) }"
    }

    static func candidate(_ candidate: Candidate, bareAllowed: Bool) -> String {
        if bareAllowed && candidate.bare && candidate.isPlain { return "s\(candidate.target)" }
        var fields = candidate.stays ? [] : ["to: s\(candidate.target)"]
        if let condition = candidate.ifCondition { fields.append("if: c\(condition)") }
        if let condition = candidate.unlessCondition { fields.append("unless: c\(condition)") }
        if !candidate.effects.isEmpty || candidate.stays {
            fields.append("effects: [" + candidate.effects.map { "f\($0)" }.joined(separator: ", ") + "]")
        }
        if let retry = candidate.retry {
            var retryFields = "max: \(retry.max), then: s\(retry.then)"
            if !candidate.retryEffects.isEmpty {
                let effects = candidate.retryEffects.map { "f\($0)" }.joined(separator: ", ")
                retryFields += ", effects: [\(effects)]"
            }
            fields.append("retry: { \(retryFields) }")
        }
        return "{ " + fields.joined(separator: ", ") + " }"
    }

    static func transitions(_ list: [Transition], indent: String) -> String {
        var text = ""
        for transition in list {
            let key = "\(indent)e\(transition.event):"
            if transition.candidates.count == 1 && !transition.block {
                text += "\(key) \(candidate(transition.candidates[0], bareAllowed: true))\n"
            } else if transition.block {
                text += "\(key)\n"
                for item in transition.candidates { text += "\(indent)  - \(candidate(item, bareAllowed: true))\n" }
            } else {
                text +=
                    "\(key) ["
                    + transition.candidates.map { candidate($0, bareAllowed: true) }
                    .joined(separator: ", ") + "]\n"
            }
        }
        return text
    }

    // MARK: Inputs

    /// One run: its inputs and the trace the simulation expects.
    struct Run {
        var machine: String
        var key: String
        /// `nil` to start; `.some(raw)` to restore from `raw` (itself possibly `nil`).
        var restoring: String??
        var steps: [Simulation.Step]
        var expected: [String]
    }

    /// Random inputs: conditions set before the start now and then, then timeouts, condition
    /// flips and events, some the current state does not handle; a run ends a few inputs after
    /// reaching a terminal state. The reference runtime follows
    /// along so that most inputs are ones the current state reacts to (or would, if its
    /// conditions held); the rest are drawn blindly.
    static func drawSteps(
        _ program: FlowProgram, restoring: String?? = nil, count: Int,
        _ random: inout SplitMix64
    ) -> [Simulation.Step] {
        let conditions = program.conditions.map(\.name)
        var values = [Bool](repeating: false, count: conditions.count)
        var steps: [Simulation.Step] = []
        if !conditions.isEmpty && random.percent(60) {
            for _ in 0..<(1 + random.below(2)) {
                let index = random.below(conditions.count)
                values[index] = random.percent(70)
                steps.append(.condition(conditions[index], values[index]))
            }
        }
        var noMoves: [ProgramRun.Move]? = nil
        var runtime =
            restoring.map { ProgramRun.restore(program, rawValue: $0, conditions: values).0 }
            ?? ProgramRun.start(program, conditions: values).0
        let everything = program.events.indices.map { Optional($0) } + [nil]
        var taken = 0
        var inTerminal = 0
        while taken < count && inTerminal < 3 {
            if program.hasEventless && random.percent(12) {
                steps.append(.conditionsChanged)
                _ = runtime.conditionsChanged(program, conditions: values, moves: &noMoves)
                taken += 1
                continue
            }
            if !conditions.isEmpty && random.percent(20) {
                let index = random.below(conditions.count)
                values[index].toggle()
                steps.append(.condition(conditions[index], values[index]))
                continue
            }
            let state = program.states[runtime.state]
            var handled: [Int?] = state.kind == .terminal ? [] : state.transitions.map(\.event)
            if state.timeout != nil { handled.append(nil) }
            // An event by index, or nil for the timeout.
            let input = !handled.isEmpty && random.percent(70) ? random.pick(handled) : random.pick(everything)
            if let event = input {
                steps.append(.event(program.events[event].name))
                _ = runtime.send(event, program, conditions: values)
            } else {
                steps.append(.timeout)
                _ = runtime.fireTimeout(visit: runtime.visit, program, conditions: values)
            }
            taken += 1
            // A terminal state ignores everything: a few inputs show it, more would be wasted.
            if program.states[runtime.state].kind == .terminal { inTerminal += 1 }
        }
        return steps
    }

    /// Stored raw values to restore from: in range, out of range on both sides, unknown, absent.
    static func restoreValues(_ program: FlowProgram, _ random: inout SplitMix64) -> [String?] {
        guard let persist = program.persist else { return [] }
        let count = program.states.count
        switch persist.rawValue {
        case .int:
            return [
                String(random.below(count)), String(random.below(count)), String(count + random.below(3)),
                String(-1 - random.below(5)), nil, String(count - 1), "0", String(count + 7)
            ]
        case .string:
            return [
                program.states[random.below(count)].name, program.states[random.below(count)].name,
                "bogus", "S0", "3", nil, "oldS0"
            ]
        }
    }

    /// Steps as driver tokens: an event's name, `@` for a timeout, `+c`/`-c` for a condition.
    static func script(_ steps: [Simulation.Step]) -> String {
        steps.map { step in
            switch step {
            case .event(let name): name
            case .timeout: "@"
            case .compoundTimeout(let name): "@" + name
            case .condition(let name, let value): (value ? "+" : "-") + name
            case .conditionsChanged: "?"
            // Relaunches are not drawn: restore runs (`restoreValues`) test restoring.
            case .relaunch: "!"
            }
        }.joined(separator: " ")
    }

    // MARK: The driver

    /// Compiles `files` (generated machines and a ``driver(programs:runs:visits:)``), runs the
    /// program, and returns the lines it printed by key (`key|line`).
    static func runDriver(_ files: [String: String]) throws -> [String: [String]] {
        let executable = try SwiftCompiler.compile(files, optimized: false)
        defer { try? FileManager.default.removeItem(at: executable.deletingLastPathComponent()) }
        let output = try SwiftCompiler.run(executable.path)
        try #require(output.status == 0, "the driver failed (\(output.status)):\n\(output.stderr)")
        var lines: [String: [String]] = [:]
        for line in output.stdout.split(separator: "\n") {
            guard let bar = line.firstIndex(of: "|") else { continue }
            lines[String(line[..<bar]), default: []].append(String(line[line.index(after: bar)...]))
        }
        return lines
    }

    /// The current visit and the visits the armed timeouts belong to, as the driver prints
    /// them with `visits`: how many states (compound ones included) a step left and entered.
    static func visits(_ runtime: ProgramRun, _ program: FlowProgram) -> String {
        "visit \(runtime.visit), armed for \(runtime.armedTimeouts(program).map(\.visit))"
    }

    /// `main.swift`: replays every run through the compiled machines and prints each trace
    /// line as `key|line`, in ``Trace/line(input:state:ignored:effects:timeout:)``'s format;
    /// with `visits`, each line ends with ``visits(_:)`` of the machine.
    static func driver(programs: [FlowProgram], runs: [Run], visits: Bool = false) -> String {
        var text = """
            protocol Driven {
                static var driveConditionNames: [Swift.String] { get }
                static func driveBegin(_ raw: Swift.String??, _ conditions: [Swift.Bool]) -> (Self, [Swift.String])
                mutating func driveEvent(_ name: Swift.String, _ conditions: [Swift.Bool]) -> [Swift.String]
                mutating func driveTimeout(_ conditions: [Swift.Bool]) -> [Swift.String]
                mutating func driveCompoundTimeout(_ name: Swift.String, _ conditions: [Swift.Bool]) -> [Swift.String]
                mutating func driveConditionsChanged(_ conditions: [Swift.Bool]) -> [Swift.String]
                var visit: Swift.Int { get }
                /// Whether the last event was handled (one without a target keeps the visit).
                var driveHandled: Swift.Bool { get }
                var driveState: Swift.String { get }
                var driveArmed: Swift.String { get }
                var driveVisits: Swift.String { get }
            }

            func driveNames<C: Swift.Collection>(_ effects: C) -> [Swift.String]
                where C.Element: Swift.RawRepresentable, C.Element.RawValue == Swift.String {
                effects.map(\\.rawValue)
            }

            func driveNames<C: Swift.Collection>(_ effects: C) -> [Swift.String] where C.Element == Swift.Never { [] }

            func driveMilliseconds(_ duration: Swift.Duration) -> Swift.Int64 {
                let components = duration.components
                return components.seconds * 1_000 + components.attoseconds / 1_000_000_000_000_000
            }

            func driveLine(_ key: Swift.Substring, _ input: Swift.String, _ machine: some Driven, _ ignored: Swift.Bool,
                           _ effects: [Swift.String]) {
                let effectText = effects.isEmpty ? "-" : effects.joined(separator: ", ")
                print("\\(key)|\\(input) -> \\(machine.driveState)\\(ignored ? " (ignored)" : "") | effects: \\(effectText) | timeout: \\(machine.driveArmed)\(visits ? " | \\(machine.driveVisits)" : "")")
            }

            func driveRun<M: Driven>(_: M.Type, _ key: Swift.Substring, _ mode: Swift.Substring, _ script: Swift.Substring) {
                var conditions = [Swift.Bool](repeating: false, count: M.driveConditionNames.count)
                func set(_ token: Swift.Substring) {
                    conditions[M.driveConditionNames.firstIndex(of: Swift.String(token.dropFirst()))!] = token.hasPrefix("+")
                }
                var tokens = script.split(separator: " ")[...]
                while let token = tokens.first, token.hasPrefix("+") || token.hasPrefix("-") {
                    set(token)
                    tokens = tokens.dropFirst()
                }
                var raw: Swift.String?? = nil
                var label = "start"
                if mode == "nil" {
                    raw = .some(nil)
                    label = "restore(nil)"
                } else if mode != "start" {
                    raw = .some(Swift.String(mode))
                    label = "restore(\\(mode))"
                }
                var (machine, effects) = M.driveBegin(raw, conditions)
                driveLine(key, label, machine, false, effects)
                for token in tokens {
                    if token.hasPrefix("+") || token.hasPrefix("-") {
                        set(token)
                        continue
                    }
                    let visit = machine.visit
                    let label: Swift.String
                    var ignored: Swift.Bool { machine.visit == visit }
                    if token == "?" {
                        effects = machine.driveConditionsChanged(conditions)
                        driveLine(key, "@conditions", machine, !machine.driveHandled, effects)
                        continue
                    } else if token == "@" {
                        effects = machine.driveTimeout(conditions)
                        label = "@timeout"
                    } else if token.hasPrefix("@") {
                        effects = machine.driveCompoundTimeout(Swift.String(token.dropFirst()), conditions)
                        label = "@timeout(\\(token.dropFirst()))"
                    } else {
                        effects = machine.driveEvent(Swift.String(token), conditions)
                        label = Swift.String(token)
                        driveLine(key, label, machine, !machine.driveHandled, effects)
                        continue
                    }
                    driveLine(key, label, machine, ignored, effects)
                }
            }


            """
        for program in programs {
            text += conformance(program) + "\n"
        }
        text += "let driveScript = \"\"\"\n"
        for run in runs {
            let mode = run.restoring.map { $0 ?? "nil" } ?? "start"
            text += "\(run.key)|\(mode)|\(script(run.steps))\n"
        }
        text += "\"\"\"\n\n"
        text += """
            for entry in driveScript.split(separator: "\\n") {
                let fields = entry.split(separator: "|", omittingEmptySubsequences: false)
                switch fields[0].prefix(while: { $0 != "#" }) {

            """
        for program in programs {
            let name = program.name.swiftName.code
            text +=
                "    case \"\(program.name.name)\": driveRun(Drive\(name).self, fields[0], fields[1], fields[2])\n"
        }
        text += """
                default: fatalError("unknown machine in \\(entry)")
                }
            }

            """
        return text
    }

    /// The restore of ``conformance(_:)``'s `driveBegin` for a persisted machine with parallel
    /// regions: the whole stored text (`VALUE, REGION=VALUE; COMPOUND=VALUE`) read into the
    /// values of the flow, its regions and its memory, as a driver reads its storage keys.
    static func storedTextRestore(_ program: FlowProgram, _ form: Persist.RawValue) -> String {
        let name = program.name.swiftName.code
        let type = form == .int ? "Swift.Int" : "Swift.String"
        return """
                    if let raw {
                        let parts = (raw ?? "nil").components(separatedBy: "; ")
                        let configuration = parts[0].components(separatedBy: ", ")
                        func value(_ text: Swift.String) -> \(type)? { text == "nil" ? nil : \(type)(text) }
                        func values(_ pairs: Swift.ArraySlice<Swift.String>, _ names: [Swift.String]) -> [\(type)?] {
                            var values = [\(type)?](repeating: nil, count: names.count)
                            for pair in pairs {
                                let halves = pair.split(separator: "=", maxSplits: 1).map(Swift.String.init)
                                if halves.count == 2, let slot = names.firstIndex(of: halves[0]) { values[slot] = value(halves[1]) }
                            }
                            return values
                        }
                        let restored = \(name).Machine.restore(
                            from: value(configuration[0]), remembering: values(parts.dropFirst(), \(name).memorySlotNames),
                            regions: values(configuration.dropFirst(), \(name).storedRegions.map { \(name).name(ofCompound: $0) }),
                            conditions: driveConditions(conditions))
                        return (Self(machine: restored.machine), driveNames(restored.effects))
                    }

            """
    }

    /// The rest of ``conformance(_:)`` for a machine with parallel regions, as `simulate` runs
    /// one: its states in document order; every armed timeout named after its state or compound
    /// state; `@timeout` fires the first own timeout armed, `@NAME` that of a state or compound
    /// state.
    static func parallelConformance(_ program: FlowProgram, _ stateName: (String) -> String) -> String {
        let name = program.name.swiftName.code
        var text = "    func driveOwner(_ visit: Swift.Int) -> Swift.String? {\n"
        text += "        machine.timeoutOwner(forVisit: visit).map { owner in\n"
        text +=
            "            owner.compound.map { \(name).name(ofCompound: $0) } ?? \(name).name(ofState: owner.state)\n"
        text += "        }\n    }\n"
        text += "    mutating func driveTimeout(_ conditions: [Swift.Bool]) -> [Swift.String] {\n"
        text +=
            "        guard let armed = machine.armedTimeouts.first(where: { $0.depth == nil && $0.owner == machine.state }) else { return [] }\n"
        text +=
            "        return driveNames(machine.fireTimeout(visit: armed.visit, conditions: Self.driveConditions(conditions)))\n    }\n"
        text +=
            "    mutating func driveCompoundTimeout(_ name: Swift.String, _ conditions: [Swift.Bool]) -> [Swift.String] {\n"
        text +=
            "        guard let armed = machine.armedTimeouts.first(where: { driveOwner($0.visit) == name }) else { return [] }\n"
        text +=
            "        return driveNames(machine.fireTimeout(visit: armed.visit, conditions: Self.driveConditions(conditions)))\n    }\n"
        text +=
            "    var driveState: Swift.String { machine.states.map { \(stateName("$0")) }.joined(separator: \", \") }\n"
        text += "    var driveArmed: Swift.String {\n"
        text += "        let armed = machine.armedTimeouts.map { armed -> Swift.String in\n"
        text +=
            "            (driveOwner(armed.visit) ?? \"?\") + \" \\(driveMilliseconds(armed.after))ms -> \\(\(stateName("armed.target")))\"\n"
        text += "        }\n"
        text += "        return armed.isEmpty ? \"-\" : armed.joined(separator: \", \")\n    }\n"
        return text + "}\n"
    }

    /// The driver's wrapper of one machine's `Machine`, conforming to `Driven` (every machine's
    /// `Machine` is the runtime's one generic type, so each gets a wrapper of its own).
    static func conformance(_ program: FlowProgram) -> String {
        let name = program.name.swiftName.code
        let conditions = program.conditions
        let conditionArguments = conditions.enumerated().map { "\($1.swiftName.code): conditions[\($0)]" }
        let intStates = program.persist?.rawValue == .int
        func stateName(_ value: String) -> String {
            intStates ? "Self.driveStateNames[\(value).rawValue]" : "\(value).rawValue"
        }
        var text = "struct Drive\(name): Driven {\n"
        text += "    var machine: \(name).Machine\n"
        text += "    var driveHandled = false\n"
        // With parallel regions, a step in another region leaves the first state's visit as it
        // was: an input changed nothing (was ignored) when the machine is as it was.
        text += "    var visit: Swift.Int { \(program.hasParallel ? "machine.hashValue" : "machine.visit") }\n"
        text +=
            "    var driveVisits: Swift.String { \"visit \\(machine.visit), armed for \\(machine.armedTimeouts.map(\\.visit))\" }\n"
        text +=
            "    static let driveConditionNames: [Swift.String] = ["
            + conditions.map { "\"\($0.name)\"" }.joined(separator: ", ") + "]\n"
        if intStates {
            text +=
                "    static let driveStateNames: [Swift.String] = ["
                + program.states.map { "\"\($0.name)\"" }.joined(separator: ", ") + "]\n"
        }
        text += "    static func driveConditions(_ conditions: [Swift.Bool]) -> \(name).Conditions {\n"
        text += "        \(name).Conditions(\(conditionArguments.joined(separator: ", ")))\n    }\n"
        text +=
            "    static func driveBegin(_ raw: Swift.String??, _ conditions: [Swift.Bool]) -> (Self, [Swift.String]) {\n"
        switch program.persist?.rawValue {
        case let form? where program.hasParallel:
            text += storedTextRestore(program, form)
        case .int?:
            text += "        if let raw {\n"
            text +=
                "            let restored = \(name).Machine.restore(from: raw.map { Swift.Int($0)! }, conditions: driveConditions(conditions))\n"
            text += "            return (Self(machine: restored.machine), driveNames(restored.effects))\n        }\n"
        case .string?:
            text += "        if let raw {\n"
            text +=
                "            let restored = \(name).Machine.restore(from: raw, conditions: driveConditions(conditions))\n"
            text += "            return (Self(machine: restored.machine), driveNames(restored.effects))\n        }\n"
        case nil:
            text += "        if raw != nil { fatalError(\"\(program.name.name) does not persist\") }\n"
        }
        text += "        let started = \(name).Machine.start(conditions: driveConditions(conditions))\n"
        text += "        return (Self(machine: started.machine), driveNames(started.effects))\n    }\n"
        text += "    mutating func driveEvent(_ name: Swift.String, _ conditions: [Swift.Bool]) -> [Swift.String] {\n"
        if program.events.isEmpty {
            text += "        fatalError(\"\(program.name.name) has no events\")\n    }\n"
        } else {
            text +=
                "        let (effects, handled) = machine.handle(\(name).Event(rawValue: name)!, conditions: Self.driveConditions(conditions))\n"
            text += "        driveHandled = handled\n        return driveNames(effects)\n    }\n"
        }
        text += "    mutating func driveConditionsChanged(_ conditions: [Swift.Bool]) -> [Swift.String] {\n"
        text +=
            "        let (effects, handled) = machine.conditionsChanged(conditions: Self.driveConditions(conditions))\n"
        text += "        driveHandled = handled\n        return driveNames(effects)\n    }\n"
        if program.hasParallel { return text + parallelConformance(program, stateName) }
        text += "    mutating func driveTimeout(_ conditions: [Swift.Bool]) -> [Swift.String] {\n"
        text +=
            "        driveNames(machine.fireTimeout(visit: visit, conditions: Self.driveConditions(conditions)))\n    }\n"
        guard !program.compounds.isEmpty else {
            // A flat machine: no compound state, so no timer but the state's own.
            text +=
                "    mutating func driveCompoundTimeout(_ name: Swift.String, _ conditions: [Swift.Bool]) -> [Swift.String] { [] }\n"
            text += "    var driveState: Swift.String { \(stateName("machine.state")) }\n"
            text += "    var driveArmed: Swift.String {\n"
            text +=
                "        machine.armedTimeout.map { \"\\(driveMilliseconds($0.after))ms -> \\(\(stateName("$0.target")))\" } ?? \"-\"\n    }\n"
            return text + "}\n"
        }
        text +=
            "    mutating func driveCompoundTimeout(_ name: Swift.String, _ conditions: [Swift.Bool]) -> [Swift.String] {\n"
        text += "        for armed in machine.armedTimeouts {\n"
        text +=
            "            guard let depth = armed.depth, let compound = \(name).compound(around: machine.state, atDepth: depth),\n"
        text += "                \(name).name(ofCompound: compound) == name else { continue }\n"
        text +=
            "            return driveNames(machine.fireTimeout(visit: armed.visit, conditions: Self.driveConditions(conditions)))\n"
        text += "        }\n        return []\n    }\n"
        text += "    var driveState: Swift.String { \(stateName("machine.state")) }\n"
        text += "    var driveArmed: Swift.String {\n"
        text += "        let armed = machine.armedTimeouts.map { armed -> Swift.String in\n"
        text +=
            "            let scope = armed.depth.flatMap { \(name).compound(around: machine.state, atDepth: $0) }.map { \(name).name(ofCompound: $0) + \" \" } ?? \"\"\n"
        text +=
            "            return scope + \"\\(driveMilliseconds(armed.after))ms -> \\(\(stateName("armed.target")))\"\n"
        text += "        }\n"
        text += "        return armed.isEmpty ? \"-\" : armed.joined(separator: \", \")\n    }\n"
        text += "}\n"
        return text
    }
}
