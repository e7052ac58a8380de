import FlowSpecTestSupport
import Foundation
import Testing

/// `flowspec-lsp` driven by a client nobody here wrote: Neovim's built-in LSP client, run
/// headless by `Tests/Fixtures/lsp/neovim-client.lua`. Neovim frames the messages, computes
/// the incremental edits, asks `prepareRename` before `rename`, and applies the edits the
/// server returns with its own code.
@Suite(
    .enabled(
        if: ExternalTool.find("nvim") != nil,
        Comment(
            rawValue: ExternalTool.notOnPath(
                "nvim", for: "Neovim cannot drive flowspec-lsp",
                install: "apt-get install neovim; .ci/run installs it"))))
struct NeovimClientTests {
    /// A login flow whose task names a misspelt target, `hoem`.
    static let spec = """
        flowspec: 1
        machines:
          Login:
            initial: signedOut
            events: [submit, done, failed]
            states:
              signedOut:
                kind: input
                on: { submit: signingIn }
              signingIn:
                kind: task
                on: { done: hoem, failed: signedOut }
                timeout: { after: 10s, to: signedOut }
              home:
                kind: terminal

        """

    /// What the script saw, step by step.
    struct Record: Decodable {
        struct Finding: Decodable, Equatable {
            var line: Int
            var column: Int
            var code: String
            var message: String
        }
        struct Steps: Decodable {
            var opened: [Finding]?
            var quickFixTitle: String?
            var fixed: [Finding]?
            var typed: [Finding]?
            var definition: [String: Int]?
            var renamedText: [String]?
            var renamed: [Finding]?
        }
        var steps: Steps
        var exit: [String: Int]?
        var error: String?
    }

    @Test func openEditDefinitionRenameAndShutDown() throws {
        let directory = try CLI.temporaryDirectory(with: ["login.flowspec.yaml": Self.spec])
        let result = directory.appendingPathComponent("result.json")
        let script = CLI.packageRoot.appendingPathComponent("Tests/Fixtures/lsp/neovim-client.lua")
        let run = try ProcessRunner.capture(
            ExternalTool.find("nvim")!,
            ["--headless", "--clean", "-n", "-i", "NONE", "-c", "luafile \(script.path)"],
            in: directory,
            environment: [
                "FLOWSPEC_LSP": LanguageServerTests.executable.path,
                "FLOWSPEC_SPEC": directory.appendingPathComponent("login.flowspec.yaml").path,
                "FLOWSPEC_RESULT": result.path,
                // Neovim's log and state stay in the test's directory.
                "XDG_CACHE_HOME": directory.path, "XDG_STATE_HOME": directory.path, "XDG_DATA_HOME": directory.path
            ],
            timeLimit: 400)
        let stderr = String(decoding: run.stderr, as: UTF8.self)
        #expect(!run.timedOut && !run.signalled, "Neovim did not finish: \(stderr)")
        let record = try JSONDecoder().decode(Record.self, from: Data(contentsOf: result))
        #expect(record.error == nil, "the script stopped: \(record.error ?? "")")

        // Opened: the misspelt target is found where it is written, with check's rule id.
        let opened = try #require(record.steps.opened)
        #expect(opened.map(\.code) == ["undefined-state", "unreachable-state"])
        #expect(opened.first.map { [$0.line, $0.column] } == [11, 20])
        #expect(opened.first?.message.contains("did you mean 'home'?") == true)

        // The quick fix, applied by Neovim, leaves a clean spec.
        #expect(record.steps.quickFixTitle == "Change to 'home'")
        #expect(record.steps.fixed == [])

        // An edit inside a line, sent as Neovim's incremental change: an unused event.
        let typed = try #require(record.steps.typed)
        #expect(typed.map(\.code) == ["unused-name"])
        #expect(typed.first.map { [$0.line, $0.column] } == [4, 35])

        // Definition of `home` in `done: home` jumps to the state's key.
        #expect(record.steps.definition == ["line": 13, "column": 6])

        // Rename from the key: every place `signingIn` was written, and findings unchanged.
        let renamed = try #require(record.steps.renamedText)
        #expect(renamed[8] == "        on: { submit: authenticating }")
        #expect(renamed[9] == "      authenticating:")
        #expect(!renamed.joined(separator: "\n").contains("signingIn"))
        #expect(record.steps.renamed?.map(\.code) == ["unused-name"])

        // Shut down the way Neovim does it: `shutdown`, then `exit`, and status 0.
        #expect(record.exit == ["code": 0, "signal": 0])
    }
}
