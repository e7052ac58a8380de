import Foundation
import Testing

@testable import FlowSpecCore

/// `flowspec import` of XState configs: what `flowspec export --format xstate` writes comes back
/// as the same machine, what the language cannot hold of others' configs is reported where it is
/// written, and JSON that cannot be read gets a located error, never a crash or a hang.
@Suite("XState import")
struct XStateImportTests {
    static func imported(_ config: String, name: String) throws -> (MachineImporter.Imported, SpecChecker.Checked) {
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
                "9:42: not imported: the delay 'slow', which the config names without its duration; give it with `--delay slow=30s`",
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

    /// Event and action names that cannot become Swift identifiers are made safe, kept apart
    /// from the names written, and recorded in a comment, as state keys are: the spec checks.
    @Test func namesThatAreNoIdentifiersAreMadeSafeAndRecorded() throws {
        let config = """
            { "id": "Player", "initial": "idle", "states": {
                "idle": { "entry": ["log(error)"],
                  "on": { "FreezeAction::triggered(bool)": "frozen", "FreezeAction__triggered_bool_": "idle" } },
                "frozen": { "on": { "thaw": { "target": "idle", "actions": ["log(error)", "log"] } } } } }
            """
        let (result, checked) = try Self.imported(config, name: "Player")
        #expect(result.spec.contains("    # event 'FreezeAction::triggered(bool)' is FreezeAction__triggered_bool__\n"))
        #expect(result.spec.contains("    # effect 'log(error)' is log_error_\n"), "\(result.spec)")
        #expect(
            result.spec.contains(
                "idle: { kind: input, entry: [log_error_], on: { FreezeAction__triggered_bool__: frozen, FreezeAction__triggered_bool_: idle } }"
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
    }

    /// A root of `type: "parallel"` is a machine parallel at its top: its states are the
    /// regions, all entered at the start (the root's `initial`, which XState ignores there, too).
    @Test func aParallelRootIsAMachineParallelAtItsTop() throws {
        let config = """
            {"id": "player", "type": "parallel", "initial": "playback",
             "on": {"LOG": {"actions": ["log"]}},
             "states": {
               "playback": {"initial": "paused", "states": {"paused": {"on": {"PLAY": "playing"}}, "playing": {"on": {"PAUSE": "paused", "EJECT": "ejected"}}, "ejected": {"type": "final"}}},
               "volume": {"initial": "normal", "states": {"normal": {"on": {"MUTE": "muted", "EJECT": "off"}}, "muted": {"on": {"UNMUTE": "normal"}}, "off": {"type": "final"}}}
             }}
            """
        let (result, checked) = try Self.imported(config, name: "Player")
        #expect(result.notImported.isEmpty, "\(result.notImported)")
        #expect(result.spec.contains("\n    parallel:\n      playback:\n"), "\(result.spec)")
        #expect(!result.spec.contains("\n    initial:"), "\(result.spec)")
        #expect(!result.spec.contains("\n    states:"), "\(result.spec)")
        #expect(checked.diagnostics.filter { $0.severity == .error }.isEmpty, "\(checked.diagnostics)\n\(result.spec)")
        let program = try #require(SpecGeneration.programs(checked, diagnostics: checked.diagnostics)?.first)
        let run = try Simulation(program: program).run([.event("PLAY"), .event("MUTE"), .event("LOG"), .event("EJECT")])
        #expect(
            run.map { $0.components(separatedBy: " | timeout")[0] } == [
                "start -> paused, normal | effects: -", "PLAY -> playing, normal | effects: -",
                "MUTE -> playing, muted | effects: -", "LOG -> playing, muted | effects: log",
                "EJECT -> ejected, muted | effects: -"
            ], "\(run)")
    }

    /// An event a state handles only under guards, none of which holds, goes on to the states
    /// around it and then the machine's `on`, as XState does: the import appends their
    /// candidates. A `{}` after the guarded ones ends the search there, as the export writes it.
    @Test func anEventAStateHandlesUnderGuardsGoesOnToTheStatesAroundIt() throws {
        let config = """
            {"id": "form", "initial": "form", "on": {"RESET": "closed"},
             "states": {
               "form": {"initial": "editing", "on": {"SAVE": [{"target": "drafts", "guard": "draft"}]},
                 "states": {
                   "editing": {"on": {"SAVE": {"target": "review", "guard": "valid"},
                                      "RESET": [{"target": "review", "guard": "valid"}, {}]}},
                   "review": {}}},
               "drafts": {}, "closed": {}}}
            """
        let (result, _) = try Self.imported(config, name: "Form")
        #expect(result.spec.contains("SAVE: [{ to: review, if: valid }, { to: drafts, if: draft }]"), "\(result.spec)")
        #expect(result.spec.contains("RESET: { to: review, if: valid }"), "\(result.spec)")
        #expect(result.notImported.isEmpty, "\(result.notImported)")
    }

    /// A compound state left at once cannot be one: its eventless transition without a guard
    /// is named and dropped, those with a guard kept (as for SCXML).
    @Test func aCompoundStatesUnguardedAlwaysIsNamedAndDropped() throws {
        let config = """
            {"id": "area", "initial": "area",
             "states": {
               "area": {"initial": "inside", "always": [{"target": "done", "guard": "expired"}, {"target": "done"}],
                 "states": {"inside": {"on": {"GO": "#area.done"}}}},
               "done": {"type": "final"}}}
            """
        let (result, _) = try Self.imported(config, name: "Area")
        #expect(result.spec.contains("always: [{ to: done, if: expired }]"), "\(result.spec)")
        #expect(
            result.notImported.map(\.message) == [
                "not imported: the eventless transition of 'area' without a condition; it would leave the state as soon as it is entered, which a flowspec compound or parallel state cannot do"
            ], "\(result.notImported)")
    }

    /// A transition into the state it is written on: XState v5 takes it without leaving that
    /// state (no `reenter: true`), where flowspec leaves and enters it, which is named where
    /// the state has entry actions. XState v4 (a root key or a transition key only v4 reads)
    /// leaves and enters it too, as flowspec does, unless the transition is internal.
    @Test func aTransitionIntoItsOwnStateIsReadByTheVersionItIsWrittenFor() throws {
        func config(_ root: String, _ transition: String) -> String {
            """
            {"id": "player", "initial": "playing", \(root)
             "states": {"playing": {"entry": ["startTimer"], "on": {"TICK": \(transition)}}}}
            """
        }
        let version5 = try Self.imported(config("", #"{"target": "playing"}"#), name: "Player").0
        #expect(
            version5.notImported.map(\.message) == [
                "imported as re-entering: a transition into 'playing' or a state inside it, which XState takes without leaving 'playing' (no `reenter: true`); flowspec leaves it and enters it again, running its exit and entry and restarting its delay"
            ], "\(version5.notImported)")
        let reentering = try Self.imported(config("", #"{"target": "playing", "reenter": true}"#), name: "Player").0
        #expect(reentering.notImported.isEmpty, "\(reentering.notImported)")
        let version4 = try Self.imported(
            config(#""predictableActionArguments": true,"#, #"{"target": "playing"}"#), name: "Player"
        ).0
        #expect(version4.notImported.isEmpty, "v4 leaves and enters: \(version4.notImported)")
        let byKey = try Self.imported(config("", #"{"target": "playing", "cond": "running"}"#), name: "Player").0
        #expect(byKey.notImported.isEmpty, "a v4 key: \(byKey.notImported)")
        let inside = try Self.imported(config("", #"{"target": "playing", "internal": true}"#), name: "Player").0
        #expect(inside.notImported.count == 1, "v4's internal transition: \(inside.notImported)")
    }

    /// Found reading the code: a router (flowspec's own) with nothing to go on to.
    @Test func aRouterWithNowhereToGoIsAStateThatGoesNowhere() throws {
        let config = #"{"id": "m", "states": {"a": {"meta": {"flowspec": {"role": "route"}}, "always": []}, "b": {}}}"#
        let (result, _) = try Self.imported(config, name: "M")
        #expect(result.spec.contains("a: { kind: input }"), "\(result.spec)")
    }

    /// A config without `states` (XState's atomic root, as a counter is written) is a machine of
    /// one state, named after the machine, which the root's `on` applies to.
    @Test func aRootWithoutStatesIsAMachineOfOneState() throws {
        let config = #"{"id": "counter", "on": {"INC": {"actions": ["increment"]}, "RESET": {"actions": "reset"}}}"#
        let (result, checked) = try Self.imported(config, name: "Counter")
        #expect(result.notImported.isEmpty, "\(result.notImported)")
        #expect(result.spec.contains("    initial: Counter\n"), "\(result.spec)")
        #expect(result.spec.contains("      INC: { effects: [increment] }\n"), "\(result.spec)")
        #expect(result.spec.contains("      Counter: { kind: input }\n"), "\(result.spec)")
        // Well-formed; a machine that never leaves its one state is a dead end, as written.
        #expect(checked.diagnostics.map(\.rule) == [.deadEnd], "\(checked.diagnostics)")
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
        (#"{"id": "m", "states": {}}"#, "1:23", "the config's `states` holds no states")
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

    // MARK: - Hostile configs

    /// Keys holding a line break, a line separator or a NUL are written in the comment above
    /// their state as escapes, and quoted so in the report: they add no state to the spec, no
    /// line to the report, and the spec still reads.
    @Test func keysWithLineBreaksAndNULsAddNoStatesAndNoReportLines() throws {
        let config = #"""
            {"id": "m", "initial": "b\u0000",
             "states": {
               "a\n  evil: {kind: terminal}\u2028": {"on": {"go": "b\u0000"}},
               "b\u0000": {"on": {"go": "a\n  evil: {kind: terminal}\u2028", "back": "#nope\n  evil: 1"}}
             }}
            """#
        let (result, checked) = try Self.imported(config, name: "Hostile")
        SCXMLImportTests.expectNoInjection(result, checked)
        #expect(result.spec.contains(#"# XState key 'a\u{A}  evil: {kind: terminal}\u{2028}'"#), "\(result.spec)")
        #expect(result.spec.contains(#"# XState key 'b\u{0}'"#), "\(result.spec)")
        #expect(
            result.notImported.map(\.message) == [
                #"not imported: the target '#nope\u{A}  evil: 1', which names no state of the machine"#
            ])
    }

    /// A JSON string or number longer than the limit (`--max-scalar-length`) is refused where it
    /// starts, before it is copied; so is one over the default limit, 1 MiB.
    @Test func stringsOverTheScalarLimitAreRefusedWhereTheyStart() throws {
        let huge = String(repeating: "x", count: 2 << 20)
        do {
            _ = try MachineImporter.importMachine(
                Array(#"{"states": {"a": {"description": ""#.utf8) + Array(huge.utf8) + Array(#""}}}"#.utf8))
            Issue.record("read 2 MiB")
        } catch {
            #expect(
                error.message
                    == "a string of 2097152 bytes is over the limit of 1048576 bytes (raise it with --max-scalar-length)"
            )
            #expect(error.location.description == "1:34")
        }
        let escaped = "{\"states\": {\"a\": {}},\n \"id\": \"" + String(repeating: "\\n", count: 65) + "\"}"
        do {
            _ = try MachineImporter.importMachine(Array(escaped.utf8), maxScalarLength: 64)
            Issue.record("read 65 bytes")
        } catch {
            #expect(
                error.message
                    == "a string of 65 bytes is over the limit of 64 bytes (raise it with --max-scalar-length)")
            #expect(error.location.description == "2:8")
        }
        let number =
            "{\"states\": {\"a\": {\"after\": {\"1\": \"a\"}}}, \"version\": " + String(repeating: "1", count: 65) + "}"
        do {
            _ = try MachineImporter.importMachine(Array(number.utf8), maxScalarLength: 64)
            Issue.record("read a number of 65 digits")
        } catch {
            #expect(error.message.hasPrefix("a number of 65 bytes is over the limit of 64 bytes"), "\(error.message)")
        }
        let fits = "{\"states\": {\"" + String(repeating: "a", count: 64) + "\": {}}}"
        #expect(throws: Never.self) { try MachineImporter.importMachine(Array(fits.utf8), maxScalarLength: 64) }
    }

    /// A delay longer than a spec duration can be (2^63 ms, or 2^63 − 1) is noted and its
    /// transition left out: the spec written never fails its own check for it.
    @Test func aDelayLongerThanASpecDurationIsNotedNotWritten() throws {
        let config = """
            {"id": "m", "initial": "s", "states": {
              "s": {"on": {"go": "t"}, "after": {"9223372036854775808": "t", "9223372036854775807": "t", "5": "t"}},
              "t": {"on": {"go": "s"}, "after": {"9223372036855": "s"}}
            }}
            """
        let (result, checked) = try Self.imported(config, name: "Long")
        #expect(
            result.notImported.map { "\($0.location): \($0.message)" } == [
                "2:61: not imported: the delay of 9223372036854775808 ms, longer than a flowspec timeout can be (at most 2562047h); its transition is left out",
                "2:89: not imported: the delay of 9223372036854775807 ms, longer than a flowspec timeout can be (at most 2562047h); its transition is left out",
                "3:55: not imported: the delay of 9223372036855 ms, longer than a flowspec timeout can be (at most 2562047h); its transition is left out"
            ], "\(result.notImported)")
        #expect(
            result.spec.contains("s: { kind: input, on: { go: t }, timeout: { after: 5ms, to: t } }"), "\(result.spec)")
        #expect(checked.diagnostics.isEmpty, "\(checked.diagnostics)\n\(result.spec)")
    }

    /// Events named as XState names its own (`done.…`, `error.…`, `xstate.after.…`) that are a
    /// spec's come back from its export as they were: the export lists them in its meta.
    @Test func eventsNamedLikeXStatesComeBackFromTheExport() throws {
        let spec = """
            flowspec: 1
            machines:
              M:
                initial: s
                events: [done.state.s, xstate.after.1000.E.s, error.x, go]
                on: { error.x: s }
                states:
                  s: { kind: input, on: { done.state.s: t, xstate.after.1000.E.s: t, go: t } }
                  t: { kind: input, on: { go: s, done.state.s: end } }
                  end: { kind: terminal }

            """
        let checked = SpecChecker().check(SourceFile(path: "m.yaml", text: spec))
        #expect(checked.diagnostics.isEmpty, "\(checked.diagnostics)")
        let graph = try #require(checked.graphs.first)
        let config = XStateExporter.config(graph)
        #expect(config.contains(#""eventsNamedLikeXState" : ["#), "\(config)")
        let (result, back) = try Self.imported(config, name: "M")
        #expect(result.notImported.isEmpty, "\(result.notImported)")
        #expect(back.diagnostics.isEmpty, "\(back.diagnostics)\n\(result.spec)")
        #expect(
            result.spec.contains("s: { kind: input, on: { done.state.s: t, xstate.after.1000.E.s: t, go: t } }"),
            "\(result.spec)")
        #expect(result.spec.contains("end: { kind: terminal }"), "\(result.spec)")
        // The spec read back exports to the same config: the round trip is exact.
        #expect(XStateExporter.config(try #require(back.graphs.first)) == config)
    }
}
