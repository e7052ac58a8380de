import Foundation
import Testing

@testable import FlowSpecCore

/// `flowspec import` of XState machines as their authors write them, in JavaScript or
/// TypeScript source: the object passed to `createMachine(…)` or v4's `Machine(…)` is read as
/// its JSON would be, code in it is reported where it is written and never run, and what cannot
/// be read without running the code is refused at its place.
@Suite("XState import from source")
struct JavaScriptConfigTests {
    static func source(_ name: String) throws -> [UInt8] {
        let url = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/import/xstate/source/\(name)")
        return Array(try Data(contentsOf: url))
    }

    static func json(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/import/xstate/\(name)")))
    }

    static func notes(_ imported: MachineImporter.Imported) -> [String] {
        imported.notImported.map { "\($0.location): \($0.message)" }
    }

    /// The examples' own TypeScript (`Tests/Fixtures/import/xstate/source`, as the XState
    /// repository has them) imports as the JSON fixture made from it does; where the JSON lost
    /// code (a function dropped, an `assign(…)` turned into `null`), the source's report names it.
    @Test func theExamplesSourceImportsAsItsJSONDoes() throws {
        let fetch = try MachineImporter.importMachine(try Self.source("fetchMachine.ts"), machine: "fetch")
        let fetchJSON = try MachineImporter.importMachine(try Self.json("fetch.json"), machine: "fetch")
        #expect(fetch.spec == fetchJSON.spec, "\(fetch.spec)")
        #expect(
            Self.notes(fetch) == [
                "20:12: not imported: the context (the machine's data); flowspec holds only boolean conditions, which the app supplies",
                "33:16: not imported: the input of the invocation 'fetchUser'; the app gives its work what it needs",
                "36:20: not imported: an inline action, code (`assign({`); name it and implement it in `setup`"
            ], "\(Self.notes(fetch))")

        // The JSON turned the clue's only action, an `assign(…)`, into `{}`, which reads as a
        // transition that ends the search, and left out the guard `not('isAnswerCorrect')`; the
        // source says it is an actions-only transition, and keeps the guard as `unless`.
        let trivia = try MachineImporter.importMachine(try Self.source("triviaMachine.ts"), machine: "trivia")
        let triviaJSON = try MachineImporter.importMachine(try Self.json("trivia.json"), machine: "trivia")
        let clue = "            on: { user.toggleClue: { effects: [] } }\n"
        #expect(trivia.spec.contains(clue), "\(trivia.spec)")
        let answered = "{ to: incorrectAnswer, unless: isAnswerCorrect }"
        #expect(trivia.spec.contains(answered), "\(trivia.spec)")
        #expect(
            trivia.spec.replacingOccurrences(of: clue, with: "").replacingOccurrences(
                of: answered, with: "incorrectAnswer") == triviaJSON.spec, "\(trivia.spec)")
        let code = Self.notes(trivia).filter { $0.contains("code (") }
        #expect(code.count == 8 && code.allSatisfy { $0.contains("an inline action") }, "\(code)")
        let checked = SpecChecker().check(SourceFile(path: "trivia.yaml", text: trivia.spec))
        #expect(checked.graphs.count == 1)
    }

    /// `setup({ actors: … }).createMachine(…)`: the config is the `createMachine` argument, not
    /// an object inside `setup`; a root `on` with a relative target.
    @Test func theConfigIsTheCreateMachineArgument() throws {
        let imported = try MachineImporter.importMachine(try Self.source("stopwatchMachine.ts"))
        #expect(imported.machine == "stopwatch")
        #expect(
            imported.spec == """
                flowspec: 1
                machines:
                  stopwatch:
                    initial: stopped
                    on:
                      reset: stopped
                    states:
                      stopped: { kind: input, on: { start: running } }
                      running: { kind: input, on: { TICK: { effects: [] }, stop: stopped } }

                """, "\(imported.spec)")
        #expect(Self.notes(imported).count == 4, "\(Self.notes(imported))")
    }

    /// What JavaScript and TypeScript write around data: comments, trailing commas, bare and
    /// quoted keys, numbers as keys, template literals, type arguments, `as const`, v4's
    /// `Machine(config, options)`; code (methods, shorthand properties, arrow functions) kept
    /// as code.
    @Test func javaScriptAroundTheDataIsRead() throws {
        let source = """
            // A v4 machine, as written in its file.
            import { Machine } from 'xstate';
            const query = `query { a }`;  // a template before the call
            export const door = Machine<Context>({
              id: `door`,
              initial: 'closed' as const, /* TypeScript */
              states: {
                closed: { on: { OPEN: { target: "opened", cond: isAllowed } } },
                opened: {
                  entry() { console.log('open') },
                  after: { 1000: 'closed', },
                  on: { CLOSE: 'closed', LOG: { actions: [logIt, 'note'] } },
                },
              },
            }, { guards: { isAllowed: () => true } });
            """
        let config = try JavaScriptConfigReader.read(Array(source.utf8))
        #expect(config["id"]?.string == "door" && config["initial"]?.string == "closed")
        let opened = try #require(config["states"]?["opened"])
        #expect(opened["after"]?.members.map(\.key) == ["1000"])
        if case .code(let text)? = opened["entry"]?.kind {
            #expect(text == "entry() { console.log('open') }")
        } else {
            Issue.record("a method is code: \(String(describing: opened["entry"]))")
        }
        let actions = opened["on"]?["LOG"]?["actions"]?.list ?? []
        #expect(actions.map(\.typeName) == ["code (`logIt`)", "a string"])
        let guardValue = config["states"]?["closed"]?["on"]?["OPEN"]?["cond"]
        #expect(guardValue?.typeName == "code (`isAllowed`)")
        #expect(guardValue?.location == SourceLocation(line: 8, column: 53))
        #expect(MachineImporter.format(of: Array(source.utf8)) == .xstate)
        // An implementation that cannot be read is passed over, from where the reading stopped.
        let unread = String(repeating: "setup({ a: 'x\n", count: 100) + "createMachine({ id: 'm', states: { a: {} } })"
        #expect(try JavaScriptConfigReader.read(Array(unread.utf8))["id"]?.string == "m")
        // As in JavaScript, a key written again gives the first its value, in its place.
        let again = try JavaScriptConfigReader.read(Array("createMachine({ id: 'a', initial: 'x', id: 'b' })".utf8))
        #expect(again.members.map(\.key) == ["id", "initial"] && again["id"]?.string == "b")
    }

    /// What only running the code would show is refused where it is written, with what to do;
    /// so is a source with no config to read.
    @Test(arguments: [
        ("createMachine({ ...base, states: {} })", "1:17", "a spread (`...`)"),
        ("createMachine({ on: { [EVENTS.go]: 'a' } })", "1:23", "a computed key"),
        ("createMachine(config)", "1:1", "found no `createMachine({ … })`"),
        ("createMachine({ id: 'a\n' })", "1:21", "does not end on its line"),
        ("createMachine({ id: 'a' ", "1:25", "the source ends inside the object opened at 1:15")
    ])
    func whatCannotBeReadIsRefusedWhereItIsWritten(source: String, location: String, message: String) {
        do throws(JavaScriptConfigReader.Failure) {
            _ = try JavaScriptConfigReader.read(Array(source.utf8))
            Issue.record("read, not refused: \(source)")
        } catch {
            #expect("\(error.location)" == location, "\(error.message)")
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    /// A guard written as code keeps the transition guarded: `not('name')` is `unless: name`,
    /// any other becomes a condition of its own, the code in a comment, reported.
    @Test func aGuardWrittenAsCodeStaysAGuard() throws {
        let source = """
            createMachine({ id: 'gate', initial: 'shut', states: {
              shut: { on: { OPEN: [{ target: 'open', guard: not("locked") },
                                   { target: 'open', guard: ({ context }) => context.key }] } },
              open: { type: 'final' } } })
            """
        let imported = try MachineImporter.importMachine(Array(source.utf8), machine: "Gate")
        #expect(
            imported.spec.contains("OPEN: [{ to: open, unless: locked }, { to: open, if: condition1 }]"),
            "\(imported.spec)")
        #expect(imported.spec.contains("    # condition1: ({ context }) => context.key\n"), "\(imported.spec)")
        #expect(
            Self.notes(imported) == [
                "3:49: imported as the condition 'condition1': a guard that is code (`({ context }) => context.key`), which the app now supplies"
            ], "\(Self.notes(imported))")
    }

    /// The named delays `setup({ delays })` (or v4's `Machine(config, { delays })`) gives in
    /// milliseconds are their timeouts' durations, recorded at the top of the machine; one the
    /// source computes needs `--delay`, which also overrides the source's.
    @Test func namedDelaysTakeTheirDurationsFromTheSource() throws {
        let source = """
            export const session = setup({
              types: { context: {} as { t: number } },
              delays: { IDLE: 30_000, SOON: ({ context }) => context.t },
            }).createMachine({
              id: 'session', initial: 'active',
              states: {
                active: { on: { TAP: 'waiting' }, after: { IDLE: 'idle' } },
                waiting: { after: { SOON: 'active' } },
                idle: { type: 'final' } } });
            """
        let imported = try MachineImporter.importMachine(Array(source.utf8))
        #expect(imported.spec.contains("    # delay 'IDLE' is 30s, from the machine's source\n"), "\(imported.spec)")
        #expect(imported.spec.contains("timeout: { after: 30s, to: idle }"), "\(imported.spec)")
        #expect(
            Self.notes(imported) == [
                "8:31: not imported: the delay 'SOON', which the config names without its duration; give it with `--delay SOON=30s`"
            ], "\(Self.notes(imported))")
        let given = try MachineImporter.importMachine(Array(source.utf8), delays: ["IDLE": .seconds(5)])
        #expect(given.spec.contains("    # delay 'IDLE' is 5s, from --delay\n"), "\(given.spec)")
        #expect(given.unusedDelays.isEmpty)

        let version4 =
            "const m = Machine({ id: 'm', initial: 'a', states: { a: { after: { IDLE: 'b' } }, b: {} } },"
            + " { delays: { IDLE: 1000 } });"
        let old = try MachineImporter.importMachine(Array(version4.utf8))
        #expect(old.spec.contains("timeout: { after: 1s, to: b }"), "\(old.spec)")
    }

    /// Nesting is held to `--max-depth` in data and in code alike: a deep source is an error,
    /// never a crash.
    @Test func deepSourceIsRefusedNotACrash() {
        for (open, close) in [("{ a: ", " }"), ("{ a: f(", ") }")] {
            let source =
                "createMachine(" + String(repeating: open, count: 5_000) + "1"
                + String(repeating: close, count: 5_000) + ")"
            #expect(throws: JavaScriptConfigReader.Failure.self) {
                _ = try JavaScriptConfigReader.read(Array(source.utf8), maxDepth: 64)
            }
        }
    }
}
