/// Prints findings the way the Swift compiler does, so terminals, Xcode and SwiftPM show them
/// in place: `path:line:col: error: message [rule-id]`, the source line, a caret under the
/// column, then notes. Colour is used only when asked for (the CLI asks on a terminal).
struct TextRenderer {
    let colour: Bool
    private var lines: [String: LineIndex] = [:]

    /// Indexes the lines of the files that the diagnostics point into (only those: indexing
    /// a big file that checked clean would be wasted work).
    init(files: [SourceFile], colour: Bool, diagnostics: [Diagnostic]) {
        self.colour = colour
        let mentioned = Set(diagnostics.map(\.file))
        for file in files where lines[file.path] == nil && mentioned.contains(file.path) {
            lines[file.path] = LineIndex(file)
        }
    }

    func render(_ diagnostics: [Diagnostic]) -> String {
        var output = ""
        for diagnostic in diagnostics {
            render(diagnostic, into: &output)
        }
        return output
    }

    private func render(_ diagnostic: Diagnostic, into output: inout String) {
        let label = paint(diagnostic.severity.rawValue + ":", diagnostic.severity == .error ? "1;31" :
            diagnostic.severity == .warning ? "1;35" : "1;36")
        output += paint("\(diagnostic.file):\(diagnostic.location):", "1") + " \(label) "
        output += paint(Self.printable(diagnostic.message), "1") + " [\(diagnostic.rule.rawValue)]\n"
        excerpt(diagnostic.file, at: diagnostic.location, into: &output)
        for note in diagnostic.notes {
            let location = note.location ?? diagnostic.location
            output += paint("\(diagnostic.file):\(location):", "1") + " \(paint("note:", "1;36")) \(Self.printable(note.message))\n"
            if let noteLocation = note.location, noteLocation != diagnostic.location {
                excerpt(diagnostic.file, at: noteLocation, into: &output)
            }
        }
    }

    /// The source line and a caret under the column (tabs kept so the caret lines up). A long
    /// line is clipped to a window around the column, marked with `…`.
    private func excerpt(_ file: String, at location: SourceLocation, into output: inout String) {
        guard let line = lines[file]?.line(location.line) else { return }
        var scalars = Array(line.unicodeScalars)
        var column = max(0, location.column - 1)
        let width = 120
        if scalars.count > width {
            let start = max(0, min(column - width / 2, scalars.count - width))
            let end = min(scalars.count, start + width)
            var window = Array(scalars[start..<end])
            if start > 0 { window.insert("…", at: 0); column = column - start + 1 }
            if end < scalars.count { window.append("…") }
            scalars = window
        }
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars.map { $0 == "\t" || !Self.isControl($0) ? $0 : "�" })
        output += text + "\n"
        var caret = ""
        for scalar in scalars.prefix(column) {
            caret.unicodeScalars.append(scalar == "\t" ? "\t" : " ")
        }
        output += caret + paint("^", "1;32") + "\n"
    }

    /// A message with line breaks and other control characters (which spec names may hold)
    /// written as escapes, so that no spec can forge a line of output that Xcode or SwiftPM
    /// would read as a diagnostic, or send escape sequences to a terminal.
    static func printable(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
    }

    private func paint(_ text: String, _ code: String) -> String {
        colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
