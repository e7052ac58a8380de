import FlowSpecTestSupport
import Foundation
import Testing

@testable import FlowSpecCore

/// `flowspec gen --tests`: the suite generated for every fixture's machines (and for random
/// machines) compiles warning-free in Swift 6 mode beside the machines' generated code, and
/// passes when run: every path, through the real FlowDriver on a test clock, does exactly
/// what the reference semantics expects at every step.
@Suite("Generated test suites")
struct GeneratedTestSuiteTests {
    /// The default harness of each machine: what an app writes at least.
    static func harnesses(_ programs: [FlowProgram]) -> String {
        var text = "import FlowSpecTesting\n"
        for program in programs {
            text += """

                @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
                struct \(program.name.swiftName.bare)PathHarness: FlowSpecTesting.FlowPathHarness {
                    typealias Spec = \(program.name.swiftName.code)
                }

                """
        }
        return text
    }

    static let main = """
        import Foundation
        import Testing

        exit(await Testing.__swiftPMEntryPoint() as CInt)

        """

    /// A checked fixture that generates: its programs, and those of the files it imports (at
    /// any depth), whose generated types its code uses.
    struct Spec {
        var path: String
        var result: SpecChecker.Checked
        var programs: [FlowProgram]
        var imported: [FlowProgram]
    }

    /// The checked specs of the fixtures whose machines all generate, in batches whose
    /// machine names differ (so each batch is one program).
    static func batches() throws -> [[Spec]] {
        var specs = ["specs/app.yaml"] + Fixtures.specs(under: "rules") + Fixtures.specs(under: "reference")
        specs += Fixtures.specs(under: "input") + Fixtures.specs(under: "gen")
        var batches: [[Spec]] = []
        var names: [Set<String>] = []
        for path in specs {
            let result = SpecChecker().check(try Fixtures.source(path))
            // As `flowspec gen` judges them: after the spec's own severity settings.
            let diagnostics = SeverityPolicy().apply(to: result.diagnostics, spec: result.spec.severity)
            guard let programs = SpecGeneration.programs(result, diagnostics: diagnostics),
                let imported = try importedPrograms(of: result)
            else { continue }
            let machineNames = Set((programs + imported).map(\.name.swiftName.bare))
            let spec = Spec(path: path, result: result, programs: programs, imported: imported)
            if let index = names.firstIndex(where: { $0.isDisjoint(with: machineNames) }) {
                batches[index].append(spec)
                names[index].formUnion(machineNames)
            } else {
                batches.append([spec])
                names.append(machineNames)
            }
        }
        return batches
    }

    /// The programs of every file a spec imports, each once; `nil` when one does not generate.
    static func importedPrograms(of result: SpecChecker.Checked) throws -> [FlowProgram]? {
        var programs: [FlowProgram] = []
        var seen = Set<String>()
        var pending = result.imports.map(\.path)
        while let path = pending.popLast() {
            guard seen.insert(path).inserted else { continue }
            let imported = SpecChecker().check(try SpecFileReader.read(path, maxSize: 1 << 20))
            guard let generated = SpecGeneration.programs(imported, diagnostics: imported.diagnostics) else {
                return nil
            }
            programs += generated
            pending += imported.imports.map(\.path)
        }
        return programs
    }

    @Test func everyFixturesSuiteCompilesAndPasses() throws {
        guard SwiftCompiler.swiftc != nil else {
            Issue.record("swiftc is not on PATH: generated test suites cannot be compiled")
            return
        }
        var machines = 0
        var knownIssues = 0
        for batch in try Self.batches() {
            var files = ["main.swift": Self.main]
            var programs: [FlowProgram] = []
            var counterexampleTests = 0
            for (index, spec) in batch.enumerated() {
                let options = GenerationOptions(sourcePath: spec.path)
                files["Spec\(index).swift"] = SwiftGenerator.file(for: spec.programs, options: options)
                if !spec.imported.isEmpty {
                    files["Spec\(index)Imports.swift"] = SwiftGenerator.file(for: spec.imported, options: options)
                }
                let suites = try SpecGeneration.testSuites(
                    spec.programs, of: spec.result, singleFileNamed: "", options: options)
                files["Spec\(index)Tests.swift"] = suites[0].contents
                counterexampleTests += suites[0].contents.components(separatedBy: "func counterexample(").count - 1
                // A machine that runs only as a sub-flow has no suite of its own.
                programs += spec.programs.filter(\.isStandalone)
            }
            files["Harnesses.swift"] = Self.harnesses(programs)
            let report = try Self.expectPasses(
                files, suites: programs.count, tests: programs.count + counterexampleTests,
                batch.map(\.path).joined(separator: ", "))
            // A refuted property's run is taken, and its failure is a known issue.
            if counterexampleTests > 0 { #expect(report.contains("known issue"), "\(report.suffix(2_000))") }
            knownIssues += counterexampleTests
            machines += programs.count
        }
        #expect(machines > 40, "too few machines: \(machines)")
        #expect(knownIssues > 0, "a fixture refutes a property below an error")
    }

    @Test func randomMachinesSuitesCompileAndPass() throws {
        guard SwiftCompiler.swiftc != nil else {
            Issue.record("swiftc is not on PATH: generated test suites cannot be compiled")
            return
        }
        var random = DifferentialSpecs.SplitMix64(seed: 0x7E57_0001)
        var machines: [DifferentialSpecs.Machine] = []
        var index = 0
        while machines.count < 40 {
            let machine = DifferentialSpecs.drawMachine(name: "M\(index)", &random)
            index += 1
            let result = SpecChecker().check(SourceFile(path: "draw.yaml", text: DifferentialSpecs.specText([machine])))
            if SpecGeneration.programs(result, diagnostics: result.diagnostics) != nil { machines.append(machine) }
        }
        let result = SpecChecker().check(SourceFile(path: "random.yaml", text: DifferentialSpecs.specText(machines)))
        let programs = try #require(SpecGeneration.programs(result, diagnostics: result.diagnostics))
        let options = GenerationOptions(sourcePath: "random.yaml")
        let suites = try SpecGeneration.testSuites(programs, of: result, singleFileNamed: "", options: options)
        try Self.expectPasses(
            [
                "main.swift": Self.main, "Random.swift": SwiftGenerator.file(for: programs, options: options),
                "RandomTests.swift": suites[0].contents, "Harnesses.swift": Self.harnesses(programs)
            ], suites: programs.count, "random machines")
    }

    /// Compiles and runs a generated suite: it must pass, with `tests` tests (`suites` by
    /// default) in `suites` suites. Returns Swift Testing's report.
    @discardableResult
    static func expectPasses(
        _ files: [String: String], suites: Int, tests: Int? = nil, _ what: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> String {
        let tests = tests ?? suites
        let executable = try SwiftCompiler.compile(files, withTesting: true)
        let run = try SwiftCompiler.run(executable.path)
        // Swift Testing reports on standard error when it is not a terminal.
        let report = run.stdout + run.stderr
        #expect(run.status == 0, "\(what):\n\(report.suffix(4_000))", sourceLocation: sourceLocation)
        #expect(
            report.contains("Test run with \(tests) test\(tests == 1 ? "" : "s") in \(suites) suite")
                && report.contains(" passed after "),
            "\(what): \(report.suffix(500))", sourceLocation: sourceLocation)
        return report
    }
}
