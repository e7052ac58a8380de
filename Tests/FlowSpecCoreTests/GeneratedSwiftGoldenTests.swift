import Foundation
import Testing

@testable import FlowSpecCore

/// The generated Swift for a few specs is compared byte for byte with reviewed golden files in
/// `Tests/Fixtures/gen/golden`, and each golden file compiles (Swift 6 mode, warnings as
/// errors). Re-record deliberately with `FLOWSPEC_RECORD_GOLDEN=1 swift test` and review the diff.
@Suite("Generated Swift golden files")
struct GeneratedSwiftGoldenTests {
    struct Case: Sendable, CustomStringConvertible {
        var spec: String
        var golden: String
        var access: GenerationOptions.AccessLevel
        var description: String { golden }
    }

    static let cases = [
        Case(spec: "specs/app.yaml", golden: "Tests/Fixtures/gen/golden/app.swift.txt", access: .internal),
        Case(
            spec: "Tests/Fixtures/gen/golden/features.yaml", golden: "Tests/Fixtures/gen/golden/features.swift.txt",
            access: .public),
        Case(
            spec: "Tests/Fixtures/gen/golden/nested.yaml", golden: "Tests/Fixtures/gen/golden/nested.swift.txt",
            access: .internal),
        Case(
            spec: "Tests/Fixtures/gen/golden/history.yaml", golden: "Tests/Fixtures/gen/golden/history.swift.txt",
            access: .internal),
        Case(
            spec: "Tests/Fixtures/gen/golden/parallel.yaml", golden: "Tests/Fixtures/gen/golden/parallel.swift.txt",
            access: .internal),
        Case(
            spec: "Tests/Fixtures/gen/golden/subflows.yaml", golden: "Tests/Fixtures/gen/golden/subflows.swift.txt",
            access: .internal),
        Case(
            spec: "Tests/Fixtures/gen/golden/activities.yaml",
            golden: "Tests/Fixtures/gen/golden/activities.swift.txt", access: .internal),
        Case(
            spec: "Tests/Fixtures/gen/golden/eventless.yaml",
            golden: "Tests/Fixtures/gen/golden/eventless.swift.txt", access: .internal),
        Case(
            spec: "Tests/Fixtures/gen/golden/done.yaml", golden: "Tests/Fixtures/gen/golden/done.swift.txt",
            access: .internal),
        Case(
            spec: "Tests/Fixtures/gen/golden/initial.yaml", golden: "Tests/Fixtures/gen/golden/initial.swift.txt",
            access: .internal),
        Case(
            spec: "Tests/Fixtures/gen/golden/instate.yaml", golden: "Tests/Fixtures/gen/golden/instate.swift.txt",
            access: .internal)
    ]

    static func generate(_ testCase: Case) throws -> String {
        let file = try Fixtures.source(testCase.spec)
        let result = SpecChecker().check(file)
        let programs = try #require(
            SpecGeneration.programs(result, diagnostics: result.diagnostics),
            "\(FlowSpecCoreTestsSupport.describe(result))")
        return SwiftGenerator.file(
            for: programs,
            options: GenerationOptions(
                sourcePath: testCase.spec,
                accessLevel: testCase.access))
    }

    @Test("generated Swift matches the golden file", arguments: cases)
    func matchesGolden(testCase: Case) throws {
        let generated = try Self.generate(testCase)
        let url = Fixtures.packageRoot.appendingPathComponent(testCase.golden)
        if Fixtures.recording {
            try generated.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(
            generated == expected,
            "\(testCase.golden) differs; re-record with FLOWSPEC_RECORD_GOLDEN=1 and review\n\(GoldenDiff.lines(expected, generated))"
        )
    }

    /// The runtime's tests drive the code of the golden specs, kept as source files of their
    /// target (`AppFlows.swift`, `FeaturesFlows.swift`, `NestedFlows.swift`, `HistoryFlows.swift`,
    /// `ParallelFlows.swift`, `SubflowsFlows.swift`, `ActivitiesFlows.swift`, `EventlessFlows.swift`,
    /// `DoneFlows.swift`, `InitialFlows.swift`, `InstateFlows.swift`).
    @Test("the runtime's tests drive the current generated code", arguments: cases)
    func runtimeTestsDriveTheCurrentGeneratedCode(testCase: Case) throws {
        let generated = try Self.generate(testCase)
        let stem = URL(fileURLWithPath: testCase.golden).deletingPathExtension().deletingPathExtension()
            .lastPathComponent
        let name = "Tests/FlowSpecRuntimeTests/\(stem.prefix(1).uppercased() + stem.dropFirst())Flows.swift"
        let url = Fixtures.packageRoot.appendingPathComponent(name)
        if Fixtures.recording {
            try generated.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            try String(contentsOf: url, encoding: .utf8) == generated,
            "\(name) is stale; re-record with FLOWSPEC_RECORD_GOLDEN=1")
    }

    /// The runtime's tests run the test suite `gen --tests` writes for specs/app.yaml
    /// (`AppFlowPaths.swift`) against its generated code, with hand-written harnesses.
    @Test("the runtime's tests run the current generated test suite")
    func runtimeTestsRunTheCurrentTestSuite() throws {
        let file = try Fixtures.source("specs/app.yaml")
        let result = SpecChecker().check(file)
        let programs = try #require(SpecGeneration.programs(result, diagnostics: result.diagnostics))
        let suites = try SpecGeneration.testSuites(
            programs, of: result, singleFileNamed: "AppFlowPaths.swift",
            options: GenerationOptions(sourcePath: "specs/app.yaml"))
        let url = Fixtures.packageRoot.appendingPathComponent("Tests/FlowSpecRuntimeTests/AppFlowPaths.swift")
        if Fixtures.recording {
            try suites[0].contents.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let onDisk = try String(contentsOf: url, encoding: .utf8)
        #expect(
            onDisk == suites[0].contents,
            "AppFlowPaths.swift is stale; re-record with FLOWSPEC_RECORD_GOLDEN=1 and review\n\(GoldenDiff.lines(onDisk, suites[0].contents))"
        )
    }

    @Test("golden Swift compiles warning-free in Swift 6 mode")
    func goldenFilesCompile() throws {
        var files: [String: String] = [:]
        for testCase in Self.cases {
            // `app.swift.txt` compiles as `app.swift`.
            let name = URL(fileURLWithPath: testCase.golden).deletingPathExtension().lastPathComponent
            files[name] = try String(
                contentsOf: Fixtures.packageRoot.appendingPathComponent(testCase.golden), encoding: .utf8)
        }
        files["main.swift"] = """
            var amped = Amped.Machine.restore(from: "syncing").machine
            print(amped.state, amped.send(.next, conditions: .init(offline: true)), amped.state)
            print(Poller.Machine.start().machine.state, FirstRun.Machine.start().machine.state)
            """
        let program = try SwiftCompiler.compile(files)
        let run = try SwiftCompiler.run(program.path)
        #expect(run.stdout == "questionnaire [] default\nwait splash\n")
    }

    @Test("generation is deterministic")
    func deterministic() throws {
        for testCase in Self.cases {
            #expect(try Self.generate(testCase) == Self.generate(testCase))
        }
    }
}
