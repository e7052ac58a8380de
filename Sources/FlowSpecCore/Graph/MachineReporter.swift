/// Reports findings about one machine into a file's ``DiagnosticSink``.
public struct MachineReporter: Sendable {
    /// The machine's name, attached to every finding.
    public let machine: String
    /// The findings so far.
    public internal(set) var sink: DiagnosticSink

    /// Creates a reporter for a machine.
    public init(machine: String, sink: DiagnosticSink) {
        self.machine = machine
        self.sink = sink
    }

    /// Records a finding about the machine.
    public mutating func report(_ rule: Rule, _ message: String, at location: SourceLocation,
                                subjects: [String] = [], notes: [Diagnostic.Note] = []) {
        sink.report(rule, message, at: location, machine: machine, subjects: subjects, notes: notes)
    }
}
