/// One finding: a rule broken at a place in a spec file.
public struct Diagnostic: Sendable, Equatable {
    /// A secondary message attached to a finding, optionally at its own place in the same file.
    public struct Note: Sendable, Equatable {
        /// What the note says.
        public var message: String
        /// Where it points, if anywhere.
        public var location: SourceLocation?

        /// Creates a note.
        public init(_ message: String, at location: SourceLocation? = nil) {
            self.message = message
            self.location = location
        }
    }

    /// What would mend a finding, as data for editors' quick fixes: tools act on it rather
    /// than read it back out of the message.
    public enum Fix: Sendable, Equatable {
        /// Write this over the text at the finding's place: the name the author most likely
        /// meant (the message's "did you mean").
        case replace(with: String)
        /// Declare the name in the machine's list of names of this category (`events`,
        /// `conditions` or `effects`).
        case declare(NameCategory, name: String)
        /// Give the task state at the finding a timeout that leads to this state.
        case addTimeout(to: String)
    }

    /// A run that breaks a requirement, as data: what it is, its trace (which `flowspec
    /// simulate --replay` reads), and how the run goes on. A finding prints it as notes
    /// (``notes``); tools such as the language server's hover read it here.
    public struct Counterexample: Sendable, Equatable {
        /// What the run is, ending with a colon before the trace.
        public var introduction: String
        /// The trace's lines.
        public var trace: [String]
        /// What the run does after the trace, if it matters (where it stops, what repeats).
        public var afterwards: [String]

        /// A counterexample.
        public init(introduction: String, trace: [String], afterwards: [String] = []) {
            self.introduction = introduction
            self.trace = trace
            self.afterwards = afterwards
        }

        /// The notes that print it: the introduction, the trace indented two spaces, what follows.
        public var notes: [Note] {
            [Note(introduction)] + trace.map { Note("  " + $0) } + afterwards.map { Note($0) }
        }
    }

    /// The rule the finding belongs to.
    public var rule: Rule
    /// The severity after overrides are applied.
    public var severity: Severity
    /// A message naming the states, events and values involved.
    public var message: String
    /// The spec file's path, as the user gave it.
    public var file: String
    /// Where in the file.
    public var location: SourceLocation
    /// The machine the finding belongs to, if any.
    public var machine: String?
    /// The names the finding is about (the unreachable state, the states of a loop, …).
    public var subjects: [String]
    /// Further information: the states of a loop, a counterexample path, an earlier definition.
    public var notes: [Note]
    /// What would mend it, where one edit would.
    public var fix: Fix?
    /// For a requirement a run breaks, that run (also printed at the end of ``notes``).
    public var counterexample: Counterexample?

    /// Creates a diagnostic with the rule's default severity; a counterexample's notes follow
    /// `notes`.
    public init(
        rule: Rule, message: String, file: String, location: SourceLocation,
        machine: String? = nil, subjects: [String] = [], notes: [Note] = [],
        severity: Severity? = nil, fix: Fix? = nil, counterexample: Counterexample? = nil
    ) {
        self.rule = rule
        self.severity = severity ?? rule.defaultSeverity
        self.message = message
        self.file = file
        self.location = location
        self.machine = machine
        self.subjects = subjects
        self.notes = notes + (counterexample?.notes ?? [])
        self.fix = fix
        self.counterexample = counterexample
    }
}
