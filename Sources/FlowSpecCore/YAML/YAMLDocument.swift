/// A YAML document as a flat arena of nodes, each with its source position.
///
/// Collections refer to their children by index, so a document of any depth is freed without
/// recursion, and an alias is a second reference to the anchored node rather than a copy.
public struct YAMLDocument: Sendable {
    /// The index of a node in ``nodes``.
    public typealias NodeID = Int32

    /// The nodes; a collection's children come before it.
    public internal(set) var nodes: [YAMLNode] = []
    /// Children of every collection, contiguous per collection. A mapping's children alternate
    /// key, value.
    private var childIndices: [NodeID] = []
    /// The document's root node, `nil` for an empty stream.
    public internal(set) var root: NodeID?

    /// The node with the given index. Read in place: `document[id].kind` copies nothing.
    public subscript(id: NodeID) -> YAMLNode {
        _read { yield nodes[Int(id)] }
    }

    /// The children of a collection (keys and values interleaved for a mapping).
    public func children(of id: NodeID) -> ArraySlice<NodeID> {
        let node = nodes[Int(id)]
        let start = Int(node.childStart)
        return childIndices[start..<start + Int(node.childCount)]
    }

    /// The key–value pairs of a mapping, in source order.
    public func pairs(of id: NodeID) -> [(key: NodeID, value: NodeID)] {
        let kids = children(of: id)
        var result: [(key: NodeID, value: NodeID)] = []
        result.reserveCapacity(kids.count / 2)
        var index = kids.startIndex
        while index + 1 < kids.endIndex {
            result.append((kids[index], kids[index + 1]))
            index += 2
        }
        return result
    }

    /// Makes room for about `count` nodes.
    mutating func reserveCapacity(nodes count: Int) {
        nodes.reserveCapacity(count)
        childIndices.reserveCapacity(count)
    }

    /// Appends a node and returns its index.
    mutating func append(_ node: YAMLNode) -> NodeID {
        nodes.append(node)
        return NodeID(nodes.count - 1)
    }

    /// How many child indices all collections hold, a mark for ``truncate(nodes:children:)``.
    var childIndexCount: Int { childIndices.count }

    /// Drops the nodes from `nodes` on and the child indices from `children` on: a finished
    /// subtree, when nothing was appended after it.
    mutating func truncate(nodes first: NodeID, children: Int) {
        nodes.removeSubrange(Int(first)...)
        childIndices.removeSubrange(children...)
    }

    /// Gives a collection its children.
    mutating func setChildren(of id: NodeID, _ children: ArraySlice<NodeID>) {
        nodes[Int(id)].childStart = Int32(childIndices.count)
        nodes[Int(id)].childCount = Int32(children.count)
        // A collection larger than all the others so far (`states:` of a large spec) gets the
        // room it needs and a sixteenth more for the collections that hold it: growing by
        // doubling would leave up to half of it empty (and copy it while both are held).
        if children.count > childIndices.count, childIndices.capacity - childIndices.count < children.count {
            childIndices.reserveCapacity(childIndices.count + children.count + children.count / 16)
        }
        childIndices.append(contentsOf: children)
    }
}

/// One node of a ``YAMLDocument``.
public struct YAMLNode: Sendable {
    /// What kind of node this is.
    public enum Kind: UInt8, Sendable {
        case scalar, sequence, mapping
        /// A collection a ``YAMLSubtreeTaker`` took while the document was read; ``token``
        /// is the number the taker gave it.
        case taken
    }

    /// How a scalar was written; only plain scalars are resolved to null, booleans and numbers.
    public enum Style: UInt8, Sendable {
        case plain, singleQuoted, doubleQuoted, literal, folded, collection
    }

    /// What an explicit tag on a node means to the core schema.
    public enum Tag: UInt8, Sendable {
        /// No tag.
        case none
        /// `!!str` or the non-specific `!`: the scalar is a string whatever it looks like.
        case string
        /// `!!null`.
        case null
        /// `!!bool`, `!!int`, `!!float`: the scalar is read as that type even when quoted.
        case bool, int, float
        /// Any other tag; the scalar resolves as if untagged.
        case other

        /// The meaning of a tag as libyaml resolved it (`tag:yaml.org,2002:str`).
        init(resolved tag: String?) {
            switch tag {
            case nil: self = .none
            case "tag:yaml.org,2002:str", "!": self = .string
            case "tag:yaml.org,2002:null": self = .null
            case "tag:yaml.org,2002:bool": self = .bool
            case "tag:yaml.org,2002:int": self = .int
            case "tag:yaml.org,2002:float": self = .float
            default: self = .other
            }
        }
    }

    // Largest fields first, the one-byte ones last: 40 bytes rather than 48.
    /// The scalar's text (empty for collections).
    public var text: String
    /// Where the node starts.
    public var location: SourceLocation
    var childStart: Int32 = 0
    var childCount: Int32 = 0
    /// How many nodes the node stands for once aliases are expanded (saturating).
    var expandedSize: UInt32 = 1
    /// Scalar, sequence or mapping.
    public var kind: Kind
    /// How the node was written.
    public var style: Style
    /// The node's explicit tag, if any.
    public var tag: Tag

    /// Creates a node without children.
    init(kind: Kind, style: Style, tag: Tag, location: SourceLocation, text: String) {
        self.text = text
        self.location = location
        self.kind = kind
        self.style = style
        self.tag = tag
    }

    /// The number a ``YAMLSubtreeTaker`` gave a ``Kind/taken`` node.
    public var token: Int32 { childStart }

    /// What the scalar means under the YAML 1.2 core schema.
    public var scalarValue: ScalarValue {
        ScalarValue.resolve(text, style: style, tag: tag)
    }
}
