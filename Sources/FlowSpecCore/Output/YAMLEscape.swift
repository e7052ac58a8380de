/// A character as a YAML double-quoted scalar's escape: `\uXXXX`, or `\UXXXXXXXX` beyond the
/// Basic Multilingual Plane. Written by the Mermaid front matter and by `flowspec import`.
func yamlEscape(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return scalar.value <= 0xFFFF
        ? "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        : "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
}
