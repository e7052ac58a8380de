import Foundation
import Testing

@testable import FlowSpecCore

/// `flowspec import` of XState configs: what `flowspec export --format xstate` writes comes back
/// as the same machine, what the language cannot hold of others' configs is reported where it is
/// written, and JSON that cannot be read gets a located error, never a crash or a hang.
@Suite("XState import")
struct XStateImportTests {
    static func imported(_ config: String, name: String) throws -> (MachineImporter.Result, SpecChecker.Result) {
        try SCXMLImportTests.imported(config, name: name)
    }

    @Test func importingAnExportGivesTheSameMachine() throws {
        var random = DifferentialSpecs.SplitMix64(seed: 0x1A_9088)
        var compared = 0
        for (graph, program, _) in try SCXMLExportTests.machines() {
            let name = program.name.name
            let config = XStateExporter.config(graph)
            let (result, checked) = try Self.imported(config, name: name)
            #expect(result.notImported.isEmpty, "\(name): \(result.notImported)")
            let errors = checked.diagnostics.filter { $0.severity == .error }
            try #require(errors.isEmpty, "\(name):\n\(errors)\n\(result.spec)")
            let back = try #require(SpecGeneration.programs(checked, diagnostics: checked.diagnostics)?.first)
            compared += try SCXMLImportTests.expectSameMachine(back, as: program, spec: result.spec, &random)
        }
        #expect(compared > 10_000)
    }

    // MARK: - Configs of others

    @Test func whatTheLanguageCannotHoldIsReportedWhereItIsWritten() throws {
        let config = """
            {
              "id": "fetcher",
              "initial": "idle",
              "context": { "retries": 0 },
              "states": {
                "idle": { "on": { "FETCH": { "target": "loading", "guard": { "type": "hasBudget", "params": { "max": 3 } } } } },
                "loading": {
                  "invoke": { "src": "fetchUser", "onDone": { "target": "done", "actions": [null] }, "onError": "idle" },
                  "after": { "5000": "idle", "slow": "idle" },
                  "tags": ["busy"],
                  "on": { "*": "idle" }
                },
                "done": { "type": "final" }
              }
            }
            """
        let (result, checked) = try Self.imported(config, name: "Fetcher")
        #expect(
            result.notImported.map { "\($0.location): \($0.message)" } == [
                "4:14: not imported: the context (the machine's data); flowspec holds only boolean conditions, which the app supplies",
                "6:64: imported as the condition 'condition1': the guard 'hasBudget' with params, which the app now supplies",
                "8:81: not imported: an inline action, lost when the config became JSON; name it and implement it in `setup`",
                "9:42: not imported: the delay 'slow'; a timeout is a whole number of milliseconds",
                "10:15: not imported: tags; flowspec states have a kind and a summary",
                "11:20: imported as the events it matches (FETCH): the wildcard '*'; an event the machine does not name is no longer handled"
            ], "\(result.notImported)")
        #expect(result.spec.contains("    # condition1: hasBudget {\"max\":3}"), "\(result.spec)")
        #expect(
            result.spec.contains(
                "loading: { kind: task, on: { FETCH: idle, fetchUser.done: done, fetchUser.error: idle }, timeout: { after: 5s, to: idle } }"
            ), "\(result.spec)")
        #expect(checked.diagnostics.filter { $0.severity == .error }.isEmpty, "\(checked.diagnostics)\n\(result.spec)")
    }

    @Test func keysXStateRepeatsAcrossStatesGetNamesOfTheirOwn() throws {
        let config = """
            {"id": "editor", "type": "parallel", "initial": "bold",
             "states": {
               "bold": {"initial": "off", "states": {"off": {"on": {"TOGGLE_BOLD": "on"}}, "on": {"on": {"TOGGLE_BOLD": "off"}}}},
               "italic": {"initial": "off", "states": {"off": {"on": {"TOGGLE_ITALIC": "#editor.italic.on"}}, "on": {"on": {"TOGGLE_ITALIC": ".."}}}}
             }}
            """
        let (result, _) = try Self.imported(config, name: "Editor")
        #expect(result.spec.contains("bold.off: { kind: input, on: { TOGGLE_BOLD: bold.on } }"), "\(result.spec)")
        #expect(result.spec.contains("italic.off: { kind: input, on: { TOGGLE_ITALIC: italic.on } }"), "\(result.spec)")
        // Each renamed state says beside it what the config calls it; one kept as it is does not.
        #expect(result.spec.contains("          # XState key 'off'\n          bold.off: {"), "\(result.spec)")
        #expect(!result.spec.contains("# XState key 'bold'"), "\(result.spec)")
        #expect(result.notImported.contains { $0.message.contains("the target '..'") }, "\(result.notImported)")
        #expect(result.notImported.contains { $0.message.contains("a parallel machine") }, "\(result.notImported)")
    }

    /// Found reading the code: a router (flowspec's own) with nothing to go on to.
    @Test func aRouterWithNowhereToGoIsAStateThatGoesNowhere() throws {
        let config = #"{"id": "m", "states": {"a": {"meta": {"flowspec": {"role": "route"}}, "always": []}, "b": {}}}"#
        let (result, _) = try Self.imported(config, name: "M")
        #expect(result.spec.contains("a: { kind: input }"), "\(result.spec)")
    }

    // MARK: - JSON that cannot be read

    @Test(arguments: [
        (#"{"id": "m", "states": {"a": {}}"#, "1:32", "the document ends inside the object opened at 1:1"),
        (#"{"id": "m", "id": "n", "states": {}}"#, "1:13", "the key 'id' is written twice"),
        ("{\"states\": {\"a\": {\"on\": {\"x\": \"b\",}}}}", "1:34", "a trailing ','"),
        ("{\"states\": {\"a\\q\": {}}}", "1:15", "'\\q' is not a JSON escape"),
        ("{\"states\": {\"a\": 01}}", "1:18", "cannot start with 0"),
        ("{\"states\": {\"\u{1}\": {}}}", "1:14", "a control character (U+1) inside a string"),
        (#"{"states": {"\ud800": {}}}"#, "1:14", "half a surrogate pair"),
        (#"{"states": {}} {}"#, "1:16", "more follows the document's value"),
        (#"["a"]"#, "1:1", "not an XState machine config"),
        (#"{"id": "m"}"#, "1:1", "the config has no `states` object")
    ])
    func aConfigThatCannotBeReadIsLocated(config: String, location: String, message: String) throws {
        do {
            _ = try MachineImporter.importMachine(Array(config.utf8), machine: "M")
            Issue.record("read: \(config)")
        } catch {
            #expect("\(error.location)" == location, "\(error.message)")
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test func deepNestingAndInvalidUTF8AreRefusedWhereTheyStand() throws {
        let deep =
            "{\"states\": " + String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000) + "}"
        do {
            _ = try MachineImporter.importMachine(Array(deep.utf8), machine: "M", maxDepth: 64)
            Issue.record("read a document 200,000 deep")
        } catch {
            #expect(error.message.contains("deeper than 64 levels"), "\(error.message)")
        }
        do {
            _ = try MachineImporter.importMachine(Array("{\"states\": {\"a".utf8) + [0xFF] + Array("\": {}}}".utf8))
            Issue.record("read invalid UTF-8")
        } catch {
            #expect("\(error.location)" == "1:15")
            #expect(error.message.contains("not valid UTF-8"))
        }
    }

    @Test func theFormatIsReadFromTheContent() {
        #expect(MachineImporter.format(of: Array("  \n<scxml/>".utf8)) == .scxml)
        #expect(MachineImporter.format(of: [0xEF, 0xBB, 0xBF] + Array("{}".utf8)) == .xstate)
        #expect(MachineImporter.format(of: Array("flowspec: 1".utf8)) == nil)
    }
}
