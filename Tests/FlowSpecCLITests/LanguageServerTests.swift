import Foundation
import Testing

/// `flowspec-lsp` as a process: JSON-RPC framing, the lifecycle, documents kept in step with
/// full and incremental edits, and `check`'s findings published as diagnostics.
@Suite("flowspec-lsp (process)")
struct LanguageServerTests {
    static let executable = CLI.executable.deletingLastPathComponent().appendingPathComponent("flowspec-lsp")

    /// One message as the client frames it.
    static func frame(_ message: [String: Any]) throws -> Data {
        let body = try JSONSerialization.data(withJSONObject: message, options: [.sortedKeys])
        return Data("Content-Length: \(body.count)\r\n\r\n".utf8) + body
    }

    static func request(_ id: Int, _ method: String, _ params: [String: Any] = [:]) -> [String: Any] {
        ["jsonrpc": "2.0", "id": id, "method": method, "params": params]
    }

    static func notification(_ method: String, _ params: [String: Any] = [:]) -> [String: Any] {
        ["jsonrpc": "2.0", "method": method, "params": params]
    }

    /// Runs the server on `input` (the client's bytes) and returns its exit status and the
    /// messages it wrote, in order.
    static func serve(_ input: Data) throws -> (status: Int32, messages: [[String: Any]], stderr: String) {
        let directory = try CLI.temporaryDirectory(with: [:])
        let inputFile = directory.appendingPathComponent("input")
        try input.write(to: inputFile)
        let process = Process()
        process.executableURL = executable
        process.standardInput = try FileHandle(forReadingFrom: inputFile)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "ended by a signal: \(errorText)")
        var messages: [[String: Any]] = []
        var rest = bytes[...]
        while let headerEnd = rest.firstRange(of: Data("\r\n\r\n".utf8)) {
            let header = String(decoding: rest[rest.startIndex..<headerEnd.lowerBound], as: UTF8.self)
            let length = Int(header.replacingOccurrences(of: "Content-Length: ", with: "")) ?? 0
            let body = rest[headerEnd.upperBound..<(headerEnd.upperBound + length)]
            messages.append(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] ?? [:])
            rest = rest[(headerEnd.upperBound + length)...]
        }
        return (process.terminationStatus, messages, errorText)
    }

    /// A whole session: `initialize`, `uri` opened with `text`, each request in turn (their ids
    /// are 2, 3, ...), `shutdown` and `exit`. Returns every message the server wrote.
    static func session(opening uri: String, _ text: String, _ requests: [(String, [String: Any])] = []) throws
        -> [[String: Any]]
    {
        var input = try frame(request(1, "initialize"))
        input += try frame(
            notification("textDocument/didOpen", ["textDocument": ["uri": uri, "version": 1, "text": text]]))
        for (number, (method, params)) in requests.enumerated() {
            input += try frame(request(number + 2, method, params))
        }
        input += try frame(request(requests.count + 2, "shutdown"))
        input += try frame(notification("exit"))
        let (status, messages, stderr) = try serve(input)
        #expect(status == 0, "\(stderr)")
        return messages
    }

    /// The answer to request `id` among `messages`: its result, or `nil`.
    static func result(_ id: Int, _ messages: [[String: Any]]) -> Any? {
        response(id, messages)?["result"]
    }

    /// The response to request `id` among `messages`.
    static func response(_ id: Int, _ messages: [[String: Any]]) -> [String: Any]? {
        messages.first { $0["id"] as? Int == id }
    }

    static let broken = """
        flowspec: 1
        machines:
          Login:
            initial: signedOut
            defaults: { kind: input }
            states:
              signedOut: { on: { submit: signingIn } }
              signingIn: { kind: task, on: { done: signedOut } }

        """

    /// The last diagnostics published for `uri`.
    static func diagnostics(_ messages: [[String: Any]], _ uri: String) -> [[String: Any]]? {
        messages.last { message in
            message["method"] as? String == "textDocument/publishDiagnostics"
                && (message["params"] as? [String: Any])?["uri"] as? String == uri
        }.flatMap { ($0["params"] as? [String: Any])?["diagnostics"] as? [[String: Any]] }
    }

    /// Incremental edits land on the right line whatever ends the lines: `\n`, `\r\n` or `\r`.
    @Test(arguments: ["\r\n", "\r"]) func editsCountLinesAsLSPDoes(lineEnd: String) throws {
        let uri = "file:///w/spec.flowspec.yaml"
        let text = Self.broken.replacingOccurrences(of: "\n", with: lineEnd)
        let lines = Self.broken.split(separator: "\n", omittingEmptySubsequences: false)
        let task = try #require(lines.firstIndex { $0.contains("signingIn: { kind: task") })
        let end = lines[task].utf16.count - 2  // before the closing " }"
        let position: [String: Any] = ["line": task, "character": end]
        var input = try Self.frame(Self.request(1, "initialize"))
        input += try Self.frame(
            Self.notification("textDocument/didOpen", ["textDocument": ["uri": uri, "version": 1, "text": text]]))
        input += try Self.frame(Self.request(2, "flowspec/ping"))
        input += try Self.frame(
            Self.notification(
                "textDocument/didChange",
                [
                    "textDocument": ["uri": uri, "version": 2],
                    "contentChanges": [
                        [
                            "range": ["start": position, "end": position],
                            "text": ", timeout: { after: 5s, to: signedOut }"
                        ] as [String: Any]
                    ]
                ]))
        input += try Self.frame(Self.request(3, "shutdown"))
        input += try Self.frame(Self.notification("exit"))
        let (_, messages, _) = try Self.serve(input)
        let published = messages.filter { $0["method"] as? String == "textDocument/publishDiagnostics" }
        let before = (published.first?["params"] as? [String: Any])?["diagnostics"] as? [[String: Any]] ?? []
        #expect(before.map { $0["code"] as? String } == ["missing-timeout"])
        #expect(Self.diagnostics(messages, uri)?.isEmpty == true, "the timeout was inserted in the task's line")
    }

    @Test func findingsFollowTheDocumentThroughEdits() throws {
        var input = Data()
        input += try Self.frame(Self.request(1, "initialize", ["capabilities": [:] as [String: Any]]))
        input += try Self.frame(Self.notification("initialized"))
        for uri in ["file:///w/a.flowspec.yaml", "file:///w/b.flowspec.yaml"] {
            input += try Self.frame(
                Self.notification(
                    "textDocument/didOpen",
                    ["textDocument": ["uri": uri, "languageId": "yaml", "version": 1, "text": Self.broken]]))
        }
        input += try Self.frame(
            Self.notification(
                "textDocument/didOpen",
                ["textDocument": ["uri": "file:///w/other.yaml", "languageId": "yaml", "version": 1, "text": "a: 1\n"]]
            ))
        // b: the missing timeout added by an incremental edit at the end of line 8 (0-based 7).
        let end = Self.broken.split(separator: "\n")[7].utf16.count - 2
        input += try Self.frame(
            Self.notification(
                "textDocument/didChange",
                [
                    "textDocument": ["uri": "file:///w/b.flowspec.yaml", "version": 2],
                    "contentChanges": [
                        [
                            "range": [
                                "start": ["line": 7, "character": end], "end": ["line": 7, "character": end]
                            ],
                            "text": ", timeout: { after: 5s, to: signedOut }"
                        ] as [String: Any]
                    ]
                ]))
        input += try Self.frame(Self.request(2, "textDocument/formatting"))
        input += try Self.frame(Self.request(3, "shutdown"))
        input += try Self.frame(Self.notification("exit"))
        let (status, messages, stderr) = try Self.serve(input)
        #expect(status == 0, "\(stderr)")

        let initialize = try #require(messages.first { $0["id"] as? Int == 1 })
        let capabilities = try #require((initialize["result"] as? [String: Any])?["capabilities"] as? [String: Any])
        #expect((capabilities["textDocumentSync"] as? [String: Any])?["change"] as? Int == 2)

        let a = try #require(Self.diagnostics(messages, "file:///w/a.flowspec.yaml"))
        #expect(a.count == 1)
        #expect(a.first?["code"] as? String == "missing-timeout")
        #expect(a.first?["severity"] as? Int == 1)
        let range = try #require(a.first?["range"] as? [String: Any])
        #expect((range["start"] as? [String: Any])?["line"] as? Int == 7)
        #expect((range["start"] as? [String: Any])?["character"] as? Int == 6)
        #expect((range["end"] as? [String: Any])?["character"] as? Int == 15, "the range covers 'signingIn'")
        #expect(Self.diagnostics(messages, "file:///w/b.flowspec.yaml")?.isEmpty == true, "fixed by the edit")
        #expect(Self.diagnostics(messages, "file:///w/other.yaml")?.isEmpty == true, "not a spec")

        let unsupported = try #require(messages.first { $0["id"] as? Int == 2 })
        #expect((unsupported["error"] as? [String: Any])?["code"] as? Int == -32601)
        #expect(messages.contains { $0["id"] as? Int == 3 && $0["result"] is NSNull })
    }

    /// Every fixture spec (UTF-8 text, as an editor holds it) through `check --format json`
    /// and through the server: the same findings, in the same order, at the same places.
    @Test func theFindingsAreCheckOnEveryFixture() throws {
        let root = CLI.packageRoot
        let fixtures = try #require(
            FileManager.default.enumerator(atPath: root.appendingPathComponent("Tests/Fixtures").path))
        let paths =
            ["specs/app.yaml"]
            + fixtures.compactMap { $0 as? String }.filter { $0.hasSuffix(".yaml") }.sorted()
            .map { "Tests/Fixtures/\($0)" }
        var texts: [String: String] = [:]
        for path in paths {
            let bytes = try Data(contentsOf: root.appendingPathComponent(path))
            // An editor never holds bytes that are not UTF-8: those fixtures are the reader's alone.
            if let text = String(data: bytes, encoding: .utf8), !text.hasPrefix("\u{FEFF}") { texts[path] = text }
        }
        let checked = texts.keys.sorted()
        #expect(checked.count > 300, "the fixtures were found")
        let check = try CLI.run(["check", "--format", "json"] + checked)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any])
        var expected: [String: [String]] = [:]
        for finding in json["diagnostics"] as? [[String: Any]] ?? [] {
            let severity = ["error": 1, "warning": 2, "note": 3][finding["severity"] as? String ?? ""] ?? 0
            expected[finding["file"] as? String ?? "", default: []].append(
                "\(finding["rule"] ?? "") \(finding["line"] ?? "") \(finding["column"] ?? "") \(severity)")
        }

        var input = try Self.frame(Self.request(1, "initialize"))
        // Each named as a spec (a file that does not look like one is left alone), in its own
        // directory, so that the files a fixture imports are found beside it.
        func uri(_ path: String) -> String {
            let number = checked.firstIndex(of: path) ?? 0
            return CLI.packageRoot.appendingPathComponent(path).deletingLastPathComponent()
                .appendingPathComponent("\(number).flowspec.yaml").absoluteString
        }
        for path in checked {
            let uri = uri(path)
            input += try Self.frame(
                Self.notification(
                    "textDocument/didOpen", ["textDocument": ["uri": uri, "version": 1, "text": texts[path]!]]))
        }
        input += try Self.frame(Self.request(2, "shutdown"))
        input += try Self.frame(Self.notification("exit"))
        let (status, messages, stderr) = try Self.serve(input)
        #expect(status == 0, "\(stderr)")
        for path in checked {
            let lines = texts[path]!.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(
                of: "\r", with: "\n"
            )
            .split(separator: "\n", omittingEmptySubsequences: false)
            let published = (Self.diagnostics(messages, uri(path)) ?? []).map {
                diagnostic -> String in
                let start = (diagnostic["range"] as? [String: Any])?["start"] as? [String: Any]
                let line = (start?["line"] as? Int ?? -1) + 1
                // check counts characters (Unicode scalars); LSP counts UTF-16 units.
                var utf16 = start?["character"] as? Int ?? -1
                var column = 1
                let scalars: [Unicode.Scalar] =
                    lines.indices.contains(line - 1) ? Array(lines[line - 1].unicodeScalars) : []
                for scalar in scalars {
                    guard utf16 > 0 else { break }
                    utf16 -= scalar.utf16.count
                    column += 1
                }
                return "\(diagnostic["code"] ?? "") \(line) \(column) \(diagnostic["severity"] ?? "")"
            }
            #expect(published == expected[path] ?? [], "\(path)")
        }
    }

    /// Every line-by-line prefix of the reference spec, of every rule fixture and of every
    /// adversarial case, sent as incremental edits, each followed by a request (so its findings
    /// are published): the server answers every one, publishes findings after every edit,
    /// never crashes, and ends the reference spec clean. `TypingTests` types the reference
    /// spec character by character.
    @Test func everyPrefixOfEveryFixture() throws {
        let fixtures = CLI.packageRoot.appendingPathComponent("Tests/Fixtures")
        let paths = try #require(FileManager.default.enumerator(atPath: fixtures.path)).compactMap { $0 as? String }
        let files =
            ["specs/app.yaml"]
            + paths.filter {
                ($0.hasPrefix("adversarial/") || $0.hasPrefix("rules/") || $0.hasPrefix("lsp/"))
                    && $0.hasSuffix(".yaml")
            }
            .sorted().map { "Tests/Fixtures/\($0)" }
        var input = try Self.frame(Self.request(0, "initialize"))
        var requests = 0
        for (number, path) in files.enumerated() {
            let text = String(
                decoding: try Data(contentsOf: CLI.packageRoot.appendingPathComponent(path)), as: UTF8.self)
            let uri = "file:///w/\(number).flowspec.yaml"
            input += try Self.frame(
                Self.notification("textDocument/didOpen", ["textDocument": ["uri": uri, "version": 0, "text": ""]]))
            var lines = 0
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let position: [String: Any] = ["line": lines, "character": 0]
                input += try Self.frame(
                    Self.notification(
                        "textDocument/didChange",
                        [
                            "textDocument": ["uri": uri, "version": lines + 1],
                            "contentChanges": [
                                ["range": ["start": position, "end": position], "text": line + "\n"] as [String: Any]
                            ]
                        ]))
                requests += 1
                input += try Self.frame(Self.request(requests, "flowspec/ping"))
                lines += 1
            }
        }
        input += try Self.frame(Self.request(requests + 1, "shutdown"))
        input += try Self.frame(Self.notification("exit"))
        let (status, messages, stderr) = try Self.serve(input)
        #expect(status == 0, "\(stderr)")
        let answered = Set(messages.compactMap { $0["id"] as? Int })
        #expect(answered.count == requests + 2, "every request answered")
        let published = messages.filter { $0["method"] as? String == "textDocument/publishDiagnostics" }.count
        #expect(published >= requests, "findings after every edit")
        #expect(Self.diagnostics(messages, "file:///w/0.flowspec.yaml")?.isEmpty == true, "specs/app.yaml is clean")
    }

    /// The outline, go to definition and hover, on the reference spec.
    @Test func navigationInTheReferenceSpec() throws {
        let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("specs/app.yaml"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let use = try #require(lines.firstIndex { $0.contains("loginAttempted: authLoading") })
        let character = try #require(lines[use].range(of: "authLoading")).lowerBound.utf16Offset(in: lines[use]) + 2
        let declaration = try #require(lines.firstIndex { $0 == "      authLoading:" })
        let uri = "file:///w/app.flowspec.yaml"
        let document: [String: Any] = ["uri": uri]
        let position: [String: Any] = ["line": use, "character": character]
        var input = try Self.frame(Self.request(1, "initialize"))
        input += try Self.frame(
            Self.notification("textDocument/didOpen", ["textDocument": ["uri": uri, "version": 1, "text": text]]))
        input += try Self.frame(Self.request(2, "textDocument/documentSymbol", ["textDocument": document]))
        input += try Self.frame(
            Self.request(3, "textDocument/definition", ["textDocument": document, "position": position]))
        input += try Self.frame(Self.request(4, "textDocument/hover", ["textDocument": document, "position": position]))
        input += try Self.frame(Self.request(5, "shutdown"))
        input += try Self.frame(Self.notification("exit"))
        let (status, messages, stderr) = try Self.serve(input)
        #expect(status == 0, "\(stderr)")
        func result(_ id: Int) -> Any? { messages.first { $0["id"] as? Int == id }?["result"] }

        let symbols = try #require(result(2) as? [[String: Any]])
        #expect(symbols.map { $0["name"] as? String } == ["FirstRun", "LaunchAuth", "Chapters", "App"])
        let states = (symbols[1]["children"] as? [[String: Any]] ?? []).map { $0["name"] as? String ?? "" }
        #expect(states.contains("authLoading") && states.count == 11)

        let definition = try #require(result(3) as? [String: Any])
        let start = (definition["range"] as? [String: Any])?["start"] as? [String: Any]
        #expect(start?["line"] as? Int == declaration)
        #expect(start?["character"] as? Int == 6)

        let hover = try #require((result(4) as? [String: Any])?["contents"] as? [String: Any])
        let value = hover["value"] as? String ?? ""
        #expect(value.hasPrefix("**authLoading**: task state of `LaunchAuth`"), "\(value)")
        #expect(value.contains("timeout: after 10s to `error`"))
        #expect(value.contains("reached from: `unauthenticated`"), "\(value)")
    }

    /// Go to definition from each kind of place a name is written in the reference spec, to
    /// the state's key or the name's declaration, in the machine the cursor is in.
    @Test(arguments: [
        ("retry: { max: 3, then: error }", "error", "      error:"),
        ("entry: [showError]", "showError", "    effects: [showError]"),
        ("- within: { from: splash,", "splash", "      splash:"),
        ("- { to: onboarding, if: firstLaunch }", "firstLaunch", "    conditions: [firstLaunch]"),
        ("splashFailed: error", "error", "      error:"),
        ("          networkError:", "networkError", "      - networkError"),
        ("states: [handshake, packetRun,", "packetRun", "      packetRun:")
    ])
    func definitionFromEveryKindOfUse(use: String, name: String, declaration: String) throws {
        let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("specs/app.yaml"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let line = try #require(lines.firstIndex { $0.contains(use) })
        let character = try #require(lines[line].range(of: name)).lowerBound.utf16Offset(in: lines[line]) + 1
        // The declaration in the use's machine (machines are the keys indented by two).
        func isMachine(_ index: Int) -> Bool {
            lines[index].hasPrefix("  ") && !lines[index].hasPrefix("   ") && lines[index].hasSuffix(":")
        }
        let machine = try #require(lines.indices.last { $0 <= line && isMachine($0) })
        let end = lines.indices.first { $0 > machine && isMachine($0) } ?? lines.count
        let expected = try #require((machine..<end).first { lines[$0].hasPrefix(declaration) })
        let uri = "file:///w/app.flowspec.yaml"
        let position: [String: Any] = ["line": line, "character": character]
        let messages = try Self.session(
            opening: uri, text, [("textDocument/definition", ["textDocument": ["uri": uri], "position": position])])
        let location = Self.result(2, messages) as? [String: Any]
        let start = (location?["range"] as? [String: Any])?["start"] as? [String: Any]
        #expect(start?["line"] as? Int == expected, "\(lines[start?["line"] as? Int ?? 0])")
        let column = start?["character"] as? Int ?? -1
        let written = lines[expected].dropFirst(max(column, 0))
        #expect(column >= 0 && written.hasPrefix(name), "at \(column) of \(lines[expected])")
    }

    /// Completion in context, and the quick fix of a "did you mean" finding.
    @Test func completionAndQuickFixes() throws {
        let text = """
            flowspec: 1
            machines:
              Login:
                initial: signedOut
                defaults: { kind: input }
                conditions: [remembered]
                states:
                  signedOut: { on: { submit: signingIn } }
                  signingIn: { kind: task, on: { done: signedOt }, timeout: { after: 5s, to: signedOut } }
                  home:
                    kind: 

            """
        let uri = "file:///w/login.flowspec.yaml"
        let document: [String: Any] = ["uri": uri]
        var input = try Self.frame(Self.request(1, "initialize"))
        input += try Self.frame(
            Self.notification("textDocument/didOpen", ["textDocument": ["uri": uri, "version": 1, "text": text]]))
        input += try Self.frame(
            Self.request(
                2, "textDocument/completion",
                ["textDocument": document, "position": ["line": 10, "character": 14] as [String: Any]]))
        input += try Self.frame(
            Self.request(
                3, "textDocument/completion",
                ["textDocument": document, "position": ["line": 7, "character": 40] as [String: Any]]))
        input += try Self.frame(Self.request(9, "shutdown"))
        input += try Self.frame(Self.notification("exit"))
        var (_, messages, _) = try Self.serve(input)
        func labels(_ id: Int) -> [String] {
            (messages.first { $0["id"] as? Int == id }?["result"] as? [[String: Any]] ?? []).compactMap {
                $0["label"] as? String
            }
        }
        #expect(labels(2) == ["input", "task", "choice", "terminal"])
        #expect(Set(labels(3)).isSuperset(of: ["signedOut", "signingIn", "home"]))

        let finding = try #require(
            Self.diagnostics(messages, uri)?.first { ($0["code"] as? String) == "undefined-state" })
        input = try Self.frame(Self.request(1, "initialize"))
        input += try Self.frame(
            Self.notification("textDocument/didOpen", ["textDocument": ["uri": uri, "version": 1, "text": text]]))
        input += try Self.frame(
            Self.request(
                2, "textDocument/codeAction",
                [
                    "textDocument": document, "range": finding["range"] ?? [:],
                    "context": ["diagnostics": [finding]] as [String: Any]
                ]))
        input += try Self.frame(Self.request(9, "shutdown"))
        input += try Self.frame(Self.notification("exit"))
        (_, messages, _) = try Self.serve(input)
        let action = try #require((messages.first { $0["id"] as? Int == 2 }?["result"] as? [[String: Any]])?.first)
        #expect(action["title"] as? String == "Change to 'signedOut'")
        let edits = ((action["edit"] as? [String: Any])?["changes"] as? [String: Any])?[uri] as? [[String: Any]]
        #expect(edits?.first?["newText"] as? String == "signedOut")
    }

    /// Find references of an effect: its declaration and every use, a state's `entry` and a
    /// retry's `effects` among them (the reference spec, with the sign-in's fallback to the
    /// error screen running it too).
    @Test func referencesOfAnEffectIncludeARetrysEffects() throws {
        let reference = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("specs/app.yaml"), encoding: .utf8)
        let text = reference.replacingOccurrences(
            of: "retry: { max: 3, then: error }", with: "retry: { max: 3, then: error, effects: [showError] }")
        #expect(text != reference)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let declaration = try #require(lines.firstIndex { $0 == "    effects: [showError]" })
        let uri = "file:///w/app.flowspec.yaml"
        let at: [String: Any] = ["textDocument": ["uri": uri], "position": ["line": declaration, "character": 15]]
        let messages = try Self.session(opening: uri, text, [("textDocument/references", at)])
        let references = try #require(Self.result(2, messages) as? [[String: Any]])
        let referenced = references.compactMap {
            (($0["range"] as? [String: Any])?["start"] as? [String: Any])?["line"] as? Int
        }
        let written = lines.indices.filter { lines[$0].contains("showError") }
        let retry = try #require(lines.firstIndex { $0.contains("then: error, effects: [showError]") })
        let entry = try #require(lines.firstIndex { $0.contains("entry: [showError]") })
        #expect(referenced.sorted() == written, "every line that writes the effect, once")
        #expect(referenced.contains(retry) && referenced.contains(entry))
    }

    /// Find references and rename of a state across its machine, and the refusals.
    @Test func referencesAndRename() throws {
        let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("specs/app.yaml"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let declaration = try #require(lines.firstIndex { $0 == "      authLoading:" })
        let uri = "file:///w/app.flowspec.yaml"
        let at: [String: Any] = ["textDocument": ["uri": uri], "position": ["line": declaration, "character": 8]]
        var input = try Self.frame(Self.request(1, "initialize"))
        input += try Self.frame(
            Self.notification("textDocument/didOpen", ["textDocument": ["uri": uri, "version": 1, "text": text]]))
        input += try Self.frame(Self.request(2, "textDocument/references", at))
        input += try Self.frame(Self.request(3, "textDocument/rename", at.merging(["newName": "signingIn"]) { $1 }))
        input += try Self.frame(Self.request(4, "textDocument/rename", at.merging(["newName": "error"]) { $1 }))
        input += try Self.frame(Self.request(5, "textDocument/rename", at.merging(["newName": "1st"]) { $1 }))
        input += try Self.frame(Self.request(6, "textDocument/prepareRename", at))
        let keyword: [String: Any] = [
            "textDocument": ["uri": uri], "position": ["line": declaration + 1, "character": 9]
        ]
        input += try Self.frame(Self.request(7, "textDocument/prepareRename", keyword))
        input += try Self.frame(Self.request(8, "textDocument/documentHighlight", at))
        input += try Self.frame(Self.request(9, "shutdown"))
        input += try Self.frame(Self.notification("exit"))
        let (_, messages, _) = try Self.serve(input)
        func response(_ id: Int) -> [String: Any] { messages.first { $0["id"] as? Int == id } ?? [:] }

        let written = lines.indices.filter { lines[$0].contains("authLoading") }
        let references = try #require(response(2)["result"] as? [[String: Any]])
        let referenced = references.compactMap {
            (($0["range"] as? [String: Any])?["start"] as? [String: Any])?["line"] as? Int
        }
        #expect(Set(referenced) == Set(written), "every line that writes the state")

        let edits = try #require(
            ((response(3)["result"] as? [String: Any])?["changes"] as? [String: Any])?[uri] as? [[String: Any]])
        var renamed = lines
        for edit in edits.reversed() {
            let range = try #require(edit["range"] as? [String: Any])
            let start = try #require(range["start"] as? [String: Any])
            let end = try #require(range["end"] as? [String: Any])
            let line = try #require(start["line"] as? Int)
            var utf16 = Array(renamed[line].utf16)
            utf16.replaceSubrange(
                (start["character"] as? Int ?? 0)..<(end["character"] as? Int ?? 0), with: Array("signingIn".utf16))
            renamed[line] = String(decoding: utf16, as: UTF16.self)
        }
        #expect(!renamed.joined().contains("authLoading"))
        let directory = try CLI.temporaryDirectory(with: ["renamed.yaml": renamed.joined(separator: "\n")])
        #expect(try CLI.run(["check", "renamed.yaml"], in: directory).status == 0, "the renamed spec checks clean")

        #expect(
            (response(4)["error"] as? [String: Any])?["message"] as? String
                == "machine 'LaunchAuth' already has a name 'error'")
        let invalid = (response(5)["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(invalid.hasPrefix("'1st' cannot be a state name"), "\(invalid)")

        // prepareRename: the state's name and its range; nothing to rename on a key.
        let prepared = try #require(response(6)["result"] as? [String: Any])
        #expect(prepared["placeholder"] as? String == "authLoading")
        let range = prepared["range"] as? [String: Any]
        #expect((range?["start"] as? [String: Any])?["character"] as? Int == 6)
        #expect((range?["end"] as? [String: Any])?["character"] as? Int == 17)
        #expect(lines[declaration + 1] == "        on:" && response(7)["result"] is NSNull)

        // Highlights: the same places, the state's key as written and every use as read.
        let highlights = try #require(response(8)["result"] as? [[String: Any]])
        #expect(highlights.count == references.count)
        let declared = highlights.filter { $0["kind"] as? Int == 3 }.compactMap {
            (($0["range"] as? [String: Any])?["start"] as? [String: Any])?["line"] as? Int
        }
        #expect(declared == [declaration])
        #expect(highlights.allSatisfy { $0["kind"] as? Int == 3 || $0["kind"] as? Int == 2 })
    }

    /// Hover on a finding gives its rule, severity and the rule's summary with the message.
    @Test func hoverOnAFindingNamesItsRule() throws {
        let uri = "file:///w/spec.flowspec.yaml"
        let lines = Self.broken.split(separator: "\n", omittingEmptySubsequences: false)
        let task = try #require(lines.firstIndex { $0.contains("signingIn: { kind: task") })
        let position: [String: Any] = ["line": task, "character": 8]
        let messages = try Self.session(
            opening: uri, Self.broken, [("textDocument/hover", ["textDocument": ["uri": uri], "position": position])])
        let hover = Self.result(2, messages) as? [String: Any]
        let value = (hover?["contents"] as? [String: Any])?["value"] as? String ?? ""
        #expect(value.hasPrefix("**missing-timeout** (error): A task state with no timeout."), "\(value)")
        #expect(value.contains("---\n\n**signingIn**: task state of `Login`"), "the state's hover follows: \(value)")
    }

    /// Hover on a state that waits names where its `always` branches leave to, and when; a
    /// compound state's likewise.
    @Test func hoverOnAStateNamesItsAlwaysBranches() throws {
        let uri = "file:///w/spec.flowspec.yaml"
        let text = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("Tests/Fixtures/gen/golden/eventless.yaml"),
            encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let connected = try #require(lines.firstIndex { $0.contains("connected: { kind: input") })
        let signIn = try #require(lines.firstIndex { $0.hasSuffix("      signIn:") })
        let messages = try Self.session(
            opening: uri, text,
            [
                (
                    "textDocument/hover",
                    ["textDocument": ["uri": uri], "position": ["line": connected, "character": 16]]
                ),
                ("textDocument/hover", ["textDocument": ["uri": uri], "position": ["line": signIn, "character": 8]])
            ])
        func value(_ id: Int) -> String {
            ((Self.result(id, messages) as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String ?? ""
        }
        #expect(value(2).contains("\n\nleaves at once while: not `online` → `offline`"), "\(value(2))")
        #expect(value(3).contains("\n\nleaves at once while: `sessionValid` → `home`"), "\(value(3))")
    }

    /// Hover on a compound, parallel or running state names where its `done` leads, candidate
    /// by candidate, with their conditions and effects; and the references of a condition
    /// and of a state include their uses in `done`.
    @Test func hoverOnAStateNamesItsDoneCandidates() throws {
        let uri = "file:///w/spec.flowspec.yaml"
        let text = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent("Tests/Fixtures/gen/golden/done.yaml"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        func line(_ suffix: String) throws -> Int { try #require(lines.firstIndex { $0.hasSuffix(suffix) }) }
        let ordering = try line("      ordering:")
        let syncing = try line("      syncing:")
        let paying = try line("      paying:")
        let conditions = try line("conditions: [vip, retryAllowed]")
        func at(_ line: Int, _ character: Int) -> [String: Any] {
            ["textDocument": ["uri": uri], "position": ["line": line, "character": character]]
        }
        var references = at(conditions, 18)
        references["context"] = ["includeDeclaration": true]
        let messages = try Self.session(
            opening: uri, text,
            [
                ("textDocument/hover", at(ordering, 8)), ("textDocument/hover", at(syncing, 8)),
                ("textDocument/hover", at(paying, 8)), ("textDocument/references", references)
            ])
        func value(_ id: Int) -> String {
            ((Self.result(id, messages) as? [String: Any])?["contents"] as? [String: Any])?["value"] as? String ?? ""
        }
        #expect(
            value(2).contains(
                "once done, goes to `syncing` if `vip`, running `celebrate`; else `paying`, running `thank`"),
            "\(value(2))")
        #expect(
            value(3).contains(
                "once every region has ended, goes to `gold` unless `retryAllowed`, running `logSynced`; else `paying`"),
            "\(value(3))")
        #expect(
            value(4).contains(
                "once it ends: `paid` → `gold` if `vip`; else `plain`, `cancelled` → `basket` if `retryAllowed`, running `showRetry`; else `plain`"
            ), "\(value(4))")
        let found = try #require(Self.result(5, messages) as? [[String: Any]])
        let foundLines = Set(
            found.compactMap { (($0["range"] as? [String: Any])?["start"] as? [String: Any])?["line"] as? Int })
        #expect(foundLines == [conditions, ordering + 1, paying + 3], "the declaration and uses in `done`: \(found)")
    }

    /// Hover on a state names the events it handles without leaving (transitions without `to`).
    @Test func hoverOnAStateNamesWhatItHandlesInPlace() throws {
        let uri = "file:///w/spec.flowspec.yaml"
        let text = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent(
                "Tests/Fixtures/rules/invalid-value/clean-transitions-without-to.yaml"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let state = try #require(lines.firstIndex { $0.hasSuffix("      entering:") })
        let position: [String: Any] = ["line": state, "character": 8]
        let messages = try Self.session(
            opening: uri, text, [("textDocument/hover", ["textDocument": ["uri": uri], "position": position])])
        let hover = Self.result(2, messages) as? [String: Any]
        let value = (hover?["contents"] as? [String: Any])?["value"] as? String ?? ""
        #expect(value.hasPrefix("**entering**: input state of `Code`"), "\(value)")
        #expect(value.contains("\n\nstays on: `resend`, `submit`, `quit` (runs effects, leaves nothing)"), "\(value)")
    }

    /// Hover on a failed requirement shows its counterexample, as a trace to replay.
    @Test func hoverOnAFailedRequirementShowsTheRunThatBreaksIt() throws {
        let uri = "file:///w/spec.flowspec.yaml"
        let text = try String(
            contentsOf: CLI.packageRoot.appendingPathComponent(
                "Tests/Fixtures/rules/requirement-failed/found-leads-to-a-polling-loop.yaml"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let requirement = try #require(lines.firstIndex { $0.contains("- leadsTo: { from: checking, to: synced }") })
        let position: [String: Any] = ["line": requirement, "character": 10]
        let messages = try Self.session(
            opening: uri, text, [("textDocument/hover", ["textDocument": ["uri": uri], "position": position])])
        let hover = Self.result(2, messages) as? [String: Any]
        let value = (hover?["contents"] as? [String: Any])?["value"] as? String ?? ""
        #expect(
            value == """
                **requirement-failed** (error): A `require` entry does not hold.

                requirement failed: a run enters 'checking' and never reaches 'synced', though it does not wait on the user

                a run that never gets there (a shortest way to where it stops or loops), a trace `flowspec simulate --replay` accepts:

                ```
                start -> checking | effects: - | timeout: 10000ms -> failed
                giveUp -> gaveUp | effects: - | timeout: -
                ```

                then the flow stops in 'gaveUp': nothing more can happen
                """, "\(value)")
    }

    /// A request the client cancels before it is answered gets `RequestCancelled`; the others
    /// are answered, and a cancel of an unknown request is ignored.
    @Test func aCancelledRequestIsNotAnswered() throws {
        let uri = "file:///w/app.flowspec.yaml"
        let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("specs/app.yaml"), encoding: .utf8)
        let document: [String: Any] = ["textDocument": ["uri": uri]]
        var input = try Self.frame(Self.request(1, "initialize"))
        input += try Self.frame(
            Self.notification("textDocument/didOpen", ["textDocument": ["uri": uri, "version": 1, "text": text]]))
        input += try Self.frame(Self.request(2, "textDocument/documentSymbol", document))
        input += try Self.frame(Self.notification("$/cancelRequest", ["id": 2]))
        input += try Self.frame(Self.request(3, "textDocument/documentSymbol", document))
        input += try Self.frame(Self.notification("$/cancelRequest", ["id": 99]))
        input += try Self.frame(Self.request(4, "shutdown"))
        input += try Self.frame(Self.notification("exit"))
        let (status, messages, stderr) = try Self.serve(input)
        #expect(status == 0, "\(stderr)")
        let responses = messages.filter { $0["id"] != nil }
        #expect(responses.compactMap { $0["id"] as? Int } == [1, 2, 3, 4])
        #expect((responses[1]["error"] as? [String: Any])?["code"] as? Int == -32800)
        #expect((responses[2]["result"] as? [[String: Any]])?.count == 4)
    }

    @Test func badClientsEndTheServerCleanly() throws {
        // Garbage instead of a header, a message over the size limit, and a closed pipe.
        for input in [
            Data("hello there\r\n\r\n{}".utf8), Data("Content-Length: 999999999999\r\n\r\n{".utf8),
            try Self.frame(Self.request(1, "initialize"))
        ] {
            let (status, _, stderr) = try Self.serve(input)
            #expect(status == 1, "\(stderr)")
        }
        // A client that stops reading: the server's writes fail, and it ends when its input
        // does, with status 1 rather than by SIGPIPE.
        let process = Process()
        process.executableURL = Self.executable
        let toServer = Pipe()
        let fromServer = Pipe()
        process.standardInput = toServer
        process.standardOutput = fromServer
        process.standardError = FileHandle.nullDevice
        try process.run()
        try fromServer.fileHandleForReading.close()
        var requests = try Self.frame(Self.request(1, "initialize"))
        for id in 2..<50 { requests += try Self.frame(Self.request(id, "flowspec/ping")) }
        try toServer.fileHandleForWriting.write(contentsOf: requests)
        try toServer.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 1)

        // A request after `shutdown` is refused; `exit` still ends the server with 0.
        var late = try Self.frame(Self.request(1, "initialize"))
        late += try Self.frame(Self.request(2, "shutdown"))
        late += try Self.frame(Self.request(3, "textDocument/documentSymbol", ["textDocument": ["uri": "file:///a"]]))
        late += try Self.frame(Self.notification("exit"))
        let (lateStatus, lateMessages, _) = try Self.serve(late)
        #expect(lateStatus == 0)
        #expect((Self.response(3, lateMessages)?["error"] as? [String: Any])?["code"] as? Int == -32600)
        // A request before `initialize`, and a body that is not JSON.
        var input = try Self.frame(Self.request(1, "shutdown"))
        input += Data("Content-Length: 5\r\n\r\nnope!".utf8)
        let (_, messages, _) = try Self.serve(input)
        #expect((messages.first?["error"] as? [String: Any])?["code"] as? Int == -32002)
        #expect((messages.last?["error"] as? [String: Any])?["code"] as? Int == -32700)
    }
}

/// The server on a machine whose states hold states (`Tests/Fixtures/lsp/nested.yaml`): the
/// outline is a tree, and a state's name is found, listed, renamed and highlighted wherever it
/// is written, at any depth; so are the effects of `entry` and `exit`.
@Suite("flowspec-lsp nested states (process)")
struct NestedStatesServerTests {
    static let uri = "file:///w/nested.flowspec.yaml"
    static let text: String = {
        let url = CLI.packageRoot.appendingPathComponent("Tests/Fixtures/lsp/nested.yaml")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()
    static let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)

    /// The position inside `name` on the first of `lines` that contains `use`.
    static func position(of name: String, in use: String, lines: [String] = lines) throws -> [String: Any] {
        let line = try #require(lines.firstIndex { $0.contains(use) }, "no line has \(use)")
        let start = try #require(lines[line].range(of: name), "\(name) is not in \(use)")
        return ["line": line, "character": start.lowerBound.utf16Offset(in: lines[line]) + 1]
    }

    /// The `lines` that write `name` as a whole word, a line once for each time it does.
    static func linesWriting(_ name: String, lines: [String] = lines) throws -> [Int] {
        let word = try Regex("\\b\(name)\\b")
        return lines.indices.flatMap { Array(repeating: $0, count: lines[$0].matches(of: word).count) }
    }

    static func request(_ method: String, _ position: [String: Any], _ extra: [String: Any] = [:]) -> (
        String, [String: Any]
    ) {
        (method, ["textDocument": ["uri": uri], "position": position].merging(extra) { $1 })
    }

    static func start(_ range: Any?, _ end: String = "start") -> (line: Int, character: Int) {
        let point = (range as? [String: Any])?[end] as? [String: Any]
        return (point?["line"] as? Int ?? -1, point?["character"] as? Int ?? -1)
    }

    @Test func theOutlineIsATree() throws {
        #expect(!Self.text.isEmpty)
        let messages = try LanguageServerTests.session(
            opening: Self.uri, Self.text, [("textDocument/documentSymbol", ["textDocument": ["uri": Self.uri]])])
        let machines = try #require(LanguageServerTests.result(2, messages) as? [[String: Any]])
        func names(_ symbol: [String: Any]) -> [String] {
            (symbol["children"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        }
        func child(_ symbol: [String: Any], _ name: String) throws -> [String: Any] {
            try #require((symbol["children"] as? [[String: Any]])?.first { $0["name"] as? String == name })
        }
        #expect(machines.map { $0["name"] as? String } == ["Auth"])
        let auth = machines[0]
        #expect(names(auth) == ["welcome", "signIn", "signedIn"])
        let signIn = try child(auth, "signIn")
        #expect(names(signIn) == ["credentials", "verifying", "code", "finished"])
        let code = try child(signIn, "code")
        #expect(names(code) == ["entering", "sending"])
        #expect(signIn["detail"] as? String == "compound" && code["detail"] as? String == "compound")
        let entering = try child(code, "entering")
        #expect(entering["detail"] as? String == "input" && entering["children"] == nil)
        #expect(try child(code, "sending")["detail"] as? String == "task")

        // A compound state is selected at its name, and its range runs to the end of its body.
        for (state, key, last) in [
            (signIn, "      signIn:", "          finished: { kind: terminal }"),
            (code, "          code:", "              sending: { kind: task,")
        ] {
            let line = try #require(Self.lines.firstIndex(of: key))
            let end = try #require(Self.lines.firstIndex { $0.hasPrefix(last) })
            #expect(Self.start(state["selectionRange"]) == (line, key.count - key.drop { $0 == " " }.count))
            #expect(Self.start(state["range"]) == Self.start(state["selectionRange"]))
            #expect(Self.start(state["range"], "end") == (end, Self.lines[end].utf16.count))
        }
    }

    /// Go to definition from each kind of place a nested state, or an effect of `entry` or
    /// `exit`, is written: to the state's key, at its depth, or the effect's declaration.
    @Test(arguments: [
        ("initial: credentials", "credentials", "          credentials:"),
        ("done: signedIn", "signedIn", "      signedIn:"),
        ("initial: entering", "entering", "              entering:"),
        ("then: credentials", "credentials", "          credentials:"),
        ("timeout: { after: 10s, to: credentials }", "credentials", "          credentials:"),
        ("resend: { to: sending", "sending", "              sending:"),
        ("resume: { sending: entering }", "entering", "              entering:"),
        ("signInSteps: { states: [credentials, entering", "entering", "              entering:"),
        ("- reachable: [signedIn, entering]", "entering", "              entering:"),
        ("needsCode: code", "code", "          code:"),
        ("exit: [clearPassword]", "clearPassword", "    effects: [trackSignInStarted, clearPassword"),
        ("entry: [trackSignInStarted]", "trackSignInStarted", "    effects: [trackSignInStarted")
    ])
    func definitionAtAnyDepth(use: String, name: String, declaration: String) throws {
        let messages = try LanguageServerTests.session(
            opening: Self.uri, Self.text,
            [Self.request("textDocument/definition", try Self.position(of: name, in: use))])
        let location = try #require(LanguageServerTests.result(2, messages) as? [String: Any])
        let (line, character) = Self.start(location["range"])
        let expected = try #require(Self.lines.firstIndex { $0.hasPrefix(declaration) })
        #expect(line == expected, "\(Self.lines[max(line, 0)])")
        #expect(Self.lines[expected].utf16.dropFirst(max(character, 0)).starts(with: name.utf16))
    }

    /// References, highlights and rename of a state inside a compound state inside another:
    /// its key, a target, the inner compound's `initial`, `persist` and a requirement.
    @Test(arguments: [("credentials", "login"), ("entering", "typingCode"), ("signedIn", "home")])
    func referencesHighlightsAndRename(name: String, newName: String) throws {
        let declaration = try #require(
            Self.lines.firstIndex { $0.hasSuffix(" \(name):") || $0.contains(" \(name): {") })
        let at = try Self.position(of: name, in: Self.lines[declaration])
        let messages = try LanguageServerTests.session(
            opening: Self.uri, Self.text,
            [
                Self.request("textDocument/references", at), Self.request("textDocument/documentHighlight", at),
                Self.request("textDocument/rename", at, ["newName": newName])
            ])
        let references = try #require(LanguageServerTests.result(2, messages) as? [[String: Any]])
        let written = try Self.linesWriting(name)
        #expect(references.map { Self.start($0["range"]).line }.sorted() == written, "every line that writes it, once")

        let highlights = try #require(LanguageServerTests.result(3, messages) as? [[String: Any]])
        #expect(highlights.count == references.count)
        #expect(highlights.filter { $0["kind"] as? Int == 3 }.map { Self.start($0["range"]).line } == [declaration])

        let changes = (LanguageServerTests.result(4, messages) as? [String: Any])?["changes"] as? [String: Any]
        let edits = try #require(changes?[Self.uri] as? [[String: Any]])
        #expect(edits.count == references.count)
        let renamed = CodeActionTests.applying(edits, to: Self.text)
        #expect(renamed.range(of: "\\b\(name)\\b", options: .regularExpression) == nil)
        let directory = try CLI.temporaryDirectory(with: ["renamed.yaml": renamed])
        let check = try CLI.run(["check", "renamed.yaml"], in: directory)
        #expect(check.status == 0, "the renamed spec checks clean: \(check.stdout)")
    }

    /// The effects written in `entry` and `exit` are uses of the declared effects: listed,
    /// and renamed with them.
    @Test func effectsOfEntryAndExitAreReferences() throws {
        let exit = try Self.position(of: "clearPassword", in: "exit: [clearPassword]")
        let entry = try Self.position(of: "trackSignInStarted", in: "entry: [trackSignInStarted]")
        let messages = try LanguageServerTests.session(
            opening: Self.uri, Self.text,
            [
                Self.request("textDocument/references", exit),
                Self.request("textDocument/rename", entry, ["newName": "trackSignIn"])
            ])
        let references = try #require(LanguageServerTests.result(2, messages) as? [[String: Any]])
        #expect(references.map { Self.start($0["range"]).line } == (try Self.linesWriting("clearPassword")))
        #expect(references.count == 2, "the declaration and the exit")
        let changes = (LanguageServerTests.result(3, messages) as? [String: Any])?["changes"] as? [String: Any]
        let edits = try #require(changes?[Self.uri] as? [[String: Any]])
        #expect(edits.map { Self.start($0["range"]).line } == (try Self.linesWriting("trackSignInStarted")))
        let renamed = CodeActionTests.applying(edits, to: Self.text)
        let directory = try CLI.temporaryDirectory(with: ["renamed.yaml": renamed])
        #expect(try CLI.run(["check", "renamed.yaml"], in: directory).status == 0, "\(renamed)")
    }

    /// Hover on a compound state says so, where it starts and where it goes once done; on a
    /// state inside, which state holds it.
    @Test func hoverTellsHowAStateNests() throws {
        let messages = try LanguageServerTests.session(
            opening: Self.uri, Self.text,
            [
                Self.request("textDocument/hover", try Self.position(of: "signIn", in: "      signIn:")),
                Self.request("textDocument/hover", try Self.position(of: "entering", in: "      entering:"))
            ])
        func value(_ id: Int) -> String {
            ((LanguageServerTests.result(id, messages) as? [String: Any])?["contents"] as? [String: Any])?["value"]
                as? String ?? ""
        }
        #expect(value(2).hasPrefix("**signIn**: compound state of `Auth`\n"), "\(value(2))")
        #expect(value(2).contains("enters `credentials` first; once done, goes to `signedIn`"), "\(value(2))")
        #expect(value(2).contains("timeout: after 5m to `welcome`"), "\(value(2))")
        #expect(value(3).hasPrefix("**entering**: input state of `Auth`, inside `code`\n"), "\(value(3))")
    }
}

/// The server on a machine with history states (`Tests/Fixtures/lsp/history.yaml`): the outline
/// tells a deep history state from a shallow one, and a state named by a history state's
/// `default`, or a history state named as a target, is found, listed and renamed there too.
@Suite("flowspec-lsp history states (process)")
struct HistoryStatesServerTests {
    static let uri = "file:///w/history.flowspec.yaml"
    static let text: String = {
        let url = CLI.packageRoot.appendingPathComponent("Tests/Fixtures/lsp/history.yaml")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()
    static let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)

    static func request(_ method: String, at name: String, in use: String, _ extra: [String: Any] = [:]) throws -> (
        String, [String: Any]
    ) {
        let position = try NestedStatesServerTests.position(of: name, in: use, lines: lines)
        return (method, ["textDocument": ["uri": uri], "position": position].merging(extra) { $1 })
    }

    @Test func theOutlineShowsHistoryStates() throws {
        #expect(!Self.text.isEmpty)
        let messages = try LanguageServerTests.session(
            opening: Self.uri, Self.text, [("textDocument/documentSymbol", ["textDocument": ["uri": Self.uri]])])
        let machines = try #require(LanguageServerTests.result(2, messages) as? [[String: Any]])
        let states = try #require(machines.first?["children"] as? [[String: Any]])
        let area = try #require(states.first { $0["name"] as? String == "area" })
        let inside = (area["children"] as? [[String: Any]] ?? []).map {
            "\($0["name"] as? String ?? "?") \($0["detail"] as? String ?? "?")"
        }
        #expect(inside == ["home input", "feed compound", "resume deep history", "top history"])
    }

    /// Hover on a history state says what it resumes, and where it leads before its compound
    /// state was ever left.
    @Test func hoverTellsWhatAHistoryStateResumes() throws {
        let messages = try LanguageServerTests.session(
            opening: Self.uri, Self.text,
            [
                try Self.request("textDocument/hover", at: "resume", in: "          resume:"),
                try Self.request("textDocument/hover", at: "top", in: "          top:")
            ])
        func value(_ id: Int) -> String {
            ((LanguageServerTests.result(id, messages) as? [String: Any])?["contents"] as? [String: Any])?["value"]
                as? String ?? ""
        }
        #expect(value(2).hasPrefix("**resume**: history state of `Reader`, inside `area`\n"), "\(value(2))")
        #expect(
            value(2).contains(
                "resumes the very state `area` was last left in; before `area` was ever left, `area`'s `initial`"),
            "\(value(2))")
        #expect(
            value(3).contains(
                "resumes the state directly inside `area` that held it; before `area` was ever left, `feed`"),
            "\(value(3))")
    }

    /// Go to definition from a history state's `default`, and from transitions that name a
    /// history state, to the state's key.
    @Test(arguments: [
        ("default: feed", "feed", "          feed:"),
        ("again: resume", "resume", "          resume:"),
        ("latest: top", "top", "          top:")
    ])
    func definitionOfADefaultAndOfAHistoryTarget(use: String, name: String, declaration: String) throws {
        let messages = try LanguageServerTests.session(
            opening: Self.uri, Self.text, [try Self.request("textDocument/definition", at: name, in: use)])
        let location = try #require(LanguageServerTests.result(2, messages) as? [String: Any])
        let (line, character) = NestedStatesServerTests.start(location["range"])
        let expected = try #require(Self.lines.firstIndex { $0.hasPrefix(declaration) })
        #expect(line == expected, "\(Self.lines[max(line, 0)])")
        #expect(Self.lines[expected].utf16.dropFirst(max(character, 0)).starts(with: name.utf16))
    }

    /// References and rename from a history state's `default`, and from a transition that names
    /// a history state: every place the name is written, the key among them, and the renamed
    /// spec still checks clean.
    @Test(arguments: [
        ("default: feed", "feed", "articles"), ("again: resume", "resume", "whereLeft"),
        ("latest: top", "top", "newest")
    ])
    func referencesAndRename(use: String, name: String, newName: String) throws {
        let messages = try LanguageServerTests.session(
            opening: Self.uri, Self.text,
            [
                try Self.request("textDocument/references", at: name, in: use),
                try Self.request("textDocument/rename", at: name, in: use, ["newName": newName])
            ])
        let references = try #require(LanguageServerTests.result(2, messages) as? [[String: Any]])
        let written = try NestedStatesServerTests.linesWriting(name, lines: Self.lines)
        #expect(written.count >= 2, "the key and a use")
        #expect(references.map { NestedStatesServerTests.start($0["range"]).line } == written)

        let changes = (LanguageServerTests.result(3, messages) as? [String: Any])?["changes"] as? [String: Any]
        let edits = try #require(changes?[Self.uri] as? [[String: Any]])
        #expect(edits.count == written.count)
        let renamed = CodeActionTests.applying(edits, to: Self.text)
        #expect(renamed.range(of: "\\b\(name)\\b", options: .regularExpression) == nil)
        let directory = try CLI.temporaryDirectory(with: ["renamed.yaml": renamed])
        let check = try CLI.run(["check", "renamed.yaml"], in: directory)
        #expect(check.status == 0 && check.stdout.isEmpty, "the renamed spec checks clean: \(check.stdout)")
    }
}

@Suite("flowspec-lsp parallel states (process)")
struct ParallelStatesServerTests {
    static let uri = "file:///w/parallel.flowspec.yaml"
    static let text =
        (try? String(
            contentsOf: CLI.packageRoot.appendingPathComponent("Tests/Fixtures/gen/golden/parallel.yaml"),
            encoding: .utf8)) ?? ""

    @Test func theOutlineShowsRegionsUnderTheirParallelState() throws {
        #expect(!Self.text.isEmpty)
        let messages = try LanguageServerTests.session(
            opening: Self.uri, Self.text, [("textDocument/documentSymbol", ["textDocument": ["uri": Self.uri]])])
        let machines = try #require(LanguageServerTests.result(2, messages) as? [[String: Any]])
        let states = try #require(machines.first?["children"] as? [[String: Any]])
        let signedIn = try #require(states.first { $0["name"] as? String == "signedIn" })
        #expect(signedIn["detail"] as? String == "parallel")
        let regions = try #require(signedIn["children"] as? [[String: Any]])
        #expect(regions.map { $0["name"] as? String } == ["navigation", "data", "connectivity"])
        #expect(regions.allSatisfy { $0["detail"] as? String == "compound" })
        let data = (regions[1]["children"] as? [[String: Any]] ?? []).map { $0["name"] as? String }
        #expect(data == ["syncing", "idle", "dataDone"])
    }

    @Test func hoverSaysWhatAParallelStateAndARegionEnter() throws {
        let lines = Self.text.components(separatedBy: "\n")
        func position(_ prefix: String) throws -> [String: Any] {
            let line = try #require(lines.firstIndex { $0.hasPrefix(prefix) })
            return ["line": line, "character": prefix.count - 2]
        }
        let messages = try LanguageServerTests.session(
            opening: Self.uri, Self.text,
            [
                (
                    "textDocument/hover",
                    ["textDocument": ["uri": Self.uri], "position": try position("      signedIn:")]
                ),
                ("textDocument/hover", ["textDocument": ["uri": Self.uri], "position": try position("          data:")])
            ])
        func value(_ id: Int) -> String {
            ((LanguageServerTests.result(id, messages) as? [String: Any])?["contents"] as? [String: Any])?["value"]
                as? String ?? ""
        }
        #expect(value(2).hasPrefix("**signedIn**: parallel state of `Workspace`"), "\(value(2))")
        #expect(
            value(2).contains(
                "enters every region at once: `navigation`, `data`, `connectivity`; once every region has ended, goes to `welcome`"
            ), "\(value(2))")
        #expect(value(3).hasPrefix("**data**: compound state of `Workspace`, a region of `signedIn`"), "\(value(3))")
        #expect(value(3).contains("enters `syncing` first"), "\(value(3))")
    }

    /// `MediaPlayer` is parallel at its top: its name names its parallel state, written at the
    /// machine's `parallel` key, where a target naming the machine leads.
    @Test func theNameOfAMachineParallelAtItsTopNamesItsParallelState() throws {
        let lines = Self.text.components(separatedBy: "\n")
        let use = try NestedStatesServerTests.position(of: "MediaPlayer", in: "to: MediaPlayer", lines: lines)
        let messages = try LanguageServerTests.session(
            opening: Self.uri, Self.text,
            [
                ("textDocument/definition", ["textDocument": ["uri": Self.uri], "position": use]),
                ("textDocument/hover", ["textDocument": ["uri": Self.uri], "position": use])
            ])
        let machineLine = try #require(lines.firstIndex(of: "  MediaPlayer:"))
        let parallelLine = try #require(lines[machineLine...].firstIndex(of: "    parallel:"))
        let definition = try #require(LanguageServerTests.result(2, messages) as? [String: Any])
        #expect(NestedStatesServerTests.start(definition["range"]) == (parallelLine, 4))
        let hover =
            ((LanguageServerTests.result(3, messages) as? [String: Any])?["contents"] as? [String: Any])?["value"]
            as? String ?? ""
        #expect(hover.hasPrefix("**MediaPlayer**: parallel state of `MediaPlayer`"), "\(hover)")
        #expect(hover.contains("enters every region at once: `playback`, `volume`"), "\(hover)")
    }
}

/// The server on a spec whose machine runs another (`Tests/Fixtures/lsp/subflows.yaml`): go
/// to definition from `run` to the machine run, hover on a running state says what it runs and
/// where each outcome leads, and a state reached only through a sub-flow says so.
@Suite("flowspec-lsp sub-flows (process)")
struct SubFlowServerTests {
    static let uri = "file:///w/subflows.flowspec.yaml"
    static let text: String = {
        let url = CLI.packageRoot.appendingPathComponent("Tests/Fixtures/lsp/subflows.yaml")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()
    static let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)

    static func request(_ method: String, at name: String, in use: String) throws -> (String, [String: Any]) {
        let position = try NestedStatesServerTests.position(of: name, in: use, lines: lines)
        return (method, ["textDocument": ["uri": uri], "position": position])
    }

    @Test func definitionHoverAndReferencesAcrossTheRun() throws {
        #expect(!Self.text.isEmpty)
        let messages = try LanguageServerTests.session(
            opening: Self.uri, Self.text,
            [
                try Self.request("textDocument/definition", at: "SignIn", in: "run: SignIn"),
                try Self.request("textDocument/hover", at: "signIn", in: "      signIn:"),
                try Self.request("textDocument/hover", at: "home", in: "      home:"),
                try Self.request("textDocument/references", at: "home", in: "      home:")
            ])
        let definition = try #require(LanguageServerTests.result(2, messages) as? [String: Any])
        let machineLine = try #require(Self.lines.firstIndex(of: "  SignIn:"))
        #expect(NestedStatesServerTests.start(definition["range"]) == (machineLine, 2))

        func value(_ id: Int) -> String {
            ((LanguageServerTests.result(id, messages) as? [String: Any])?["contents"] as? [String: Any])?["value"]
                as? String ?? ""
        }
        #expect(
            value(3).contains(
                "runs `SignIn` as a sub-flow; once it ends: `signedIn` → `home`, `cancelled` → `welcome`"),
            "\(value(3))")
        #expect(value(3).contains("reached from: `welcome`"), "\(value(3))")
        // `home` is reached from the copy of SignIn's outcome, in the machine as composed.
        #expect(value(4).contains("reached from: `signIn.signedIn`"), "\(value(4))")

        let references = try #require(LanguageServerTests.result(5, messages) as? [[String: Any]])
        let doneLine = try #require(Self.lines.firstIndex { $0.contains("done: { signedIn: home") })
        #expect(references.map { NestedStatesServerTests.start($0["range"]).line }.contains(doneLine))
    }

    /// From `run:` of a machine a file imports, definition goes to that machine in its file.
    @Test func definitionOfAnImportedMachineIsInItsFile() throws {
        let directory = CLI.packageRoot.appendingPathComponent("Tests/Fixtures/rules/invalid-import")
        let importer = directory.appendingPathComponent("clean-imports-sign-in.yaml")
        let text = try String(contentsOf: importer, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let position = try NestedStatesServerTests.position(of: "SignIn", in: "run: SignIn", lines: lines)
        let messages = try LanguageServerTests.session(
            opening: importer.absoluteString, text,
            [("textDocument/definition", ["textDocument": ["uri": importer.absoluteString], "position": position])])
        let definition = try #require(LanguageServerTests.result(2, messages) as? [String: Any])
        let imported = directory.appendingPathComponent("clean-sign-in.yaml")
        #expect(definition["uri"] as? String == imported.absoluteString)
        let theirs = try String(contentsOf: imported, encoding: .utf8).split(separator: "\n").map(String.init)
        let machineLine = try #require(theirs.firstIndex(of: "  SignIn:"))
        #expect(NestedStatesServerTests.start(definition["range"]) == (machineLine, 2))
    }

    /// After `run:`, completion offers the spec's other machines.
    @Test func completionAfterRunOffersTheOtherMachines() throws {
        let line = try #require(Self.lines.firstIndex { $0.contains("run: SignIn") })
        let character = try #require(Self.lines[line].range(of: "SignIn")).lowerBound.utf16Offset(in: Self.lines[line])
        let messages = try LanguageServerTests.session(
            opening: Self.uri, Self.text,
            [
                (
                    "textDocument/completion",
                    ["textDocument": ["uri": Self.uri], "position": ["line": line, "character": character + 1]]
                )
            ])
        let result = LanguageServerTests.result(2, messages)
        let items = (result as? [[String: Any]]) ?? ((result as? [String: Any])?["items"] as? [[String: Any]]) ?? []
        #expect(items.compactMap { $0["label"] as? String } == ["SignIn"])
        #expect(items.first?["detail"] as? String == "machine")
    }
}

/// Renaming a machine crosses files: from a `run:` in the file that imports it, or from its
/// key in the file that declares it, the edits rename the key and every `run:` of it in both
/// (`Tests/Fixtures/rules/invalid-import`, read from disk, never written).
@Suite("flowspec-lsp renaming a machine (process)")
struct MachineRenameServerTests {
    static let directory = CLI.packageRoot.appendingPathComponent("Tests/Fixtures/rules/invalid-import")
    static let importer = directory.appendingPathComponent("clean-imports-sign-in.yaml")
    static let declaring = directory.appendingPathComponent("clean-sign-in.yaml")

    static func lines(_ url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
    }

    /// A session that opens `files`, then asks `rename` (id 2).
    static func rename(opening files: [URL], at position: [String: Any], in file: URL, to newName: String) throws
        -> [String: Any]
    {
        var input = try LanguageServerTests.frame(LanguageServerTests.request(1, "initialize"))
        for url in files {
            let text = try String(contentsOf: url, encoding: .utf8)
            input += try LanguageServerTests.frame(
                LanguageServerTests.notification(
                    "textDocument/didOpen", ["textDocument": ["uri": url.absoluteString, "version": 1, "text": text]]))
        }
        let params: [String: Any] = [
            "textDocument": ["uri": file.absoluteString], "position": position, "newName": newName
        ]
        input += try LanguageServerTests.frame(LanguageServerTests.request(2, "textDocument/rename", params))
        input += try LanguageServerTests.frame(LanguageServerTests.request(3, "shutdown"))
        input += try LanguageServerTests.frame(LanguageServerTests.notification("exit"))
        let (status, messages, stderr) = try LanguageServerTests.serve(input)
        #expect(status == 0, "\(stderr)")
        return try #require(LanguageServerTests.response(2, messages))
    }

    /// The start of each edit of `file`, and its new text.
    static func edits(_ response: [String: Any], _ file: URL) -> [String] {
        let changes = (response["result"] as? [String: Any])?["changes"] as? [String: Any]
        let edits = changes?[file.absoluteString] as? [[String: Any]] ?? []
        return edits.map { edit in
            let start = NestedStatesServerTests.start(edit["range"])
            return "\(start.line):\(start.character) \(edit["newText"] as? String ?? "")"
        }
    }

    @Test func fromARunTheImportedFileIsEditedToo() throws {
        let position = try NestedStatesServerTests.position(
            of: "SignIn", in: "run: SignIn", lines: Self.lines(Self.importer))
        let response = try Self.rename(opening: [Self.importer], at: position, in: Self.importer, to: "Login")
        let key = try #require(try Self.lines(Self.declaring).firstIndex(of: "  SignIn:"))
        #expect(Self.edits(response, Self.declaring) == ["\(key):2 Login"], "\(response)")
        // `position` is inside the word: the edit starts where it does.
        let column = (position["character"] as? Int ?? 0) - 1
        #expect(Self.edits(response, Self.importer) == ["\(position["line"] ?? 0):\(column) Login"])
    }

    @Test func fromTheKeyTheOpenFilesThatImportItAreEditedToo() throws {
        let key = try #require(try Self.lines(Self.declaring).firstIndex(of: "  SignIn:"))
        let response = try Self.rename(
            opening: [Self.declaring, Self.importer], at: ["line": key, "character": 4], in: Self.declaring,
            to: "Login")
        let run = try NestedStatesServerTests.position(
            of: "SignIn", in: "run: SignIn", lines: Self.lines(Self.importer))
        #expect(Self.edits(response, Self.declaring) == ["\(key):2 Login"], "\(response)")
        let column = (run["character"] as? Int ?? 0) - 1
        #expect(Self.edits(response, Self.importer) == ["\(run["line"] ?? 0):\(column) Login"])
    }

    @Test func aNameAMachineHasAlreadyIsRefused() throws {
        let position = try NestedStatesServerTests.position(
            of: "SignIn", in: "run: SignIn", lines: Self.lines(Self.importer))
        let taken = try Self.rename(opening: [Self.importer], at: position, in: Self.importer, to: "App")
        #expect(taken["result"] == nil)
        let message = (taken["error"] as? [String: Any])?["message"] as? String
        #expect(message == "'App' is already the name of a machine 'clean-imports-sign-in.yaml' has or imports")
        let invalid = try Self.rename(opening: [Self.importer], at: position, in: Self.importer, to: "Sign In!")
        let problem = (invalid["error"] as? [String: Any])?["message"] as? String
        #expect(problem?.hasPrefix("'Sign In!' cannot be a machine name") == true, "\(invalid)")
    }
}

/// The language server on activities (`Tests/Fixtures/gen/golden/activities.yaml`): from a
/// state's `activities` to the declaration, hover on both, every place an activity is written,
/// and completion of a state's `activities` and of an activity's `sends`.
@Suite("flowspec-lsp on activities (process)")
struct ActivityServerTests {
    static let uri = "file:///w/activities.flowspec.yaml"
    static let text: String = {
        let url = CLI.packageRoot.appendingPathComponent("Tests/Fixtures/gen/golden/activities.yaml")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()
    static let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)

    static func request(_ method: String, at name: String, in use: String) throws -> (String, [String: Any]) {
        let position = try NestedStatesServerTests.position(of: name, in: use, lines: lines)
        return (method, ["textDocument": ["uri": uri], "position": position])
    }

    @Test func definitionHoverAndReferences() throws {
        #expect(!Self.text.isEmpty)
        let messages = try LanguageServerTests.session(
            opening: Self.uri, Self.text,
            [
                try Self.request("textDocument/definition", at: "watchSession", in: "activities: [watchSession]"),
                try Self.request("textDocument/hover", at: "watchSession", in: "      watchSession: {"),
                try Self.request("textDocument/hover", at: "signedIn", in: "      signedIn:"),
                try Self.request("textDocument/references", at: "watchSession", in: "      watchSession: {"),
                {
                    var (method, params) = try Self.request(
                        "textDocument/rename", at: "watchSession", in: "activities: [watchSession]")
                    params["newName"] = "followSession"
                    return (method, params)
                }()
            ])
        let declaration = try #require(Self.lines.firstIndex { $0.hasPrefix("      watchSession: {") })
        let definition = try #require(LanguageServerTests.result(2, messages) as? [String: Any])
        #expect(NestedStatesServerTests.start(definition["range"]) == (declaration, 6))

        func value(_ id: Int) -> String {
            ((LanguageServerTests.result(id, messages) as? [String: Any])?["contents"] as? [String: Any])?["value"]
                as? String ?? ""
        }
        #expect(value(3).contains("**watchSession**: activity of `Account`"), "\(value(3))")
        #expect(value(3).contains("sends: `sessionExpired`, `tokenRefreshed`"), "\(value(3))")
        #expect(value(3).contains("runs in: `signedIn`"), "\(value(3))")
        #expect(value(4).contains("runs activities: `watchSession`"), "\(value(4))")

        let references = try #require(LanguageServerTests.result(5, messages) as? [[String: Any]])
        let use = try #require(Self.lines.firstIndex { $0.contains("activities: [watchSession]") })
        #expect(references.map { NestedStatesServerTests.start($0["range"]).line } == [declaration, use])

        // Rename edits the declaration and the state's list, nothing else.
        let rename = try #require(LanguageServerTests.result(6, messages) as? [String: Any])
        let edits = try #require((rename["changes"] as? [String: Any])?[Self.uri] as? [[String: Any]])
        #expect(edits.map { NestedStatesServerTests.start($0["range"]).line }.sorted() == [declaration, use])
        #expect(edits.allSatisfy { $0["newText"] as? String == "followSession" })
    }

    /// Completion after `activities: [` in a state offers the machine's activities; in an
    /// activity's `sends`, its events.
    @Test func completionOffersActivitiesAndEvents() throws {
        func at(_ text: String, after prefix: String) throws -> [String: Any] {
            let line = try #require(Self.lines.firstIndex { $0.contains(text) })
            let character = try #require(Self.lines[line].range(of: prefix)).upperBound.utf16Offset(
                in: Self.lines[line])
            return ["textDocument": ["uri": Self.uri], "position": ["line": line, "character": character]]
        }
        let messages = try LanguageServerTests.session(
            opening: Self.uri, Self.text,
            [
                ("textDocument/completion", try at("activities: [watchSession]", after: "activities: [")),
                ("textDocument/completion", try at("poll: { sends: polled }", after: "sends: "))
            ])
        func labels(_ id: Int) -> [String] {
            let result = LanguageServerTests.result(id, messages)
            let items = (result as? [[String: Any]]) ?? ((result as? [String: Any])?["items"] as? [[String: Any]]) ?? []
            return items.compactMap { $0["label"] as? String }
        }
        #expect(labels(2) == ["watchSession", "poll"])
        #expect(labels(3) == ["signIn", "signOut", "sessionExpired", "tokenRefreshed", "polled", "open", "back"])
    }
}

/// The events, conditions and effects a property names are uses of them: listed with the
/// others, and renamed with them, so that a renamed spec still checks clean.
@Suite("flowspec-lsp names in properties (process)")
struct PropertyNamesServerTests {
    static let uri = "file:///w/properties.flowspec.yaml"
    static let text = """
        flowspec: 1
        machines:
          Login:
            initial: form
            conditions: [expired]
            events: [submit, ok, networkError, back, reset]
            effects: [saveOrder]
            on:
              reset: form
            states:
              form: { kind: input, on: { submit: sending } }
              sending:
                kind: task
                timeout: { after: 10s, to: error }
                on:
                  ok: { to: home, effects: [saveOrder], unless: expired }
                  networkError: { to: sending, retry: { max: 3, then: error } }
              error: { kind: input, on: { back: form } }
              home: { kind: terminal }
            require:
              - never: { in: home, while: expired }
              - before: { effect: saveOrder, then: home }
              - atMost: { times: 3, of: networkError, before: error }
              - whenever: { event: reset, to: form }

        """
    static let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)

    @Test(arguments: [
        ("expired", "sessionExpired", "conditions: [expired]"), ("saveOrder", "persistOrder", "effects: [saveOrder]"),
        ("networkError", "offline", "events: [submit"), ("reset", "startOver", "events: [submit")
    ])
    func aNameAPropertyUsesIsRenamedThere(name: String, newName: String, declaration: String) throws {
        let at = try NestedStatesServerTests.position(of: name, in: declaration, lines: Self.lines)
        let messages = try LanguageServerTests.session(
            opening: Self.uri, Self.text,
            [
                ("textDocument/references", ["textDocument": ["uri": Self.uri], "position": at]),
                ("textDocument/rename", ["textDocument": ["uri": Self.uri], "position": at, "newName": newName])
            ])
        let references = try #require(LanguageServerTests.result(2, messages) as? [[String: Any]])
        let property = try #require(Self.lines.lastIndex { $0.contains(name) && $0.contains("- ") })
        #expect(references.contains { NestedStatesServerTests.start($0["range"]).line == property }, "\(references)")
        let changes = (LanguageServerTests.result(3, messages) as? [String: Any])?["changes"] as? [String: Any]
        let edits = try #require(changes?[Self.uri] as? [[String: Any]])
        let renamed = CodeActionTests.applying(edits, to: Self.text)
        #expect(renamed.range(of: "\\b\(name)\\b", options: .regularExpression) == nil, "\(renamed)")
        let directory = try CLI.temporaryDirectory(with: ["renamed.yaml": renamed])
        let check = try CLI.run(["check", "renamed.yaml"], in: directory)
        #expect(check.status == 0, "the renamed spec checks clean: \(check.stdout)")
    }
}

/// Effects on the way in (an `initial` or a history's `default` written as a mapping) in the
/// server: they are uses of the effects, listed and renamed with them, and in the mapping the
/// keys it takes are offered.
@Suite("flowspec-lsp effects on the way in (process)")
struct WayInServerTests {
    static let uri = "file:///w/way-in.flowspec.yaml"
    static let text = """
        flowspec: 1
        machines:
          Code:
            initial: verifying
            effects: [startAttempt, restored]
            states:
              verifying:
                initial: { to: sending, effects: [startAttempt] }
                on: { cancel: idle }
                states:
                  sending: { kind: input, on: { sent: typing } }
                  typing:
                    initial:
                      to: empty
                    states:
                      empty: { kind: input }
                  last: { kind: history, default: { to: typing, effects: [restored] } }
              idle: { kind: input, on: { retry: verifying, resume: last, again: verifying } }

        """
    static let lines = text.components(separatedBy: "\n")

    @Test func theyAreReferencesRenamedWithTheEffect() throws {
        let use = try NestedStatesServerTests.position(of: "startAttempt", in: "to: sending", lines: Self.lines)
        let history = try NestedStatesServerTests.position(of: "restored", in: "to: typing", lines: Self.lines)
        let messages = try LanguageServerTests.session(
            opening: Self.uri, Self.text,
            [
                ("textDocument/references", ["textDocument": ["uri": Self.uri], "position": use]),
                (
                    "textDocument/rename",
                    ["textDocument": ["uri": Self.uri], "position": history, "newName": "cameBack"]
                )
            ])
        let references = try #require(LanguageServerTests.result(2, messages) as? [[String: Any]])
        #expect(
            references.map { NestedStatesServerTests.start($0["range"]).line }
                == (try NestedStatesServerTests.linesWriting("startAttempt", lines: Self.lines)))
        let changes = (LanguageServerTests.result(3, messages) as? [String: Any])?["changes"] as? [String: Any]
        let edits = try #require(changes?[Self.uri] as? [[String: Any]])
        #expect(
            edits.map { NestedStatesServerTests.start($0["range"]).line }
                == (try NestedStatesServerTests.linesWriting("restored", lines: Self.lines)))
    }

    @Test func hoverSaysWhatTheWayInRuns() throws {
        func position(_ prefix: String) throws -> [String: Any] {
            let line = try #require(Self.lines.firstIndex { $0.hasPrefix(prefix) })
            return ["textDocument": ["uri": Self.uri], "position": ["line": line, "character": prefix.count - 2]]
        }
        let messages = try LanguageServerTests.session(
            opening: Self.uri, Self.text,
            [
                ("textDocument/hover", try position("      verifying:")),
                ("textDocument/hover", try position("          last:"))
            ])
        func value(_ id: Int) -> String {
            ((LanguageServerTests.result(id, messages) as? [String: Any])?["contents"] as? [String: Any])?["value"]
                as? String ?? ""
        }
        #expect(value(2).contains("enters `sending` first, running `startAttempt`"), "\(value(2))")
        #expect(value(3).contains("before `verifying` was ever left, `typing`, running `restored`"), "\(value(3))")
    }

    @Test func aWayInWrittenAsAMappingOffersItsKeys() throws {
        let typing = Self.text.replacingOccurrences(of: "to: empty\n", with: "to: empty\n              eff\n")
        let lines = typing.components(separatedBy: "\n")
        let line = try #require(lines.firstIndex { $0.hasSuffix("          eff") })
        let messages = try LanguageServerTests.session(
            opening: Self.uri, typing,
            [
                (
                    "textDocument/completion",
                    ["textDocument": ["uri": Self.uri], "position": ["line": line, "character": lines[line].count]]
                )
            ])
        let result = LanguageServerTests.result(2, messages)
        let items = (result as? [[String: Any]]) ?? ((result as? [String: Any])?["items"] as? [[String: Any]]) ?? []
        #expect(items.compactMap { $0["label"] as? String } == ["to", "effects"])
    }
}

/// A state a guard reads (`in:`, `notIn:`) in the editor (`Tests/Fixtures/gen/golden/instate.yaml`):
/// completion after `in:` offers the machine's states, and references of a state list where a
/// guard reads it.
@Suite("flowspec-lsp guards on where the flow is (process)")
struct InStateServerTests {
    static let uri = "file:///w/instate.flowspec.yaml"
    static var text: String {
        get throws {
            try String(
                contentsOf: CLI.packageRoot.appendingPathComponent("Tests/Fixtures/gen/golden/instate.yaml"),
                encoding: .utf8)
        }
    }

    @Test func completionAfterInOffersTheStates() throws {
        let typing = try Self.text.replacingOccurrences(of: "notIn: ready }", with: "notIn:  }")
        let lines = typing.components(separatedBy: "\n")
        let line = try #require(lines.firstIndex { $0.contains("notIn:  }") })
        let character = try #require(lines[line].range(of: "notIn: ")).upperBound.utf16Offset(in: lines[line])
        let messages = try LanguageServerTests.session(
            opening: Self.uri, typing,
            [
                (
                    "textDocument/completion",
                    ["textDocument": ["uri": Self.uri], "position": ["line": line, "character": character]]
                )
            ])
        let result = LanguageServerTests.result(2, messages)
        let items = (result as? [[String: Any]]) ?? ((result as? [String: Any])?["items"] as? [[String: Any]]) ?? []
        let labels = items.compactMap { $0["label"] as? String }
        #expect(labels.contains("ready") && labels.contains("editing") && labels.contains("cancelled"), "\(labels)")
        #expect(!labels.contains("pick"), "no events after `notIn:`")
    }

    @Test func referencesOfAStateIncludeTheGuardsThatReadIt() throws {
        let text = try Self.text
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let declaration = try #require(lines.firstIndex { $0.hasPrefix("              ready: ") })
        let at: [String: Any] = ["textDocument": ["uri": Self.uri], "position": ["line": declaration, "character": 16]]
        let messages = try LanguageServerTests.session(opening: Self.uri, text, [("textDocument/references", at)])
        let references = try #require(LanguageServerTests.result(2, messages) as? [[String: Any]])
        let referenced = references.compactMap {
            (($0["range"] as? [String: Any])?["start"] as? [String: Any])?["line"] as? Int
        }
        let reads = lines.indices.filter { lines[$0].contains("in: ready") || lines[$0].contains("notIn: ready") }
        #expect(reads.count == 2)
        #expect(Set(reads).isSubset(of: Set(referenced)), "\(referenced)")
    }
}
