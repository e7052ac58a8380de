/// Decodes each state of a spec as soon as the YAML reader has read it, so that the YAML
/// document never holds more than one state's nodes: a spec of 300,000 states is read in the
/// memory of its decoded model, not of its whole YAML tree.
///
/// A state decoded here is exactly what ``StateDecoder`` would decode in place: its findings
/// are held back with it and reported only when the spec decoder reaches the state, so a
/// state the decoder never reads (under a repeated key, say) reports nothing. What depends on
/// the rest of the machine (`defaults.kind`) is applied then too.
///
/// States inside compound states, and the regions of parallel states, are streamed too, each
/// as it is read; a state that nests (or writes `entry`, `exit`, `initial`, `done` or
/// `parallel`) is left in the document and decoded in place, its streamed states with it.
struct StateStreamer: YAMLSubtreeTaker {
    let path: [String?] = ["machines", nil, "states", nil]
    /// States inside states, and a parallel state's regions (and the states inside those).
    let repeatingPath: [Set<String>?] = [["states", "parallel"], nil]
    let limits: YAMLLimits
    /// The findings of the state being decoded, held back with it (see above).
    private let stateFindings: DiagnosticCollector
    /// The states decoded so far, by the token their placeholders keep.
    private(set) var states = StreamedStates()
    /// The `states` key being read, its machine's key and name (if the decoder reads it as
    /// one), and how many of the machine's states were taken.
    private var statesKey: YAMLDocument.NodeID = -1
    private var machineKey: YAMLDocument.NodeID = -1
    private var machine: String?
    private var taken = 0

    init(limits: YAMLLimits, file: String) {
        self.limits = limits
        stateFindings = DiagnosticCollector(file: file)
    }

    mutating func take(
        _ value: YAMLDocument.NodeID, keys: [YAMLDocument.NodeID],
        in document: YAMLDocument
    ) -> Int32? {
        guard keys.count >= 4, (keys.count - 4) % 2 == 0 else { return nil }
        if keys[keys.count - 2] != statesKey {
            statesKey = keys[keys.count - 2]
            if keys[1] == machineKey {
                // Another `states` mapping of the same machine: its states share its names.
                states.startSegment(sharingWithPrevious: true)
            } else {
                machineKey = keys[1]
                machine = Self.name(keys[1], in: document)
                taken = 0
                states.startSegment()
            }
        }
        // Only states the decoder will read as such: a named machine's named state.
        guard let machine, let name = Self.name(keys[keys.count - 1], in: document) else { return nil }
        // A state that nests is decoded in place, with the states inside it.
        if Self.nests(value, in: document) { return nil }
        // A machine over the limit is not decoded; its states stay for the decoder to count.
        taken += 1
        guard taken <= limits.maxStates else { return nil }
        var reader = NodeReader(document: document, diagnostics: stateFindings, limits: limits)
        reader.machine = machine
        // The state's names and transitions go where its machine will find them; the reader
        // holds them meanwhile.
        states.swapShared(names: &reader.nameTable, transitions: &reader.transitionStore)
        let state = StateDecoder.streamed(
            name: Located(name, at: document[keys[keys.count - 1]].location), body: value,
            reader: &reader)
        states.swapShared(names: &reader.nameTable, transitions: &reader.transitionStore)
        return states.append(consume state, findings: stateFindings.takeAll())
    }

    /// Whether a state's body writes a key of nesting (see ``StateDecoder/nestingKeys``).
    static func nests(_ body: YAMLDocument.NodeID, in document: YAMLDocument) -> Bool {
        // Read in place: the document's subscript copies the node.
        guard document.nodes[Int(body)].kind == .mapping else { return false }
        let children = document.children(of: body)
        for index in stride(from: children.startIndex, to: children.endIndex, by: 2) {
            if let key = NodeReader.nameText(children[index], in: document), StateDecoder.nestingKeys.contains(key) {
                return true
            }
        }
        return false
    }

    /// The text of a key that ``NodeReader/namedEntries(_:of:)`` reads as a name, if it is one.
    static func name(_ id: YAMLDocument.NodeID, in document: YAMLDocument) -> String? {
        NodeReader.isMergeKey(id, in: document) ? nil : NodeReader.nameText(id, in: document)
    }
}

/// States decoded while the YAML was read, each handed over once, to the spec decoder.
///
/// States are kept in segments, one per `states` mapping, with the names and the transitions
/// they refer to (which the machine that holds the mapping takes as its own). When the decoder
/// finds that a mapping is exactly a segment (the usual case), it takes the segment's array
/// whole, so the states are never copied into a second array.
final class StreamedStates {
    /// The states of one `states` mapping, with the findings decoding each one made.
    struct Segment {
        let firstToken: Int
        var states: [StateSpec] = []
        /// The names the states use.
        var names = NameTable()
        /// The states' event transitions.
        var transitions = TransitionStore()
        /// The findings of the states that have any, by position in `states`, in order (most
        /// states have none, and an empty list for each would cost 8 bytes a state).
        var findings: [(position: Int, diagnostics: [Diagnostic])] = []
        /// Whether states were handed over one by one (then the segment is not taken whole).
        var isBroken = false
        /// The segment the names and transitions moved on to, for another `states` mapping of
        /// the same machine.
        var sharedWith: Int?
        /// Per state, whether it was handed over one by one (empty until one is).
        var handedOver: [Bool] = []
    }

    // The methods that run per state reach `segments` through one `inout` access each: every
    // access to a class's stored property is checked for exclusivity at run time.
    private var segments: [Segment] = []
    private var count = 0
    /// How many segments were handed over whole.
    private(set) var segmentsHandedOverWhole = 0

    /// Forgets every state (the ones the decoder never reached).
    func removeAll() {
        segments = []
    }

    /// Starts the segment of another `states` mapping; one of the same machine as the last
    /// segment takes over that segment's names and transitions.
    func startSegment(sharingWithPrevious: Bool = false) {
        segments.append(Segment(firstToken: count))
        guard sharingWithPrevious, segments.count >= 2 else { return }
        let last = segments.count - 1
        // Moved through locals: one access to the array at a time.
        var names = NameTable()
        var transitions = TransitionStore()
        swap(&names, &segments[last - 1].names)
        swap(&transitions, &segments[last - 1].transitions)
        swap(&names, &segments[last].names)
        swap(&transitions, &segments[last].transitions)
        segments[last - 1].sharedWith = last
    }

    /// Exchanges the current segment's names and transitions with these (moved, not copied:
    /// they are then changed in place).
    func swapShared(names: inout NameTable, transitions: inout TransitionStore) {
        Self.swapLast(&segments, firstToken: count, &names, &transitions)
    }

    private static func swapLast(
        _ segments: inout [Segment], firstToken: Int, _ names: inout NameTable, _ transitions: inout TransitionStore
    ) {
        if segments.isEmpty { segments.append(Segment(firstToken: firstToken)) }
        swap(&names, &segments[segments.count - 1].names)
        swap(&transitions, &segments[segments.count - 1].transitions)
    }

    /// Hands over the names and transitions of the segment that holds a token, once: the
    /// states of that segment refer to them, whether they are handed over whole or one by one.
    func removeShared(of token: Int32) -> (names: NameTable, transitions: TransitionStore)? {
        guard var index = segmentIndex(of: token) else { return nil }
        while let next = segments[index].sharedWith { index = next }
        var shared = (names: NameTable(), transitions: TransitionStore())
        swap(&shared.names, &segments[index].names)
        swap(&shared.transitions, &segments[index].transitions)
        return shared
    }

    /// Keeps a state and its findings in the current segment; returns its token.
    func append(_ state: consuming StateSpec, findings: [Diagnostic]) -> Int32 {
        if segments.isEmpty { startSegment() }
        Self.appendLast(&segments, state, findings)
        count += 1
        return Int32(count - 1)
    }

    private static func appendLast(_ segments: inout [Segment], _ state: consuming StateSpec, _ findings: [Diagnostic])
    {
        let last = segments.count - 1
        if !findings.isEmpty { segments[last].findings.append((segments[last].states.count, findings)) }
        segments[last].states.append(state)
    }

    /// Hands over the states of tokens `first..<first + count` as one array, moved rather than
    /// copied, if they are exactly one segment that nothing was taken from; else `nil`.
    func removeSegment(first: Int32, count: Int) -> Segment? {
        guard let index = segmentIndex(of: first), segments[index].firstToken == Int(first),
            segments[index].states.count == count, !segments[index].isBroken
        else { return nil }
        var taken = Segment(firstToken: Int(first))
        swap(&taken, &segments[index])
        // The names and transitions are handed over on their own.
        swap(&taken.names, &segments[index].names)
        swap(&taken.transitions, &segments[index].transitions)
        segments[index].isBroken = true
        segmentsHandedOverWhole += 1
        return taken
    }

    /// Hands over the state of a token, once: a second request gets `nil` (a taken subtree is
    /// in the document once, so the decoder reaches each token once).
    func remove(_ token: Int32) -> (state: StateSpec, findings: [Diagnostic])? {
        guard let index = segmentIndex(of: token) else { return nil }
        return Self.remove(Int(token), from: &segments[index])
    }

    private static func remove(_ token: Int, from segment: inout Segment) -> (state: StateSpec, findings: [Diagnostic])?
    {
        let position = token - segment.firstToken
        guard position < segment.states.count else { return nil }
        if segment.handedOver.count < segment.states.count {
            segment.handedOver += repeatElement(false, count: segment.states.count - segment.handedOver.count)
        }
        guard !segment.handedOver[position] else { return nil }
        segment.handedOver[position] = true
        segment.isBroken = true
        var state = StateSpec(name: Located(Name(index: 0), at: .start), kind: .task)  // a placeholder, swapped out
        swap(&state, &segment.states[position])
        return (consume state, findings(at: position, in: segment.findings))
    }

    /// The findings of the state at a position of a segment (binary search: they are in order).
    private static func findings(at position: Int, in findings: [(position: Int, diagnostics: [Diagnostic])])
        -> [Diagnostic]
    {
        var low = 0
        var high = findings.count
        while low < high {
            let middle = (low + high) / 2
            if findings[middle].position < position { low = middle + 1 } else { high = middle }
        }
        return low < findings.count && findings[low].position == position ? findings[low].diagnostics : []
    }

    /// The segment that holds a token (binary search: segments are in token order).
    private func segmentIndex(of token: Int32) -> Int? {
        guard token >= 0, Int(token) < count else { return nil }
        var low = 0
        var high = segments.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if segments[middle].firstToken <= Int(token) { low = middle } else { high = middle }
        }
        return segments.isEmpty ? nil : low
    }
}
