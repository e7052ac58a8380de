// libFuzzer entry point for flowspec: runs the whole pipeline on one input.
//
// Built by Fuzz/run.sh together with every file of Sources/FlowSpecCore as one module (so
// internal API is reachable without @testable). For each input it
//
//   0. imports the bytes as a machine of another tool (`flowspec import`: SCXML, or an XState
//      config as JSON, by the first character), and checks the spec;
//   1. checks the bytes as a spec file (YAML reader, decoder, graph builder, every check),
//      once with the default limits and once with tight ones (so that small inputs reach the
//      reader's depth, alias and scalar-length limits);
//   2. applies the spec's own `severity:` settings, as `flowspec check` does, and once more
//      with --warnings-as-errors;
//   3. renders the findings in every output format (text, JSON, GitHub annotations, SARIF;
//      and coloured text with --warnings-as-errors);
//   4. draws every machine that could be read as Mermaid and DOT, plain and highlighted
//      (`flowspec graph` draws specs with errors too);
//   5. if the spec has no errors (after its severity settings, as `gen` and `simulate` decide),
//      builds the programs, generates Swift in both shapes (and `auto`, one file and one file
//      per machine), and runs a short simulation of each machine on inputs derived from the
//      input bytes (events, @timeout, condition changes, and restores when `persist` is set).
//
// It traps (so libFuzzer reports a crash) only on broken invariants of the library:
//   - a spec imported from SCXML or XState must read back as YAML with known keys;
//   - a spec without any error at the default severities must produce programs;
//   - a simulation fed only names of the machine must not throw.
// Everything else that goes wrong in the library shows up as a Swift runtime trap, an
// AddressSanitizer report, a leak or a libFuzzer timeout.
//
// With FLOWSPEC_FUZZ_VERBOSE=1 in the environment (for triage, when running single inputs) it
// prints the findings and each simulation trace to standard error.
//
// With FLOWSPEC_FUZZ_STAGES=check it stops after step 1 and the text rendering of step 3: the
// reader, decoder, graph builder and checks, several times faster than the whole pipeline (for
// long runs that hammer the front end; `bash Fuzz/run.sh --check-only` sets it).

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var pipeline = FuzzPipeline(bytes: bytes)
    pipeline.run()
    return 0
}

struct FuzzPipeline {
    let source: SourceFile
    var random: SplitMix

    init(bytes: [UInt8]) {
        source = SourceFile(path: "fuzz.yaml", bytes: bytes)
        random = SplitMix(seed: FuzzPipeline.fnv1a(bytes))
    }

    /// Tight limits, so that small inputs reach the reader's limit paths too.
    static let tightLimits: YAMLLimits = {
        var limits = YAMLLimits()
        limits.maxDepth = 12
        limits.maxAliasExpansion = 200
        limits.maxScalarLength = 48
        limits.maxComposedStates = 64
        return limits
    }()

    mutating func run() {
        importMachine()
        let tight = SpecChecker(limits: Self.tightLimits).check(source)
        consume(DiagnosticRenderer.render(tight.diagnostics, files: [source], format: .text))
        checkInvariants(tight)

        let result = SpecChecker().check(source)
        checkInvariants(result)
        checkStreamingMatchesWholeTree(limits: YAMLLimits())
        checkStreamingMatchesWholeTree(limits: Self.tightLimits)
        if Self.checkOnly {
            consume(DiagnosticRenderer.render(result.diagnostics, files: [source], format: .text))
            return
        }

        // Findings, as `check` prints them: every format once (the renderers do not look at
        // severities beyond printing them, so one policy is enough).
        let findings = SeverityPolicy().apply(to: result.diagnostics, spec: result.spec.severity)
        let strict = SeverityPolicy(warningsAsErrors: true).apply(to: result.diagnostics, spec: result.spec.severity)
        for format in OutputFormat.allCases {
            consume(DiagnosticRenderer.render(findings, files: [source], format: format))
        }
        consume(DiagnosticRenderer.render(strict, files: [source], format: .text, colour: true))

        // Diagrams, as `graph` draws them (errors or not).
        for graph in result.graphs {
            for diagram in [FlowDiagram(graph: graph), FlowDiagram(graph: graph, findings: findings)] {
                for format in DiagramFormat.allCases {
                    consume(format.render(diagram))
                }
            }
        }

        // Generation and simulation, as `gen` and `simulate` decide (the spec's severities apply).
        guard let programs = SpecGeneration.programs(result, diagnostics: findings) else { return }
        generate(programs)
        for program in programs {
            simulate(program)
        }
    }

    /// `flowspec import` of the bytes: a document it reads becomes a spec that YAML and the
    /// decoder read back (whatever `check` then finds in it). The bytes are also every machine
    /// they invoke by reference, given after them and read for every `src`: sub-flows of sub-flows
    /// until the import finds one running a flow that runs it.
    func importMachine() {
        let bytes = source.bytes
        let links = MachineImporter.Links(path: "fuzz", others: [.init(path: "given/fuzz", bytes: bytes)]) {
            source, _ in .success(.init(path: source, bytes: bytes))
        }
        guard let imported = try? MachineImporter.importMachine(bytes, machine: "Fuzz", maxDepth: 64, links: links)
        else {
            return
        }
        let checked = SpecChecker().check(SourceFile(path: "imported.yaml", text: imported.spec))
        if Self.verbose { log("imported:\n" + imported.spec) }
        if let broken = checked.diagnostics.first(where: { $0.rule == .yamlSyntax || $0.rule == .unknownKey }) {
            fatalError("fuzz invariant: an imported spec does not read back: \(broken.message)\n\(imported.spec)")
        }
    }

    /// No error at the rules' default severities ⇒ every machine becomes a program.
    func checkInvariants(_ result: SpecChecker.Checked) {
        if Self.verbose {
            log("findings:\n" + DiagnosticRenderer.render(result.diagnostics, files: [source], format: .text))
        }
        if !result.diagnostics.contains(where: { $0.severity == .error }),
            SpecGeneration.programs(result, diagnostics: result.diagnostics) == nil
        {
            fatalError("fuzz invariant: a spec without errors produced no programs")
        }
    }

    /// Decoding each state while it is read (as `check` does) finds exactly what decoding the
    /// whole tree finds, and keeps the same states.
    func checkStreamingMatchesWholeTree(limits: YAMLLimits) {
        let wholeSink = DiagnosticCollector(file: source.path)
        let whole = YAMLReader(limits: limits).read(source.bytes, into: wholeSink)
            .map { SpecDecoder().decode($0, limits: limits, into: wholeSink) }
        let streamedSink = DiagnosticCollector(file: source.path)
        var streamer = StateStreamer(limits: limits, file: source.path)
        let streamed = YAMLReader(limits: limits).read(source.bytes, taking: &streamer, into: streamedSink)
            .map { SpecDecoder().decode($0, streamedStates: streamer.states, limits: limits, into: streamedSink) }
        // Names are compared as text: the two ways intern them in different orders.
        func shape(_ spec: Spec?) -> [[String]]? {
            spec?.machines.map { machine in
                machine.states.indices.map { index in
                    let state = machine.states[index]
                    let transitions = machine.transitions(of: index).map { transition in
                        machine.names[transition.event.value] + ">"
                            + transition.candidates.map { machine.names[$0.target.value] }.joined(separator: ",")
                    }
                    let timeout = state.timeout.map { timeout in
                        machine.names[timeout.target.value]
                            + (timeout.retry.map { "/" + machine.names[$0.then.value] } ?? "")
                    }
                    return
                        "\(machine.name(of: index)) \(state.kind) \(transitions) \(timeout ?? "-") \(state.isMalformed) "
                        + "\(state.hasLostTransitions)"
                }
            }
        }
        guard wholeSink.diagnostics == streamedSink.diagnostics, shape(whole) == shape(streamed) else {
            fatalError("fuzz invariant: decoding states while reading differs from decoding the whole tree")
        }
    }

    func generate(_ programs: [FlowProgram]) {
        let switches = GenerationOptions(sourcePath: source.path, shape: .switches)
        let tables = GenerationOptions(sourcePath: source.path, accessLevel: .public, shape: .tables)
        let automatic = GenerationOptions(sourcePath: source.path, shape: .automatic)
        consume(SwiftGenerator.file(for: programs, options: switches))
        consume(SwiftGenerator.file(for: programs, options: tables))
        for file in SpecGeneration.filePerMachine(programs, options: automatic) {
            consume(file.name)
            consume(file.contents)
        }
    }

    /// A few short runs of one machine: every event once in order, a random walk over
    /// events, timeouts and conditions, and restores when the machine persists its state.
    mutating func simulate(_ program: FlowProgram) {
        let events = program.events.map(\.name)
        let conditions = program.conditions.map(\.name)
        let simulation = Simulation(program: program)

        var runs: [(steps: [Simulation.Step], restoring: String??)] = []
        runs.append((events.map { .event($0) } + [.timeout, .timeout], nil))
        runs.append((conditions.map { .condition($0, true) } + events.map { .event($0) } + [.timeout], nil))
        var walk: [Simulation.Step] = []
        for _ in 0..<32 {
            switch random.next(below: 8) {
            case 0, 1: walk.append(.timeout)
            case 2:
                if !conditions.isEmpty {
                    walk.append(
                        .condition(conditions[random.next(below: conditions.count)], random.next(below: 2) == 0))
                }
            default:
                if !events.isEmpty { walk.append(.event(events[random.next(below: events.count)])) }
            }
        }
        runs.append((walk, nil))
        if program.persist != nil, !program.states.isEmpty {
            let count = program.states.count
            var raw: [String?] = [nil, "", "-1", "\(count)", "\(Int.max)", "\(Int.min)", "0x1", " 1"]
            raw += ["\(random.next(below: count + 2))", program.states[random.next(below: count)].name]
            for value in raw {
                runs.append((Array(walk.prefix(8)), .some(value)))
            }
        }
        for run in runs {
            do {
                if Self.verbose {
                    log("simulate \(program.name.name): \(run.steps) restoring \(String(describing: run.restoring))\n")
                }
                let lines = try simulation.run(run.steps, restoring: run.restoring)
                for line in lines { consume(line) }
                if Self.verbose { log(lines.joined(separator: "\n") + "\n") }
            } catch {
                fatalError(
                    "fuzz invariant: simulating machine '\(program.name.name)' with its own names failed: \(error)")
            }
        }
    }

    /// FNV-1a of the input, the seed of the derived simulation inputs.
    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}

/// A small deterministic generator, so that a crashing input reproduces.
struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state = state &+ 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0).
    mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}

extension FuzzPipeline {
    static let verbose = getenv("FLOWSPEC_FUZZ_VERBOSE") != nil
    static let checkOnly = getenv("FLOWSPEC_FUZZ_STAGES").map { String(cString: $0) == "check" } ?? false

    func log(_ text: String) {
        var text = text
        text.withUTF8 { buffer in _ = write(2, buffer.baseAddress, buffer.count) }
    }
}

/// Keeps the optimiser from dropping work whose result is otherwise unused.
@inline(never)
func consume(_ text: String) {
    fuzzSink &+= text.utf8.count
}

nonisolated(unsafe) var fuzzSink = 0
