/// Prints findings as GitHub Actions workflow commands, which the Actions runner turns into
/// annotations on the spec's lines: `::error file=F,line=L,col=C,title=T::message`.
///
/// The message and each note are escaped as in text output (control, invisible and
/// bidirectional characters become `\u{…}`), so a name cannot pass for another in an
/// annotation either; the notes follow the message on lines of their own.
enum GitHubRenderer {
    static func render(_ diagnostics: [Diagnostic], into output: inout some TextOutputStream) {
        for diagnostic in diagnostics {
            let command = diagnostic.severity == .note ? "notice" : diagnostic.severity.rawValue
            var message = TextRenderer.visible(diagnostic.message)
            for note in diagnostic.notes {
                message += "\n" + (note.location.map { "\($0): " } ?? "") + TextRenderer.visible(note.message)
            }
            let title = "flowspec \(diagnostic.rule.rawValue)"
            output.write("::\(command) file=\(property(diagnostic.file)),line=\(diagnostic.location.line),")
            output.write("col=\(diagnostic.location.column),title=\(property(title))::\(data(message))\n")
        }
    }

    /// Escapes a command's message (`%`, CR, LF).
    static func data(_ text: String) -> String {
        dataEscapes.apply(to: text)
    }

    /// Escapes a property value (also `:` and `,`).
    static func property(_ text: String) -> String {
        propertyEscapes.apply(to: text)
    }

    private static let dataPairs: [(Unicode.Scalar, String)] = [("%", "%25"), ("\r", "%0D"), ("\n", "%0A")]
    private static let dataEscapes = ASCIIEscapes(dataPairs)
    private static let propertyEscapes = ASCIIEscapes(dataPairs + [(":", "%3A"), (",", "%2C")])
}

/// Replaces ASCII characters with texts, in one pass over a text's UTF-8 bytes: an ASCII byte
/// in UTF-8 is always that character, and `\r\n` is two of them (as a `Character` it is one,
/// which would match neither).
struct ASCIIEscapes: Sendable {
    /// The replacement of each ASCII byte, if it has one.
    private var replacements: [[UInt8]?] = Array(repeating: nil, count: 128)

    init(_ pairs: [(Unicode.Scalar, String)]) {
        for (scalar, replacement) in pairs where scalar.isASCII {
            replacements[Int(scalar.value)] = Array(replacement.utf8)
        }
    }

    func apply(to text: String) -> String {
        var contiguous = text
        return contiguous.withUTF8 { bytes in
            // Most texts hold none of the characters: nothing to do.
            guard bytes.contains(where: { $0 < 0x80 && replacements[Int($0)] != nil }) else { return text }
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count + 16)
            for byte in bytes {
                if byte < 0x80, let replacement = replacements[Int(byte)] {
                    result.append(contentsOf: replacement)
                } else {
                    result.append(byte)
                }
            }
            return String(decoding: result, as: UTF8.self)
        }
    }
}
