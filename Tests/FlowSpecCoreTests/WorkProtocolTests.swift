import Testing

@testable import FlowSpecCore

/// The generated `Work` protocol: a requirement per task state, which the Swift compiler
/// holds an app to, and `FlowDriver.work(_:)`, which registers a conformer's work.
struct WorkProtocolTests {
    /// A chain of task states, one per tricky name, each sending `next` to the one after.
    static func chainSpec(_ names: [String]) -> String {
        var text = """
            flowspec: 1
            machines:
              Tasks:
                initial: "\(names[0])"
                events: [next]
                states:

            """
        for (index, name) in names.enumerated() {
            let following = index + 1 < names.count ? "\"\(names[index + 1])\"" : "finished"
            text +=
                "      \"\(name)\": { kind: task, on: { next: \(following) }, timeout: { after: 1h, to: finished } }\n"
        }
        return text + "      finished: { kind: terminal }\n"
    }

    static func programs(_ spec: String) throws -> [FlowProgram] {
        let result = SpecChecker().check(SourceFile(path: "tasks.yaml", text: spec))
        #expect(result.diagnostics.isEmpty, "\(FlowSpecCoreTestsSupport.describe(result))")
        return try #require(SpecGeneration.programs(result, diagnostics: result.diagnostics))
    }

    /// A conformer whose every requirement answers `next`, except those left out.
    static func conformer(_ program: FlowProgram, leavingOut: Set<String> = []) -> String {
        let methods = program.states.filter { $0.kind == .task && !leavingOut.contains($0.name) }
            .map { "    func \($0.swiftName.code)() async -> Tasks.Event { .next }" }
        return "struct AllWork: Tasks.Work {\n" + methods.joined(separator: "\n") + "\n}\n"
    }

    @Test(
        "a conformer's work runs every task state, whatever its name",
        arguments: [GenerationOptions.Shape.switches, .tables])
    func everyTaskRunsItsRequirement(shape: GenerationOptions.Shape) throws {
        let names = HostileNameGenerationTests.trickyNames
        let programs = try Self.programs(Self.chainSpec(names))
        guard SwiftCompiler.swiftc != nil else {
            Issue.record("swiftc is not on PATH: this test compiles the generated code")
            return
        }
        let swift = FlowSpecCoreTestsSupport.swift(programs, path: "tasks.yaml", shape: shape)
        #expect(swift.contains("protocol Work: Swift.Sendable"))
        // Each state's work sends `next` at once, so the driver walks the chain to `finished`.
        let main = #"""
            import FlowSpecRuntime

            @MainActor func walk() async -> Swift.String {
                let driver = FlowSpecRuntime.FlowDriver(Tasks.self, keepingSteps: true)
                driver.work(AllWork())
                driver.start()
                for _ in 0..<1_000_000 where driver.state.rawValue != "finished" { await Task.yield() }
                return driver.state.rawValue + " " + Swift.String(driver.steps.count)
            }
            Swift.print(await walk())

            """#
        let program = try SwiftCompiler.compile(
            ["Tasks.swift": swift, "AllWork.swift": Self.conformer(programs[0]), "main.swift": main])
        let run = try SwiftCompiler.run(program.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "finished \(names.count + 1)\n")
    }

    @Test func aTaskWithoutWorkDoesNotCompile() throws {
        let programs = try Self.programs(Self.chainSpec(["loading", "saving"]))
        guard SwiftCompiler.swiftc != nil else {
            Issue.record("swiftc is not on PATH: this test compiles the generated code")
            return
        }
        let swift = FlowSpecCoreTestsSupport.swift(programs, path: "tasks.yaml")
        let main = """
            import FlowSpecRuntime
            @MainActor func register(_ driver: FlowDriver<Tasks>) { driver.work(AllWork()) }

            """
        let conformer = Self.conformer(programs[0], leavingOut: ["saving"])
        let failure = #expect(throws: SwiftCompiler.Failure.self) {
            try SwiftCompiler.compile(["Tasks.swift": swift, "AllWork.swift": conformer, "main.swift": main])
        }
        #expect(
            failure?.description.contains("does not conform to protocol 'Tasks.Work'") == true,
            "\(failure?.description ?? "")")
        #expect(failure?.description.contains("saving()") == true, "the message names the missing requirement")
    }

    @Test func aMachineWithoutTasksHasNoWork() throws {
        let spec = "flowspec: 1\nmachines:\n  Plain:\n    initial: a\n    states: { a: { kind: terminal } }\n"
        let result = SpecChecker().check(SourceFile(path: "plain.yaml", text: spec))
        let programs = try #require(SpecGeneration.programs(result, diagnostics: result.diagnostics))
        let swift = FlowSpecCoreTestsSupport.swift(programs, path: "plain.yaml")
        #expect(!swift.contains("protocol Work"))
        #expect(!swift.contains("extension FlowSpecRuntime.FlowDriver"))
    }
}
