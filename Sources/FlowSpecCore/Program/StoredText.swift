/// A persisted machine's stored values as one text, the way a trace's `restore(…)` and
/// `flowspec simulate --restore` write them: the state's value, then `, REGION=VALUE` for each
/// region whose stored state the restore takes (parallel states), then `; COMPOUND=VALUE` for
/// each compound state whose memory is stored (what a history state inside it resumes).
enum StoredText {
    /// A region's or compound state's name and a stored value.
    typealias Named = (name: String, value: String)

    /// The text of a state's value, the regions' and the memory stored beside them.
    static func text(value: String, regions: [Named] = [], memory: [Named]) -> String {
        value + regions.map { ", \($0.name)=\($0.value)" }.joined() + memory.map { "; \($0.name)=\($0.value)" }.joined()
    }

    /// The state's value (`nil` for none), the regions' and the memory, from a text: a part
    /// without `=` after the first is ignored, as a value nothing stores would be.
    static func parse(_ text: String?) -> (value: String?, regions: [Named], memory: [Named]) {
        guard let text else { return (nil, [], []) }
        let parts = text.split(separator: "; ", omittingEmptySubsequences: false).map(String.init)
        let configuration = parts[0].split(separator: ", ", omittingEmptySubsequences: false).map(String.init)
        // `nil` stands for no value only before a region's or a memory's (the callers read
        // `restore(nil)` alone themselves).
        let value = configuration[0] == "nil" && parts.count + configuration.count > 2 ? nil : configuration[0]
        return (value, configuration.dropFirst().compactMap(named), parts.dropFirst().compactMap(named))
    }

    /// `NAME=VALUE` split at its first `=`, or `nil` without one.
    private static func named(_ part: String) -> Named? {
        guard let equals = part.firstIndex(of: "=") else { return nil }
        return (String(part[..<equals]), String(part[part.index(after: equals)...]))
    }
}
