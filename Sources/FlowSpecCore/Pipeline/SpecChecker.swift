/// The `flowspec check` pipeline for one file: bytes → YAML document → spec → state graphs
/// → findings.
public struct SpecChecker: Sendable {
    /// What one file's check produced.
    public struct Checked: Sendable {
        /// The decoded spec (empty when the YAML could not be read).
        public var spec: Spec
        /// The spec as every stage after decoding reads it: each machine that runs others
        /// composed (see ``SpecComposer``); the same as ``spec`` when none does.
        public var composed: Spec
        /// The resolved graph of each machine, in source order.
        public var graphs: [MachineGraph]
        /// Every finding, with the rule defaults (apply a ``SeverityPolicy`` for the final
        /// severities), sorted by position.
        public var diagnostics: [Diagnostic]
        /// The files the spec imports, with their machines (whose lines are numbered past this
        /// file's: subtract ``ImportedFile/lineOffset`` for their own).
        public var imports: [ImportedFile] = []
    }

    /// A file a spec imports, as read.
    public struct ImportedFile: Sendable {
        /// The path it was read from.
        public var path: String
        /// Its machines, composed, as the importing spec may run them.
        public var machines: [MachineSpec]
        /// What was added to its lines.
        public var lineOffset: Int
    }

    /// The limits the YAML reader enforces.
    public var limits: YAMLLimits
    /// Reads a file a spec imports, at a path (resolved from the importing file's directory)
    /// and within a size limit; the file system by default.
    public var readImport: @Sendable (_ path: String, _ maxSize: Int) throws(FileReadError) -> SourceFile = {
        try SpecFileReader.read($0, maxSize: $1)
    }
    /// Added to every line read: a file imported by another is numbered past it.
    var lineOffset = 0
    /// The files being imported, outermost first, when this checker reads an imported file.
    var importChain: [String] = []
    /// The files one top-level check has imported so far (`nil` until it imports one).
    var importCache: SpecImporter.Cache?

    /// Creates a checker.
    public init(limits: YAMLLimits = YAMLLimits()) {
        self.limits = limits
    }

    /// Reads, decodes and checks one spec file.
    public func check(_ file: SourceFile) -> Checked {
        let diagnostics = DiagnosticCollector(file: file.path)
        // States are decoded as they are read, so the YAML tree never holds them all.
        var streamer = StateStreamer(limits: limits, file: file.path)
        // A large file's pages are given back as libyaml reads past them, and all of them once
        // read: the rest works on the decoded spec.
        var reader = YAMLReader(limits: limits)
        reader.lineOffset = lineOffset
        let read = file.withBytes { bytes in
            reader.read(bytes, taking: &streamer, into: diagnostics) {
                file.releaseMemory(ofFirst: $0)
            }
        }
        file.releaseMemory()
        guard let document = read else {
            return Checked(spec: Spec(), composed: Spec(), graphs: [], diagnostics: diagnostics.diagnostics)
        }
        let spec = SpecDecoder().decode(document, streamedStates: streamer.states, limits: limits, into: diagnostics)
        var graphs: [MachineGraph] = []
        let imported = SpecImporter(checker: self, file: file.path, diagnostics: diagnostics).load(spec)
        let machines = SpecComposer.compose(spec, imported: imported, limits: limits, into: diagnostics)
        let lines =
            machines.contains(where: { !$0.runs.isEmpty })
            ? SpecComposer.lines(of: spec, through: lineOffset + SpecImporter.span) : []
        // The machines that run only as sub-flows: their tasks are bounded where they run.
        let subFlowsOnly = Set(
            (machines + imported.filter(\.isUsable).flatMap(\.machines)).filter { !$0.isStandalone }.map(\.name.value))
        // A machine without states (`states` missing, empty or unreadable, already reported)
        // has no graph to check.
        for (position, machine) in machines.enumerated() where !machine.exceedsLimits && !machine.states.isEmpty {
            let before = diagnostics.diagnostics.count
            var builder = GraphBuilder(
                machine: machine,
                reporter: diagnostics.reporter(for: .undefinedState, machine: machine.name.value))
            let graph = builder.build()
            let analysis = MachineAnalysis(graph: graph)
            CheckRegistry.checkAll(analysis, into: diagnostics)
            graphs.append(graph)
            if !machine.runs.isEmpty {
                // What is found on the copy of a machine it runs is found on that machine too;
                // that the parent can get stuck there is the parent's to know.
                let own = lines[position]
                let copies = diagnostics.removeFindings(after: before) { !own.contains($0.location.line) }
                let found = copies.map { Self.pointingInto(own, $0) }
                let reported = SpecComposer.reportStuckRuns(found, in: analysis, into: diagnostics)
                SpecComposer.reportUnboundedTasks(found, in: analysis, subFlowsOnly: subFlowsOnly, into: diagnostics)
                StuckRunCheck.check(analysis, skipping: reported, into: diagnostics)
            }
        }
        Self.checkMachineNameCollisions(spec, into: diagnostics)
        var composed = spec
        composed.machines = machines
        return Checked(
            spec: spec, composed: composed, graphs: graphs, diagnostics: Self.sorted(diagnostics.diagnostics),
            imports: imported.map { ImportedFile(path: $0.path, machines: $0.machines, lineOffset: $0.lineOffset) })
    }

    /// A finding with its notes' places kept only where they are in the machine's own lines:
    /// a place in a file it imports has no line here.
    private static func pointingInto(_ own: Range<Int>, _ finding: Diagnostic) -> Diagnostic {
        var finding = finding
        for index in finding.notes.indices where !(finding.notes[index].location.map { own.contains($0.line) } ?? true)
        {
            finding.notes[index].location = nil
        }
        return finding
    }

    /// Machines share the top level of the generated code: two may not map to one type name.
    static func checkMachineNameCollisions(_ spec: Spec, into diagnostics: DiagnosticCollector) {
        var seen: [String: Located<String>] = [:]
        for machine in spec.machines {
            guard case .success(let name) = SwiftName.make(machine.name.value, scope: .machine) else { continue }
            if let first = seen[name.bare] {
                IdentifierCollisionCheck.report(
                    kind: "machine", machine.name, first: first, identifier: name.bare,
                    diagnostics.reporter(for: .identifierCollision, machine: machine.name.value))
            } else {
                seen[name.bare] = machine.name
            }
        }
    }

    /// Orders findings by position, then rule, then message, so output is deterministic.
    static func sorted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.enumerated().sorted { lhs, rhs in
            let (a, b) = (lhs.element, rhs.element)
            if a.location != b.location { return a.location < b.location }
            if a.rule != b.rule { return a.rule < b.rule }
            return lhs.offset < rhs.offset
        }.map(\.element)
    }
}
