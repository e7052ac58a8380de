import Foundation
import Testing

@testable import FlowSpecCore

/// The Swift generated from `specs/app.yaml` is compiled by the real compiler (Swift 6 mode,
/// warnings as errors) together with `Tests/Fixtures/gen/AppFlowsDriver.swift`, which drives
/// it through each reference flow's rules, and run — in the switch form and in the table form.
@Suite("Reference flows, generated and run")
struct ReferenceFlowBehaviourTests {
    @Test(
        "generated reducers follow every rule of the reference flows, in both code forms",
        arguments: [GenerationOptions.Shape.switches, .tables])
    func generatedReducersFollowEveryRule(shape: GenerationOptions.Shape) throws {
        let spec = try Fixtures.source("specs/app.yaml")
        let result = SpecChecker().check(spec)
        let programs = try #require(SpecGeneration.programs(result, diagnostics: result.diagnostics))
        let generated = FlowSpecCoreTestsSupport.swift(programs, path: "specs/app.yaml", shape: shape)
        let driver = try String(
            contentsOf: Fixtures.root.appendingPathComponent("gen/AppFlowsDriver.swift"), encoding: .utf8)
        let program = try SwiftCompiler.compile(["App.swift": generated, "main.swift": driver])
        let run = try SwiftCompiler.run(program.path)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let summary = try #require(run.stdout.split(separator: "\n").last)
        #expect(summary.hasSuffix("checks, 0 failed"), "\(run.stdout)")
        let checks = Int(summary.split(separator: " ").first ?? "") ?? 0
        #expect(checks > 60, "the driver ran \(checks) checks")
    }
}
