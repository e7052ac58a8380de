import Foundation
import Testing

/// `flowspec-lsp`'s quick fixes, through the protocol: each is asked for over its finding,
/// its edit is applied to the text, and the result is checked again by the server. A fix must
/// remove its finding and bring no new one.
@Suite("flowspec-lsp quick fixes (process)")
struct CodeActionTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var spec: String
        /// The finding the fix is for.
        var rule: String
        var title: String
        /// The lines the fix changes, as they read after it.
        var fixedLines: [String]
        var testDescription: String { name }
    }

    static let login = """
        flowspec: 1
        machines:
          Login:
            initial: signedOut
            STATES
        """

    static func spec(_ body: String) -> String {
        login.replacingOccurrences(of: "    STATES", with: body) + "\n"
    }

    static let cases: [Case] = [
        Case(
            name: "a timeout in a block mapping, to where the failure event goes",
            spec: spec(
                """
                    states:
                      signedOut:
                        kind: input
                        on: { submit: signingIn }
                      signingIn:
                        kind: task
                        on: { done: home, signInFailed: failed }
                      failed: { kind: input, on: { retry: signingIn } }
                      home: { kind: terminal }
                """),
            rule: "missing-timeout", title: "Add a 30s timeout to 'failed'",
            fixedLines: ["      signingIn:", "        timeout: { after: 30s, to: failed }", "        kind: task"]),
        Case(
            name: "a timeout in a flow mapping, to the initial state",
            spec: spec(
                """
                    states:
                      signedOut: { kind: input, on: { submit: signingIn } }
                      signingIn: { kind: task, on: { done: home } }
                      home: { kind: terminal }
                """),
            rule: "missing-timeout", title: "Add a 30s timeout to 'signedOut'",
            fixedLines: [
                "      signingIn: { kind: task, on: { done: home }, timeout: { after: 30s, to: signedOut } }"
            ]),
        Case(
            name: "a condition added to a flow list",
            spec: spec(
                """
                    conditions: [remembered]
                    states:
                      signedOut: { kind: input, on: { submit: { to: home, if: remembered }, skip: { to: home, if: guest } } }
                      home: { kind: terminal }
                """),
            rule: "undeclared-name", title: "Declare condition 'guest'",
            fixedLines: ["    conditions: [remembered, guest]"]),
        Case(
            name: "an effect added to a block list",
            spec: spec(
                """
                    effects:
                      - track
                    states:
                      signedOut: { kind: input, on: { submit: { to: home, effects: [track, log] } } }
                      home: { kind: terminal }
                """),
            rule: "undeclared-name", title: "Declare effect 'log'",
            fixedLines: ["    effects:", "      - track", "      - log", "    states:"]),
        Case(
            name: "a list added where the machine has none",
            spec: spec(
                """
                    states:
                      signedOut: { kind: input, on: { submit: { to: home, if: remembered } } }
                      home: { kind: terminal }
                """),
            rule: "undeclared-name", title: "Declare condition 'remembered'",
            fixedLines: ["  Login:", "    conditions: [remembered]", "    initial: signedOut"]),
        Case(
            name: "an unused name last in a flow list",
            spec: spec(
                """
                    events: [submit, cancel]
                    states:
                      signedOut: { kind: input, on: { submit: home } }
                      home: { kind: terminal }
                """),
            rule: "unused-name", title: "Remove unused 'cancel'", fixedLines: ["    events: [submit]"]),
        Case(
            name: "an unused name first in a flow list",
            spec: spec(
                """
                    events: [cancel, submit]
                    states:
                      signedOut: { kind: input, on: { submit: home } }
                      home: { kind: terminal }
                """),
            rule: "unused-name", title: "Remove unused 'cancel'", fixedLines: ["    events: [submit]"]),
        Case(
            name: "an unused name in a block list",
            spec: spec(
                """
                    effects:
                      - track
                      - log
                    states:
                      signedOut: { kind: input, on: { submit: { to: home, effects: [track] } } }
                      home: { kind: terminal }
                """),
            rule: "unused-name", title: "Remove unused 'log'", fixedLines: ["      - track", "    states:"]),
        Case(
            name: "a misspelt target",
            spec: spec(
                """
                    states:
                      signedOut: { kind: input, on: { submit: hom } }
                      home: { kind: terminal }
                """),
            rule: "undefined-state", title: "Change to 'home'",
            fixedLines: ["      signedOut: { kind: input, on: { submit: home } }"]),
        Case(
            name: "a timeout in a block mapping of a state inside another",
            spec: spec(
                """
                    states:
                      signedOut: { kind: input, on: { submit: signingIn } }
                      signingIn:
                        on: { cancel: signedOut }
                        states:
                          verifying:
                            kind: task
                            on: { done: home, failed: signedOut }
                      home: { kind: terminal }
                """),
            rule: "missing-timeout", title: "Add a 30s timeout to 'signedOut'",
            fixedLines: [
                "          verifying:", "            timeout: { after: 30s, to: signedOut }", "            kind: task"
            ]),
        Case(
            name: "a compound state's initial that is not inside it",
            spec: spec(
                """
                    states:
                      signedOut: { kind: input, on: { submit: signingIn } }
                      signingIn:
                        initial: credentails
                        on: { cancel: signedOut }
                        states:
                          credentials: { kind: input, on: { submit: home } }
                      home: { kind: terminal }
                """),
            rule: "invalid-nesting", title: "Change to 'credentials'", fixedLines: ["        initial: credentials"]),
        Case(
            name: "an effect of a nested state's exit declared",
            spec: spec(
                """
                    effects: [track]
                    states:
                      signedOut: { kind: input, on: { submit: signingIn } }
                      signingIn:
                        entry: [track]
                        on: { cancel: signedOut }
                        states:
                          credentials: { kind: input, on: { submit: home }, exit: [clear] }
                      home: { kind: terminal }
                """),
            rule: "undeclared-name", title: "Declare effect 'clear'", fixedLines: ["    effects: [track, clear]"]),
        Case(
            name: "an unused effect removed, an entry's effect kept",
            spec: spec(
                """
                    effects: [track, log]
                    states:
                      signedOut: { kind: input, on: { submit: home }, entry: track }
                      home: { kind: terminal }
                """),
            rule: "unused-name", title: "Remove unused 'log'", fixedLines: ["    effects: [track]"])
    ]

    @Test(arguments: cases) func theFixRemovesItsFindingAndNoOther(_ fix: Case) throws {
        let uri = "file:///w/login.flowspec.yaml"
        let before = try findings(fix.spec, uri: uri)
        let finding = try #require(before.first { $0["code"] as? String == fix.rule }, "\(before)")
        let range = try #require(finding["range"] as? [String: Any])

        let context: [String: Any] = ["diagnostics": [] as [Any]]
        let messages = try LanguageServerTests.session(
            opening: uri, fix.spec,
            [("textDocument/codeAction", ["textDocument": ["uri": uri], "range": range, "context": context])])
        let actions = try #require(LanguageServerTests.result(2, messages) as? [[String: Any]])
        let action = try #require(actions.first { $0["title"] as? String == fix.title }, "\(actions)")
        #expect(action["kind"] as? String == "quickfix")
        let edits = try #require(
            ((action["edit"] as? [String: Any])?["changes"] as? [String: Any])?[uri] as? [[String: Any]])

        let fixed = Self.applying(edits, to: fix.spec)
        let lines = fixed.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let first = try #require(lines.firstIndex(of: fix.fixedLines[0]), "\(fixed)")
        #expect(Array(lines[first..<min(first + fix.fixedLines.count, lines.count)]) == fix.fixedLines, "\(fixed)")
        func described(_ finding: [String: Any]) -> String { "\(finding["code"] ?? "") \(finding["message"] ?? "")" }
        let after = try findings(fixed, uri: uri).map(described)
        #expect(!after.contains(described(finding)), "the finding is gone: \(fixed)")
        #expect(after.allSatisfy(before.map(described).contains), "no new finding: \(after)")
    }

    /// The diagnostics the server publishes for `text`.
    func findings(_ text: String, uri: String) throws -> [[String: Any]] {
        try #require(LanguageServerTests.diagnostics(try LanguageServerTests.session(opening: uri, text), uri))
    }

    /// `text` with LSP text edits applied (positions in UTF-16 offsets, edits not overlapping).
    static func applying(_ edits: [[String: Any]], to text: String) -> String {
        func position(_ edit: [String: Any], _ key: String) -> (line: Int, character: Int) {
            let point = (edit["range"] as? [String: Any])?[key] as? [String: Any]
            return (point?["line"] as? Int ?? 0, point?["character"] as? Int ?? 0)
        }
        func index(_ text: String, _ position: (line: Int, character: Int)) -> String.Index {
            var lineStart = text.startIndex
            for _ in 0..<position.line {
                lineStart = text[lineStart...].firstIndex(of: "\n").map(text.index(after:)) ?? text.endIndex
            }
            return text.utf16.index(lineStart, offsetBy: position.character)
        }
        var result = text
        for edit in edits.sorted(by: { position($0, "start") > position($1, "start") }) {
            let range = index(result, position(edit, "start"))..<index(result, position(edit, "end"))
            result.replaceSubrange(range, with: edit["newText"] as? String ?? "")
        }
        return result
    }
}
