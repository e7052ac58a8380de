/// Where the cursor is in a spec's structure, read from the text around it, since a spec
/// being typed often does not parse: the keys from the document's root to the mapping the
/// cursor is in, and whether a key is being typed there.
///
/// Block style is read by indentation from the lines above; flow style (`{ ... }`, `[ ... ]`)
/// by the brackets still open on the cursor's line. List items add no key.
struct CursorContext {
    /// The keys from the root to the mapping or list the cursor is in.
    private(set) var path: [String] = []
    /// Whether the cursor is where a key is written (not after a key's `:`, nor in a list).
    private(set) var typingKey = false
    /// The key whose value (or one of whose list items) is being typed, if any.
    private(set) var valueKey: String?

    /// The context of the cursor on `line` (0-based) after the text `before`.
    init(lines: [Substring], line: Int, before: String) {
        let cursorLine = Self.parts(Substring(before))
        let flow = Self.openCollections(cursorLine.text)
        path = Self.ancestors(lines: lines, above: line, limit: cursorLine.keyIndent) + flow.keys
        typingKey = flow.inMapping && !flow.afterSeparator.contains(":")
        if let colon = flow.afterSeparator.lastIndex(of: ":") {
            valueKey = Self.key(before: flow.afterSeparator[...colon])
        } else if !flow.inMapping {
            valueKey = flow.innermostKey
        }
    }

    /// The flow collections still open at the end of `text`: the keys they are the values of,
    /// whether the innermost is a mapping (or none is open) and its key, and the text after
    /// the last bracket or comma. Quoted text is skipped.
    private static func openCollections(_ text: Substring) -> (
        keys: [String], inMapping: Bool, innermostKey: String?, afterSeparator: Substring
    ) {
        var open: [(bracket: Character, key: String?)] = []
        var afterSeparator = text
        var quote: Character?
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if let opening = quote {
                if character == opening { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "{" || character == "[" {
                open.append((character, key(before: text[..<index])))
                afterSeparator = text[next...]
            } else if character == "}" || character == "]" {
                _ = open.popLast()
                afterSeparator = text[next...]
            } else if character == "," {
                afterSeparator = text[next...]
            }
            index = next
        }
        return (open.compactMap(\.key), open.last?.bracket != "[", open.last?.key, afterSeparator)
    }

    /// A line's key column (after any `- `), and its text from there.
    private static func parts(_ line: Substring) -> (keyIndent: Int, dashIndent: Int?, text: Substring) {
        var text = line.drop { $0 == " " }
        var indent = line.count - text.count
        var dash: Int?
        while text.hasPrefix("- ") || text == "-" {
            dash = dash ?? indent
            let rest = text.dropFirst().drop { $0 == " " }
            indent += text.count - rest.count
            text = rest
        }
        return (indent, dash, text)
    }

    /// The keys of the block mappings that hold a line whose key column is `limit`.
    private static func ancestors(lines: [Substring], above line: Int, limit: Int) -> [String] {
        var keys: [String] = []
        var limit = limit
        var index = min(line, lines.count) - 1
        while index >= 0, limit > 0 {
            let parts = parts(lines[index])
            index -= 1
            if parts.text.isEmpty || parts.text.hasPrefix("#") { continue }
            if parts.keyIndent < limit, let key = key(opening: parts.text) {
                keys.append(key)
                limit = parts.dashIndent ?? parts.keyIndent
            } else if let dash = parts.dashIndent, dash < limit {
                limit = dash
            } else if parts.keyIndent < limit {
                limit = parts.keyIndent
            }
        }
        return keys.reversed()
    }

    /// The key a line starts with, if any (`name:` or `"name":`).
    private static func key(opening text: Substring) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let key = text[..<colon].trimmingTrailingSpaces
        return unquoted(key)
    }

    /// The key written just before `text`'s end, as in `name: ` or `name:`.
    private static func key(before text: Substring) -> String? {
        let trimmed = text.trimmingTrailingSpaces
        guard trimmed.hasSuffix(":") else { return nil }
        let beforeColon = trimmed.dropLast().trimmingTrailingSpaces
        let start =
            beforeColon.lastIndex { " {[,".contains($0) }.map(beforeColon.index(after:)) ?? beforeColon.startIndex
        let key = beforeColon[start...]
        return key.isEmpty ? nil : unquoted(key)
    }

    private static func unquoted(_ key: Substring) -> String {
        if key.count >= 2, let first = key.first, first == "\"" || first == "'", key.last == first {
            return String(key.dropFirst().dropLast())
        }
        return String(key)
    }
}
