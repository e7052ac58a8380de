/// Writes Swift source line by line with indentation; the generators build declarations
/// through it rather than from string templates.
struct SwiftWriter {
    private(set) var text = ""
    private var depth = 0

    /// Appends one line at the current indentation (an empty string gives an empty line).
    mutating func line(_ content: String = "") {
        if content.isEmpty {
            text += "\n"
        } else {
            text += String(repeating: "    ", count: depth) + content + "\n"
        }
    }

    /// Appends the lines `body` writes one level deeper (a bracketed list's items).
    mutating func indented(_ body: (inout SwiftWriter) -> Void) {
        depth += 1
        body(&self)
        depth -= 1
    }

    /// Appends `header {`, the body one level deeper, then `}`.
    mutating func block(_ header: String, _ body: (inout SwiftWriter) -> Void) {
        line(header + " {")
        depth += 1
        body(&self)
        depth -= 1
        line("}")
    }

    /// Appends `opening` as written (such as `list.map { item in`), the body one level deeper,
    /// and `closing`.
    mutating func nested(_ opening: String, closing: String = "}", _ body: (inout SwiftWriter) -> Void) {
        line(opening)
        depth += 1
        body(&self)
        depth -= 1
        line(closing)
    }

    /// Appends `switch subject {`, the cases at the same indentation (Swift's convention), and `}`.
    mutating func switchBlock(_ header: String, _ body: (inout SwiftWriter) -> Void) {
        line(header + " {")
        body(&self)
        line("}")
    }

    /// Appends a multi-line string literal: `opening` and `"""`, each line one level deeper,
    /// then `"""` and `closing` at that depth (so the literal's indentation is stripped).
    mutating func multilineLiteral(_ opening: String, _ lines: [String], _ closing: String) {
        line(opening + "\"\"\"")
        depth += 1
        for content in lines { line(content) }
        line("\"\"\"" + closing)
        depth -= 1
    }

    /// Appends a `///` documentation comment, one line per line of `text`, with control
    /// characters dropped so no spec text can end the comment or become code.
    mutating func doc(_ text: String?) {
        guard var text else { return }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        guard !text.isEmpty else { return }
        for part in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let clean = String(
                String.UnicodeScalarView(
                    part.unicodeScalars.filter {
                        $0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value)
                            && $0 != "\u{2028}" && $0 != "\u{2029}"
                    }))
            line(clean.isEmpty ? "///" : "/// " + clean)
        }
    }
}
