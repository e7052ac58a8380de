import Foundation
import Testing

@testable import FlowSpecCore

/// The file names `gen` writes into a directory (one per machine) are checked before anything
/// is written: none longer than 255 bytes, no two the same on a case-insensitive file system.
/// The temporary sibling of any name that fits fits too.
@Suite("Generated file names")
struct GeneratedFileNameTests {
    static func machine(_ name: String) -> String {
        """
          \(name):
            initial: a
            defaults: { kind: input }
            states:
              a: { on: { go: b } }
              b: { kind: terminal }

        """
    }

    static func findings(_ names: [String]) -> [String] {
        let file = SourceFile(path: "spec.yaml", text: "flowspec: 1\nmachines:\n" + names.map(machine).joined())
        let result = SpecChecker().check(file)
        guard let programs = SpecGeneration.programs(result, diagnostics: result.diagnostics) else {
            Issue.record("the spec has errors: \(result.diagnostics.map(\.message))")
            return []
        }
        let findings = SpecGeneration.filePerMachineFindings(programs, of: result, file: file.path)
        return DiagnosticRenderer.render(findings, files: [file], format: .text)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test func ordinaryNamesHaveNoFinding() {
        #expect(Self.findings(["Auth", "Login", "sign-in", String(repeating: "x", count: 249)]) == [""])
    }

    @Test func namesThatDifferOnlyInCaseAreACollision() {
        #expect(
            Self.findings(["Auth", "Other", "auth", "AUTH"]) == [
                "spec.yaml:15:3: error: machine names 'Auth' and 'auth' would be written to Auth.swift and auth.swift, which are the same file on case-insensitive file systems (macOS); rename one [identifier-collision]",
                "  auth:",
                "  ^",
                "spec.yaml:3:3: note: 'Auth' is here",
                "  Auth:",
                "  ^",
                "spec.yaml:21:3: error: machine names 'Auth' and 'AUTH' would be written to Auth.swift and AUTH.swift, which are the same file on case-insensitive file systems (macOS); rename one [identifier-collision]",
                "  AUTH:",
                "  ^",
                "spec.yaml:3:3: note: 'Auth' is here",
                "  Auth:",
                "  ^",
                ""
            ])
    }

    /// `sign-in` becomes the type `signIn`, so `SignIn` is another file only by case.
    @Test func theFileNameIsTheTypeName() {
        #expect(
            Self.findings(["sign-in", "SignIn"]).first
                == "spec.yaml:9:3: error: machine names 'sign-in' and 'SignIn' would be written to signIn.swift and SignIn.swift, which are the same file on case-insensitive file systems (macOS); rename one [identifier-collision]"
        )
    }

    @Test func aFileNameOver255BytesIsTooLong() {
        let name = String(repeating: "a", count: 250)
        let clipped = String(repeating: "a", count: 40) + "…"
        #expect(
            Self.findings(["Plain", name]).first
                == "spec.yaml:9:3: error: machine name '\(clipped)' is 250 bytes long; as a file name '\(clipped).swift' (256 bytes) it exceeds 255 bytes; shorten it [limit-exceeded]"
        )
        // Separators do not count: the type name is what becomes the file name.
        let spaced = Array(repeating: "ab", count: 100).joined(separator: "-")
        #expect(Self.findings([spaced]) == [""])
    }

    @Test func theTemporarySiblingOfAnyNameThatFitsFits() {
        for length in [1, 200, 230, 231, 240, 255] {
            let name = String(repeating: "é", count: length / 2) + String(repeating: "x", count: length % 2)
            #expect(name.utf8.count == length)
            for serial in [0, 7, 123] {
                let temporary = FileWriter.temporaryPath(for: "out/dir/" + name, serial: serial)
                #expect(temporary.hasPrefix("out/dir/."))
                let file = temporary.dropFirst("out/dir/".count)
                #expect(file.utf8.count <= 255, "\(length): \(file.utf8.count) bytes")
                #expect(file.hasSuffix(".tmp") && String(file).unicodeScalars.allSatisfy { $0 != "\u{FFFD}" })
            }
        }
        // Short names keep the plain form `.NAME.flowspec-PID.tmp`.
        #expect(
            FileWriter.temporaryPath(for: "out/Auth.swift", serial: 3)
                == "out/.Auth.swift.flowspec-\(ProcessInfo.processInfo.processIdentifier).tmp")
        // Two long names with the same beginning get different temporary files.
        let long = String(repeating: "q", count: 250)
        #expect(
            FileWriter.temporaryPath(for: long + "1", serial: 0) != FileWriter.temporaryPath(for: long + "2", serial: 1)
        )
    }

    @Test func lengthProblems() {
        #expect(FileWriter.lengthProblem(writing: "out/" + String(repeating: "n", count: 255)) == nil)
        #expect(
            FileWriter.lengthProblem(writing: "out/" + String(repeating: "n", count: 256))
                == "the name '\(String(repeating: "n", count: 40))…' is 256 bytes long, over the limit of 255 bytes of file names"
        )
        let deep = String(repeating: "d/", count: FileWriter.maxPathLength / 2) + "A.swift"
        #expect(FileWriter.lengthProblem(writing: deep)?.hasPrefix("the path is ") == true)
    }

    @Test func writeAllWritesNothingWhenOneFileCannotBeWritten() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "flowspec-writeall-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let created = try FileWriter.makeDirectory(directory.path + "/a/b")
        #expect(created.count == 3)
        try FileManager.default.createDirectory(
            atPath: directory.path + "/a/b/Second.swift", withIntermediateDirectories: false)
        #expect(throws: FileWriter.WriteError.self) {
            try FileWriter.writeAll([
                (path: directory.path + "/a/b/First.swift", contents: "one"),
                (path: directory.path + "/a/b/Second.swift", contents: "two")
            ])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path + "/a/b") == ["Second.swift"])
        // Directories made for the output go again when nothing was written into them.
        try FileManager.default.removeItem(atPath: directory.path + "/a/b/Second.swift")
        FileWriter.removeDirectories(created)
        #expect(!FileManager.default.fileExists(atPath: directory.path))
        let outcomes = try FileWriter.writeAll([(path: directory.path + "-One.swift", contents: "one")])
        defer { try? FileManager.default.removeItem(atPath: directory.path + "-One.swift") }
        #expect(outcomes == [.written])
        #expect(try FileWriter.writeAll([(path: directory.path + "-One.swift", contents: "one")]) == [.unchanged])
    }
}
