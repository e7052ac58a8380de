import Foundation
import Testing

@testable import FlowSpecCore

/// `imports:` (`docs/language.md`, "Sub-flows"): a machine of another file runs as one of the
/// same file would, and what is found in the imported file is that file's.
@Suite("Imports")
struct ImportTests {
    static let signIn = """
        flowspec: 1
        machines:
          SignIn:
            initial: credentials
            events: [submit, ok, cancel]
            on: { cancel: cancelled }
            states:
              credentials: { kind: input, on: { submit: verifying } }
              verifying: { on: { ok: signedIn }, timeout: { after: 10s, to: credentials } }
              signedIn: { kind: terminal }
              cancelled: { kind: terminal }

        """

    static func app(done: String) -> String {
        """
          App:
            initial: welcome
            events: [start, signOut]
            states:
              welcome: { kind: input, on: { start: signIn } }
              signIn: { run: SignIn, done: \(done) }
              home: { kind: input, on: { signOut: welcome } }

        """
    }

    /// A directory holding `files`, removed when `body` returns.
    static func withFiles<T>(_ files: [String: String], _ body: (URL) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("imports-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, text) in files {
            let url = directory.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return try body(directory)
    }

    static func check(_ url: URL) throws -> SpecChecker.Checked {
        SpecChecker().check(try SpecFileReader.read(url.path, maxSize: 1 << 20))
    }

    /// The generated Swift of a file that imports SignIn is that of the same file with SignIn
    /// written in it, less SignIn's own type: the machine runs the same copy.
    @Test func anImportedMachineRunsAsOneOfTheSameFile() throws {
        let app =
            "flowspec: 1\nimports: [flows/sign-in.yaml]\nmachines:\n"
            + Self.app(done: "{ signedIn: home, cancelled: welcome }")
        let together = Self.signIn + Self.app(done: "{ signedIn: home, cancelled: welcome }")
        try Self.withFiles(["app.yaml": app, "flows/sign-in.yaml": Self.signIn]) { directory in
            let imported = try Self.check(directory.appendingPathComponent("app.yaml"))
            #expect(imported.diagnostics.isEmpty, "\(imported.diagnostics.map(\.message))")
            let single = SpecChecker().check(SourceFile(path: "app.yaml", text: together))
            let ours = try #require(SpecGeneration.programs(imported, diagnostics: imported.diagnostics))
            let theirs = try #require(SpecGeneration.programs(single, diagnostics: single.diagnostics))
            #expect(ours.map(\.name.name) == ["App"])
            let options = GenerationOptions(sourcePath: "app.yaml")
            #expect(
                SwiftGenerator.file(for: ours, options: options)
                    == SwiftGenerator.file(for: [theirs[1]], options: options))
            #expect(imported.imports.map(\.machines).map { $0.map(\.name.value) } == [["SignIn"]])
        }
    }

    /// What only composing finds is the importer's, at its `run`; what the imported file says
    /// about itself is left to that file.
    @Test func findingsOfTheImportedFileAreItsOwn() throws {
        // SignIn declares an event it never uses (a warning of its own); App forgets the outcome
        // `cancelled`.
        let warned = Self.signIn.replacingOccurrences(of: "[submit, ok, cancel]", with: "[submit, ok, cancel, lost]")
        let app = "flowspec: 1\nimports: [sign-in.yaml]\nmachines:\n" + Self.app(done: "{ signedIn: home }")
        try Self.withFiles(["app.yaml": app, "sign-in.yaml": warned]) { directory in
            let own = try Self.check(directory.appendingPathComponent("sign-in.yaml"))
            #expect(own.diagnostics.map(\.rule) == [.unusedName])
            let result = try Self.check(directory.appendingPathComponent("app.yaml"))
            #expect(result.diagnostics.map { "\($0.rule.rawValue) \($0.location)" } == ["unhandled-outcome 9:22"])
            let note = try #require(result.diagnostics.first?.notes.first)
            #expect(note.message.contains("signIn.cancelled"), "\(note.message)")
            #expect(note.location == nil || note.location!.line < SpecImporter.span)
        }
    }

    /// A file an import names relative to the importing file, whatever the current directory.
    @Test func pathsAreRelativeToTheImportingFile() throws {
        let app = "flowspec: 1\nimports: [../shared/sign-in.yaml]\nmachines:\n" + Self.app(done: "home")
        try Self.withFiles(["app/app.yaml": app, "shared/sign-in.yaml": Self.signIn]) { directory in
            let result = try Self.check(directory.appendingPathComponent("app/app.yaml"))
            #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
        }
    }

    /// Imports nest: a file imported imports another, each checked with its own; a chain of
    /// more than 7 files is reported where it becomes too deep, and so at each import above.
    @Test func importsNestAndTooDeepIsReported() throws {
        var files: [String: String] = [:]
        for level in 0..<9 {
            let next = level < 8 ? "imports: [f\(level + 1).yaml]\n" : ""
            let run =
                level < 8 ? "      b: { run: M\(level + 1), done: a }\n" : "      b: { kind: input, on: { back: a } }\n"
            files["f\(level).yaml"] =
                "flowspec: 1\n\(next)machines:\n  M\(level):\n    initial: a\n    states:\n"
                + "      a: { kind: input, on: { go: b, stop: end } }\n" + run + "      end: { kind: terminal }\n"
        }
        try Self.withFiles(files) { directory in
            let nested = try Self.check(directory.appendingPathComponent("f2.yaml"))
            #expect(nested.diagnostics.isEmpty, "7 files from f2: \(nested.diagnostics.map(\.message))")
            let deep = try Self.check(directory.appendingPathComponent("f1.yaml"))
            #expect(deep.diagnostics.map(\.rule) == [.invalidImport])
            #expect(deep.diagnostics.first?.message.contains("'f2.yaml' has 1 error") == true)
            #expect(deep.diagnostics.first?.notes.first?.message == "the first is at f2.yaml:2:11 [invalid-import]")
            let limit = try Self.check(directory.appendingPathComponent("f7.yaml"))
            #expect(limit.diagnostics.isEmpty, "f7 imports f8 alone: \(limit.diagnostics.map(\.message))")
        }
    }

    /// The paths a checker read, in order.
    final class Reads: @unchecked Sendable {
        var paths: [String] = []
    }

    /// Files that import the same files at one level of import are not read and checked again
    /// for each importer: 6 levels of 4 files, each importing all 4 of the next, are 24 reads,
    /// not the 4 + 16 + … + 4,096 a check per import would take.
    @Test func aFileImportedByManyAtOneLevelIsCheckedOnce() throws {
        var files: [String: String] = [:]
        for level in 0..<6 {
            for index in 0..<4 {
                let name = "L\(level)N\(index)"
                let imports =
                    level < 5
                    ? "imports: [" + (0..<4).map { "l\(level + 1)n\($0).yaml" }.joined(separator: ", ") + "]\n" : ""
                let run =
                    level < 5 ? "      b: { run: L\(level + 1)N\(index), done: a }\n" : "      b: { kind: terminal }\n"
                files["l\(level)n\(index).yaml"] =
                    "flowspec: 1\n\(imports)machines:\n  \(name):\n    initial: a\n    states:\n"
                    + "      a: { kind: input, on: { go: b, stop: end } }\n" + run + "      end: { kind: terminal }\n"
            }
        }
        files["top.yaml"] =
            "flowspec: 1\nimports: [" + (0..<4).map { "l0n\($0).yaml" }.joined(separator: ", ") + "]\nmachines:\n"
            + "  Top:\n    initial: a\n    states:\n      a: { kind: input, on: { go: b } }\n"
            + "      b: { run: L0N0, done: a }\n"
        try Self.withFiles(files) { directory in
            let reads = Reads()
            var checker = SpecChecker()
            checker.readImport = { (path: String, maxSize: Int) throws(FileReadError) -> SourceFile in
                reads.paths.append(path)
                return try SpecFileReader.read(path, maxSize: maxSize)
            }
            let top = directory.appendingPathComponent("top.yaml")
            let result = checker.check(try SpecFileReader.read(top.path, maxSize: 1 << 20))
            #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.message))")
            #expect(reads.paths.count == 24)
            #expect(Set(reads.paths).count == 24)
        }
    }
}
