/// Decodes each state of a spec as soon as the YAML reader has read it, so that the YAML
/// document never holds more than one state's nodes: a spec of 300,000 states is read in the
/// memory of its decoded model, not of its whole YAML tree.
///
/// A state decoded here is exactly what ``StateDecoder`` would decode in place: its findings
/// are held back with it and reported only when the spec decoder reaches the state, so a
/// state the decoder never reads (under a repeated key, say) reports nothing. What depends on
/// the rest of the machine (`defaults.kind`) is applied then too.
struct StateStreamer: YAMLSubtreeTaker {
    let path: [String?] = ["machines", nil, "states", nil]
    let limits: YAMLLimits
    /// The file findings are about.
    let file: String
    /// The states decoded so far, by the token their placeholders keep.
    private(set) var states = StreamedStates()
    /// The `states` key being read, its machine's name (if the decoder reads it as one), and how
    /// many of its states were taken.
    private var statesKey: YAMLDocument.NodeID = -1
    private var machine: String?
    private var taken = 0

    init(limits: YAMLLimits, file: String) {
        self.limits = limits
        self.file = file
    }

    mutating func take(_ value: YAMLDocument.NodeID, keys: [YAMLDocument.NodeID],
                       in document: YAMLDocument) -> Int32? {
        guard keys.count == 4 else { return nil }
        if keys[2] != statesKey {
            statesKey = keys[2]
            machine = Self.name(keys[1], in: document)
            taken = 0
        }
        // Only states the decoder will read as such: a named machine's named state.
        guard let machine, let name = Self.name(keys[3], in: document) else { return nil }
        // A machine over the limit is not decoded; its states stay for the decoder to count.
        taken += 1
        guard taken <= limits.maxStates else { return nil }
        var reader = NodeReader(document: document, sink: DiagnosticSink(file: file), limits: limits)
        reader.machine = machine
        let state = StateDecoder.decoded(name: Located(name, at: document[keys[3]].location), body: value,
                                         reader: &reader)
        return states.append(state, findings: reader.sink.diagnostics)
    }

    /// The text of a key that ``NodeReader/namedEntries(_:of:)`` reads as a name, if it is one.
    static func name(_ id: YAMLDocument.NodeID, in document: YAMLDocument) -> String? {
        NodeReader.isMergeKey(id, in: document) ? nil : NodeReader.nameText(id, in: document)
    }
}

/// States decoded while the YAML was read, each handed over once, to the spec decoder.
final class StreamedStates {
    private var states: [State?] = []
    /// The findings decoding each state made.
    private var findings: [[Diagnostic]] = []

    /// Forgets every state (the ones the decoder never reached).
    func removeAll() {
        states = []
        findings = []
    }

    /// Keeps a state and its findings; returns its token.
    func append(_ state: State, findings: [Diagnostic]) -> Int32 {
        states.append(state)
        self.findings.append(findings)
        return Int32(states.count - 1)
    }

    /// Hands over the state of a token, moved out rather than copied, and leaves nothing
    /// behind (a taken subtree is in the document once, so the decoder reaches each token once).
    func remove(_ token: Int32) -> (state: State, findings: [Diagnostic])? {
        let index = Int(token)
        guard states.indices.contains(index) else { return nil }
        var state: State?
        swap(&state, &states[index])
        var found: [Diagnostic] = []
        swap(&found, &findings[index])
        guard let state else { return nil }
        return (state, found)
    }
}
