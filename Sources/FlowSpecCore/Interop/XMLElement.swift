/// An XML element as flowspec writes SCXML: a name, attributes in the order given, and
/// children. Written by ``XMLElement/document(comment:)`` with two-space indentation, so the
/// same tree always gives the same bytes.
struct XMLElement: Sendable, Equatable {
    /// What an element holds.
    enum Child: Sendable, Equatable {
        case element(XMLElement)
        case comment(String)
    }

    /// The element's name, with its prefix (`flowspec:x`) if any.
    var name: String
    /// Attributes, in the order they are written.
    var attributes: [(name: String, value: String)]
    /// Child elements and comments, in order.
    var children: [Child]

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
