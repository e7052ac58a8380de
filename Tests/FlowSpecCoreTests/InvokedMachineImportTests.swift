import Foundation
import Testing

@testable import FlowSpecCore

/// Machines a document or config invokes by reference (an SCXML `<invoke src>`, an XState
/// `invoke` whose `src` names a machine whose config is given too) come in as sub-flows, each
/// once, with what cannot come in noted in the input it is written in.
@Suite("Import of invoked machines")
struct InvokedMachineImportTests {
    static func scxml(_ name: String, _ body: String, initial: String) -> String {
        #"<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" name="\#(name)" initial="\#(initial)">\#(body)</scxml>"#
    }

    static let signIn = scxml(
        "SignIn",
        #"<state id="credentials"><transition event="submit" target="signedIn"/></state><final id="signedIn"/>"#,
        initial: "credentials")

    /// A parent whose state `signIn` invokes `source` and goes home when it is done.
    static func app(invoking source: String, twice: Bool = false) -> String {
        let invoke =
            #"<invoke id="auth" src="\#(source)" autoforward="true"/><transition event="done.invoke.auth" target="home"/>"#
        let again = twice ? #"<state id="again">\#(invoke)</state>"# : ""
        return scxml(
            "App",
            #"<state id="welcome"><transition event="start" target="signIn"/><transition event="retry" target="again"/></state>"#
                + #"<state id="signIn">\#(invoke)</state>\#(again)<state id="home"><transition event="signOut" target="welcome"/></state>"#,
            initial: "welcome"
        ).replacingOccurrences(of: twice ? "" : #"<transition event="retry" target="again"/>"#, with: "")
    }

    /// Links that read `files` (path → text) as the disk would, noting each path asked for.
    static func links(_ path: String, others: [String: String] = [:], files: [String: String] = [:])
        -> MachineImporter.Links
    {
        MachineImporter.Links(
            path: path,
            others: others.sorted { $0.key < $1.key }.map { .init(path: $0.key, bytes: Array($0.value.utf8)) }
        ) { source, from in
            let directory = from.split(separator: "/").dropLast().joined(separator: "/")
            let path = directory.isEmpty ? source : directory + "/" + source
            guard let text = files[path] else {
                return .failure(.init(message: "\(path): no such file", location: .start, file: path))
            }
            return .success(.init(path: path, bytes: Array(text.utf8)))
        }
    }

    static func imported(_ text: String, _ links: MachineImporter.Links) throws -> (
        MachineImporter.Imported, SpecChecker.Checked
    ) {
        let result = try MachineImporter.importMachine(Array(text.utf8), links: links)
        return (result, SpecChecker().check(SourceFile(path: "spec.yaml", text: result.spec)))
    }

    @Test func anSCXMLSourceIsReadBesideTheDocumentAndComesInAsIfWrittenInside() throws {
        let (result, checked) = try Self.imported(
            Self.app(invoking: "flows/signin.scxml"),
            Self.links("specs/app.scxml", files: ["specs/flows/signin.scxml": Self.signIn]))
        #expect(result.notImported.isEmpty, "\(result.notImported)")
        #expect(checked.diagnostics.isEmpty, "\(checked.diagnostics)\n\(result.spec)")
        // The same machine written inside the <invoke> (SCXMLImportTests runs that one).
        let inside = Self.app(invoking: "-").replacingOccurrences(
            of: #" src="-" autoforward="true"/>"#,
            with: #" autoforward="true"><content>\#(Self.signIn)</content></invoke>"#)
        #expect(result.spec == (try MachineImporter.importMachine(Array(inside.utf8))).spec, "\(inside)")
        #expect(result.spec.contains("      signIn: { run: SignIn, done: home }"), "\(result.spec)")
    }

    @Test func anSCXMLSourceIsFoundAmongTheOtherInputsFirst() throws {
        let (result, _) = try Self.imported(
            Self.app(invoking: "file:elsewhere/signin.scxml"),
            Self.links("app.scxml", others: ["given/signin.scxml": Self.signIn]))
        #expect(result.notImported.isEmpty, "\(result.notImported)")
        #expect(result.spec.contains("signIn: { run: SignIn, done: home }"), "\(result.spec)")
    }

    @Test func aMachineInvokedTwiceComesInOnce() throws {
        let (result, checked) = try Self.imported(
            Self.app(invoking: "signin.scxml", twice: true),
            Self.links("app.scxml", files: ["signin.scxml": Self.signIn]))
        #expect(result.spec.contains("signIn: { run: SignIn, done: home }"), "\(result.spec)")
        #expect(result.spec.contains("again: { run: SignIn, done: home }"), "\(result.spec)")
        #expect(result.spec.components(separatedBy: "  SignIn:\n").count == 2, "\(result.spec)")
        #expect(checked.diagnostics.filter { $0.severity == .error }.isEmpty, "\(checked.diagnostics)")
    }

    @Test func aDocumentThatInvokesItselfOrCannotBeReadIsNoted() throws {
        let loop = Self.scxml(
            "Loop", #"<state id="inner"><invoke src="app.scxml" autoforward="true"/></state>"#, initial: "inner")
        let app = Self.app(invoking: "loop.scxml")
        let (looped, _) = try Self.imported(app, Self.links("app.scxml", files: ["loop.scxml": loop, "app.scxml": app]))
        #expect(looped.spec.contains("signIn: { run: Loop, done: home }"), "\(looped.spec)")
        #expect(
            looped.notImported.map { "\($0.file ?? "-") \($0.location): \($0.message)" } == [
                "loop.scxml 1:108: not imported: the invocation of 'app.scxml': 'app.scxml' is being imported already: a sub-flow cannot run a flow that runs it"
            ])

        let (missing, _) = try Self.imported(Self.app(invoking: "gone.scxml"), Self.links("app.scxml"))
        // Its `done.invoke` then names an event nothing sends.
        #expect(
            missing.notImported.map(\.message) == [
                "not imported: the invocation of 'gone.scxml': it cannot be read: gone.scxml: no such file",
                "not imported: a transition on 'done.invoke.auth', an event the SCXML platform sends when a state is done or an invocation ends; a flowspec state's own end is its `done`"
            ])
        #expect(missing.spec.contains("signIn: { kind: input"), "\(missing.spec)")

        let (broken, _) = try Self.imported(
            Self.app(invoking: "broken.scxml"), Self.links("app.scxml", files: ["broken.scxml": "<scxml>\n<state>"]))
        #expect(broken.notImported.map(\.message).first?.contains("broken.scxml:2:8: the document ends inside") == true)

        let (unlinked, _) = try Self.imported(Self.app(invoking: "signin.scxml"), Self.links("app.scxml"))
        #expect(unlinked.notImported.first?.message.hasSuffix("it cannot be read: signin.scxml: no such file") == true)
        let noLinks = try MachineImporter.importMachine(Array(Self.app(invoking: "signin.scxml").utf8))
        #expect(
            noLinks.notImported.first?.message
                == "not imported: the invocation of 'signin.scxml'; this import reads no other document")
    }

    @Test func aDocumentThatInvokesItselfTwiceUnderGrowingPathsEnds() throws {
        // As links on disk would let it: `loop/self.scxml` and `again/self.scxml` are the
        // document itself, at a path one folder deeper each time.
        let document = Self.scxml(
            "Self",
            #"<state id="a"><invoke src="loop/self.scxml"/><transition event="x" target="b"/></state>"#
                + #"<state id="b"><invoke src="again/self.scxml"/><transition event="y" target="a"/></state>"#,
            initial: "a")
        let links = MachineImporter.Links(path: "self.scxml") { source, from in
            let directory = from.split(separator: "/").dropLast().joined(separator: "/")
            return .success(
                .init(path: directory.isEmpty ? source : directory + "/" + source, bytes: Array(document.utf8)))
        }
        let result = try MachineImporter.importMachine(Array(document.utf8), links: links)
        #expect(result.spec.components(separatedBy: "\n  Self").count - 1 == InvokedMachines.maxRead + 1)
        #expect(
            result.notImported.contains {
                $0.message.hasSuffix(
                    "the import has read \(InvokedMachines.maxRead) machines by reference, as many as it reads")
            })
        #expect(result.notImported.contains { $0.message.hasSuffix("invocations by reference go more than 32 deep") })
    }

    // MARK: - XState

    static let parentConfig = """
        {
          "id": "app",
          "initial": "welcome",
          "states": {
            "welcome": { "on": { "start": "signIn" } },
            "signIn": { "invoke": { "src": "signInMachine", "onDone": "home" } },
            "home": { "on": { "signOut": "welcome" } }
          }
        }
        """
    static let childConfig = """
        {
          "id": "signInMachine",
          "initial": "credentials",
          "context": { "attempts": 0 },
          "states": {
            "credentials": { "on": { "submit": "signedIn" } },
            "signedIn": { "type": "final" }
          }
        }
        """

    @Test func anXStateMachineWhoseConfigIsGivenIsRunAsASubFlow() throws {
        let (result, checked) = try Self.imported(
            Self.parentConfig, Self.links("app.json", others: ["signin.json": Self.childConfig]))
        #expect(result.spec.contains("      signIn: { run: signInMachine, done: home }"), "\(result.spec)")
        #expect(result.spec.contains("  signInMachine:\n    initial: credentials\n"), "\(result.spec)")
        #expect(
            result.notImported.map { "\($0.file ?? "app.json"):\($0.location): \($0.message)" } == [
                "app.json:6:27: imported as a sub-flow: the machine 'signInMachine' that 'signIn' runs; flowspec hands a sub-flow the flow's events first, which XState does not (the parent would `sendTo` it)",
                "signin.json:4:14: not imported: the context (the machine's data); flowspec holds only boolean conditions, which the app supplies"
            ])
        #expect(checked.diagnostics.isEmpty, "\(checked.diagnostics)\n\(result.spec)")
        let program = try #require(
            SpecGeneration.programs(checked, diagnostics: checked.diagnostics)?.first { $0.name.name == "app" })
        let trace = try Simulation(program: program).run([.event("start"), .event("submit")])
        #expect(trace.contains { $0.hasPrefix("submit -> home") }, "\(trace)")
    }

    @Test func withoutItsConfigAnInvokedMachineStaysATask() throws {
        let (result, _) = try Self.imported(Self.parentConfig, Self.links("app.json"))
        #expect(result.spec.contains("signIn: { kind: task"), "\(result.spec)")
    }

    @Test func anInputNoStateInvokesIsNotedAndOneThatCannotBeReadRefused() throws {
        let (result, _) = try Self.imported(
            Self.parentConfig,
            Self.links(
                "app.json",
                others: ["signin.json": Self.childConfig, "other.json": #"{"id": "x", "states": {"a": {}}}"#]))
        #expect(
            result.notImported.contains {
                $0.file == "other.json" && $0.location == .start
                    && $0.message.hasPrefix("not imported: no state of 'app' invokes this machine")
            }, "\(result.notImported)")
        do {
            _ = try Self.imported(
                Self.parentConfig, Self.links("app.json", others: ["bad.json": #"{"states": {"a": }}"#]))
            Issue.record("imported")
        } catch let failure as MachineImporter.Failure {
            #expect(failure.file == "bad.json")
            #expect(failure.location.description == "1:18", "\(failure)")
        }
    }

    /// Configs that invoke each other (a runs b, b runs a): b's invocation of a is refused
    /// with a note where b writes it, as for SCXML, not taken for some other actor.
    @Test func xstateConfigsThatInvokeEachOtherAreNoted() throws {
        let a =
            #"{"id": "a", "initial": "s", "states": {"s": {"on": {"go": "t"}}, "t": {"invoke": {"src": "b", "onDone": "s"}}}}"#
        let b = """
            {"id": "b", "initial": "s", "states": {"s": {"on": {"go": "t"}},
              "t": {"invoke": {"src": "a", "onDone": "u"}, "on": {"stop": "u"}}, "u": {"type": "final"}}}
            """
        let (result, _) = try Self.imported(a, Self.links("a.json", others: ["b.json": b]))
        #expect(
            result.notImported.map { "\($0.file ?? "a.json"):\($0.location): \($0.message)" } == [
                "a.json:1:82: imported as a sub-flow: the machine 'b' that 't' runs; flowspec hands a sub-flow the flow's events first, which XState does not (the parent would `sendTo` it)",
                "b.json:2:19: not imported: the invocation of 'a': 'a.json' is being imported already: a sub-flow cannot run a flow that runs it"
            ], "\(result.notImported)")
        #expect(!result.spec.contains("a.done"), "\(result.spec)")
        #expect(result.spec.contains("t: { kind: input, on: { stop: u } }"), "\(result.spec)")
    }
}
