/// Decodes a ``YAMLDocument`` into a ``Spec``, reporting every wrong key, type and value
/// with the format's rule ids and carrying on, so that one run reports as much as it can.
public struct SpecDecoder {
    static let topLevelKeys = ["flowspec", "imports", "machines", "severity"]
    static let machineKeys = [
        "summary", "standalone", "initial", "defaults", "conditions", "events", "effects",
        "activities", "on", "states", "parallel", "sequences", "persist", "require", "severity"
    ]

    /// Creates a decoder.
    public init() {}

    /// Decodes a document; findings go into `diagnostics`.
    public func decode(
        _ document: YAMLDocument, limits: YAMLLimits = YAMLLimits(),
        into diagnostics: DiagnosticCollector
    ) -> Spec {
        decode(document, streamedStates: nil, limits: limits, into: diagnostics)
    }

    /// Decodes a document read with a ``StateStreamer``, whose states it holds.
    func decode(
        _ document: YAMLDocument, streamedStates: StreamedStates?, limits: YAMLLimits,
        into diagnostics: DiagnosticCollector
    ) -> Spec {
        var reader = NodeReader(document: document, diagnostics: diagnostics, limits: limits)
        reader.streamedStates = streamedStates
        defer { streamedStates?.removeAll() }
        var spec = Spec()
        guard let root = document.root, document[root].kind != .scalar || document[root].scalarValue != .null else {
            reader.report(.unsupportedVersion, UnsupportedVersionRule.emptyFile, at: .start)
            return spec
        }
        guard let fields = reader.fields(root, of: "the spec", allowed: Self.topLevelKeys) else { return spec }
        decodeVersion(fields, root: root, reader: &reader)
        if let imports = fields["imports"] {
            spec.imports = reader.declaredNames(imports, as: "a file", in: "`imports`")
        }
        if let severity = fields["severity"] {
            spec.severity.file = SeverityDecoder.decode(severity, reader: &reader)
        }
        guard let machinesNode = fields["machines"] else {
            reader.missing(
                "machines", in: "the spec", at: document[root].location,
                example: "machines: { Onboarding: { initial: start, states: { … } } }")
            return spec
        }
        guard let entries = reader.namedEntries(machinesNode, of: "machines") else { return spec }
        if entries.isEmpty {
            reader.report(
                .invalidValue, "`machines` is empty; a spec describes at least one machine",
                at: document[machinesNode].location)
        }
        for (name, body) in entries {
            reader.machine = name.value
            let (machine, severity) = MachineDecoder.decode(name: name, body: body, reader: &reader)
            spec.machines.append(machine)
            if !severity.isEmpty { spec.severity.machines[name.value] = severity }
            reader.machine = nil
        }
        return spec
    }

    private func decodeVersion(_ fields: NodeReader.Fields, root: YAMLDocument.NodeID, reader: inout NodeReader) {
        guard let version = fields["flowspec"] else {
            reader.report(.unsupportedVersion, UnsupportedVersionRule.missingVersion, at: reader.location(root))
            return
        }
        let node = reader.document[version]
        if node.kind == .scalar, node.scalarValue == .int(1) { return }
        reader.report(
            .unsupportedVersion, UnsupportedVersionRule.unsupported(reader.describe(version)), at: node.location)
    }
}

/// Decodes `severity: { rule-id: error|warning|note|off }`.
enum SeverityDecoder {
    static func decode(_ id: YAMLDocument.NodeID, reader: inout NodeReader) -> [Rule: SeverityLevel] {
        var result: [Rule: SeverityLevel] = [:]
        guard let entries = reader.namedEntries(id, of: "severity") else { return result }
        let ruleNames = Rule.allCases.map(\.rawValue)
        for (key, value) in entries {
            guard let rule = Rule(rawValue: key.value) else {
                let meant = Suggestion.closest(to: key.value, among: ruleNames)
                reader.report(
                    .unknownKey, UnknownKeyRule.unknownRule(key.value, hint: Suggestion.didYouMean(meant)),
                    at: key.location, subjects: [key.value], fix: meant.map { .replace(with: $0) })
                continue
            }
            if let level = reader.choice(value, as: "the severity of '\(rule.rawValue)'", among: SeverityLevel.allCases)
            {
                result[rule] = level.value
            }
        }
        return result
    }
}
