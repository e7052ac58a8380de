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
    /// Replaces each ASCII character of the pairs with its text. Byte by byte: an ASCII byte
    /// in UTF-8 is always that character, and `\r\n` is two of them (as a `Character` it is
    /// one, which would match neither).
    func replacingAll(_ pairs: [(Unicode.Scalar, String)]) -> String {
        var table = [Int8](repeating: -1, count: 128)  // the pair each ASCII byte is replaced by
        for (index, pair) in pairs.enumerated() where pair.0.isASCII { table[Int(pair.0.value)] = Int8(index) }
        var text = self
        return text.withUTF8 { bytes in
            // Most texts hold none of the characters: nothing to do.
            guard bytes.contains(where: { $0 < 0x80 && table[Int($0)] >= 0 }) else { return self }
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count + 16)
            for byte in bytes {
                if byte < 0x80, table[Int(byte)] >= 0 {
                    result.append(contentsOf: pairs[Int(table[Int(byte)])].1.utf8)
                } else {
                    result.append(byte)
                }
            }
            return String(decoding: result, as: UTF8.self)
        }
    }
}
