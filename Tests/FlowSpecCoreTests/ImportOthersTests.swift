import FlowSpecTestSupport
import Foundation
import Testing

@testable import FlowSpecCore

/// Machines others wrote: the Qt SCXML examples (`Tests/Fixtures/import/qt`) and XState's own
/// examples as JSON (`Tests/Fixtures/import/xstate`), each folder with its notice. Each imports
/// to the spec and report beside it (`NAME.flowspec.yaml`, `NAME.report.txt`: what was not
/// imported, then what `check` finds), reviewed by diff and re-recorded only with
/// `FLOWSPEC_RECORD_GOLDEN=1`. Those an engine can run also run beside the export of their
/// import, which must behave as they do wherever the report does not say otherwise.
@Suite("Import of machines others wrote")
struct ImportOthersTests {
    static let fixtures = [
        ("qt", "scxml", ["calculator", "ftpclient", "invoke", "mediaplayer", "sudoku", "trafficlight"]),
        ("xstate", "json", ["creditcheck", "donut", "fetch", "flightbooker", "mediascanner", "trivia"])
    ]
    static let inputs = fixtures.flatMap { folder, ext, names in names.map { "\(folder)/\($0).\(ext)" } }

    /// The spec and the report of an input, or the error that refuses it.
    static func imported(_ input: String) throws -> (spec: String, report: String, outcome: String) {
        let url = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/import/\(input)")
        let bytes = Array(try Data(contentsOf: url))
        let file = url.lastPathComponent
        let name = url.deletingPathExtension().lastPathComponent
        do {
            let result = try MachineImporter.importMachine(bytes, fallbackName: name)
            var report = result.notImported.map { "\(file):\($0.location): \($0.message)" }
            let checked = SpecChecker().check(SourceFile(path: "\(name).flowspec.yaml", text: result.spec))
            report += checked.diagnostics.map {
                "\($0.file):\($0.location): \($0.severity): \($0.message) [\($0.rule.rawValue)]"
            }
            let decoded = !checked.diagnostics.contains { [.yamlSyntax, .unknownKey, .invalidValue].contains($0.rule) }
            let outcome = !decoded ? "unreadable spec" : result.notImported.isEmpty ? "clean" : "with a report"
            return (result.spec, report.joined(separator: "\n") + "\n", outcome)
        } catch {
            return ("", "\(file):\(error.location): error: \(error.message)\n", "refused")
        }
    }

    @Test("each imports as its golden spec and report", arguments: inputs)
    func importsAsTheGolden(input: String) throws {
        let (spec, report, _) = try Self.imported(input)
        let base = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/import/\(input)")
            .deletingPathExtension()
        try Fixtures.expectGolden(spec, at: base.appendingPathExtension("flowspec.yaml"))
        try Fixtures.expectGolden(report, at: base.appendingPathExtension("report.txt"))
    }

    @Test(arguments: fixtures.map { ($0.0, $0.1, $0.2) })
    func theFiguresArePinned(folder: String, ext: String, names: [String]) throws {
        var outcomes: [String: Int] = [:]
        for name in names { outcomes[try Self.imported("\(folder)/\(name).\(ext)").outcome, default: 0] += 1 }
        let pinned = ["qt": ["with a report": 6], "xstate": ["clean": 2, "with a report": 4]]
        #expect(outcomes == pinned[folder], "\(folder)")
    }

    // MARK: - The export of the import runs as the original

    /// The Qt machines python-statemachine can run, by the name they are imported as, with
    /// whether `export(import(X))` must agree with `X` on every step. The others are written
    /// in ECMAScript, which the engine does not run, and `invoke` differs as its report says
    /// (the invoked machine hears the flow's events first). `trafficlight`'s timers outlive
    /// their states, which its report says and the runs show; with each timer cancelled on
    /// exit, as the report advises, it agrees on every step.
    static func scxmlMachines() throws -> [(name: String, document: String, agrees: Bool)] {
        let trafficlight = try text("qt/trafficlight.scxml")
        return [
            ("ftpclient", try text("qt/ftpclient.scxml"), true),
            ("trafficlight", trafficlight, false),
            ("trafficlightCancelled", cancellingTimersOnExit(trafficlight), true)
        ]
    }

    static func text(_ input: String) throws -> String {
        try String(
            contentsOf: Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/import/\(input)"), encoding: .utf8)
    }

    /// A document whose delayed `<send>`s are each cancelled when their state is left.
    static func cancellingTimersOnExit(_ document: String) -> String {
        let pattern = #/<onentry>(\s*)<send event="(\w+)" delay="(\w+)"/>(\s*)</onentry>/#
        return document.replacing(pattern) { match in
            let (_, inner, event, delay, outer) = match.output
            return #"<onentry>\#(inner)<send id="\#(event)" event="\#(event)" delay="\#(delay)"/>\#(outer)</onentry>"#
                + #"<onexit><cancel sendid="\#(event)"/></onexit>"#
        }
    }

    /// The imported machine, checked, and the import's report.
    static func importedGraph(_ document: String, name: String) throws -> (MachineGraph, [MachineImporter.Note]) {
        let result = try MachineImporter.importMachine(Array(document.utf8), machine: name)
        let checked = SpecChecker().check(SourceFile(path: "\(name).flowspec.yaml", text: result.spec))
        return (try #require(checked.graphs.first { $0.machine.name.value == name }), result.notImported)
    }

    /// 30 random inputs: the machine's events, and waits around its delays (1 s and 3 s in
    /// the Qt machines), so that timers fire before, at and after their time.
    static func drawInputs(_ graph: MachineGraph, _ random: inout SplitMix64) throws -> [[Any]] {
        let events = try #require(FlowProgramBuilder.build(graph)).events.map(\.name)
        return (0..<30).map { _ in
            random.percent(50) || events.isEmpty
                ? ["wait", random.pick([0.5, 1, 1.5, 2, 3, 4])] : ["event", random.pick(events)]
        }
    }

    /// Each run of `X` against the same run of `export(import(X))` (keyed `KEY@export`), by
    /// machine (the key up to `#`): states and effects; timers are left out, as the runs name
    /// only those with an id, which `X`'s need not have. `name` turns a state the export
    /// prints into the one `X` prints.
    static func compare(_ lines: [String: [String]], name: (String) -> String = { $0 }) -> [String: TraceComparison] {
        var comparisons: [String: TraceComparison] = [:]
        for (key, original) in lines.sorted(by: { $0.key < $1.key }) where !key.hasSuffix("@export") {
            let machine = String(key.prefix { $0 != "#" })
            let export = (lines[key + "@export"] ?? []).map { line in
                let parts = line.components(separatedBy: " -> ")
                let rest = parts[1].components(separatedBy: " | ")
                let states = rest[0].components(separatedBy: ", ").map(name).joined(separator: ", ")
                return ([parts[0] + " -> " + states] + rest.dropFirst()).joined(separator: " | ")
            }
            let shown = { (lines: [String]) in lines.map { $0.components(separatedBy: " | timers: ")[0] } }
            comparisons[machine, default: TraceComparison(expectedSide: "original", actualSide: "export")]
                .compare(key, expected: shown(original), actual: shown(export))
        }
        return comparisons
    }

    @Test(
        .enabled(
            if: EngineDifferentialTests.python != nil, Comment(rawValue: EngineDifferentialTests.missingMessage)))
    func theExportOfAnImportRunsAsTheOriginalInAnSCXMLEngine() throws {
        let python = try #require(EngineDifferentialTests.python)
        var random = SplitMix64(seed: 0x1A90_0A75)
        var runs: [[String: Any]] = []
        let machines = try Self.scxmlMachines()
        for (name, document, _) in machines {
            let (graph, _) = try Self.importedGraph(document, name: name)
            let export = SCXMLExporter.document(graph, datamodel: .python)
            for index in 0..<40 {
                let steps = try Self.drawInputs(graph, &random)
                runs.append(["key": "\(name)#\(index)", "scxml": document, "steps": steps])
                runs.append(["key": "\(name)#\(index)@export", "scxml": export, "steps": steps])
            }
        }
        let lines = try EngineDifferentialTests.run(runs, python: python, script: SCXMLExportTests.runner)
        let comparisons = Self.compare(lines)
        for (name, _, agrees) in machines {
            let comparison = try #require(comparisons[name])
            #expect(comparison.compared == 40 * 31, "\(name)")
            if agrees {
                #expect(comparison.disagreements.count == 0, "\(name): \(comparison.disagreements.summary)")
            } else {
                #expect(comparison.disagreements.count > 0, "\(name): every step agrees")
            }
        }
    }

    @Test func aTimerThatOutlivesItsStateIsReportedAndOneCancelledOnExitIsNot() throws {
        let trafficlight = try Self.text("qt/trafficlight.scxml")
        let (_, notes) = try Self.importedGraph(trafficlight, name: "T")
        #expect(notes.count == 6)
        #expect(notes.allSatisfy { $0.message.contains("this delayed <send> is not cancelled then") })
        #expect(notes.first?.message.hasPrefix("imported as a timeout, which ends when 'red' is left") == true)
        let (_, cancelled) = try Self.importedGraph(Self.cancellingTimersOnExit(trafficlight), name: "T")
        #expect(cancelled.isEmpty, "\(cancelled)")
    }

    @Test(.enabled(if: XStateExportTests.node != nil, Comment(rawValue: XStateExportTests.missingMessage)))
    func theExportOfAnImportRunsAsTheOriginalInXState() throws {
        let node = try #require(XStateExportTests.node)
        // The XState examples that import clean and check clean: the others invoke actors the
        // config only names, or have findings `flowspec export` would refuse.
        let config = try Self.text("xstate/donut.json")
        let (graph, notes) = try Self.importedGraph(config, name: "donut")
        #expect(notes.isEmpty)
        let export = XStateExporter.config(graph)
        var random = SplitMix64(seed: 0xD0_9A75)
        var runs: [[String: Any]] = []
        for index in 0..<60 {
            let steps = try Self.drawInputs(graph, &random)
            runs.append(["key": "donut#\(index)", "config": config, "steps": steps])
            runs.append(["key": "donut#\(index)@export", "config": export, "steps": steps])
        }
        let lines = try XStateExportTests.run(runs, node: node)
        // XState prints a config's own states by their paths of keys; the import names a key
        // that several states share by its parent's name too (`mixDry.mixing`).
        let machine = graph.machine
        var paths: [String: String] = [:]
        for state in machine.states.indices {
            let name = machine.name(of: state)
            guard let parent = machine.nesting.parent(of: state) else {
                paths[name] = name
                continue
            }
            let parentName = machine.name(of: parent)
            let key = name.hasPrefix(parentName + ".") ? String(name.dropFirst(parentName.count + 1)) : name
            paths[name] = paths[parentName, default: parentName] + "." + key
        }
        let comparison = try #require(Self.compare(lines) { paths[$0] ?? "?\($0)" }["donut"])
        #expect(comparison.compared == 60 * 31)
        #expect(comparison.disagreements.count == 0, "\(comparison.disagreements.summary)")
    }
}
