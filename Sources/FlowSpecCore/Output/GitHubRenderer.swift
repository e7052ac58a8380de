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
        text.replacingAll([("%", "%25"), ("\r", "%0D"), ("\n", "%0A")])
    }

    /// Escapes a property value (also `:` and `,`).
    static func property(_ text: String) -> String {
        data(text).replacingAll([(":", "%3A"), (",", "%2C")])
    }
}

extension String {
    /// Replaces each character of the pairs in turn, first pair first.
    func replacingAll(_ pairs: [(Character, String)]) -> String {
        // Most texts hold none of the characters (all of them ASCII here): nothing to do.
        let bytes = pairs.compactMap { $0.0.isASCII ? $0.0.asciiValue : nil }
        if bytes.count == pairs.count, !utf8.contains(where: bytes.contains) { return self }
        var result = ""
        for character in self {
            if let replacement = pairs.first(where: { $0.0 == character })?.1 {
                result += replacement
            } else {
                result.append(character)
            }
        }
        return result
    }
}
