/// Decides the final severity of each finding from the rule's default, the spec's own
/// `severity:` settings and the command line.
///
/// Precedence, weakest first: the rule's default, the spec's top-level `severity:`, the
/// machine's `severity:`, the command line's `--severity`. `--warnings-as-errors` then turns
/// every remaining warning into an error.
public struct SeverityPolicy: Sendable {
    /// Levels set on the command line, by rule.
    public var commandLine: [Rule: SeverityLevel]
    /// Whether warnings count as errors.
    public var warningsAsErrors: Bool

    /// Creates a policy.
    public init(commandLine: [Rule: SeverityLevel] = [:], warningsAsErrors: Bool = false) {
        self.commandLine = commandLine
        self.warningsAsErrors = warningsAsErrors
    }

    /// Applies the policy to a file's findings, dropping those turned `off`.
    public func apply(to diagnostics: [Diagnostic], spec: SeveritySettings) -> [Diagnostic] {
        diagnostics.compactMap { diagnostic in
            var result = diagnostic
            let level =
                commandLine[diagnostic.rule]
                ?? diagnostic.machine.flatMap { spec.machines[$0]?[diagnostic.rule] }
                ?? spec.file[diagnostic.rule]
            if let level {
                guard let severity = level.severity else { return nil }
                result.severity = severity
            }
            if warningsAsErrors, result.severity == .warning {
                result.severity = .error
            }
            return result
        }
    }
}

/// The `severity:` settings a spec file declares, for the whole file and per machine.
public struct SeveritySettings: Sendable, Equatable {
    /// Settings of the spec's top level.
    public var file: [Rule: SeverityLevel] = [:]
    /// Settings of each machine, by machine name.
    public var machines: [String: [Rule: SeverityLevel]] = [:]

    /// Creates empty settings.
    public init() {}
}
