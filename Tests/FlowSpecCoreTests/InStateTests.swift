import Foundation
import Testing

@testable import FlowSpecCore

/// Guards that read where the flow is (`in:`, `notIn:`) in the reference semantics and in every
/// tool around it (`Tests/Fixtures/gen/golden/instate.yaml`): `simulate` reads them from the
/// configuration, the app cannot set them, paths cover them without steering them, properties
/// are proved on them, and the decoder, the writer, `diff`, the diagrams and both exports carry
/// them.
@Suite("Guards on where the flow is")
struct InStateTests {
    static let path = "Tests/Fixtures/gen/golden/instate.yaml"

    static func checked() throws -> (SpecChecker.Checked, [FlowProgram]) {
        let result = SpecChecker().check(try Fixtures.source(path))
        #expect(result.diagnostics.isEmpty, "\(FlowSpecCoreTestsSupport.describe(result))")
        return (result, try #require(SpecGeneration.programs(result, diagnostics: result.diagnostics)))
    }

    static func states(_ lines: [String]) -> [String] {
        lines.map { line in line.range(of: " | timeout: ").map { String(line[..<$0.lowerBound]) } ?? line }
    }

    @Test func simulateReadsTheConfigurationBeforeEachChoice() throws {
        let upload = try Self.checked().1[0]
        let lines = try Simulation(program: upload).run(
            ["publish", "pick", "uploaded", "cancel", "publish", "pick", "uploaded", "publish", "cancel"].map {
                .event($0)
            })
        #expect(
            Self.states(lines) == [
                "start -> idle, drafting | effects: -",
                // Not `ready`: the second candidate stays and warns.
                "publish -> idle, drafting | effects: warn",
                "pick -> sending, drafting | effects: -",
                "uploaded -> ready, drafting | effects: -",
                // The parallel state's `cancel` holds only while the form is `publishing`.
                "cancel -> ready, drafting (ignored) | effects: -",
                "publish -> ready, publishing | effects: post",
                // Leaving `ready` makes `publishing`'s `notIn: ready` hold in the same input.
                "pick -> sending, drafting | effects: -",
                "uploaded -> ready, drafting | effects: -",
                "publish -> ready, publishing | effects: post",
                "cancel -> cancelled | effects: discard"
            ])
    }

    @Test func theStatesReadAreConditionsAfterTheAppsThatNoInputSets() throws {
        let (upload, playback) = try {
            let programs = try Self.checked().1
            return (programs[0], programs[1])
        }()
        #expect(upload.conditions.isEmpty && Set(upload.statesRead) == ["publishing", "ready"])
        #expect(playback.statesRead == ["paused"])
        // Per state, the states read the flow is in while there: itself only here.
        let ready = try #require(upload.states.firstIndex { $0.name == "ready" })
        #expect(upload.statesReadWhileIn[ready].map { upload.statesRead[$0] } == ["ready"])
        // `+ready` names no condition: a trace cannot say where the flow is.
        #expect(throws: (any Error).self) { try Simulation(program: upload).run([.condition("ready", true)]) }
    }

    @Test func pathsCoverEveryCandidateWithoutSteeringWhereTheFlowIs() throws {
        let (result, programs) = try Self.checked()
        for (program, graph) in zip(programs, result.graphs) {
            let cover = try PathCover(program: program, machine: graph.machine)
            #expect(cover.notCovered.isEmpty, "\(program.name.name): \(cover.notCovered.map(\.reason))")
        }
    }

    /// `before: { first: ready, then: publishing }` holds only because `publish` reads `ready`:
    /// proved when it does, refuted with a run when it reads another state.
    @Test(arguments: [("in: ready", true), ("in: sending", false), ("notIn: idle", false)])
    func aPropertyIsProvedOnWhereTheFlowIs(guardText: String, holds: Bool) throws {
        let text = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent(Self.path), encoding: .utf8)
            .replacingOccurrences(
                of: "{ to: publishing, in: ready, effects: [post] }",
                with: "{ to: publishing, \(guardText), effects: [post] }"
            )
            .replacingOccurrences(
                of: "    effects: [post, warn, discard]\n",
                with:
                    "    effects: [post, warn, discard]\n    require:\n      - before: { first: ready, then: publishing }\n"
            )
        let result = SpecChecker().check(SourceFile(path: "instate.yaml", text: text))
        let failed = result.diagnostics.filter { $0.rule == .requirementFailed }
        #expect(failed.isEmpty == holds, "\(failed.map(\.message))")
        #expect(!result.diagnostics.contains { $0.severity == .error && $0.rule != .requirementFailed })
    }

    @Test func theWriterDiffAndDiagramsCarryThem() throws {
        let (result, _) = try Self.checked()
        let written = SpecWriter.text(result.spec)
        #expect(written.contains("{ to: publishing, in: ready, effects: [post] }"), "\(written)")
        #expect(written.contains("always: [{ to: drafting, notIn: ready }]"))
        // Checking what the writer wrote finds the same machine.
        let again = SpecChecker().check(SourceFile(path: "again.yaml", text: written))
        #expect(again.diagnostics.isEmpty)
        #expect(
            try #require(SpecGeneration.programs(again, diagnostics: again.diagnostics)).map(\.statesRead)
                == (try Self.checked().1.map(\.statesRead)))
        // A guard that reads another state is a changed transition.
        let changed = SpecChecker().check(
            SourceFile(path: "new.yaml", text: written.replacingOccurrences(of: "notIn: ready", with: "notIn: sending"))
        )
        let diff = SpecDiff(old: result.spec, oldFile: "old.yaml", new: changed.spec, newFile: "new.yaml")
        #expect(
            diff.changes.contains { $0.kind == .changed && $0.detail?.contains("not in 'sending'") == true },
            "\(diff.changes)")
        let mermaid = MermaidRenderer.render(FlowDiagram(graph: result.graphs[0]))
        #expect(mermaid.contains("publish [in ready] / post"), "\(mermaid)")
        #expect(mermaid.contains("always [not in ready]"))
    }

    /// A machine whose guards read 70 states: the states read take two words in `Conditions`,
    /// and both generated forms read each state's bit in its word as `simulate` does.
    @Test func bothFormsReadMoreStatesThanAWordHolds() throws {
        guard SwiftCompiler.swiftc != nil else {
            Issue.record("swiftc is not on PATH: the test needs the Swift compiler to build the generated code")
            return
        }
        func spec(_ name: String) -> String {
            let count = 70
            var lines = [
                "  \(name):", "    initial: p",
                "    events: [next, back, " + (0..<count).map { "p\($0)" }.joined(separator: ", ") + "]",
                "    defaults: { kind: input }", "    states:", "      p:", "        parallel:", "          a:",
                "            initial: a0", "            states:"
            ]
            lines += (0..<count).map { "              a\($0): { on: { next: a\(($0 + 1) % count) } }" }
            let reads = (0..<count).map { "p\($0): { to: b1, in: a\($0) }" }.joined(separator: ", ")
            lines += [
                "          b:", "            initial: b0", "            states:",
                "              b0: { on: { \(reads) } }",
                "              b1: { on: { back: b0 } }"
            ]
            return lines.joined(separator: "\n") + "\n"
        }
        let result = SpecChecker().check(SourceFile(path: "wide.yaml", text: "flowspec: 1\nmachines:\n" + spec("Wide")))
        let tables = SpecChecker().check(
            SourceFile(path: "tables.yaml", text: "flowspec: 1\nmachines:\n" + spec("Tide")))
        let wide = try #require(SpecGeneration.programs(result, diagnostics: result.diagnostics)?.first)
        let tide = try #require(SpecGeneration.programs(tables, diagnostics: tables.diagnostics)?.first)
        #expect(wide.statesRead.count == 70)
        let steps: [Simulation.Step] =
            Array(repeating: .event("next"), count: 66)
            + ["p3", "p66", "back", "next", "p67", "back", "p64"].map {
                .event($0)
            }
        let expected = try Simulation(program: wide).run(steps)
        #expect(
            expected.suffix(7).map { $0.components(separatedBy: " | ")[0] } == [
                "p3 -> a66, b0 (ignored)", "p66 -> a66, b1", "back -> a66, b0", "next -> a67, b0", "p67 -> a67, b1",
                "back -> a67, b0", "p64 -> a67, b0 (ignored)"
            ])
        let runs = [wide, tide].map { program in
            DifferentialSpecs.Run(
                machine: program.name.name, key: program.name.name, restoring: nil, steps: steps, expected: expected)
        }
        let actual = try DifferentialSpecs.runDriver([
            "wide.swift": SwiftGenerator.file(for: [wide], options: GenerationOptions(sourcePath: "wide.yaml")),
            "tables.swift": SwiftGenerator.file(
                for: [tide], options: GenerationOptions(sourcePath: "tables.yaml", shape: .tables)),
            "main.swift": DifferentialSpecs.driver(programs: [wide, tide], runs: runs)
        ])
        #expect(actual["Wide"] == expected)
        #expect(actual["Tide"] == expected)
    }

    /// XState v4's `in` on a transition, by `#id` path or by its path from the machine, is `in:`.
    @Test(arguments: ["#M.p.a.a2", "p.a.a2"])
    func anXStateV4InGuardIsRead(written: String) throws {
        let config = """
            { "id": "M", "initial": "p", "states": { "p": { "type": "parallel", "states": {
              "a": { "initial": "a1", "states": { "a1": { "on": { "go": "a2" } }, "a2": {} } },
              "b": { "initial": "b1", "states": {
                "b1": { "on": { "finish": { "target": "b2", "in": "\(written)" } } }, "b2": {} } } } } } }
            """
        let imported = try MachineImporter.importMachine(Array(config.utf8), fallbackName: "M")
        #expect(!imported.notImported.contains { $0.message.contains("`in` guard") }, "\(imported.notImported)")
        #expect(imported.spec.contains("{ to: b2, in: a2 }"), "\(imported.spec)")
    }

    @Test(arguments: ["scxml", "xstate"])
    func bothExportsComeBackWhole(format: String) throws {
        let (result, _) = try Self.checked()
        for graph in result.graphs {
            let exported =
                format == "scxml" ? SCXMLExporter.document(graph, datamodel: .python) : XStateExporter.config(graph)
            if format == "scxml" { #expect(exported.contains("In(")) }
            let imported = try MachineImporter.importMachine(Array(exported.utf8), fallbackName: "M")
            #expect(imported.notImported.isEmpty, "\(imported.notImported.map(\.message))")
            let back = SpecChecker().check(SourceFile(path: "back.yaml", text: imported.spec))
            let programs = try #require(SpecGeneration.programs(back, diagnostics: back.diagnostics))
            #expect(!programs[0].statesRead.isEmpty, "\(imported.spec)")
            #expect(
                SpecWriter.text(back.spec).contains(graph.machine.name.value == "Upload" ? "in: ready" : "in: paused"))
        }
    }
}
