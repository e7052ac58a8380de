// FoundationEssentials where it exists (Linux): the same JSONEncoder without loading all of
// Foundation and ICU, which would add about 7 MB and 2 ms to every run of `flowspec`.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Prints findings as one JSON object, `{"diagnostics": [...]}`; each diagnostic has `rule`,
/// `severity`, `message`, `file`, `line`, `column`, `machine` (when it belongs to one),
/// `subjects` and `notes`. Keys are sorted, so output is byte-identical run to run.
enum JSONRenderer {
    struct Document: Codable {
        var diagnostics: [Entry]
    }

    struct Entry: Codable {
        var rule: String
        var severity: String
        var message: String
        var file: String
        var line: Int
        var column: Int
        var machine: String?
        var subjects: [String]
        var notes: [NoteEntry]
    }

    struct NoteEntry: Codable {
        var message: String
        var line: Int?
        var column: Int?
    }

    static func render(_ diagnostics: [Diagnostic]) -> String {
        let document = Document(diagnostics: diagnostics.map { diagnostic in
            Entry(rule: diagnostic.rule.rawValue, severity: diagnostic.severity.rawValue,
                  message: diagnostic.message, file: diagnostic.file,
                  line: diagnostic.location.line, column: diagnostic.location.column,
                  machine: diagnostic.machine, subjects: diagnostic.subjects,
                  notes: diagnostic.notes.map {
                      NoteEntry(message: $0.message, line: $0.location?.line, column: $0.location?.column)
                  })
        })
        return encode(document)
    }

    /// Encodes a value as pretty, key-sorted JSON followed by a newline.
    static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
