/// Prints findings as a SARIF 2.1.0 log, the format GitHub code scanning and other tools read.
///
/// Every rule of the language is listed under the tool's driver; each result names its rule
/// by id and index, its level, message and location (file path as given, relative to the
/// `%SRCROOT%` base), notes with a place as related locations, and the machine and subjects
/// as properties.
enum SARIFRenderer {
    /// Writes the log: the tool and its rules, then the findings one by one.
    static func render(_ diagnostics: [Diagnostic], into output: inout some TextOutputStream) {
        let rules = Rule.allCases
        let driver = JSONNode.object([
            "name": .string("flowspec"),
            "version": .string(FlowSpecVersion.current),
            "rules": .array(
                rules.map { rule in
                    .object([
                        "id": .string(rule.rawValue),
                        "shortDescription": message(rule.summary),
                        "defaultConfiguration": .object(["level": .string(level(rule.defaultSeverity))])
                    ])
                })
        ])
        let run = JSONNode.object([
            "tool": .object(["driver": driver]),
            "results": .lazyArray(count: diagnostics.count) { result(diagnostics[$0], rules: rules) },
            "columnKind": .string("unicodeCodePoints")
        ])
        let log = JSONNode.object([
            "$schema": .string("https://json.schemastore.org/sarif-2.1.0.json"),
            "version": .string("2.1.0"),
            "runs": .array([run])
        ])
        log.writeDocument(to: &output)
    }

    /// One finding: its rule, level, message (with the notes that have no place), location,
    /// the notes that have one as related locations, and the machine and subjects.
    static func result(_ diagnostic: Diagnostic, rules: [Rule]) -> JSONNode {
        let related: [JSONNode] = diagnostic.notes.enumerated().compactMap { offset, note in
            guard let location = note.location else { return nil }
            return .object([
                "id": .int(offset), "physicalLocation": physical(diagnostic.file, location),
                "message": message(note.message)
            ])
        }
        let unplaced = diagnostic.notes.filter { $0.location == nil }.map(\.message)
        var properties: [String: JSONNode] = ["subjects": .array(diagnostic.subjects.map(JSONNode.string))]
        properties["machine"] = diagnostic.machine.map(JSONNode.string)
        var members: [String: JSONNode] = [
            "ruleId": .string(diagnostic.rule.rawValue),
            "ruleIndex": .int(rules.firstIndex(of: diagnostic.rule) ?? 0),
            "level": .string(level(diagnostic.severity)),
            "message": message(([diagnostic.message] + unplaced).joined(separator: "\n")),
            "locations": .array([.object(["physicalLocation": physical(diagnostic.file, diagnostic.location)])]),
            "properties": .object(properties)
        ]
        if !related.isEmpty { members["relatedLocations"] = .array(related) }
        return .object(members)
    }

    /// A SARIF message object.
    static func message(_ text: String) -> JSONNode {
        .object(["text": .string(text)])
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "note"
        }
    }

    static func physical(_ file: String, _ location: SourceLocation) -> JSONNode {
        .object([
            "artifactLocation": .object(["uri": .string(uri(file)), "uriBaseId": .string("%SRCROOT%")]),
            "region": .object(["startLine": .int(location.line), "startColumn": .int(location.column)])
        ])
    }

    /// A relative URI reference for a path: unreserved characters and `/` kept, the rest
    /// percent-encoded.
    static func uri(_ path: String) -> String {
        if path.utf8.allSatisfy(isUnreserved) { return path }
        var result = ""
        for byte in path.utf8 {
            if isUnreserved(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }

    /// Whether a byte is an ASCII letter or digit, `-`, `.`, `_`, `~` or `/`.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
            true
        default:
            false
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

/// The version of flowspec, reported by `--version` and in SARIF.
public enum FlowSpecVersion {
    /// The current version.
    public static let current = "0.1.0"
}
