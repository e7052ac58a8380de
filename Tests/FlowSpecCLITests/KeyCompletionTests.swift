import Foundation
import Testing

/// Completion where a key is typed: the keys the language allows in that mapping, read from
/// the text around the cursor (`‸`), in block and in flow style. The text being typed does not
/// parse; the names come from the last version that did.
@Suite("flowspec-lsp key completion (process)")
struct KeyCompletionTests {
    static let spec = """
        flowspec: 1
        severity:
          ‸unr
        machines:
          Login:
            ‸in
            initial: signedOut
            states:
              signedOut:
                ‸ki
                kind: input
                on:
                  ‸
                  submit: { to: signingIn, ‸ }
              signingIn: { kind: task, on: { done: signedOut }, ‸ti }
              waiting:
                kind: task
                timeout:
                  after: 5s
                  retry: { ‸ }
            require:
              - ‸
              - within: { from: signedOut, to: [signingIn], max: 5s, ‸ }
              - before: { first: signedOut, ‸ }
        ‸
        """

    /// A state's keys, as the language documents them (`deep` and `default` are a history
    /// state's alone).
    static let stateKeys = [
        "kind", "summary", "initial", "entry", "exit", "activities", "on", "always", "timeout", "run", "done", "states",
        "parallel"
    ]
    /// A history state's keys: what `invalid-history` lets it write.
    static let historyKeys = ["kind", "summary", "deep", "default"]

    @Test func keysInContext() throws {
        // Rule ids as `flowspec rules` lists them, one a line.
        let rules = try CLI.run(["rules"]).stdout.split(separator: "\n").compactMap { $0.split(separator: " ").first }
            .map(String.init)
        let machineKeys = [
            "summary", "standalone", "initial", "defaults", "conditions", "events", "effects", "activities", "on",
            "states", "parallel", "sequences", "persist", "require", "severity"
        ]
        let expectations: [[String]] = [
            rules, machineKeys, Self.stateKeys, ["submit", "done"],
            ["to", "if", "unless", "in", "notIn", "effects", "retry"], Self.stateKeys,
            ["max", "then", "effects"],
            [
                "reachable", "alwaysReachable", "within", "never", "before", "between", "everyEntry", "leadsTo",
                "atMost", "whenever"
            ],
            ["from", "to", "max"], ["first", "effect", "then", "after"], ["flowspec", "imports", "machines", "severity"]
        ]
        try Self.expectCompletions(in: Self.spec, expectations)
    }

    /// Keys in the body of a state inside a compound state, at any depth, in block and in flow
    /// style.
    @Test func keysInsideCompoundStates() throws {
        let spec = """
            flowspec: 1
            machines:
              Login:
                initial: group
                states:
                  group:
                    ‸do
                    initial: inner
                    states:
                      inner:
                        ‸en
                        kind: input
                        on:
                          ‸
                          submit: { to: deeper, ‸ }
                      deeper:
                        states:
                          leaf: { kind: terminal, ‸ }
                          other: { states: { last: { timeout: { ‸ } } } }
            """
        try Self.expectCompletions(
            in: spec,
            [
                Self.stateKeys, Self.stateKeys, ["submit"], ["to", "if", "unless", "in", "notIn", "effects", "retry"],
                Self.stateKeys, ["after", "to", "effects", "retry"]
            ])
    }

    /// Keys in a parallel state, in its regions and in the states inside them, in block and in
    /// flow style.
    @Test func keysInsideParallelRegions() throws {
        let spec = """
            flowspec: 1
            machines:
              Player:
                initial: playing
                states:
                  playing:
                    ‸pa
                    parallel:
                      video:
                        ‸in
                        states:
                          running: { kind: input, ‸ }
                      audio:
                        timeout: { ‸ }
                        states:
                          loud:
                            on:
                              ‸
                              mute: { to: loud, ‸ }
            """
        try Self.expectCompletions(
            in: spec,
            [
                Self.stateKeys, Self.stateKeys, Self.stateKeys, ["after", "to", "effects", "retry"], ["mute"],
                ["to", "if", "unless", "in", "notIn", "effects", "retry"]
            ])
    }

    /// In a history state (as the last version that parsed says), only its own keys, in
    /// block and in flow style, shallow or deep; beside it, in the same compound state and
    /// deeper, other states offer theirs without `deep` and `default`.
    @Test func keysInsideHistoryStates() throws {
        let spec = """
            flowspec: 1
            machines:
              Reader:
                initial: area
                states:
                  area:
                    states:
                      home:
                        ‸ki
                        kind: input
                      resume:
                        ‸de
                        kind: history
                      top: { kind: history, default: home, ‸ }
                      inner:
                        ‸
                        states:
                          page: { kind: input, ‸ }
                          back: { kind: history, deep: true, ‸su }
            """
        try Self.expectCompletions(
            in: spec,
            [Self.stateKeys, Self.historyKeys, Self.historyKeys, Self.stateKeys, Self.stateKeys, Self.historyKeys])
    }

    /// Opens `spec` without its partial keys (`‸word`), then types them in one change, and asks
    /// for completion at each `‸` (after the partial key): the labels must be `expectations`.
    static func expectCompletions(in spec: String, _ expectations: [[String]]) throws {
        var lines: [String] = []
        var cursors: [(line: Int, character: Int)] = []
        // The spec before the partial keys were typed.
        let parsed = spec.replacingOccurrences(of: #"‸[a-z]+"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: "‸", with: "")
        for line in spec.split(separator: "\n", omittingEmptySubsequences: false) {
            if let marker = line.firstIndex(of: "‸") {
                cursors.append(
                    (
                        lines.count,
                        line[..<marker].utf16.count
                            + line[line.index(after: marker)...].prefix { $0.isLetter }.utf16.count
                    ))
            }
            lines.append(line.replacingOccurrences(of: "‸", with: ""))
        }
        #expect(cursors.count == expectations.count)
        let uri = "file:///w/keys.flowspec.yaml"
        var input = try LanguageServerTests.frame(LanguageServerTests.request(0, "initialize"))
        input += try LanguageServerTests.frame(
            LanguageServerTests.notification(
                "textDocument/didOpen",
                ["textDocument": ["uri": uri, "version": 1, "text": parsed]]))
        input += try LanguageServerTests.frame(LanguageServerTests.request(100, "flowspec/ping"))
        input += try LanguageServerTests.frame(
            LanguageServerTests.notification(
                "textDocument/didChange",
                [
                    "textDocument": ["uri": uri, "version": 2],
                    "contentChanges": [["text": lines.joined(separator: "\n")]]
                ]))
        for (number, cursor) in cursors.enumerated() {
            input += try LanguageServerTests.frame(
                LanguageServerTests.request(
                    number + 1, "textDocument/completion",
                    ["textDocument": ["uri": uri], "position": ["line": cursor.line, "character": cursor.character]]))
        }
        input += try LanguageServerTests.frame(LanguageServerTests.request(99, "shutdown"))
        input += try LanguageServerTests.frame(LanguageServerTests.notification("exit"))
        let messages = try LanguageServerTests.serve(input).messages
        for (number, expected) in expectations.enumerated() {
            let items = messages.first { $0["id"] as? Int == number + 1 }?["result"] as? [[String: Any]] ?? []
            #expect(items.compactMap { $0["label"] as? String } == expected, "at \(cursors[number])")
        }
    }
}

/// Completion where a value is typed: states where a state is written, and the kinds,
/// conditions and effects after their keys.
@Suite("flowspec-lsp value completion (process)")
struct ValueCompletionTests {
    static let spec = """
        flowspec: 1
        machines:
          Login:
            initial: ‸
            events: [submit, done, failed]
            conditions: [remembered]
            effects: [track]
            states:
              signedOut:
                kind: ‸
                on: { submit: { to: signingIn, if: ‸ } }
              signingIn:
                kind: task
                on:
                  done: ‸
                  failed: { to: signedOut, effects: [‸] }
                timeout: { after: 5s, to: signedOut, retry: { max: 2, then: ‸ } }
              home: { kind: terminal }
            sequences:
              steps: { states: [signedOut, ‸] }
            require:
              - within: { from: ‸, to: [home], max: 9s }
              - never: [‸]
              - never: { in: ‸, while: remembered }
              - before: { first: ‸, then: home }
              - between: { after: signedOut, until: home, never: [‸] }
              - atMost: { times: 2, of: failed, before: ‸ }
              - leadsTo: { from: signingIn, to: [‸] }
        """

    /// Every key that takes states offers them, each requirement's as its kind says.
    @Test func valuesInContext() throws {
        let states = ["signedOut", "signingIn", "home"]
        let expectations: [[String]] =
            [
                states, ["input", "task", "choice", "terminal"], ["remembered"], states, ["track"], states, states,
                states
            ] + Array(repeating: states, count: 6)
        try Self.expectCompletions(in: Self.spec, expectations)
    }

    /// Values in a compound state: its `initial` offers the states directly inside it, `done`
    /// the states, `entry` and `exit` the effects (but an event named `exit` takes a state), at
    /// any depth.
    @Test func valuesInCompoundStates() throws {
        let spec = """
            flowspec: 1
            machines:
              Login:
                initial: welcome
                effects: [track, clear]
                states:
                  welcome: { kind: input, on: { go: group } }
                  group:
                    initial: ‸
                    entry: [‸]
                    exit: ‸
                    done: ‸
                    on: { exit: ‸ }
                    states:
                      inner:
                        initial: ‸
                        states:
                          deep: { kind: input, on: { go: last } }
                          deeper: { kind: input, on: { go: last }, exit: [track, ‸] }
                      last: { kind: terminal }
                  gone: { kind: terminal }
            """
        let states = ["welcome", "group", "inner", "deep", "deeper", "last", "gone"]
        let effects = ["track", "clear"]
        try Self.expectCompletions(
            in: spec, [["inner", "last"], effects, effects, states, states, ["deep", "deeper"], effects])
    }

    /// After `kind:`, `history` only in a state inside a compound state (at the top level
    /// there is nothing to resume), never in `defaults` (a history state is always written as
    /// one); an event named `kind` takes a state. After a history state's `default:`, the states
    /// inside its compound state at any depth, history states aside; outside any compound
    /// state, the machine's states.
    @Test func valuesOfHistoryStates() throws {
        let spec = """
            flowspec: 1
            machines:
              Reader:
                initial: welcome
                defaults: { kind: ‸ }
                states:
                  welcome: { kind: input, on: { start: area, kind: ‸ } }
                  area:
                    states:
                      home: { kind: input, on: { next: feed } }
                      feed:
                        states:
                          list: { kind: ‸ }
                          back: { kind: history }
                      resume:
                        kind: history
                        default: ‸
                      top: { kind: history, default: ‸ }
                  reauth:
                    kind: ‸
                    on: { again: resume }
                  stray: { default: ‸ }
            """
        let waiting = ["input", "task", "choice", "terminal"]
        let states = ["welcome", "area", "home", "feed", "list", "back", "resume", "top", "reauth", "stray"]
        let inside = ["home", "feed", "list"]
        // `stray` is in no compound state: its `default` (invalid-history) takes any state.
        try Self.expectCompletions(
            in: spec, [waiting, states, waiting + ["history"], inside, inside, waiting, states])
    }

    /// Asks for completion at each `‸` of `spec` (opened without them): the labels must be
    /// `expectations`.
    static func expectCompletions(in spec: String, _ expectations: [[String]]) throws {
        var lines: [String] = []
        var cursors: [(line: Int, character: Int)] = []
        for line in spec.split(separator: "\n", omittingEmptySubsequences: false) {
            if let marker = line.firstIndex(of: "‸") { cursors.append((lines.count, line[..<marker].utf16.count)) }
            lines.append(line.replacingOccurrences(of: "‸", with: ""))
        }
        #expect(cursors.count == expectations.count)
        let uri = "file:///w/values.flowspec.yaml"
        let requests = cursors.map { cursor -> (String, [String: Any]) in
            (
                "textDocument/completion",
                ["textDocument": ["uri": uri], "position": ["line": cursor.line, "character": cursor.character]]
            )
        }
        let messages = try LanguageServerTests.session(opening: uri, lines.joined(separator: "\n"), requests)
        for (number, expected) in expectations.enumerated() {
            let items = LanguageServerTests.result(number + 2, messages) as? [[String: Any]] ?? []
            #expect(items.compactMap { $0["label"] as? String } == expected, "at \(cursors[number])")
        }
    }
}
