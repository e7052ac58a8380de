import Foundation
import Testing

@testable import FlowSpecCore

/// `flowspec import` of SCXML: what `flowspec export` writes comes back as the same machine,
/// and documents that cannot be read get a located error, never a crash or a hang.
@Suite("SCXML import")
struct SCXMLImportTests {
    /// The spec imported from a document (SCXML or an XState config), checked.
    static func imported(_ document: String, name: String) throws -> (MachineImporter.Imported, SpecChecker.Checked) {
        let result = try MachineImporter.importMachine(Array(document.utf8), machine: name)
        return (result, SpecChecker().check(SourceFile(path: "\(name).yaml", text: result.spec)))
    }

    @Test func importingAnExportGivesTheSameMachine() throws {
        var random = DifferentialSpecs.SplitMix64(seed: 0x1A_9087)
        var compared = 0
        for (graph, program, _) in try SCXMLExportTests.machines() {
            let name = program.name.name
            for datamodel in SCXMLExporter.Datamodel.allCases {
                let document = SCXMLExporter.document(graph, datamodel: datamodel)
                let (result, checked) = try Self.imported(document, name: name)
                #expect(result.notImported.isEmpty, "\(name): \(result.notImported)")
                let errors = checked.diagnostics.filter { $0.severity == .error }
                try #require(errors.isEmpty, "\(name) (\(datamodel)):\n\(errors)\n\(result.spec)")
                let back = try #require(SpecGeneration.programs(checked, diagnostics: checked.diagnostics)?.first)
                compared += try Self.expectSameMachine(back, as: program, spec: result.spec, &random)
            }
        }
        #expect(compared > 20_000)
    }

    /// Expects `back`, imported from an export of `program`, to be the same machine: the same
    /// states, kinds, compound and history states and retry counters, and the same `simulate`
    /// traces on random inputs. Returns how many trace lines were compared.
    static func expectSameMachine(
        _ back: FlowProgram, as program: FlowProgram, spec: String, _ random: inout DifferentialSpecs.SplitMix64,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws -> Int {
        let name = program.name.name
        #expect(back.states.map(\.name) == program.states.map(\.name), "\(name)", sourceLocation: sourceLocation)
        #expect(back.states.map(\.kind) == program.states.map(\.kind), "\(name)", sourceLocation: sourceLocation)
        #expect(
            back.compounds.map(\.name) == program.compounds.map(\.name), "\(name)", sourceLocation: sourceLocation)
        #expect(
            back.histories.map(\.name) == program.histories.map(\.name), "\(name)", sourceLocation: sourceLocation)
        #expect(back.retrySlotCount == program.retrySlotCount, "\(name)", sourceLocation: sourceLocation)
        var compared = 0
        for _ in 0..<2 {
            let steps = ParallelSpecs.drawSteps(program, count: 30, &random).map { step -> Simulation.Step in
                guard case .compoundTimeout(let state) = step, !program.hasParallel,
                    !program.compounds.contains(where: { $0.name == state })
                else { return step }
                return .timeout
            }
            // `#` lines name the machine a sub-flow runs, which the import composes away.
            let expected = try Simulation(program: program).run(steps).filter { !$0.hasPrefix("#") }
            let actual = try Simulation(program: back).run(steps)
            #expect(actual == expected, "\(name), inputs \(steps)\n\(spec)", sourceLocation: sourceLocation)
            compared += expected.count
        }
        return compared
    }

    @Test(arguments: MachineImporter.Format.allCases)
    func theReferenceFlowsComeBackAsTheyWereWritten(format: MachineImporter.Format) throws {
        let result = SpecChecker().check(try Fixtures.source("specs/app.yaml"))
        let graph = try #require(result.graphs.first { $0.machine.name.value == "LaunchAuth" })
        let exported =
            switch format {
            case .scxml: SCXMLExporter.document(graph)
            case .xstate: XStateExporter.config(graph)
            }
        let (imported, _) = try Self.imported(exported, name: "LaunchAuth")
        #expect(
            imported.spec.contains(
                "      authLoading: { kind: task, on: { loginSucceeded: authenticated, loginFailed: unauthenticated, networkError: { to: authLoading, retry: { max: 3, then: error } } }, timeout: { after: 10s, to: error } }"
            ), "\(imported.spec)")
        #expect(imported.spec.contains("    on:\n      forceReset: unauthenticated"))
    }

    /// A machine parallel at its top comes back as one: its regions under the machine's
    /// `parallel`, no `initial`, and a target naming the machine.
    @Test(arguments: MachineImporter.Format.allCases)
    func aMachineParallelAtItsTopComesBackAsItWasWritten(format: MachineImporter.Format) throws {
        let result = SpecChecker().check(SourceFile(path: "player.yaml", text: SCXMLExportTests.parallelAtTop))
        let graph = try #require(result.graphs.first)
        let exported =
            switch format {
            case .scxml: SCXMLExporter.document(graph)
            case .xstate: XStateExporter.config(graph)
            }
        let (imported, checked) = try Self.imported(exported, name: "Player")
        #expect(imported.notImported.isEmpty, "\(imported.notImported)")
        #expect(checked.diagnostics.isEmpty, "\(checked.diagnostics)\n\(imported.spec)")
        #expect(
            imported.spec.contains("\n    on:\n      reset: { to: Player, effects: [resetVolume] }\n"),
            "\(imported.spec)")
        #expect(
            imported.spec.contains("\n    parallel:\n      playback:\n        initial: paused\n"), "\(imported.spec)")
        #expect(
            !imported.spec.contains("\n    initial:") && !imported.spec.contains("\n    states:"), "\(imported.spec)")
    }

    // MARK: - Documents of others

    @Test func whatTheLanguageCannotHoldIsReportedWhereItIsWritten() throws {
        let document = """
            <?xml version="1.0"?>
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="idle" datamodel="ecmascript">
              <datamodel><data id="count" expr="0"/></datamodel>
              <state id="idle">
                <onentry><script>count = 0</script></onentry>
                <transition event="go" cond="count &gt; 2" target="busy"/>
                <transition event="*" target="idle"/>
              </state>
              <state id="busy">
                <onentry><send event="done" delay="5s"/></onentry>
                <transition event="done" target="idle"><raise event="x"/></transition>
              </state>
            </scxml>
            """
        let (result, checked) = try Self.imported(document, name: "Others")
        #expect(
            result.notImported.map { "\($0.location): \($0.message)" } == [
                "3:14: not imported: the datamodel's 'count'; flowspec holds only boolean conditions, which the app supplies",
                "5:14: not imported: <script> in <onentry>; the flowspec language has no counterpart",
                "6:5: imported as the condition 'condition1': the expression 'count > 2', which the app now supplies",
                "7:5: imported as the events it matches (go): the wildcard '*'; an event the document does not name is no longer handled",
                "10:14: imported as a timeout, which ends when 'busy' is left; this delayed <send> is not cancelled then, so its event can still arrive later (to say what the spec says, give it an id and <cancel sendid> it in <onexit>)",
                "11:44: not imported: <raise> in <transition>; the flowspec language has no counterpart"
            ])
        #expect(result.spec.contains("    # condition1: count > 2"))
        // `*` matches every event the document's transitions name (`go`, after its first
        // candidate), but not the event of a delayed `<send>`, which is `busy`'s timeout.
        #expect(
            result.spec.contains("idle: { kind: input, on: { go: [{ to: busy, if: condition1 }, idle] } }"),
            "\(result.spec)")
        #expect(result.spec.contains("busy: { kind: input, timeout: { after: 5s, to: idle } }"))
        #expect(checked.diagnostics.filter { $0.severity == .error }.isEmpty, "\(checked.diagnostics)\n\(result.spec)")
    }

    /// Apache Commons SCXML marks a final state `<state final="true">` (before SCXML 1.0 had
    /// `<final>`): a state the flow can be in so marked comes in as a terminal state, with
    /// nothing to note; on a state that holds others it means nothing flowspec holds, and is
    /// noted.
    /// The content of an `<initial>`'s transition and of a history's default transition are
    /// the effects of `initial` and `default`; other content there is named where it is.
    @Test func effectsOnTheWayInComeIn() throws {
        let (result, checked) = try Self.imported(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="area">
              <state id="area">
                <initial><transition target="home"><log label="effect" expr="'greet'"/><raise event="x"/></transition></initial>
                <state id="home"><transition event="next" target="feed"/></state>
                <state id="feed"><transition event="leave" target="out"/></state>
                <history id="back"><transition target="feed"><log label="effect" expr="'restored'"/></transition></history>
              </state>
              <state id="out"><transition event="again" target="back"/></state>
            </scxml>
            """, name: "WayIn")
        #expect(result.spec.contains("initial: { to: home, effects: [greet] }"), "\(result.spec)")
        #expect(
            result.spec.contains("back: { kind: history, default: { to: feed, effects: [restored] } }"),
            "\(result.spec)")
        #expect(result.notImported.map(\.location.line) == [3], "\(result.notImported)")
        #expect(!checked.diagnostics.contains { $0.severity == .error }, "\(checked.diagnostics)")
    }

    @Test func commonsSCXMLsFinalAttributeIsATerminalState() throws {
        let (result, checked) = try Self.imported(
            """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="running">
              <state id="running"><transition event="stop" target="stopped"/><transition event="pause" target="paused"/></state>
              <state id="paused" final="false"><transition event="go" target="running"/></state>
              <state id="stopped" final="true"/>
              <state id="group" final="true"><state id="inner"/></state>
            </scxml>
            """, name: "Commons")
        #expect(result.spec.contains("      stopped: { kind: terminal }\n"), "\(result.spec)")
        #expect(result.spec.contains("      paused: { kind: input, on: { go: running } }\n"), "\(result.spec)")
        #expect(
            result.notImported.map { "\($0.location): \($0.message)" } == [
                "5:21: not imported: the attribute 'final' of <state>, which SCXML does not define there; the flowspec language has no counterpart"
            ])
        #expect(!checked.diagnostics.contains { $0.subjects == ["stopped"] })
    }

    @Test func anInvokedMachineComesInAsASubFlow() throws {
        let document = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" name="App" initial="welcome">
              <state id="welcome"><transition event="start" target="signIn"/></state>
              <state id="signIn">
                <invoke id="auth" autoforward="true">
                  <content>
                    <scxml name="SignIn" version="1.0" initial="credentials">
                      <state id="credentials"><transition event="submit" target="signedIn"/></state>
                      <final id="signedIn"/>
                    </scxml>
                  </content>
                </invoke>
                <transition event="done.invoke.auth" target="home"/>
              </state>
              <state id="home"><transition event="signOut" target="welcome"/></state>
            </scxml>
            """
        let (result, checked) = try Self.imported(document, name: "App")
        #expect(result.notImported.isEmpty, "\(result.notImported)")
        #expect(result.spec.contains("      signIn: { run: SignIn, done: home }"), "\(result.spec)")
        #expect(result.spec.contains("  SignIn:\n    initial: credentials\n"), "\(result.spec)")
        #expect(checked.diagnostics.isEmpty, "\(checked.diagnostics)\n\(result.spec)")
        let program = try #require(
            SpecGeneration.programs(checked, diagnostics: checked.diagnostics)?.first { $0.name.name == "App" })
        let trace = try Simulation(program: program).run([.event("start"), .event("submit")])
        #expect(trace.contains { $0.hasPrefix("start -> signIn.credentials") }, "\(trace)")
        #expect(trace.contains { $0.hasPrefix("submit -> home") }, "\(trace)")

        // Without autoforward, SCXML keeps the parent's events from the child; flowspec does not.
        let (plain, _) = try Self.imported(
            document.replacingOccurrences(of: #" autoforward="true""#, with: ""), name: "App")
        #expect(plain.notImported.map(\.message).contains { $0.contains("autoforward") }, "\(plain.notImported)")
    }

    @Test func idsTheSpecCannotHoldAreMadeSafeUniqueAndRecorded() throws {
        let document = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="a/b">
              <state id="a/b"><transition event="go" target="1st"/></state>
              <state id="1st"><transition event="back" target="a/b"/><transition event="on" target="a_b"/></state>
              <final id="a_b"/>
            </scxml>
            """
        let (result, checked) = try Self.imported(document, name: "Ids")
        #expect(
            result.spec.hasSuffix(
                """
                    states:
                      # SCXML id 'a/b'
                      a_b: { kind: input, on: { go: s1st } }
                      # SCXML id '1st'
                      s1st: { kind: input, on: { back: a_b, "on": a_b_ } }
                      # SCXML id 'a_b'
                      a_b_: { kind: terminal }

                """), "\(result.spec)")
        #expect(checked.diagnostics.isEmpty, "\(checked.diagnostics)")
    }

    // MARK: - Documents that cannot be read

    @Test(arguments: [
        (
            #"<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><scxml>&lol2;</scxml>"#,
            "1:22", "a document type declaration (DTD) is not read"
        ),
        (
            "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\">&bomb;</scxml>", "1:62",
            "unknown entity '&bomb;'"
        ),
        (
            "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\">\n  <state id=\"a\">\n</scxml>", "3:1",
            "</scxml> where <state> should be closed"
        ),
        ("<scxml>\n<state id=\"\u{00E9}\u{FFFD}\"/>", "2:17", "the document ends inside <scxml> (opened at 1:1)"),
        ("<scxml a='1' a='2'/>", "1:14", "has the attribute 'a' twice"),
        ("<bpmn/>", "1:1", "not <scxml>"),
        ("", "1:1", "the document holds no element"),
        ("<scxml><x:state/></scxml>", "1:8", "the prefix 'x' of 'x:state' is not declared")
    ])
    func aDocumentThatCannotBeReadIsLocated(document: String, location: String, message: String) throws {
        do {
            _ = try SCXMLImporter.importDocument(Array(document.utf8), machine: "M")
            Issue.record("read: \(document)")
        } catch {
            #expect("\(error.location)" == location, "\(error.message)")
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    /// Found by the fuzzer: a name with characters YAML escapes (quotes, a backslash, a tab, DEL)
    /// must not break the spec: it is made safe, and its comment escapes what it writes.
    @Test func namesYAMLMustEscapeReadBack() throws {
        let document = #"""
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
              <state id="a"><transition event="go" target="a"><log label="effect" expr="'say &quot;hi&quot;\now&#9;&#127;'"/></transition></state>
            </scxml>
            """#
        let (result, checked) = try Self.imported(document, name: "M")
        #expect(!checked.diagnostics.contains { $0.rule == .yamlSyntax }, "\(checked.diagnostics)\n\(result.spec)")
        // Not an identifier, the name is made safe; the comment keeps it, escaped.
        let effects = checked.spec.machines.first?.effects?.map(\.value)
        #expect(effects == ["say _hi__now__"], "\(result.spec)")
        let comment = "    # effect 'say \"hi\"\\now\\u{9}\\u{7F}' is say _hi__now__\n"
        #expect(result.spec.contains(comment), "\(result.spec)")
    }

    @Test func controlCharactersAreRefused() throws {
        for document in ["<scxml>\u{1}</scxml>", "<scxml>&#1;</scxml>"] {
            do {
                _ = try SCXMLImporter.importDocument(Array(document.utf8), machine: "M")
                Issue.record("read \(document)")
            } catch {
                #expect("\(error.location)" == "1:8", "\(error.message)")
                #expect(error.message.contains("character"), "\(error.message)")
            }
        }
    }

    @Test func invalidUTF8IsLocated() throws {
        let bytes = Array("<scxml>\n  <state id=\"".utf8) + [0xC3, 0x28] + Array("\"/></scxml>".utf8)
        do {
            _ = try SCXMLImporter.importDocument(bytes, machine: "M")
            Issue.record("read")
        } catch {
            #expect("\(error.location)" == "2:14")
            #expect(error.message.contains("not valid UTF-8"))
        }
    }

    @Test func deepNestingStopsAtTheLimit() throws {
        let depth = 100_000
        let document =
            "<scxml>" + String(repeating: "<state>", count: depth) + String(repeating: "</state>", count: depth)
            + "</scxml>"
        do {
            _ = try SCXMLImporter.importDocument(Array(document.utf8), machine: "M", maxDepth: 256)
            Issue.record("read")
        } catch {
            #expect(error.message.contains("nest more than 256 deep"))
        }
    }

    // MARK: - Hostile documents

    /// The names of a machine's states, as the checker read them from an imported spec.
    static func stateNames(_ checked: SpecChecker.Checked) -> [String] {
        checked.graphs.flatMap { graph in graph.machine.states.indices.map { graph.machine.name(of: $0) } }
    }

    /// Expects an imported spec that a hostile name cannot have changed: it reads as YAML, has
    /// no state `evil`, and its report is one line per note.
    static func expectNoInjection(
        _ result: MachineImporter.Imported, _ checked: SpecChecker.Checked,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        #expect(
            !checked.diagnostics.contains { $0.rule == .yamlSyntax }, "\(checked.diagnostics)\n\(result.spec)",
            sourceLocation: sourceLocation)
        #expect(!stateNames(checked).isEmpty, "\(result.spec)", sourceLocation: sourceLocation)
        #expect(!stateNames(checked).contains("evil"), "\(result.spec)", sourceLocation: sourceLocation)
        let report = result.notImported.map { "\($0.location): warning: \($0.message)" }.joined(separator: "\n")
        #expect(
            report.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
                == result.notImported.count, "\(report)", sourceLocation: sourceLocation)
        for note in result.notImported {
            #expect(
                !note.message.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{2028}" || $0 == "\u{2029}" },
                "\(note.message)", sourceLocation: sourceLocation)
        }
    }

    /// An id holding a line break is written in the comment above its state as an escape, and
    /// quoted so in the report: it adds no state to the spec and no line to the report.
    @Test func idsWithLineBreaksAddNoStatesAndNoReportLines() throws {
        let evil = "&#10;  evil: {kind: terminal}"
        let document = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" initial="b">
              <state id="a\(evil)&#13;&#x2028;&#x85;">
                <transition event="go\(evil)" cond="x &gt; 1\(evil)" target="b"/>
              </state>
              <state id="b"><transition event="back" target="a\(evil)&#13;&#x2028;&#x85;"/></state>
            </scxml>
            """
        let (result, checked) = try Self.imported(document, name: "Hostile")
        Self.expectNoInjection(result, checked)
        #expect(
            result.spec.contains(#"# SCXML id 'a\u{A}  evil: {kind: terminal}\u{D}\u{2028}\u{85}'"#), "\(result.spec)")
        #expect(result.spec.contains(#"    # condition1: x > 1\u{A}  evil: {kind: terminal}"#), "\(result.spec)")
        #expect(
            result.notImported.contains {
                $0.message.contains(#"the expression 'x > 1\u{A}  evil: {kind: terminal}'"#)
            },
            "\(result.notImported)")
    }

    /// Ids and events longer than YAML allows a simple key (1,024 characters) are written as
    /// explicit keys (`? key`), in block and flow mappings, and the spec reads back as they are.
    @Test func namesLongerThanASimpleKeyAreWrittenAsExplicitKeys() throws {
        let long = String(repeating: "x", count: 1_500)
        let event = String(repeating: "e.", count: 800) + "end"
        let document = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" name="\(long)" initial="\(long)">
              <state id="\(long)"><transition event="\(event)" target="b"/></state>
              <state id="b" initial="c"><state id="c"><transition event="\(event)" target="\(long)"/></state></state>
            </scxml>
            """
        let (result, checked) = try Self.imported(document, name: "Long")
        #expect(!checked.diagnostics.contains { $0.rule == .yamlSyntax }, "\(checked.diagnostics.prefix(3))")
        #expect(Self.stateNames(checked).contains(long))
        #expect(result.spec.contains("? \(long)"))
        let machine = try #require(checked.spec.machines.first)
        #expect(NameUses(machine).derivedEvents.map(\.value) == [event])
    }

    /// A name, attribute value or text longer than the limit (`--max-scalar-length`) is refused
    /// where it starts, before it is copied; so is one over the default limit, 1 MiB.
    @Test func valuesOverTheScalarLimitAreRefusedWhereTheyStart() throws {
        func refusal(_ document: String, limit: Int?) -> MachineImporter.Failure? {
            do {
                if let limit {
                    _ = try MachineImporter.importMachine(Array(document.utf8), machine: "M", maxScalarLength: limit)
                } else {
                    _ = try MachineImporter.importMachine(Array(document.utf8), machine: "M")
                }
                return nil
            } catch {
                return error
            }
        }
        let huge = String(repeating: "x", count: 2 << 20)
        let attribute = refusal(#"<scxml><state id="s" x=""# + huge + #""/></scxml>"#, limit: nil)
        #expect(
            attribute?.message
                == "an attribute value of 2097152 bytes is over the limit of 1048576 bytes (raise it with --max-scalar-length)"
        )
        #expect(attribute?.location.description == "1:24")
        let small = refusal(
            "<scxml>\n  <state id=\"" + String(repeating: "&amp;", count: 65) + "\"/></scxml>", limit: 64)
        #expect(
            small?.message
                == "an attribute value of 65 bytes is over the limit of 64 bytes (raise it with --max-scalar-length)")
        #expect(small?.location.description == "2:13")
        #expect(refusal("<scxml><state id=\"" + String(repeating: "s", count: 64) + "\"/></scxml>", limit: 64) == nil)
        let name = refusal("<scxml><" + String(repeating: "n", count: 65) + " xmlns=\"urn:x\"/></scxml>", limit: 64)
        #expect(
            name?.message.hasPrefix("a name of 65 bytes is over the limit of 64 bytes") == true,
            "\(String(describing: name))")
        let text = refusal(
            "<scxml><state id=\"s\">\n" + String(repeating: "t", count: 100) + "</state></scxml>", limit: 64)
        #expect(
            text?.message.hasPrefix("text of 101 bytes is over the limit of 64 bytes") == true,
            "\(String(describing: text))")
        #expect(text?.location.description == "1:22")
        let cdata = refusal("<scxml><![CDATA[" + huge + "]]></scxml>", limit: nil)
        #expect(cdata?.message.hasPrefix("a CDATA section of 2097152 bytes is over the limit") == true)
    }

    /// Character references may have any number of digits (leading zeros are valid XML); one past
    /// U+10FFFF, however long, is refused as not a Unicode scalar value, never overflowing.
    @Test func characterReferencesHaveAnyNumberOfDigits() throws {
        let zeros = try XMLReader.read(Array(#"<a x="&#x0000000000000041;&#0000000000066;"/>"#.utf8))
        #expect(zeros.attribute("x") == "AB")
        for reference in ["&#99999999999999999999999;", "&#x110000;", "&#xFFFFFFFFFFFFFFFFFFFFFFFF;", "&#xD800;"] {
            do {
                _ = try XMLReader.read(Array("<a x=\"\(reference)\"/>".utf8))
                Issue.record("read \(reference)")
            } catch {
                #expect(error.message.contains("is not a Unicode scalar value"), "\(reference): \(error.message)")
                #expect(error.location.description == "1:7")
            }
        }
        do {
            _ = try XMLReader.read(Array("<a x=\"&#12a;\"/>".utf8))
            Issue.record("read &#12a;")
        } catch {
            #expect(error.message.contains("does not end with ';'"), "\(error.message)")
        }
    }

    /// A delay longer than a spec duration can be is noted and its transition left out: the
    /// spec written never fails its own check for it.
    @Test func aDelayLongerThanASpecDurationIsNotedNotWritten() throws {
        let document = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" initial="s">
              <state id="s">
                <onentry><send event="t" delay="9223372036854775807h"/></onentry>
                <transition event="t" target="s"/><transition event="go" target="s"/>
              </state>
            </scxml>
            """
        let (result, checked) = try Self.imported(document, name: "Long")
        #expect(result.notImported.first?.message.contains("at most 2562047h") == true, "\(result.notImported)")
        #expect(!result.spec.contains("timeout"), "\(result.spec)")
        #expect(checked.diagnostics.filter { $0.severity == .error }.isEmpty, "\(checked.diagnostics)")
    }

    /// A timeout has no condition: a guarded delayed transition becomes the timeout without its
    /// guard, and says so, rather than a timeout the spec's own check refuses.
    @Test func aGuardedDelayedTransitionIsNotedAndLosesItsGuard() throws {
        let document = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" initial="s">
              <state id="s">
                <onentry><send id="t1" event="t" delay="2s"/></onentry>
                <onexit><cancel sendid="t1"/></onexit>
                <transition event="t" cond="late" target="done"/><transition event="go" target="s"/>
              </state>
              <final id="done"/>
            </scxml>
            """
        let (result, checked) = try Self.imported(document, name: "Guarded")
        #expect(
            result.notImported.map { "\($0.location): \($0.message)" } == [
                "5:5: imported without its condition: the timeout of 's'; a flowspec timeout has one target and no condition"
            ])
        #expect(result.spec.contains("timeout: { after: 2s, to: done }"), "\(result.spec)")
        #expect(checked.diagnostics.filter { $0.severity == .error }.isEmpty, "\(checked.diagnostics)")
    }

    /// Eventless transitions of a state that waits come in as its `always` branches while each
    /// has a condition (a compound state's too); one without a condition leaves the state every
    /// time, so the state is a choice state and its events, which never come, are named.
    @Test func eventlessTransitionsOfStatesThatWaitComeInWhole() throws {
        let document = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" initial="signIn">
              <state id="signIn">
                <transition cond="sessionValid" target="home"/>
                <state id="credentials">
                  <transition event="submit" target="home"/>
                  <transition cond="locked" target="done"/>
                </state>
              </state>
              <state id="home">
                <transition event="signOut" target="signIn"/>
                <transition target="done"/>
              </state>
              <final id="done"/>
            </scxml>
            """
        let (result, checked) = try Self.imported(document, name: "Eventless")
        #expect(result.spec.contains("always: [{ to: home, if: sessionValid }]"), "\(result.spec)")
        #expect(result.spec.contains("always: [{ to: done, if: locked }]"), "\(result.spec)")
        #expect(
            result.notImported.map(\.message) == [
                "imported as a choice state: 'home' leaves at once through an eventless transition without a condition, so its events and timeout never come and are not imported"
            ])
        #expect(result.spec.contains("kind: choice"), "\(result.spec)")
        #expect(checked.diagnostics.filter { $0.severity == .error }.isEmpty, "\(checked.diagnostics)")
        // A compound state left at once cannot be one: its unguarded transition is named and dropped.
        let compound = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" initial="area">
              <state id="area">
                <transition cond="expired" target="done"/>
                <transition target="done"/>
                <state id="inside"><transition event="go" target="done"/></state>
              </state>
              <final id="done"/>
            </scxml>
            """
        let (dropped, _) = try Self.imported(compound, name: "Dropped")
        #expect(dropped.spec.contains("always: [{ to: done, if: expired }]"), "\(dropped.spec)")
        #expect(
            dropped.notImported.map(\.message) == [
                "not imported: the eventless transition of 'area' without a condition; it would leave the state as soon as it is entered, which a flowspec compound or parallel state cannot do"
            ])
    }

    /// An event a state handles only under conditions, none of which holds, goes on to the
    /// states around it in SCXML, where a flowspec state ignores it: the import appends their
    /// candidates, innermost first, so that the machine behaves as the document does. A state
    /// that ends the search itself (a transition that does nothing after them, as the export
    /// writes it) keeps it ended; what a candidate copied down cannot keep is named.
    @Test func anEventAStateHandlesUnderConditionsGoesOnToTheStatesAroundIt() throws {
        let document = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" initial="form" datamodel="ecmascript">
              <datamodel><data id="valid" expr="false"/><data id="draft" expr="false"/></datamodel>
              <state id="form" initial="editing">
                <transition event="save" cond="draft" target="drafts"/>
                <transition event="save" target="saved"/>
                <transition event="close" target="closed"/>
                <state id="editing">
                  <transition event="save" cond="valid" target="review"/>
                  <transition event="close" cond="valid" target="review"/>
                  <transition event="close"/>
                </state>
                <state id="review"><transition event="back" target="editing"/></state>
              </state>
              <final id="drafts"/>
              <final id="saved"/>
              <final id="closed"/>
            </scxml>
            """
        let (result, checked) = try Self.imported(document, name: "Form")
        #expect(
            result.spec.contains("save: [{ to: review, if: valid }, { to: drafts, if: draft }, saved]"),
            "\(result.spec)")
        #expect(result.spec.contains("close: { to: review, if: valid }"), "the search ends there: \(result.spec)")
        #expect(result.notImported.isEmpty, "\(result.notImported)")
        let program = try #require(SpecGeneration.programs(checked, diagnostics: checked.diagnostics)?.first)
        let run = try Simulation(program: program).run([.event("save")])
        #expect(run.last?.hasPrefix("save -> saved") == true, "\(run)")
        let kept = try Simulation(program: program).run([.event("close")])
        #expect(kept.last?.hasPrefix("close -> editing (ignored)") == true, "\(kept)")

        let inside = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" initial="form">
              <state id="form" initial="editing">
                <transition event="save" target="form"/>
                <state id="editing"><transition event="save" cond="valid" target="done"/></state>
              </state>
              <final id="done"/>
            </scxml>
            """
        let (copied, _) = try Self.imported(inside, name: "Inside")
        #expect(
            copied.notImported.map(\.message) == [
                "imported with a change: 'form' on 'save' to 'form', copied to 'editing' (which handles 'save' only under conditions), no longer leaves and enters 'form'"
            ])
    }

    /// A transition written in a region to the region itself, or by the region to a state
    /// inside it, leaves and enters the whole parallel state in SCXML; flowspec restarts the
    /// region alone. The spec cannot say the first yet, so each is named where it is written;
    /// one between two states inside the region is the same in both.
    @Test func aTransitionThatRestartsARegionIsNamedWhereItIsWritten() throws {
        let document = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" initial="player">
              <parallel id="player">
                <state id="playback" initial="paused">
                  <transition event="reset" target="paused"/>
                  <state id="paused"><transition event="play" target="playing"/></state>
                  <state id="playing"><transition event="stop" target="playback"/></state>
                </state>
                <state id="volume" initial="normal">
                  <state id="normal"><transition event="mute" target="muted"/></state>
                  <state id="muted"><transition event="unmute" target="normal"/></state>
                </state>
              </parallel>
            </scxml>
            """
        let (result, _) = try Self.imported(document, name: "Player")
        let lines = document.split(separator: "\n", omittingEmptySubsequences: false)
        func line(_ text: String) -> Int { (lines.firstIndex { $0.contains(text) } ?? -1) + 1 }
        #expect(
            result.notImported.sorted { $0.location.line < $1.location.line }.map {
                "\($0.location.line): \($0.message)"
            } == [
                "\(line("event=\"reset\"")): imported with a change: a transition written in region 'playback' to 'paused'; SCXML leaves and enters the whole parallel state 'player', flowspec restarts region 'playback' alone",
                "\(line("event=\"stop\"")): imported with a change: a transition written in region 'playback' to 'playback'; SCXML leaves and enters the whole parallel state 'player', flowspec restarts region 'playback' alone"
            ], "\(result.notImported)")
    }

    /// `true` and `false` are what they say, not conditions the app supplies (and that start
    /// false): a `true` term is dropped, and a transition with a `false` term, never taken, is
    /// left out and reported. The machine behaves as the document does, and is checked as such.
    @Test func literalConditionsAreEvaluated() throws {
        let document = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" initial="s">
              <state id="s">
                <transition event="go" cond="false" target="never"/>
                <transition event="go" cond="true" target="a"/>
                <transition event="next" cond="!false &amp;&amp; ready" target="a"/>
                <transition event="stop" cond="!true" target="never"/>
              </state>
              <state id="a"><transition event="back" target="s"/></state>
              <state id="never"><transition event="back" target="s"/></state>
            </scxml>
            """
        let (result, checked) = try Self.imported(document, name: "Literals")
        #expect(
            result.notImported.map { "\($0.location): \($0.message)" } == [
                "3:5: not imported: a transition whose condition 'false' is always false; it is never taken",
                "6:5: not imported: a transition whose condition '!true' is always false; it is never taken"
            ])
        #expect(result.spec.contains("conditions: [ready]"), "\(result.spec)")
        #expect(result.spec.contains("s: { kind: input, on: { go: a, next: { to: a, if: ready } } }"), "\(result.spec)")
        // Only the transitions never taken led to `never`, and `check` now says so.
        #expect(
            checked.diagnostics.filter { $0.severity == .error }.map { "\($0.rule.rawValue) \($0.subjects)" }
                == ["unreachable-state [\"never\"]"])
    }

    /// An event or effect name that cannot become a Swift identifier is made safe and recorded
    /// in a comment, as a state id is; the spec checks.
    @Test func namesThatAreNoIdentifiersAreMadeSafeAndRecorded() throws {
        let document = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" initial="s">
              <state id="s">
                <transition event="FreezeAction::triggered(bool)" target="t">
                  <log label="effect" expr="'log(error)'"/>
                </transition>
              </state>
              <state id="t"><transition event="back" target="s"/></state>
            </scxml>
            """
        let (result, checked) = try Self.imported(document, name: "Names")
        #expect(result.spec.contains("    # event 'FreezeAction::triggered(bool)' is FreezeAction__triggered_bool_\n"))
        #expect(result.spec.contains("    # effect 'log(error)' is log_error_\n"), "\(result.spec)")
        #expect(
            result.spec.contains(
                "s: { kind: input, on: { FreezeAction__triggered_bool_: { to: t, effects: [log_error_] } } }"),
            "\(result.spec)")
        #expect(checked.diagnostics.filter { $0.severity == .error }.isEmpty, "\(checked.diagnostics)\n\(result.spec)")
    }

    /// Each attribute SCXML does not define on its element is noted where it is written; those of
    /// flowspec's export and `xml:` are read.
    @Test func unknownAttributesAreNotedWhereTheyAreWritten() throws {
        let document = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:q="urn:q" xmlns:f="urn:flowspec:scxml" initial="s" extra="1">
              <state id="s" q:layout="1" f:kind="input" f:colour="red" xml:lang="en">
                <transition event="e" target="s" weight="3"/>
              </state>
            </scxml>
            """
        let (result, _) = try Self.imported(document, name: "Attributes")
        #expect(
            result.notImported.map { "\($0.location): \($0.message)" } == [
                "1:105: not imported: the attribute 'extra' of <scxml>, which SCXML does not define there; the flowspec language has no counterpart",
                "2:17: not imported: the attribute 'layout' of <state>, of another namespace (a tool's own data)",
                "2:45: not imported: the attribute 'colour' of <state>, which flowspec's export does not write",
                "3:38: not imported: the attribute 'weight' of <transition>, which SCXML does not define there; the flowspec language has no counterpart"
            ], "\(result.notImported)")
    }

    /// Prefix matching is indexed: 20,000 transitions on distinct events, a descriptor that
    /// matches every one of them, and one event of 100,000 tokens each come out right (their
    /// time is in Benchmarks/bench.py, which was quadratic).
    @Test func manyTransitionsAndLongEventsMatchAsTheyShould() throws {
        let count = 20_000
        var transitions = ""
        for index in 0..<count {
            transitions += #"<transition event="g.e\#(index)" cond="c\#(index)" target="s"/>"#
        }
        let long = Array(repeating: "a", count: 100_000).joined(separator: ".")
        let document = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" initial="s"><state id="s">\(transitions)\
            <transition event="g" target="t"/></state>\
            <state id="t"><transition event="\(long)" target="s"/><transition event="a" target="t"/></state></scxml>
            """
        let result = try MachineImporter.importMachine(Array(document.utf8), machine: "Many")
        #expect(result.notImported.isEmpty, "\(result.notImported.prefix(3))")
        let lines = result.spec.split(separator: "\n")
        let s = try #require(lines.first { $0.hasPrefix("      s: ") })
        // Each event's own guarded candidate, then the prefix `g`'s.
        #expect(s.contains("g.e0: [{ to: s, if: c0 }, t], g.e1: [{ to: s, if: c1 }, t]"))
        #expect(s.hasSuffix("g.e19999: [{ to: s, if: c19999 }, t], g: t } }"), "\(s.suffix(60))")
        #expect(s.components(separatedBy: ", t]").count == count + 1)
        #expect(result.spec.contains("conditions: [c0, c1, c2,"))
        // `a` matches itself and the event that continues it.
        let t = try #require(lines.first { $0.hasPrefix("      t: ") })
        // Longer than YAML allows a simple key: an explicit one, which reads back.
        #expect(t.contains("? \(long) : [s, t]"))
        let checked = SpecChecker().check(SourceFile(path: "Many.yaml", text: result.spec))
        #expect(!checked.diagnostics.contains { $0.rule == .yamlSyntax })
        #expect(t.hasSuffix(", a: t } }"), "\(t.suffix(40))")
    }

    /// The duplicate-attribute check is a set: 100,000 attributes on one element are read, and
    /// one written twice after them all is still found, where it is.
    @Test func manyAttributesAreReadAndADuplicateAmongThemFound() throws {
        let attributes = (0..<100_000).map { #"a\#($0)="v\#($0)""# }.joined(separator: " ")
        let element = try XMLReader.read(Array("<e \(attributes)/>".utf8))
        #expect(element.attributes.count == 100_000)
        #expect(element.attribute("a99999") == "v99999")
        #expect(element.attributeLocations.last?.description == "1:\(4 + attributes.count - 15)")
        do {
            _ = try XMLReader.read(Array("<e \(attributes) a5=\"again\"/>".utf8))
            Issue.record("read a duplicate")
        } catch {
            #expect(error.message == "<e> has the attribute 'a5' twice; keep one")
            #expect(error.location.description == "1:\(5 + attributes.count)")
        }
    }
}
