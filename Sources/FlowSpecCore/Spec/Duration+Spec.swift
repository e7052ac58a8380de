extension Duration {
    /// Parses a spec duration: a positive whole number with a unit, `ms`, `s`, `m` or `h`
    /// (`250ms`, `2s`, `5m`). Returns `nil` for anything else, including zero and values too
    /// large to represent.
    public static func parseSpec(_ text: String) -> Duration? {
        var value: Int64 = 0
        var digits = 0
        var overflow = false
        // The unit's bytes, at most two (`ms`), packed into one number; 0 for none.
        var unit: UInt32 = 0
        var unitLength = 0
        for byte in text.utf8 {
            if unitLength == 0, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                let (shifted, shiftOverflow) = value.multipliedReportingOverflow(by: 10)
                let (sum, addOverflow) = shifted.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
                overflow = overflow || shiftOverflow || addOverflow
                value = sum
                digits += 1
            } else {
                unitLength += 1
                guard unitLength <= 2, byte != 0 else { return nil }
                unit = unit << 8 | UInt32(byte)
            }
        }
        guard digits > 0, !overflow, value > 0 else { return nil }
        let millisecondsPerUnit: Int64
        switch unit {
        case UInt32(UInt8(ascii: "m")) << 8 | UInt32(UInt8(ascii: "s")): millisecondsPerUnit = 1
        case UInt32(UInt8(ascii: "s")): millisecondsPerUnit = 1_000
        case UInt32(UInt8(ascii: "m")): millisecondsPerUnit = 60_000
        case UInt32(UInt8(ascii: "h")): millisecondsPerUnit = 3_600_000
        default: return nil
        }
        let (milliseconds, unitOverflow) = value.multipliedReportingOverflow(by: millisecondsPerUnit)
        guard !unitOverflow, milliseconds <= Int64.max / 1_000_000 else { return nil }
        return .milliseconds(milliseconds)
    }

    /// The longest duration a spec may give (durations are kept as nanoseconds in 64 bits).
    public static let longestSpec = Duration.milliseconds(Int64.max / 1_000_000 / 3_600_000 * 3_600_000)

    /// Whether the text is a well-formed spec duration (digits and a unit) that is too long to
    /// represent, so that the finding can say so rather than call it malformed.
    public static func specOverflows(_ text: String) -> Bool {
        let digits = text.utf8.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        let unit = text.utf8.dropFirst(digits.count)
        guard !digits.isEmpty, digits.contains(where: { $0 != UInt8(ascii: "0") }),
            ["ms", "s", "m", "h"].contains(where: { unit.elementsEqual($0.utf8) })
        else { return false }
        return parseSpec(text) == nil
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
