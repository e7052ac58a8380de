/// An XML element: a name, attributes in the order given, and children. flowspec writes SCXML
/// with it (``XMLElement/document(comment:)``, two-space indentation, so the same tree always
/// gives the same bytes), and ``XMLReader`` reads documents into it.
struct XMLElement: Sendable, Equatable {
    /// What an element holds.
    enum Child: Sendable, Equatable {
        case element(XMLElement)
        case comment(String)
        /// Character data that is not only white space (read documents only).
        case text(String)
    }

    /// The element's name: as written (`flowspec:x`) in a tree to write; in a tree read, with
    /// its namespace resolved, as `{URI}local` (or `local` in no namespace).
    var name: String
    /// Attributes, in the order they are written; in a tree read, named as ``name`` is, without
    /// the namespace declarations.
    var attributes: [(name: String, value: String)]
    /// Child elements, comments and text, in order.
    var children: [Child]
    /// Where a read element starts (its `<`).
    var location = SourceLocation.start
    /// Where each attribute of a read element starts (its name), in the order of
    /// ``attributes``, so that a note on one attribute can say where it is; empty in a tree to
    /// write.
    var attributeLocations: [SourceLocation] = []

    /// An element with the given attributes (in order) and children.
    init(_ name: String, _ attributes: [(String, String)] = [], _ children: [Child] = []) {
        self.name = name
        self.attributes = attributes.map { (name: $0.0, value: $0.1) }
        self.children = children
    }

    /// Appends a child element.
    mutating func append(_ element: XMLElement) { children.append(.element(element)) }

    /// The value of an attribute, if the element has it.
    func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// The child elements, in order.
    var elements: [XMLElement] {
        children.compactMap { if case .element(let element) = $0 { element } else { nil } }
    }

    /// The text directly inside the element, if any.
    var text: String {
        children.compactMap { if case .text(let content) = $0 { content } else { nil } }.joined()
    }

    static func == (lhs: XMLElement, rhs: XMLElement) -> Bool {
        lhs.name == rhs.name && lhs.children == rhs.children
            && lhs.attributes.map(\.name) == rhs.attributes.map(\.name)
            && lhs.attributes.map(\.value) == rhs.attributes.map(\.value)
    }

    /// The document: the XML declaration, an optional comment, and the element.
    func document(comment: [String] = []) -> String {
        var text = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        if !comment.isEmpty {
            text += "<!--\n" + comment.map { "  " + Self.commentText($0) }.joined(separator: "\n") + "\n-->\n"
        }
        write(into: &text, indent: "")
        return text
    }

    private func write(into text: inout String, indent: String) {
        text += indent + "<" + name
        for attribute in attributes {
            text += " " + attribute.name + "=\"" + Self.escaped(attribute.value) + "\""
        }
        guard !children.isEmpty else {
            text += "/>\n"
            return
        }
        text += ">\n"
        for child in children {
            switch child {
            case .element(let element): element.write(into: &text, indent: indent + "  ")
            case .comment(let comment): text += indent + "  <!-- " + Self.commentText(comment) + " -->\n"
            case .text(let content): text += indent + "  " + Self.escaped(content) + "\n"
            }
        }
        text += indent + "</" + name + ">\n"
    }

    /// Text made safe inside an attribute value in double quotes: the markup characters, and
    /// the white space a reader would otherwise normalise to a space, as references.
    static func escaped(_ value: String) -> String {
        var text = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": text += "&amp;"
            case "<": text += "&lt;"
            case ">": text += "&gt;"
            case "\"": text += "&quot;"
            case "\n": text += "&#10;"
            case "\r": text += "&#13;"
            case "\t": text += "&#9;"
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    /// Text made safe inside a comment, which may not hold `--` (nor end with `-`).
    static func commentText(_ value: String) -> String {
        var text = value.split(separator: "--", omittingEmptySubsequences: false).joined(separator: "- -")
        if text.hasSuffix("-") { text += " " }
        return text
    }
}
