import Foundation
import Testing

@testable import FlowSpecCore

/// A transition with many guarded candidates, and a state with many `always` branches, in the
/// `switch` form: past a few guards the candidates are an `if` expression, which the type
/// checker reads branch by branch (a `?:` chain of 25 did not type-check at all), and the
/// machine runs as `simulate` does.
@Suite("Long candidate lists")
struct LongCandidateListTests {
    static let count = 40

    static var text: String {
        let conditions = (0..<count).map { "c\($0)" }.joined(separator: ", ")
        let on = (0..<count).map { "{ to: b\($0 % 3 + 1), if: c\($0), effects: [e\($0 % 2)] }" }
            .joined(separator: ", ")
        let always = (0..<count).map { "{ to: b\($0 % 3 + 1), if: c\($0) }" }.joined(separator: ", ")
        return """
            flowspec: 1
            machines:
              Long:
                initial: b0
                events: [probe, back]
                conditions: [\(conditions)]
                effects: [e0, e1]
                defaults: { kind: input }
                states:
                  b0: { on: { probe: [\(on)] } }
                  b1: { on: { back: b0 } }
                  b2: { on: { back: b0 } }
                  b3: { on: { back: w } }
                  w: { always: [\(always)], on: { back: b0 } }

            """
    }

    @Test func theSwitchFormCompilesAndRunsLikeTheSimulation() throws {
        guard SwiftCompiler.swiftc != nil else {
            Issue.record("swiftc is not on PATH: the test needs the Swift compiler to build the generated code")
            return
        }
        let result = SpecChecker().check(SourceFile(path: "long.yaml", text: Self.text))
        let program = try #require(SpecGeneration.programs(result, diagnostics: result.diagnostics)?.first)
        let source = SwiftGenerator.file(for: [program], options: GenerationOptions(sourcePath: "long.yaml"))
        #expect(source.contains("if conditions.c0 {") && source.contains("switch (state, event)"))
        var runs: [DifferentialSpecs.Run] = []
        for index in [0, 17, 38] {
            let steps: [Simulation.Step] = [
                .condition("c\(index)", true), .event("probe"), .event("back"), .condition("c\(index + 1)", true),
                .event("back"), .event("back"), .condition("c\(index)", false), .event("probe"), .event("back"),
                .conditionsChanged
            ]
            runs.append(
                DifferentialSpecs.Run(
                    machine: "Long", key: "Long#\(index)", restoring: nil, steps: steps,
                    expected: try Simulation(program: program).run(steps)))
        }
        let actual = try DifferentialSpecs.runDriver([
            "long.swift": source, "main.swift": DifferentialSpecs.driver(programs: [program], runs: runs)
        ])
        for run in runs { #expect(actual[run.key] == run.expected, "\(run.key)") }
        #expect(runs[1].expected.contains { $0.hasPrefix("probe -> b3 | effects: e1") }, "\(runs[1].expected)")
    }
}
