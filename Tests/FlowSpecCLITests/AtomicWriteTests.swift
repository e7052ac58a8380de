import Foundation
import Testing

/// `gen` writes atomically: a process killed at any moment leaves the output either as it was
/// or complete, never truncated.
@Suite("Atomic writes (process)")
struct AtomicWriteTests {
    /// A machine big enough that writing its Swift takes a noticeable time.
    static func bigSpec(states: Int) -> String {
        var text = "flowspec: 1\nmachines:\n  Big:\n    initial: s0\n    defaults: { kind: input }\n    states:\n"
        for index in 0..<states { text += "      s\(index): { on: { next: s\((index + 1) % states) } }\n" }
        return text
    }

    @Test func killingGenAtRandomMomentsNeverLeavesATruncatedFile() throws {
        let directory = try CLI.temporaryDirectory(with: [
            "old.yaml": Self.bigSpec(states: 3), "new.yaml": Self.bigSpec(states: 20_000)
        ])
        let output = directory.appendingPathComponent("Big.swift")
        #expect(try CLI.run(["gen", "old.yaml", "--output", "Big.swift"], in: directory).status == 0)
        let old = try Data(contentsOf: output)
        // The complete new output, generated once elsewhere, to compare with.
        #expect(try CLI.run(["gen", "new.yaml", "--output", "Complete.swift"], in: directory).status == 0)
        // (Both name their source `new.yaml` in the header, so the bytes are the same.)
        let new = try Data(contentsOf: directory.appendingPathComponent("Complete.swift"))
        var generator = SystemRandomNumberGenerator()
        var killedBeforeTheEnd = 0
        for _ in 0..<12 {
            try old.write(to: output)
            let process = Process()
            process.executableURL = CLI.executable
            process.arguments = ["gen", "new.yaml", "--output", "Big.swift"]
            process.currentDirectoryURL = directory
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32.random(in: 1_000...400_000, using: &generator))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                killedBeforeTheEnd += 1
            }
            process.waitUntilExit()
            let now = try Data(contentsOf: output)
            #expect(
                now == old || now == new,
                "the output is neither the old file nor the complete new one (\(now.count) bytes)")
        }
        #expect(killedBeforeTheEnd > 0, "no run was killed before it finished; the test proved nothing")
    }
}
