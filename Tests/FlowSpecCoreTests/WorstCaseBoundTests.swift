import Testing

@testable import FlowSpecCore

/// `require: within` is judged by ``WorstCaseTime``, a search of the machine's graph that
/// models automatic steps, outer timeouts, retries and history itself. It may stay, cheaper
/// than exploring configurations, only while it never says less than the kernel's own worst
/// run: from every configuration the kernel reaches in a state (``ConfigurationGraph``), the
/// longest run through timeouts alone (``WorstRoute``, what test paths follow) is at most the
/// bound the check computes from entering that state.
@Suite("Worst-case time bounds the kernel's worst run")
struct WorstCaseBoundTests {
    typealias Gen = DifferentialSpecs

    @Test func theGraphsBoundIsNeverBelowTheKernelsWorstRun() throws {
        var random = Gen.SplitMix64(seed: 0x0057_CA5E)
        var compared = 0
        // Task states compared, and those whose bound some reached configuration attains.
        var tight = 0
        for index in 0..<300 {
            let spec = NestedSpecs.draw(name: "W\(index)", &random)
            let result = SpecChecker().check(SourceFile(path: "worst.yaml", text: NestedSpecs.specText([spec])))
            guard !result.diagnostics.contains(where: { $0.severity == .error }), let machine = result.graphs.first,
                let program = FlowProgramBuilder.build(machine),
                let graph = try? ConfigurationGraph(program: program, bound: 20_000)
            else { continue }
            // From a task state: an input state is the end already, and a run never rests in a choice.
            for (state, details) in program.states.enumerated() where details.kind == .task {
                guard let index = machine.machine.states.indices.first(where: { machine.name($0) == details.name }),
                    case .bounded(let bound, _) = WorstCaseTime(graph: machine, goals: []).compute(from: index)
                else { continue }
                var longest: Duration?
                for node in graph.nodes.indices where graph.nodes[node].states.contains(state) {
                    guard let worst = WorstRoute(graph: graph, goals: []).longest(from: node) else { continue }
                    #expect(
                        worst.time <= bound,
                        "\(spec.flat.name) from '\(details.name)': the kernel waits \(worst.time), the check says at most \(bound)\n\(NestedSpecs.specText([spec]))"
                    )
                    longest = max(longest ?? worst.time, worst.time)
                }
                guard let longest else { continue }
                compared += 1
                if longest == bound { tight += 1 }
            }
        }
        // Not vacuous: many task states compared, and for most the bound is the kernel's worst
        // run exactly (it is above it only where no run reaches the worst retry counts or history).
        #expect(compared > 80, "\(compared)")
        #expect(tight * 2 > compared, "\(tight) of \(compared)")
    }
}
