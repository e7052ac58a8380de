import Testing

@testable import FlowSpecCore

/// The examples that carry a reference flow of `specs/app.yaml` must not drift from it: each
/// example's machine generates exactly the Swift the reference machine generates.
@Suite("Example specs stay in step with specs/app.yaml")
struct ExampleSpecDriftTests {
    static let examples = [
        ("Examples/FirstRun/Sources/FirstRun/FirstRun.flowspec.yaml", "FirstRun"),
        ("Examples/LaunchAuth/Sources/LaunchAuth/LaunchAuth.flowspec.yaml", "LaunchAuth"),
        ("Examples/Chapters/Sources/Chapters/Chapters.flowspec.yaml", "Chapters"),
        ("Examples/AppFlow/Sources/AppFlow/App.flowspec.yaml", "App"),
        ("Examples/AppFlow/Sources/AppFlow/Flows.flowspec.yaml", "FirstRun"),
        ("Examples/AppFlow/Sources/AppFlow/Flows.flowspec.yaml", "LaunchAuth"),
        ("Examples/AppFlow/Sources/AppFlow/Flows.flowspec.yaml", "Chapters")
    ]

    static func swift(_ path: String, machine: String) throws -> String {
        let result = SpecChecker().check(try Fixtures.source(path))
        let programs = try #require(
            SpecGeneration.programs(result, diagnostics: result.diagnostics), "\(path) has errors")
        let program = try #require(programs.first { $0.name.name == machine }, "\(path) has no machine \(machine)")
        return SwiftGenerator.machine(program, options: GenerationOptions(sourcePath: "x"))
    }

    @Test(arguments: examples.map { "\($0.0) \($0.1)" })
    func exampleMachineMatchesTheReference(entry: String) throws {
        let parts = entry.split(separator: " ").map(String.init)
        #expect(try Self.swift(parts[0], machine: parts[1]) == Self.swift("specs/app.yaml", machine: parts[1]))
    }
}
