/// Prints findings as a SARIF 2.1.0 log, the format GitHub code scanning and other tools read.
///
/// Every rule of the language is listed under the tool's driver; each result names its rule
/// by id and index, its level, message and location (file path as given, relative to the
/// `%SRCROOT%` base), notes with a place as related locations, and the machine and subjects
/// as properties.
enum SARIFRenderer {
    struct Log: Encodable {
        var schema = "https://json.schemastore.org/sarif-2.1.0.json"
        var version = "2.1.0"
        var runs: [Run]

        enum CodingKeys: String, CodingKey {
            case schema = "$schema", version, runs
        }
    }

    struct Run: Encodable {
        var tool: Tool
        var results: [Result]
        var columnKind = "unicodeCodePoints"
    }

    struct Tool: Encodable {
        var driver: Driver
    }

    struct Driver: Encodable {
        var name = "flowspec"
        var version = FlowSpecVersion.current
        var rules: [RuleDescriptor]
    }

    struct RuleDescriptor: Encodable {
        var id: String
        var shortDescription: Message
        var defaultConfiguration: Configuration
    }

    struct Configuration: Encodable {
        var level: String
    }

    struct Message: Encodable {
        var text: String
    }

    struct Result: Encodable {
        var ruleId: String
        var ruleIndex: Int
        var level: String
        var message: Message
        var locations: [Location]
        var relatedLocations: [Location]?
        var properties: Properties
    }

    struct Properties: Encodable {
        var machine: String?
        var subjects: [String]
    }

    struct Location: Encodable {
        var id: Int?
        var physicalLocation: PhysicalLocation
        var message: Message?
    }

    struct PhysicalLocation: Encodable {
        var artifactLocation: ArtifactLocation
        var region: Region
    }

    struct ArtifactLocation: Encodable {
        var uri: String
        var uriBaseId = "%SRCROOT%"
    }

    struct Region: Encodable {
        var startLine: Int
        var startColumn: Int
    }

    static func render(_ diagnostics: [Diagnostic]) -> String {
        let rules = Rule.allCases
        let descriptors = rules.map {
            RuleDescriptor(id: $0.rawValue, shortDescription: Message(text: $0.summary),
                           defaultConfiguration: Configuration(level: level($0.defaultSeverity)))
        }
        let results = diagnostics.map { diagnostic in
            let related = diagnostic.notes.enumerated().compactMap { offset, note -> Location? in
                guard let location = note.location else { return nil }
                return Location(id: offset, physicalLocation: physical(diagnostic.file, location),
                                message: Message(text: note.message))
            }
            let unplaced = diagnostic.notes.filter { $0.location == nil }.map(\.message)
            let text = ([diagnostic.message] + unplaced).joined(separator: "\n")
            return Result(ruleId: diagnostic.rule.rawValue, ruleIndex: rules.firstIndex(of: diagnostic.rule)!,
                          level: level(diagnostic.severity), message: Message(text: text),
                          locations: [Location(physicalLocation: physical(diagnostic.file, diagnostic.location))],
                          relatedLocations: related.isEmpty ? nil : related,
                          properties: Properties(machine: diagnostic.machine, subjects: diagnostic.subjects))
        }
        let log = Log(runs: [Run(tool: Tool(driver: Driver(rules: descriptors)), results: results)])
        return JSONRenderer.encode(log)
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "note"
        }
    }

    static func physical(_ file: String, _ location: SourceLocation) -> PhysicalLocation {
        PhysicalLocation(artifactLocation: ArtifactLocation(uri: uri(file)),
                         region: Region(startLine: location.line, startColumn: location.column))
    }

    /// A relative URI reference for a path: unreserved characters and `/` kept, the rest
    /// percent-encoded.
    static func uri(_ path: String) -> String {
        var result = ""
        for byte in path.utf8 {
            let character = Character(UnicodeScalar(byte))
            if character.isASCII && (character.isLetter || character.isNumber || "-._~/".contains(character)) {
                result.append(character)
            } else {
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
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
