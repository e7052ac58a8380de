import Foundation
import Testing

/// The README's example must stay true: its spec checks clean, and without the timeout it
/// gives exactly the output the README shows.
@Suite("README example")
struct ReadmeTests {
    static func readme() throws -> String {
        try String(contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
    }

    static func block(after fence: String, in text: String) throws -> String {
        let start = try #require(text.range(of: fence + "\n"))
        let end = try #require(text.range(of: "```", range: start.upperBound..<text.endIndex))
        return String(text[start.upperBound..<end.lowerBound])
    }

    @Test func exampleChecksCleanAndTheBrokenOneMatchesTheShownOutput() throws {
        let text = try Self.readme()
        let spec = try Self.block(after: "```yaml", in: text)
        let clean = try CLI.temporaryDirectory(with: ["login.yaml": spec])
        #expect(try CLI.run(["check", "login.yaml"], in: clean).status == 0)

        let broken = spec.replacingOccurrences(of: "        timeout: { after: 2m, to: error }\n", with: "")
        #expect(broken != spec)
        let directory = try CLI.temporaryDirectory(with: ["login.yaml": broken])
        let output = try CLI.run(["check", "login.yaml"], in: directory)
        #expect(output.status == 1)
        let shown = try Self.block(
            after: "Forget the timeout and `flowspec check` says, like the Swift compiler would:\n\n```", in: text)
        #expect(output.stdout == shown)
    }

    /// The README is for users: what flowspec is, set-up, a taste and where to read on. How
    /// it is built and measured belongs in `docs/`.
    @Test func theReadmeStaysShort() throws {
        let size = try Self.readme().utf8.count
        #expect(size <= 12 * 1024, "README.md is \(size) bytes; move detail to docs/ to keep it under 12 KB")
    }

    @Test func setUpCommandsAreOnTheFirstScreen() throws {
        let firstScreen = try Self.readme().split(separator: "\n").prefix(24).joined(separator: "\n")
        #expect(firstScreen.contains("swift run flowspec check specs/app.yaml"))
        #expect(firstScreen.contains("swift test"))
    }
}
