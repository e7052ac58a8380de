/// Turns spec names into Swift identifiers, in one place, so that no spec can make generated
/// code mean something other than the spec.
///
/// A name is made of ASCII letters, digits and `_`, optionally split by the separators `-`,
/// `.` and space, which are removed with the next letter capitalised (`slide-0` → `slide0`,
/// `sign-in` → `signIn`). It must not start with a digit. Anything else (quotes, braces,
/// emoji, other Unicode) is rejected as `invalid-identifier`, never escaped into code.
/// Swift keywords are written in backticks (`` `default` ``); names that backticks cannot make
/// ordinary (`self`, `Self`, `Type`, `init`, …) and names the generated types already use
/// (`allCases`, `rawValue`, …) get a trailing `_`. Two names that end up as the same
/// identifier in one scope are an `identifier-collision`.
public struct SwiftName: Sendable, Hashable {
    /// The identifier as it appears after a `.` or in a declaration (with backticks if needed).
    public let code: String
    /// The identifier without backticks, for collision checks and derived names.
    public let bare: String

    /// Where a name is used in generated code; each scope reserves the members it generates.
    public enum Scope: Sendable {
        /// A machine: a top-level type name.
        case machine
        /// A case of the generated `State`, `Event`, `Effect` or `StateSequence` enums.
        case enumCase
        /// A stored property of the generated `Conditions` struct.
        case property
    }

    /// Why a name cannot become an identifier, for the finding's message.
    public enum Problem: Sendable, Equatable {
        case empty
        case startsWithDigit
        case character(Character)
        case reserved
    }

    /// The identifier for `name` in `scope`, or why there is none.
    public static func make(_ name: String, scope: Scope) -> Result<SwiftName, ProblemError> {
        var bare = isPlainIdentifier(name) ? name : ""
        if bare.isEmpty, let problem = joinWords(name, into: &bare) { return .failure(problem) }
        guard let first = bare.utf8.first else { return .failure(ProblemError(problem: .empty)) }
        if first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9") {
            return .failure(ProblemError(problem: .startsWithDigit))
        }
        // Most names are no special word: one lookup (none for a name with a digit) says so.
        guard !containsDigit(bare), specialWords.contains(bare) else {
            return .success(SwiftName(code: bare, bare: bare))
        }
        if scope == .machine, reservedTypeNames.contains(bare) {
            return .failure(ProblemError(problem: .reserved))
        }
        if suffixed.contains(bare) || (scope == .enumCase && reservedCaseNames.contains(bare))
            || (scope == .property && reservedPropertyNames.contains(bare))
        {
            bare += "_"
        }
        let code = keywords.contains(bare) ? "`\(bare)`" : bare
        return .success(SwiftName(code: code, bare: bare))
    }

    /// Every word of the lists below. None has a digit (a test holds them to it).
    static let specialWords = keywords.union(suffixed).union(reservedCaseNames).union(reservedPropertyNames)
        .union(reservedTypeNames)

    /// Whether a name is already an identifier's text: only ASCII letters, digits and `_`
    /// (most names are; they need no rewriting).
    private static func isPlainIdentifier(_ name: String) -> Bool {
        var name = name
        // Over the bytes in place: iterating `utf8` costs several times as much a byte, and a
        // spec's every name comes here.
        return name.withUTF8 { bytes in
            !bytes.isEmpty
                && bytes.allSatisfy { byte in
                    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                        || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
                }
        }
    }

    private static func containsDigit(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in bytes.contains { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } }
    }

    /// Removes the separators `-`, `.` and space, capitalising the letter after each, into
    /// `bare`; returns the problem when the name has any other character.
    private static func joinWords(_ name: String, into bare: inout String) -> ProblemError? {
        var capitaliseNext = false
        for scalar in name.unicodeScalars {
            if scalar == "-" || scalar == "." || scalar == " " {
                capitaliseNext = !bare.isEmpty
                continue
            }
            guard isASCIILetterOrDigit(scalar) || scalar == "_" else {
                return ProblemError(problem: .character(Character(scalar)))
            }
            bare.unicodeScalars.append(capitaliseNext ? uppercased(scalar) : scalar)
            capitaliseNext = false
        }
        return nil
    }

    private static func isASCIILetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }

    private static func uppercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        ("a"..."z").contains(scalar) ? Unicode.Scalar(scalar.value - 32)! : scalar
    }

    /// A problem as an `Error`, for `Result`.
    public struct ProblemError: Error, Sendable, Equatable {
        /// The problem.
        public let problem: Problem

        /// A sentence for findings.
        public var explanation: String {
            let rule =
                "names use ASCII letters, digits and '_', may be split by '-', '.' or spaces, and do not start with a digit"
            switch problem {
            case .empty: return "it has no letters or digits; \(rule)"
            case .startsWithDigit: return "it starts with a digit; \(rule)"
            case .character(let character):
                let shown = character.unicodeScalars.map { scalar in
                    scalar.isASCII && scalar.value >= 0x20 && scalar.value < 0x7F
                        ? "'\(Character(scalar))'"
                        : "U+\(String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4))"
                }.joined(separator: " ")
                return "it contains \(shown); \(rule)"
            case .reserved:
                return
                    "the generated code needs this name for the Swift standard library or the flowspec runtime; choose another"
            }
        }
    }

    /// Swift's keywords (declarations, statements, expressions and types, and contextual ones
    /// that cannot stand as plain identifiers everywhere).
    static let keywords: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate",
        "func", "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "private",
        "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias",
        "var", "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for",
        "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await",
        "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "_", "async", "each",
        "some", "any", "package", "macro", "actor", "consume", "copy", "discard", "sending"
    ]

    /// Names that stay special even in backticks in some positions; they get a `_` suffix.
    static let suffixed: Set<String> = [
        "self", "Self", "Type", "Protocol", "init", "deinit", "subscript", "super", "_", "Any"
    ]

    /// Members the generated enums have besides their cases, and names their bodies use
    /// unqualified: a case `RawValue` stops `RawRepresentable` being synthesised; in the table
    /// form (index-backed structs) a member `Swift` would hide the module in `Swift.String(…)`,
    /// and one named like a names table would hide that table.
    static let reservedCaseNames: Set<String> = [
        "allCases", "rawValue", "hashValue", "hash", "encode", "description", "debugDescription", "ordinal",
        "RawValue", "Swift", "stateNames", "stateNamesIndex", "eventNames", "eventNamesIndex",
        "effectNames", "effectNamesIndex", "compoundNames", "compoundNamesIndex"
    ]

    /// Members the generated `Conditions` struct has besides its properties.
    static let reservedPropertyNames: Set<String> = ["hashValue", "hash", "encode", "none"]

    /// Type names the generated code refers to unqualified or as modules (the standard library,
    /// the flowspec runtime, which every generated file imports, and the modules generated test
    /// suites import), and the default
    /// literal types, which the compiler looks up unqualified in the module: a top-level type
    /// `FloatLiteralType` breaks every `1.5` in the app, and with `IntegerLiteralType` beside
    /// it the compiler crashes on the generated `Hashable` conformances.
    static let reservedTypeNames: Set<String> = [
        "Swift", "Foundation", "Glibc", "Darwin", "FlowSpecRuntime", "FlowSpecTesting", "Testing",
        "IntegerLiteralType", "FloatLiteralType", "BooleanLiteralType", "StringLiteralType",
        "UnicodeScalarType", "ExtendedGraphemeClusterType"
    ]
}
