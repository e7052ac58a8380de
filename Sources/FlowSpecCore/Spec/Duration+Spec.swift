extension Duration {
    /// Parses a spec duration: a positive whole number with a unit, `ms`, `s`, `m` or `h`
    /// (`250ms`, `2s`, `5m`). Returns `nil` for anything else, including zero and values too
    /// large to represent.
    public static func parseSpec(_ text: String) -> Duration? {
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        let unit = text.dropFirst(digits.count)
        guard !digits.isEmpty, let value = Int64(digits), value > 0 else { return nil }
        let millisecondsPerUnit: Int64
        switch unit {
        case "ms": millisecondsPerUnit = 1
        case "s": millisecondsPerUnit = 1_000
        case "m": millisecondsPerUnit = 60_000
        case "h": millisecondsPerUnit = 3_600_000
        default: return nil
        }
        let (milliseconds, overflow) = value.multipliedReportingOverflow(by: millisecondsPerUnit)
        guard !overflow, milliseconds <= Int64.max / 1_000_000 else { return nil }
        return .milliseconds(milliseconds)
    }

    /// The duration in whole milliseconds.
    public var wholeMilliseconds: Int64 {
        components.seconds * 1_000 + components.attoseconds / 1_000_000_000_000_000
    }

    /// The shortest spec spelling of the duration (`2s`, `250ms`, `5m`).
    public var specDescription: String {
        let ms = wholeMilliseconds
        if ms % 3_600_000 == 0 { return "\(ms / 3_600_000)h" }
        if ms % 60_000 == 0 { return "\(ms / 60_000)m" }
        if ms % 1_000 == 0 { return "\(ms / 1_000)s" }
        return "\(ms)ms"
    }
}
