import Foundation
import Testing

@testable import FlowSpecCore

/// Locates the repository and its test fixtures, and reads fixture expectations.
enum Fixtures {
    /// The package's root folder.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Tests/Fixtures`.
    static let root = packageRoot.appendingPathComponent("Tests/Fixtures")

    /// The `.yaml` files below a folder of `Tests/Fixtures`, as paths relative to the package
    /// root, sorted.
    static func specs(under folder: String) -> [String] {
        let base = root.appendingPathComponent(folder)
        guard let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else {
            return []
        }
        var paths: [String] = []
        for case let url as URL in enumerator where url.pathExtension == "yaml" {
            paths.append(relativePath(url))
        }
        return paths.sorted()
    }

    static func relativePath(_ url: URL) -> String {
        let rootPath = packageRoot.standardizedFileURL.path + "/"
        let path = url.standardizedFileURL.path
        return path.hasPrefix(rootPath) ? String(path.dropFirst(rootPath.count)) : path
    }

    /// Reads a file given relative to the package root.
    static func source(_ relativePath: String) throws -> SourceFile {
        let data = try Data(contentsOf: packageRoot.appendingPathComponent(relativePath))
        return SourceFile(path: relativePath, bytes: Array(data))
    }

    /// The `# expect: rule line:column` lines of a fixture, sorted, as `rule line:column`.
    static func expectations(in file: SourceFile) -> [String] {
        let text = String(decoding: file.bytes, as: UTF8.self)
        return text.split(whereSeparator: \.isNewline).compactMap { line -> String? in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("# expect:") else { return nil }
            return trimmed.dropFirst("# expect:".count).trimmingCharacters(in: .whitespaces)
        }.sorted()
    }

    /// The findings of checking a file, as `rule line:column`, sorted.
    static func findings(_ file: SourceFile) -> [String] {
        SpecChecker().check(file).diagnostics.map { "\($0.rule.rawValue) \($0.location)" }.sorted()
    }

    /// Whether golden files should be re-recorded (set `FLOWSPEC_RECORD_GOLDEN=1`).
    static var recording: Bool {
        ProcessInfo.processInfo.environment["FLOWSPEC_RECORD_GOLDEN"] == "1"
    }

    /// Expects `output` to be the golden file's bytes, with a diff when it is not; records it
    /// instead when ``recording``.
    static func expectGolden(
        _ output: String, at golden: URL, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        if recording {
            try output.write(to: golden, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        #expect(
            output == expected,
            "\(golden.lastPathComponent) differs; run with FLOWSPEC_RECORD_GOLDEN=1 and review the diff\n\(GoldenDiff.lines(expected, output))",
            sourceLocation: sourceLocation)
    }
}
