import Foundation
import Testing

/// The sample pre-commit hook (`docs/samples/pre-commit`) in a real git repository: it
/// refuses a commit whose staged spec has errors and allows a clean one.
@Suite("Sample pre-commit hook (process)")
struct PreCommitHookTests {
    static func git(_ arguments: [String], in directory: URL) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        process.currentDirectoryURL = directory
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test func refusesAStagedSpecWithErrorsAndAllowsAClean() throws {
        let spec = try String(contentsOf: CLI.packageRoot.appendingPathComponent("specs/app.yaml"), encoding: .utf8)
        let directory = try CLI.temporaryDirectory(with: ["Flow.flowspec.yaml": spec])
        #expect(try Self.git(["init", "-q"], in: directory) == 0)
        let hooks = directory.appendingPathComponent(".git/hooks/pre-commit")
        try FileManager.default.copyItem(
            at: CLI.packageRoot.appendingPathComponent("docs/samples/pre-commit"), to: hooks)
        setenv("FLOWSPEC", CLI.executable.path, 1)
        let identity = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
        #expect(try Self.git(["add", "Flow.flowspec.yaml"], in: directory) == 0)
        #expect(try Self.git(identity + ["commit", "-q", "-m", "clean"], in: directory) == 0, "a clean spec commits")

        let broken = spec.replacingOccurrences(of: "initial: handshake", with: "initial: handshak")
        try broken.write(to: directory.appendingPathComponent("Flow.flowspec.yaml"), atomically: true, encoding: .utf8)
        #expect(try Self.git(["add", "Flow.flowspec.yaml"], in: directory) == 0)
        #expect(
            try Self.git(identity + ["commit", "-q", "-m", "broken"], in: directory) != 0,
            "a spec with errors is refused")
    }
}
