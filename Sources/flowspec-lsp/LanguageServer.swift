import FlowSpecCore
import Foundation

/// The server's state and its answers to the client: the lifecycle (`initialize`, `shutdown`,
/// `exit`), the documents the client opened, and `check`'s findings for each, published after
/// every change.
struct LanguageServer {
    let output: MessageWriter
    private var initialized = false
    private var shuttingDown = false
    private var documents: [String: Document] = [:]
    /// Documents changed since their findings were last published.
    private var stale: Set<String> = []

    init(output: MessageWriter) {
        self.output = output
    }

    /// Serves until `exit` or the end of the input; returns the exit status: 0 after `shutdown`
    /// then `exit`, 1 otherwise.
    mutating func run(reading inbox: Inbox) -> Int32 {
        while true {
            switch inbox.next() {
            case .end(let failure):
                if case .endOfInput = failure { return shuttingDown ? 0 : 1 }
                FileHandle.standardError.write(Data("flowspec-lsp: \(failure); stopping\n".utf8))
                return 1
            case .notJSON:
                output.send(Self.error(id: NSNull(), code: -32700, "the message is not a JSON object"))
            case .message(let message):
                let request = message["method"] != nil ? message["id"] : nil
                if let request, inbox.isCancelled(request) {
                    output.send(Self.error(id: request, code: -32800, "the request was cancelled"))
                } else if let status = handle(message) {
                    return status
                }
                if let request { inbox.answered(request) }
            }
            // Findings wait while more messages are already read: edits made during a check are
            // checked together, once.
            if inbox.isEmpty { publishStale() }
        }
    }

    /// Handles one message; returns an exit status when the server must stop.
    private mutating func handle(_ message: [String: Any]) -> Int32? {
        let method = message["method"] as? String
        let id = message["id"]
        let params = message["params"] as? [String: Any] ?? [:]
        guard let method else {
            // A response from the client (the server sends no requests): nothing to do.
            return nil
        }
        if method == "exit" { return shuttingDown ? 0 : 1 }
        if shuttingDown {
            // After `shutdown` only `exit` is expected: requests are refused, notifications dropped.
            if let id { output.send(Self.error(id: id, code: -32600, "the server is shutting down; send 'exit'")) }
            return nil
        }
        // A request is answered for the documents as they are now: their findings go first.
        if id != nil { publishStale() }
        guard initialized || method == "initialize" else {
            if let id { output.send(Self.error(id: id, code: -32002, "the server is not initialized")) }
            return nil
        }
        switch method {
        case "initialize":
            initialized = true
            output.send(Self.result(id: id, Self.capabilities))
        case "initialized", "$/cancelRequest", "$/setTrace", "workspace/didChangeConfiguration":
            break
        case "shutdown":
            shuttingDown = true
            output.send(Self.result(id: id, NSNull()))
        case "textDocument/didOpen":
            guard let item = params["textDocument"] as? [String: Any], let uri = item["uri"] as? String,
                let text = item["text"] as? String
            else { break }
            documents[uri] = Document(uri: uri, text: text, version: item["version"] as? Int)
            stale.insert(uri)
        case "textDocument/didChange":
            let identifier = params["textDocument"] as? [String: Any]
            guard let uri = identifier?["uri"] as? String,
                let changes = params["contentChanges"] as? [[String: Any]], var document = documents[uri]
            else { break }
            for change in changes { document.apply(change) }
            document.version = identifier?["version"] as? Int
            documents[uri] = document
            stale.insert(uri)
        case "textDocument/didClose":
            guard let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String else { break }
            documents[uri] = nil
            stale.remove(uri)
            publish(uri: uri, [])
        case "textDocument/rename":
            rename(id: id, params)
        case "flowspec/documentText":
            // What the server holds for a document, for checking a client's edits against it.
            let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String
            output.send(Self.result(id: id, uri.flatMap { documents[$0]?.text } ?? NSNull()))
        case "textDocument/documentSymbol", "textDocument/definition", "textDocument/hover", "textDocument/completion",
            "textDocument/codeAction", "textDocument/references", "textDocument/prepareRename",
            "textDocument/documentHighlight":
            output.send(Self.result(id: id, answer(method, params) ?? NSNull()))
        default:
            if let id { output.send(Self.error(id: id, code: -32601, "method '\(method)' is not supported")) }
        }
        return nil
    }

    /// Answers `textDocument/rename`: the edits, or a `RequestFailed` error saying why not.
    private mutating func rename(id: Any?, _ params: [String: Any]) {
        let place = Self.position(params["position"])
        guard let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String,
            let navigation = documents[uri]?.navigation(), let newName = params["newName"] as? String
        else {
            output.send(Self.error(id: id ?? NSNull(), code: -32803, "rename needs an open spec and a new name"))
            return
        }
        let outcome: Result<[String: Any], Navigation.RenameRefused>
        if let machine = MachineRename.machine(at: place, in: navigation) {
            // A machine's name crosses files: the open specs that may run it are edited too.
            var open: [MachineRename.File] = []
            for other in documents.keys.sorted() where other != uri {
                guard let checked = documents[other]?.navigation() else { continue }
                open.append(MachineRename.File(uri: other, lines: checked.lines, result: checked.result))
            }
            let current = MachineRename.File(uri: uri, lines: navigation.lines, result: navigation.result)
            outcome = MachineRename(current: current, open: open).rename(machine, to: newName)
        } else {
            outcome = navigation.rename(place, to: newName)
        }
        switch outcome {
        case .success(let edit): output.send(Self.result(id: id, edit))
        case .failure(let refused): output.send(Self.error(id: id ?? NSNull(), code: -32803, refused.message))
        }
    }

    /// The answer to a question about an open spec, or `nil` when there is none.
    private mutating func answer(_ method: String, _ params: [String: Any]) -> Any? {
        guard let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String,
            let navigation = documents[uri]?.navigation()
        else { return nil }
        let place = Self.position(params["position"])
        switch method {
        case "textDocument/documentSymbol": return navigation.symbols()
        case "textDocument/definition": return navigation.definition(place)
        case "textDocument/references": return navigation.references(place)
        case "textDocument/documentHighlight": return navigation.highlights(place)
        case "textDocument/prepareRename": return navigation.prepareRename(place)
        case "textDocument/completion":
            let names = documents[uri]?.lastWithMachines ?? navigation.result
            return Completion(result: names, lines: navigation.lines).completion(place)
        case "textDocument/codeAction":
            let range = params["range"] as? [String: Any]
            let actions = CodeActions(
                uri: uri, result: navigation.result, findings: navigation.checked.findings, lines: navigation.lines)
            return actions.actions(in: (Self.position(range?["start"]), Self.position(range?["end"])))
        default: return navigation.hover(place)
        }
    }

    /// An LSP position (0-based line, UTF-16 offset); the start of the text when absent.
    private static func position(_ value: Any?) -> (line: Int, character: Int) {
        let position = value as? [String: Any]
        return (position?["line"] as? Int ?? 0, position?["character"] as? Int ?? 0)
    }

    private mutating func publishStale() {
        for uri in stale.sorted() {
            if let diagnostics = documents[uri]?.diagnostics() {
                publish(uri: uri, diagnostics, version: documents[uri]?.version)
            }
        }
        stale.removeAll()
    }

    private func publish(uri: String, _ diagnostics: [[String: Any]], version: Int? = nil) {
        var params: [String: Any] = ["uri": uri, "diagnostics": diagnostics]
        if let version { params["version"] = version }
        output.send(["jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": params])
    }

    static var capabilities: [String: Any] {
        [
            "capabilities": [
                // Incremental changes; the server keeps each open document's text.
                "textDocumentSync": ["openClose": true, "change": 2] as [String: Any],
                "documentSymbolProvider": true, "definitionProvider": true, "hoverProvider": true,
                "completionProvider": ["triggerCharacters": [" ", "[", ","]] as [String: Any],
                "codeActionProvider": ["codeActionKinds": ["quickfix"]] as [String: Any],
                "referencesProvider": true, "documentHighlightProvider": true,
                "renameProvider": ["prepareProvider": true] as [String: Any]
            ] as [String: Any],
            "serverInfo": ["name": "flowspec-lsp"]
        ]
    }

    static func result(id: Any?, _ result: Any) -> [String: Any] {
        ["jsonrpc": "2.0", "id": id ?? NSNull(), "result": result]
    }

    static func error(id: Any, code: Int, _ message: String) -> [String: Any] {
        ["jsonrpc": "2.0", "id": id, "error": ["code": code, "message": message] as [String: Any]]
    }
}
