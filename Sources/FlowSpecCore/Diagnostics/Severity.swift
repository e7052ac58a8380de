/// How serious a finding is. Any `error` makes `flowspec check` exit with status 1.
public enum Severity: String, Sendable, Codable, Hashable {
    case error
    case warning
    case note
}

/// A severity a user can give a rule: one of the severities, or `off` to drop its findings.
public enum SeverityLevel: String, Sendable, Hashable, CaseIterable {
    case error
    case warning
    case note
    case off

    /// The severity this level gives, or `nil` for `off`.
    public var severity: Severity? {
        switch self {
        case .error: .error
        case .warning: .warning
        case .note: .note
        case .off: nil
        }
    }
}
