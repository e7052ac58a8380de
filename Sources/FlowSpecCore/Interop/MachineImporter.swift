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
    public struct Result: Sendable {
        /// The spec's text (YAML), ready to check.
        public var spec: String
        /// The machine's name.
        public var machine: String
        /// What was not imported, each where it is written.
        public var notImported: [Note]
    }

    /// Something of the input the spec does not hold.
    public struct Note: Sendable, Equatable {
        /// Where it is written in the input.
        public var location: SourceLocation
        /// What it is, and why it is left out.
        public var message: String
    }

    /// An input that cannot be read as a machine, and where.
    public struct Failure: Error, Sendable, Equatable {
        public var message: String
        public var location: SourceLocation
    }

    /// The format of an input, from its first character past white space and a byte order
    /// mark: `<` for SCXML, `{` or `[` for JSON (an XState config); `nil` for anything else.
    public static func format(of bytes: [UInt8]) -> Format? {
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        switch first {
        case UInt8(ascii: "<"): return .scxml
        case UInt8(ascii: "{"), UInt8(ascii: "["): return .xstate
        default: return nil
        }
    }

    /// Imports the machine in `bytes`, in the format its content shows; `machine` names the
    /// machine (else the input's own name, else `fallbackName`).
    public static func importMachine(
        _ bytes: [UInt8], machine: String? = nil, fallbackName: String = "Imported",
        maxDepth: Int = YAMLLimits().maxDepth
    ) throws(Failure) -> Result {
        switch format(of: bytes) {
        case .scxml:
            return try SCXMLImporter.importDocument(
                bytes, machine: machine, fallbackName: fallbackName, maxDepth: maxDepth)
        case .xstate:
            return try XStateImporter.importConfig(
                bytes, machine: machine, fallbackName: fallbackName, maxDepth: maxDepth)
        case nil:
            throw Failure(
                message:
                    "the input is neither SCXML (it would start with '<') nor an XState config as JSON (it would start with '{'); flowspec imports those two",
                location: .start)
        }
    }
}
