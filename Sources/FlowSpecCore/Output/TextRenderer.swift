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

    /// Writes the findings to `output`, one after the other.
    func render(_ diagnostics: [Diagnostic], into output: inout some TextOutputStream) {
        var longLine = LongLine()
        for diagnostic in diagnostics {
            render(diagnostic, into: &output, longLine: &longLine)
        }
    }

    /// The characters of the last long line excerpted. Findings come sorted, and many can be
    /// on one long line (a list of 100,000 events, each unused): decoding the whole line for
    /// each of them made printing quadratic. Short lines are decoded each time (cheaply), so
    /// that a finding on a short line between two on the long one keeps the long one here.
    private struct LongLine {
        var file = ""
        var number = 0
        var scalars: [Unicode.Scalar] = []
    }

    /// The characters shown whole; a longer line is clipped to a window of this many.
    private static let excerptWidth = 120

    private func render(_ diagnostic: Diagnostic, into output: inout some TextOutputStream, longLine: inout LongLine) {
        let label = paint(
            diagnostic.severity.rawValue + ":",
            diagnostic.severity == .error ? "1;31" : diagnostic.severity == .warning ? "1;35" : "1;36")
        output.write(paint("\(diagnostic.file):\(diagnostic.location):", "1") + " \(label) ")
        output.write(paint(Self.visible(diagnostic.message), "1") + " [\(diagnostic.rule.rawValue)]\n")
        excerpt(diagnostic.file, at: diagnostic.location, into: &output, longLine: &longLine)
        for note in diagnostic.notes {
            let location = note.location ?? diagnostic.location
            output.write(
                paint("\(diagnostic.file):\(location):", "1")
                    + " \(paint("note:", "1;36")) \(Self.visible(note.message))\n")
            if let noteLocation = note.location, noteLocation != diagnostic.location {
                excerpt(diagnostic.file, at: noteLocation, into: &output, longLine: &longLine)
            }
        }
    }

    /// The characters of a line of a file: from `longLine` if it holds that line, else decoded
    /// (and kept in `longLine` if the line is longer than the excerpt's window).
    private func characters(of file: String, line number: Int, longLine: inout LongLine) -> [Unicode.Scalar]? {
        if longLine.number == number, longLine.file == file { return longLine.scalars }
        guard let line = lines[file]?.line(number) else { return nil }
        let scalars = Array(line.unicodeScalars)
        if scalars.count > Self.excerptWidth { longLine = LongLine(file: file, number: number, scalars: scalars) }
        return scalars
    }

    /// The source line and a caret under the column (tabs kept so the caret lines up). A long
    /// line is clipped to a window around the column, marked with `…`. Control characters are
    /// shown as `�`; invisible and bidirectional characters as escapes (see ``visible(_:)``),
    /// with the caret moved right by the escapes' extra width.
    private func excerpt(
        _ file: String, at location: SourceLocation, into output: inout some TextOutputStream,
        longLine: inout LongLine
    ) {
        guard var scalars = characters(of: file, line: location.line, longLine: &longLine) else { return }
        var column = max(0, location.column - 1)
        let width = Self.excerptWidth
        if scalars.count > width {
            let start = max(0, min(column - width / 2, scalars.count - width))
            let end = min(scalars.count, start + width)
            var window = Array(scalars[start..<end])
            if start > 0 {
                window.insert("…", at: 0)
                column = column - start + 1
            }
            if end < scalars.count { window.append("…") }
            scalars = window
        }
        // Most lines are printable ASCII: written as they are, the caret after as many spaces.
        if scalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) {
            output.write(String(decoding: scalars.map { UInt8($0.value) }, as: UTF8.self) + "\n")
            output.write(String(repeating: " ", count: min(column, scalars.count)) + paint("^", "1;32") + "\n")
            return
        }
        var text = ""
        var caret = ""
        for index in scalars.indices {
            let scalar = scalars[index]
            let shown: String
            if scalar == "\t" {
                shown = "\t"
            } else if Self.isControl(scalar) {
                shown = "�"
            } else if Self.isInvisible(scalars, at: index) {
                shown = Self.escape(scalar)
            } else {
                text.unicodeScalars.append(scalar)
                if index < column { caret.unicodeScalars.append(" ") }
                continue
            }
            text += shown
            if index < column {
                caret += scalar == "\t" ? "\t" : String(repeating: " ", count: shown.unicodeScalars.count)
            }
        }
        output.write(text + "\n")
        output.write(caret + paint("^", "1;32") + "\n")
    }

    /// A message with line breaks and other control characters (which spec names may hold)
    /// written as escapes, so that no spec can forge a line of output that Xcode or SwiftPM
    /// would read as a diagnostic, or send escape sequences to a terminal. (Diagrams use this;
    /// findings use ``visible(_:)``.)
    static func printable(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                result += escape(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A message as ``printable(_:)`` writes it, and with invisible and bidirectional
    /// characters written as escapes too (`sta\u{200B}rt`, see ``isInvisible(_:at:)``), so
    /// that no name in a finding can look like another or reorder the line it is printed on.
    static func visible(_ text: String) -> String {
        // Nearly every message is printable ASCII, or has only visible characters besides
        // (`→` in a loop's path): nothing to do.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        if !text.unicodeScalars.contains(where: { isControl($0) || mayBeInvisible($0) }) { return text }
        let array = Array(text.unicodeScalars)
        var result = ""
        for index in array.indices {
            let scalar = array[index]
            if isControl(scalar) || isInvisible(array, at: index) {
                result += escape(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A scalar as a Swift escape: `\u{200B}`.
    static func escape(_ scalar: Unicode.Scalar) -> String {
        "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
    }

    /// Whether the scalar at `index` is invisible or changes how text around it is shown:
    /// a format character (Unicode category Cf: zero-width spaces and joiners, U+2060 WORD
    /// JOINER, U+FEFF, the bidirectional controls U+202A–U+202E and U+2066–U+2069, U+00AD SOFT
    /// HYPHEN, …), any other default-ignorable code point (variation selectors, Hangul fillers,
    /// …), a noncharacter, or a space other than U+0020 (U+00A0 NO-BREAK SPACE, …). A zero-width
    /// joiner between two emoji, a variation selector after an emoji and the tag characters of
    /// a flag (🏴 and its tags) are part of the picture they draw and are kept.
    static func isInvisible(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        let scalar = scalars[index]
        guard mayBeInvisible(scalar) else { return false }
        switch scalar.value {
        case 0x200D:  // ZERO WIDTH JOINER, between two emoji.
            var before = index - 1
            while before >= 0, scalars[before] == "\u{FE0F}" { before -= 1 }
            return
                !(before >= 0 && isPictographic(scalars[before])
                && index + 1 < scalars.count && isPictographic(scalars[index + 1]))
        case 0xFE0E, 0xFE0F:  // VARIATION SELECTOR-15 and -16 (text and emoji style), after an emoji.
            return !(index > 0 && scalars[index - 1].properties.isEmoji)
        case 0xE0020...0xE007F:  // Tag characters, after 🏴 U+1F3F4 (subdivision flags).
            var before = index - 1
            while before >= 0, (0xE0020...0xE007F).contains(scalars[before].value) { before -= 1 }
            return !(before >= 0 && scalars[before] == "\u{1F3F4}")
        default:
            return true
        }
    }

    /// Whether a scalar is invisible wherever it stands (see ``isInvisible(_:at:)``), or only
    /// in some places (a joiner, a variation selector or a tag character outside the emoji
    /// they belong to).
    private static func mayBeInvisible(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0xA0 { return false }
        let properties = scalar.properties
        return properties.generalCategory == .format || properties.isDefaultIgnorableCodePoint
            || properties.isNoncharacterCodePoint || properties.generalCategory == .spaceSeparator
    }

    /// An emoji that is a picture (not an ASCII digit, `#` or `*`, which are emoji too).
    private static func isPictographic(_ scalar: Unicode.Scalar) -> Bool {
        !scalar.isASCII && scalar.properties.isEmoji
    }

    private func paint(_ text: String, _ code: String) -> String {
        colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
