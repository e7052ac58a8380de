extension TraceLine.Input {
    /// The input a line names, as ``text`` writes it; anything else is an event's name.
    init(reading text: String) {
        if text == "start" {
            self = .start
        } else if text.hasPrefix("restore("), text.hasSuffix(")") {
            self = .restore(String(text.dropFirst("restore(".count).dropLast()))
        } else if text == "@timeout" {
            self = .timeout
        } else if text == "@conditions" {
            self = .conditions
        } else if text.hasPrefix("@timeout("), text.hasSuffix(")") {
            self = .timeoutOf(String(text.dropFirst("@timeout(".count).dropLast()))
        } else {
            self = .event(text)
        }
    }
}

extension TraceLine {
    /// A line of a trace, read: what ``text(input:state:ignored:effects:timeouts:)`` and
    /// ``condition(_:holds:)`` write, and what a trace may hold besides.
    enum Entry: Equatable {
        /// A blank line, or a `#` comment (the sub-flow notes `simulate` writes).
        case skipped
        /// `+name` or `-name`: a condition changed.
        case condition(String, holds: Bool)
        /// A step: its input (`start` may be the event of that name after the first step;
        /// the reader of the trace decides) and the whole line as written.
        case step(Input, line: String)
        /// Anything else.
        case unreadable
    }

    /// Reads one line of a trace (a carriage return before the line feed is dropped).
    static func read(_ raw: Substring) -> Entry {
        var content = String(raw)
        if content.hasSuffix("\r") { content.removeLast() }
        if content.isEmpty || content.hasPrefix("#") { return .skipped }
        guard let arrow = content.firstRange(of: " -> ") else {
            guard let sign = content.first, sign == "+" || sign == "-", content.count > 1 else { return .unreadable }
            return .condition(unescaped(String(content.dropFirst())), holds: sign == "+")
        }
        // Names and restored values are written with their control characters escaped.
        return .step(Input(reading: unescaped(String(content[..<arrow.lowerBound]))), line: content)
    }
}

extension Simulation.Step {
    /// The step an input names as `flowspec simulate` takes it on its command line: an event's
    /// name, `@timeout`, `@timeout(NAME)`, `+condition` or `-condition`, as a trace writes them.
    public init(token: String) {
        if let sign = token.first, sign == "+" || sign == "-" {
            self = .condition(String(token.dropFirst()), sign == "+")
            return
        }
        switch TraceLine.Input(reading: token) {
        case .timeout: self = .timeout
        case .timeoutOf(let name): self = .compoundTimeout(name)
        case .conditions: self = .conditionsChanged
        default: self = .event(token)
        }
    }
}
