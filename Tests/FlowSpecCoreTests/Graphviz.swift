import FlowSpecTestSupport
import Foundation
import Testing

/// Runs Graphviz's `dot`, which the DOT output tests need (CI installs it in `.ci/run`).
enum Graphviz {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// What a test says when `dot` is missing.
    static let missingMessage = ExternalTool.notOnPath(
        "dot", for: "the DOT diagrams cannot be rendered with Graphviz",
        install: "apt-get install graphviz, or brew install graphviz; .ci/run installs it")

    /// Skips a test, with ``missingMessage``, where `dot` is not installed.
    static var required: ConditionTrait {
        .enabled(if: executable != nil, Comment(rawValue: missingMessage))
    }

    /// The `dot` executable on `PATH`, if any.
    static let executable = ExternalTool.find("dot")

    /// Renders DOT text to SVG with `dot -Tsvg`.
    static func svg(_ dot: String, executable: URL) throws -> Output {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("flowspec-\(UUID().uuidString).dot")
        try dot.write(to: input, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: input) }
        return try run(executable, ["-Tsvg", input.path])
    }

    private static func run(_ executable: URL, _ arguments: [String]) throws -> Output {
        let result = try ProcessRunner.run(executable, arguments)
        return Output(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    /// The text of every `<text>` element of an SVG, with XML entities decoded. Works on
    /// Unicode scalars, so that a text starting with a combining mark is still found.
    static func texts(inSVG svg: String) -> [String] {
        let scalars = Array(svg.unicodeScalars)
        var texts: [String] = []
        var index = 0
        while let open = find("<text", in: scalars, from: index),
            let start = find(">", in: scalars, from: open.upperBound),
            let close = find("</text>", in: scalars, from: start.upperBound)
        {
            texts.append(xmlDecoded(String(String.UnicodeScalarView(scalars[start.upperBound..<close.lowerBound]))))
            index = close.upperBound
        }
        return texts
    }

    private static func find(_ needle: String, in scalars: [Unicode.Scalar], from: Int) -> Range<Int>? {
        let pattern = Array(needle.unicodeScalars)
        var start = from
        while start + pattern.count <= scalars.count {
            if scalars[start..<start + pattern.count].elementsEqual(pattern) { return start..<start + pattern.count }
            start += 1
        }
        return nil
    }

    /// Decodes XML entities, working on Unicode scalars (an entity's `;` may carry a combining
    /// mark that belongs to the next character).
    static func xmlDecoded(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            if scalars[index] == "&", let semi = scalars[index...].firstIndex(of: ";"),
                let decoded = decodeEntity(String(String.UnicodeScalarView(scalars[index + 1..<semi])))
            {
                result.append(contentsOf: decoded.unicodeScalars)
                index = semi + 1
            } else {
                result.append(scalars[index])
                index += 1
            }
        }
        return String(result)
    }

    private static func decodeEntity(_ entity: String) -> String? {
        switch entity {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            let value =
                entity.hasPrefix("#x")
                ? UInt32(entity.dropFirst(2), radix: 16)
                : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
            return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
    }
}
