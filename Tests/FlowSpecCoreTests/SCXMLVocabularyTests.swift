import Foundation
import Testing

@testable import FlowSpecCore

/// The SCXML import knows every attribute SCXML 1.0 defines on each element, as the W3C schema
/// (`Tests/Engines/scxml-schema/scxml.xsd`) lists them: an attribute it does not know is
/// reported as one "which SCXML does not define there", which must never be said of one it does.
@Suite("SCXML's vocabulary")
struct SCXMLVocabularyTests {
    /// Per element the schema declares (`<xsd:element name="E" type="scxml.E.type"/>`), the
    /// attributes of its `scxml.E.attlist` group.
    static func schema() throws -> [String: Set<String>] {
        let text = try String(
            contentsOf: Fixtures.packageRoot.appendingPathComponent("Tests/Engines/scxml-schema/scxml.xsd"),
            encoding: .utf8)
        let elements = try Regex(#"<xsd:element name="([a-z]+)" type="scxml\.[a-z]+\.type"/>"#)
        let group = try Regex(#"<xsd:attributeGroup name="scxml\.([a-z]+)\.attlist">(.*?)</xsd:attributeGroup>"#)
            .dotMatchesNewlines()
        let attribute = try Regex(#"<xsd:attribute [^>]*\bname="([a-zA-Z]+)""#)
        var declared: [String: Set<String>] = [:]
        for match in text.matches(of: elements) { declared[String(match.output[1].substring!)] = [] }
        for match in text.matches(of: group) {
            let element = String(match.output[1].substring!)
            let body = String(match.output[2].substring!)
            declared[element, default: []].formUnion(
                body.matches(of: attribute).map { String($0.output[1].substring!) })
        }
        return declared
    }

    @Test func theImportKnowsEveryAttributeTheSchemaDefines() throws {
        let schema = try Self.schema()
        #expect(schema.count >= 26, "the schema's elements were read: \(schema.keys.sorted())")
        #expect(schema["transition"] == ["event", "cond", "target", "type"])
        // `<request>` is the schema's, not the recommendation's: the import reports it whole.
        for (element, attributes) in schema where element != "request" {
            let known = try #require(
                SCXMLMachineReader.attributes[element], "<\(element)> is not in the import's table")
            #expect(attributes.isSubset(of: known), "<\(element)>: \(attributes.subtracting(known).sorted())")
        }
    }

    @Test func anAttributeTheSchemaDefinesIsNotCalledUndefined() throws {
        let document = """
            <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" exmode="lax" initial="a">
              <state id="a"><transition event="go" target="b"/></state>
              <state id="b"/>
            </scxml>
            """
        let imported = try MachineImporter.importMachine(Array(document.utf8), fallbackName: "M")
        #expect(!imported.notImported.contains { $0.message.contains("does not define") }, "\(imported.notImported)")
    }
}
