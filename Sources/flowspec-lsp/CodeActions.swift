import FlowSpecCore

/// Quick fixes for the findings under the cursor, each an edit of the text: write what a
/// "did you mean" suggests, give a task state a `timeout` skeleton, declare an undeclared
/// name, remove an unused one. The edits keep the style the spec is written in (a flow
/// mapping or list on one line, or block style).
struct CodeActions {
    let uri: String
    let result: SpecChecker.Checked
    let findings: [Diagnostic]
    let lines: [Substring]

    /// How long the timeout skeleton waits: an author's first guess, to be tuned.
    static let skeletonDelay = "30s"

    /// `textDocument/codeAction`: the fixes for the findings whose range meets `range`
    /// (0-based lines, UTF-16 offsets), in the order of the findings.
    func actions(in range: (start: (line: Int, character: Int), end: (line: Int, character: Int))) -> [[String: Any]] {
        findings.compactMap { finding -> [String: Any]? in
            let found = Document.range(finding.location, lines)
            guard Document.range(found, meets: range) else { return nil }
            let fix: (title: String, edit: [String: Any])?
            switch (finding.rule, finding.fix) {
            case (_, .addTimeout(let target)?): fix = timeoutSkeleton(finding, to: target)
            case (.unusedName, _): fix = removal(finding)
            case (_, .declare(let category, let name)?): fix = declaration(of: name, as: category, finding)
            case (_, .replace(let text)?): fix = ("Change to '\(text)'", ["range": found, "newText": text])
            case (_, nil): fix = nil
            }
            guard let fix else { return nil }
            return [
                "title": fix.title, "kind": "quickfix", "isPreferred": true,
                "diagnostics": [["range": found, "code": finding.rule.rawValue, "message": finding.message]],
                "edit": ["changes": [uri: [fix.edit]]] as [String: Any]
            ]
        }
    }

    /// `missing-timeout` on a task: `timeout: { after: 30s, to: T }` in the state, where T is
    /// the target the check chose (``MissingTimeoutCheck/timeoutTarget(of:_:)``).
    private func timeoutSkeleton(_ finding: Diagnostic, to target: String) -> (String, [String: Any])? {
        let entry = "timeout: { after: \(Self.skeletonDelay), to: \(target) }"
        let title = "Add a \(Self.skeletonDelay) timeout to '\(target)'"
        let line = finding.location.line - 1
        return (title, addEntry(entry, toMappingAt: line, indent: indentation(of: line) + 2))
    }

    /// `undeclared-name`: the name added to the machine's list of its kind, or the list added
    /// with it.
    private func declaration(of name: String, as category: NameCategory, _ finding: Diagnostic) -> (
        String, [String: Any]
    )? {
        guard let machine = machine(of: finding) else { return nil }
        let key = category.key
        let title = "Declare \(category.rawValue) '\(name)'"
        let machineLine = machine.name.location.line - 1
        let keyIndent = indentation(of: bodyLine(after: machineLine) ?? machineLine + 1)
        guard let keyLine = keyLine(key, in: machine, indent: keyIndent) else {
            return (
                title, insertLine("\(String(repeating: " ", count: keyIndent))\(key): [\(name)]", after: machineLine)
            )
        }
        return (title, addItem(name, toListAt: keyLine, indent: keyIndent + 2))
    }

    /// `unused-name`: the declaration taken out of its list.
    private func removal(_ finding: Diagnostic) -> (String, [String: Any])? {
        guard let name = finding.subjects.first else { return nil }
        let title = "Remove unused '\(name)'"
        let line = finding.location.line - 1
        guard lines.indices.contains(line) else { return nil }
        let scalars = Array(lines[line].unicodeScalars)
        let start = min(finding.location.column - 1, scalars.count)
        var end = start
        if end < scalars.count, scalars[end] == "\"" || scalars[end] == "'" {
            let quote = scalars[end]
            end += 1
            while end < scalars.count, scalars[end] != quote { end += 1 }
            end = min(end + 1, scalars.count)
        } else {
            while end < scalars.count, !",] #".unicodeScalars.contains(scalars[end]) { end += 1 }
        }
        let before = String(String.UnicodeScalarView(scalars[..<start])).trimmingTrailingSpaces
        if before.hasSuffix("-"), before.dropLast().allSatisfy({ $0 == " " }) {
            // A block list item: the whole line goes.
            return (title, edit(from: (line, 0), to: (line + 1, 0), ""))
        }
        // In a flow list: the name with the separator after it, or else the one before it.
        var after = end
        while after < scalars.count, scalars[after] == " " { after += 1 }
        if after < scalars.count, scalars[after] == "," {
            after += 1
            while after < scalars.count, scalars[after] == " " { after += 1 }
            return (title, edit(from: (line, column(scalars, start)), to: (line, column(scalars, after)), ""))
        }
        var from = start
        while from > 0, scalars[from - 1] == " " { from -= 1 }
        if from > 0, scalars[from - 1] == "," { from -= 1 }
        return (title, edit(from: (line, column(scalars, from)), to: (line, column(scalars, end)), ""))
    }

    // MARK: Text

    /// Adds `entry` to the mapping that is the value of the key on `line`: inside its braces
    /// when it is a flow mapping on that line, else as a line of its own below the key.
    private func addEntry(_ entry: String, toMappingAt line: Int, indent: Int) -> [String: Any] {
        var text = Substring(lines[line])
        if let comment = text.range(of: " #") { text = text[..<comment.lowerBound] }
        let value = text.drop { $0 != ":" }.dropFirst().drop { $0 == " " }.trimmingTrailingSpaces
        if value.hasPrefix("{"), value.hasSuffix("}"), let open = text.firstIndex(of: "{"),
            let close = text.lastIndex(of: "}")
        {
            let afterOpen = text.index(after: open)
            if text[afterOpen..<close].allSatisfy({ $0 == " " }) {
                return edit(
                    from: (line, text[..<afterOpen].utf16.count), to: (line, text[..<close].utf16.count), " \(entry) ")
            }
            let end = text[..<close].trimmingTrailingSpaces.utf16.count
            return edit(from: (line, end), to: (line, end), ", \(entry)")
        }
        let body = bodyLine(after: line).map(indentation(of:)).flatMap { $0 > indentation(of: line) ? $0 : nil }
        return insertLine(String(repeating: " ", count: body ?? indent) + entry, after: line)
    }

    /// Adds `item` to the list that is the value of the key on `line`: before the `]` of a
    /// flow list, or as a `- item` line after a block list's last item.
    private func addItem(_ item: String, toListAt line: Int, indent: Int) -> [String: Any] {
        for index in line..<lines.count {
            let text = String(lines[index])
            guard let close = text.firstIndex(of: "]") else {
                if index == line, !text.contains("[") { break }
                continue
            }
            let start = index == line ? text.index(after: text.firstIndex(of: "[") ?? text.startIndex) : text.startIndex
            let empty = index == line && text[start..<close].allSatisfy { $0 == " " }
            let end = text[..<close].trimmingTrailingSpaces.utf16.count
            return edit(from: (index, end), to: (index, text[..<close].utf16.count), empty ? item : ", \(item)")
        }
        var last = line
        var itemIndent = indent
        var next = line + 1
        while next < lines.count {
            let text = lines[next]
            let trimmed = text.drop { $0 == " " }
            if trimmed.isEmpty || trimmed.hasPrefix("#") {
                next += 1
                continue
            }
            guard trimmed.hasPrefix("- "), indentation(of: next) > indentation(of: line) else { break }
            itemIndent = indentation(of: next)
            last = next
            next += 1
        }
        return insertLine(String(repeating: " ", count: itemIndent) + "- " + item, after: last)
    }

    /// The line of `key:` among the machine's own keys (at `indent`), if the machine has it.
    private func keyLine(_ key: String, in machine: MachineSpec, indent: Int) -> Int? {
        var line = machine.name.location.line
        while line < lines.count {
            let text = lines[line]
            let trimmed = text.drop { $0 == " " }
            if !trimmed.isEmpty, !trimmed.hasPrefix("#") {
                let depth = indentation(of: line)
                if depth < indent { return nil }
                if depth == indent, trimmed.hasPrefix("\(key):") { return line }
            }
            line += 1
        }
        return nil
    }

    /// The first line after `line` that holds something other than a comment.
    private func bodyLine(after line: Int) -> Int? {
        ((line + 1)..<lines.count).first { index in
            let trimmed = lines[index].drop { $0 == " " }
            return !trimmed.isEmpty && !trimmed.hasPrefix("#")
        }
    }

    private func indentation(of line: Int) -> Int {
        lines.indices.contains(line) ? lines[line].prefix { $0 == " " }.count : 0
    }

    private func column(_ scalars: [Unicode.Scalar], _ count: Int) -> Int {
        scalars[..<count].reduce(0) { $0 + $1.utf16.count }
    }

    private func insertLine(_ text: String, after line: Int) -> [String: Any] {
        edit(from: (line + 1, 0), to: (line + 1, 0), text + "\n")
    }

    private func edit(from start: (Int, Int), to end: (Int, Int), _ newText: String) -> [String: Any] {
        [
            "range": [
                "start": ["line": start.0, "character": start.1], "end": ["line": end.0, "character": end.1]
            ] as [String: Any],
            "newText": newText
        ]
    }

    private func machine(of finding: Diagnostic) -> MachineSpec? {
        result.spec.machines.first { $0.name.value == finding.machine }
    }
}

extension StringProtocol {
    /// The text without the spaces it ends with.
    var trimmingTrailingSpaces: Substring {
        var text = Substring(self)
        while text.last == " " { text.removeLast() }
        return text
    }
}
