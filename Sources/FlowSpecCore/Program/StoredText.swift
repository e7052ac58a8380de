/// A persisted machine's stored values as one text, the way a trace's `restore(…)` and
/// `flowspec simulate --restore` write them: the state's value, then `; COMPOUND=VALUE` for
/// each compound state whose memory is stored (what a history state inside it resumes).
enum StoredText {
    /// The text of a state's value and the memory stored beside it.
    static func text(value: String, memory: [(compound: String, value: String)]) -> String {
        value + memory.map { "; \($0.compound)=\($0.value)" }.joined()
    }

    /// The state's value (`nil` for none) and the memory, from a text: a part without `=` after
    /// the first is ignored, as a value no compound state stores would be.
    static func parse(_ text: String?) -> (value: String?, memory: [(compound: String, value: String)]) {
        guard let text else { return (nil, []) }
        let parts = text.split(separator: "; ", omittingEmptySubsequences: false).map(String.init)
        let memory = parts.dropFirst().compactMap { part -> (compound: String, value: String)? in
            guard let equals = part.firstIndex(of: "=") else { return nil }
            return (String(part[..<equals]), String(part[part.index(after: equals)...]))
        }
        let value = parts[0] == "nil" && parts.count > 1 ? nil : parts[0]
        return (value, memory)
    }
}
