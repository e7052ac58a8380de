import Foundation
import Testing

@testable import FlowSpecCore

/// `flowspec import` of SCXML: what `flowspec export` writes comes back as the same machine,
/// and documents that cannot be read get a located error, never a crash or a hang.
@Suite("SCXML import")
struct SCXMLImportTests {
    /// The spec imported from a document (SCXML or an XState config), checked.
    static func imported(_ document: String, name: String) throws -> (MachineImporter.Result, SpecChecker.Result) {
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
    /// must read back as written.
    @Test func namesYAMLMustEscapeReadBack() throws {
        let document = #"""
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
              <state id="a"><transition event="go" target="a"><log label="effect" expr="'say &quot;hi&quot;\now&#9;&#127;'"/></transition></state>
            </scxml>
            """#
        let (result, checked) = try Self.imported(document, name: "M")
        #expect(!checked.diagnostics.contains { $0.rule == .yamlSyntax }, "\(checked.diagnostics)\n\(result.spec)")
        let effects = checked.spec.machines.first?.effects?.map(\.value)
        #expect(effects == ["say \"hi\"\\now\t\u{7F}"], "\(result.spec)")
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
}
