import Foundation
import Testing

/// Bad input ends quickly with a located error and exit 1 (2 for a file that cannot be read),
/// never a crash, a trap or a hang. The exact findings of each bad input are fixtures in
/// `Tests/Fixtures/input`; here each is run as a process to check how it ends.
@Suite("Bad input (process)", .timeLimit(.minutes(2)))
struct BadInputTests {
    static let inputs = [
        "truncated-flow-sequence", "tab-indentation", "only-comments", "deep-nesting", "alias-bomb",
        "binary", "second-document", "invalid-utf8", "control-character"
    ]

    @Test(arguments: inputs)
    func endsWithALocatedErrorAndExitOne(name: String) throws {
        let path = "Tests/Fixtures/input/\(name).yaml"
        let output = try CLI.run(["check", "--format", "json", path])
        #expect(output.status == 1, "\(name): \(output.stderr)")
        struct Findings: Decodable {
            struct Entry: Decodable {
                var line: Int
                var column: Int
                var file: String
            }
            var diagnostics: [Entry]
        }
        let findings = try JSONDecoder().decode(Findings.self, from: Data(output.stdout.utf8))
        let first = try #require(findings.diagnostics.first)
        #expect(first.file == path)
        #expect(first.line >= 1 && first.column >= 1)
    }

    /// A large spec is mapped while it is read; one that another program truncates meanwhile
    /// ends with a clear error and status 2, not with the bus error reading past its end raises.
    @Test func aLargeSpecTruncatedWhileItIsReadIsAnErrorNotACrash() throws {
        var text = "flowspec: 1\nmachines:\n  Big:\n    initial: s0\n    defaults: { kind: input }\n    states:\n"
        for index in 0..<400_000 { text += "      s\(index): { on: { go: s\(index + 1) } }\n" }
        text += "      s400000: { kind: terminal }\n"
        let directory = try CLI.temporaryDirectory(with: ["big.yaml": text])
        let path = directory.appendingPathComponent("big.yaml").path
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["check", path]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        // Reading 16 MB takes the (debug) flowspec seconds: it is mid-file when the file shrinks.
        Thread.sleep(forTimeInterval: 0.5)
        #expect(truncate(path, 100) == 0)
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "ended by signal \(process.terminationStatus)")
        #expect(process.terminationStatus == 2, "\(message)")
        #expect(message.contains("flowspec: error: a spec file shrank while it was being read"))
    }

    @Test func emptyFileSaysItIsEmpty() throws {
        let directory = try CLI.temporaryDirectory(with: ["empty.yaml": ""])
        let output = try CLI.run(["check", "empty.yaml"], in: directory)
        #expect(output.status == 1)
        #expect(
            output.stdout.hasPrefix(
                "empty.yaml:1:1: error: the file is empty; a spec starts with `flowspec: 1` [unsupported-version]"))
    }

    @Test func pathThroughAFileExitsTwo() throws {
        let directory = try CLI.temporaryDirectory(with: ["spec.yaml": "flowspec: 1\n"])
        let output = try CLI.run(["check", "spec.yaml/inner.yaml"], in: directory)
        #expect(output.status == 2)
        #expect(output.stderr.contains("cannot read 'spec.yaml/inner.yaml': Not a directory"))
    }
}
