/// `flowspec import`: a machine written for another tool as a flowspec spec, whatever the
/// format, which is read from the content (docs/interop.md gives the mappings).
public enum MachineImporter {
    /// The formats a machine is imported from.
    public enum Format: String, Sendable, CaseIterable {
        /// W3C SCXML 1.0 (``SCXMLImporter``).
        case scxml
        /// An XState machine config as JSON (``XStateImporter``).
        case xstate
    }

    /// A spec, and what could not be carried into it.
    public struct Imported: Sendable {
        /// The spec's text (YAML), ready to check.
        public var spec: String
        /// The machine's name.
        public var machine: String
        /// What was not imported, each where it is written.
        public var notImported: [Note]
        /// The names of delays given a duration (`--delay NAME=30s`) that the input has none of.
        public var unusedDelays: [String] = []
    }

    /// Something of the input the spec does not hold.
    public struct Note: Sendable, Equatable {
        /// Where it is written in the input.
        public var location: SourceLocation
        /// What it is, and why it is left out: one line, whatever names it quotes (see
        /// ``init(location:message:file:)``).
        public var message: String
        /// The input it is written in, when that is a machine the first invokes (its
        /// ``Input/path``); `nil` for the first.
        public var file: String? = nil

        /// A note; the message's control characters, line breaks and invisible characters are
        /// written as escapes (`\u{A}`), since it quotes names the input chose: a state id
        /// holding a line break would otherwise print a report line of its own.
        public init(location: SourceLocation, message: String, file: String? = nil) {
            self.location = location
            self.message = TextRenderer.visible(message)
            self.file = file
        }
    }

    /// An input by its path (as notes name it) and content.
    public struct Input: Sendable {
        public var path: String
        public var bytes: [UInt8]

        public init(path: String, bytes: [UInt8]) {
            self.path = path
            self.bytes = bytes
        }
    }

    /// Where the machines an input invokes by reference are found: an SCXML `<invoke src>`,
    /// an XState `invoke` whose `src` names a machine. Each found becomes a sub-flow.
    public struct Links: Sendable {
        /// The imported input's own path: an SCXML `src` is relative to it.
        public var path: String
        /// Other inputs, the machines it invokes: an XState config is found by its `id` (else
        /// its file name without extension), an SCXML document by its file name.
        public var others: [Input]
        /// Reads the document an SCXML `src` names, relative to the path of the document that
        /// invokes it; the failure says why it cannot be read.
        public var read: @Sendable (_ source: String, _ from: String) -> Result<Input, Failure>

        public init(
            path: String, others: [Input] = [],
            read: @escaping @Sendable (_ source: String, _ from: String) -> Result<Input, Failure> = {
                source, _ in .failure(Failure(message: "no document is read from disk here", location: .start))
            }
        ) {
            self.path = path
            self.others = others
            self.read = read
        }
    }

    /// An input that cannot be read as a machine, and where.
    public struct Failure: Error, Sendable, Equatable {
        public var message: String
        public var location: SourceLocation
        /// The input it is in, when that is not the first (an invoked machine's).
        public var file: String? = nil

        /// A failure; its message is made one visible line as a ``Note``'s is.
        public init(message: String, location: SourceLocation, file: String? = nil) {
            self.message = TextRenderer.visible(message)
            self.location = location
            self.file = file
        }
    }

    /// The format of an input, from its first character past white space and a byte order
    /// mark: `<` for SCXML, `{` or `[` for JSON (an XState config); JavaScript or TypeScript that
    /// calls `createMachine(` or `Machine(` is an XState config too; `nil` for anything else.
    public static func format(of bytes: [UInt8]) -> Format? {
        switch firstByte(of: bytes) {
        case UInt8(ascii: "<"): return .scxml
        case UInt8(ascii: "{"), UInt8(ascii: "["): return .xstate
        default: return JavaScriptConfigReader.isSource(bytes) ? .xstate : nil
        }
    }

    /// Whether an XState input is JSON (it starts with `{` or `[`), not JavaScript source.
    static func startsAsJSON(_ bytes: [UInt8]) -> Bool {
        [UInt8(ascii: "{"), UInt8(ascii: "[")].contains(firstByte(of: bytes))
    }

    private static func firstByte(of bytes: [UInt8]) -> UInt8? {
        bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
    }

    /// Imports the machine in `bytes`, in the format its content shows; `machine` names the
    /// machine (else the input's own name, else `fallbackName`). With `links`, the machines
    /// it invokes by reference are found there and imported as its sub-flows. `delays` gives
    /// the durations of XState's named delays (`after: { IDLE_TIMEOUT: … }`), which a config
    /// names without them. Every input is read within `maxDepth` and `maxScalarLength`
    /// (``YAMLLimits``).
    public static func importMachine(
        _ bytes: [UInt8], machine: String? = nil, fallbackName: String = "Imported",
        maxDepth: Int = YAMLLimits().maxDepth, maxScalarLength: Int = YAMLLimits().maxScalarLength,
        links: Links? = nil, delays: [String: Duration] = [:]
    ) throws(Failure) -> Imported {
        let limits = ReadLimits(maxDepth: maxDepth, maxScalarLength: maxScalarLength)
        switch format(of: bytes) {
        case .scxml:
            // SCXML has no named delays: every one given goes unused.
            var imported = try SCXMLImporter.importDocument(
                bytes, machine: machine, fallbackName: fallbackName, limits: limits, links: links)
            imported.unusedDelays = delays.keys.sorted()
            return imported
        case .xstate:
            return try XStateImporter.importConfig(
                bytes, machine: machine, fallbackName: fallbackName, limits: limits, links: links, delays: delays)
        case nil:
            throw Failure(
                message:
                    "the input is neither SCXML (it would start with '<') nor an XState config, as JSON (it would start with '{') or as JavaScript calling `createMachine(…)`; flowspec imports those",
                location: .start)
        }
    }
}

/// What the XML and JSON readers of an import hold every input to: how deep it nests, and how
/// long a name, value or string may be (``YAMLLimits``, which the command line sets).
struct ReadLimits: Sendable {
    var maxDepth = YAMLLimits().maxDepth
    var maxScalarLength = YAMLLimits().maxScalarLength
}

extension [MachineImporter.Note] {
    /// The notes of an invoked machine's input, each naming the input at `path`.
    func written(in path: String?) -> [MachineImporter.Note] {
        map { note in
            var note = note
            if note.file == nil { note.file = path }
            return note
        }
    }

    /// The notes in the order they are printed: the first input's, then each invoked input's
    /// by its path, each by where it is written.
    func sortedForPrinting() -> [MachineImporter.Note] {
        sorted { ($0.file ?? "", $0.location, $0.message) < ($1.file ?? "", $1.location, $1.message) }
    }
}
