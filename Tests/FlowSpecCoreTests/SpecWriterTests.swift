import Foundation
import Testing

@testable import FlowSpecCore

/// `SpecWriter` writes what the decoder reads back into the same spec: every spec of the
/// repository that checks without errors is written, read again, and must give the same
/// findings and the same generated Swift, and writing it again must give the same text.
@Suite struct SpecWriterTests {
    /// The specs people wrote: the reference flows, the examples, and every fixture.
    static let specs: [String] = {
        let examples =
            (try? FileManager.default.subpathsOfDirectory(
                atPath: Fixtures.packageRoot.appendingPathComponent("Examples").path)) ?? []
        return ["specs/app.yaml"]
            + examples.filter { $0.hasSuffix(".flowspec.yaml") && !$0.contains(".build") }.map { "Examples/" + $0 }
            .sorted() + Fixtures.specs(under: "")
    }()

    /// A spec's findings without where they are: the written text puts things elsewhere.
    private static func findings(_ checked: SpecChecker.Checked) -> [String] {
        checked.diagnostics.map {
            "\($0.rule.rawValue) \($0.severity) \($0.subjects) "
                + $0.message.replacing(/line \d+/, with: "line _")
        }.sorted()
    }

    /// The spec with each machine's events declared, in the order the machine uses them first.
    /// Undeclared events are numbered by where the text first uses them, and the writer writes
    /// a machine's sections in one order, whatever order they came in. (A spec where a machine
    /// runs another is left as it is: the machine that runs takes the events of the machine it
    /// runs by where the text uses them, and the writer keeps the machines in order.)
    private static func declaringEvents(_ spec: Spec) -> Spec {
        let runs = spec.machines.contains { machine in
            machine.states.indices.contains { machine.nesting.details[$0]?.run != nil }
        }
        guard !runs else { return spec }
        var spec = spec
        for index in spec.machines.indices where spec.machines[index].events == nil {
            spec.machines[index].events = NameUses.derivedEvents(spec.machines[index])
        }
        return spec
    }

    @Test func readsBackTheSpecsOfTheRepository() throws {
        var compared = (specs: 0, generated: 0)
        for path in Self.specs {
            let original = try Fixtures.source(path)
            let checked = SpecChecker().check(original)
            guard !checked.diagnostics.contains(where: { $0.severity == .error }) else { continue }
            let written = SpecWriter.text(Self.declaringEvents(checked.spec))
            let again = SpecChecker().check(SourceFile(path: path, text: written))
            #expect(Self.findings(again) == Self.findings(checked), "\(path) reads back otherwise:\n\(written)")
            #expect(SpecWriter.text(again.spec) == written, "\(path) is written otherwise the second time")
            compared.specs += 1
            guard let programs = SpecGeneration.programs(checked, diagnostics: checked.diagnostics),
                let programsAgain = SpecGeneration.programs(again, diagnostics: again.diagnostics)
            else { continue }
            let options = GenerationOptions(sourcePath: path)
            #expect(
                SwiftGenerator.file(for: programsAgain, options: options)
                    == SwiftGenerator.file(for: programs, options: options),
                "\(path) generates other Swift once written")
            compared.generated += 1
        }
        // Most fixtures are about errors; the rest, with the reference flows and the examples,
        // are well over a hundred.
        #expect(compared.specs > 100)
        #expect(compared.generated > 50)
    }

    @Test func writesEveryKeyOfAState() {
        let written = Set(SpecWriter.fieldOrder + [.states, .parallel])
        #expect(written == Set(StateKey.allCases))
        #expect(SpecWriter.fieldOrder.count + 2 == StateKey.allCases.count)
    }

    @Test func writesNamesYAMLWouldReadAsAnotherType() throws {
        let text = """
            flowspec: 1
            machines:
              "on":
                initial: "yes"
                conditions: ["true", "a b", "x\\ny"]
                states:
                  "yes": { kind: input, on: { "null": { to: "1", if: "true" }, go: { to: "1", unless: "a b" } } }
                  "1": { kind: input, on: { back: { to: "yes", if: "x\\ny" } } }
            """
        let checked = SpecChecker().check(SourceFile(path: "names.yaml", text: text))
        let written = SpecWriter.text(checked.spec)
        #expect(written.contains("\"on\":"))
        #expect(written.contains("conditions: [\"true\", \"a b\", \"x\\ny\"]"))
        let again = SpecChecker().check(SourceFile(path: "names.yaml", text: written))
        #expect(Self.findings(again) == Self.findings(checked))
        #expect(again.spec.machines.first?.conditions?.map(\.value) == ["true", "a b", "x\ny"])
    }
}
