import Foundation
import Testing

/// The README's "Pictures of flows" must show exactly what `flowspec graph --format mermaid`
/// prints for the first machine of `specs/app.yaml`, so the picture stays in step with the spec.
@Suite("README pictures")
struct ReadmePictureTests {
    static let heading = "## Pictures of flows"

    /// The section's text, from its heading to the next `## ` heading.
    static func section() throws -> String {
        let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(text.range(of: "\n\(heading)\n"))
        let end = text.range(of: "\n## ", range: start.upperBound..<text.endIndex)?.lowerBound ?? text.endIndex
        return String(text[start.upperBound..<end])
    }

    /// The contents of the section's ```` ```mermaid ```` blocks, in order.
    static func mermaidBlocks(in section: String) -> [String] {
        var blocks: [String] = []
        var rest = section[...]
        while let open = rest.range(of: "```mermaid\n"),
            let close = rest.range(of: "```", range: open.upperBound..<rest.endIndex)
        {
            blocks.append(String(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return blocks
    }

    @Test func theReadmeShowsTheCurrentDiagramOfTheFirstMachine() throws {
        let blocks = Self.mermaidBlocks(in: try Self.section())
        let output = try CLI.run(["graph", "specs/app.yaml", "--format", "mermaid", "--machine", "FirstRun"])
        #expect(output.status == 0)
        #expect(
            blocks == [output.stdout],
            "the README's picture is out of date; paste the output of `swift run flowspec graph specs/app.yaml --format mermaid --machine FirstRun`"
        )
    }

    @Test func theSectionComesJustBeforeReliability() throws {
        let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let headings = text.split(separator: "\n").filter { $0.hasPrefix("## ") }.map(String.init)
        let index = try #require(headings.firstIndex(of: Self.heading))
        #expect(headings.indices.contains(index + 1) && headings[index + 1] == "## Reliability")
    }
}
