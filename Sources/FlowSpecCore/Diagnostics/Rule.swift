/// The stable identifiers of everything `flowspec check` reports.
///
/// The raw values are part of the product's contract: scripts, CI configurations and
/// severity overrides name rules by them.
public enum Rule: String, CaseIterable, Sendable, Codable, Comparable {
    case yamlSyntax = "yaml-syntax"
    case duplicateKey = "duplicate-key"
    case unknownKey = "unknown-key"
    case invalidValue = "invalid-value"
    case unsupportedVersion = "unsupported-version"
    case limitExceeded = "limit-exceeded"
    case undefinedState = "undefined-state"
    case undeclaredName = "undeclared-name"
    case unusedName = "unused-name"
    case unreachableState = "unreachable-state"
    case deadEnd = "dead-end"
    case terminalExit = "terminal-exit"
    case infiniteLoop = "infinite-loop"
    case missingTimeout = "missing-timeout"
    case misplacedTimeout = "misplaced-timeout"
    case noWayOut = "no-way-out"
    case shadowedCandidate = "shadowed-candidate"
    case partialChoice = "partial-choice"
    case backwardTransition = "backward-transition"
    case requirementFailed = "requirement-failed"
    case invalidIdentifier = "invalid-identifier"
    case identifierCollision = "identifier-collision"

    /// The severity a finding of this rule has unless configured otherwise.
    public var defaultSeverity: Severity {
        switch self {
        case .unusedName, .noWayOut, .shadowedCandidate: .warning
        default: .error
        }
    }

    /// A one-line description of the rule (used by SARIF and `flowspec rules`).
    public var summary: String {
        switch self {
        case .yamlSyntax: "The YAML is malformed."
        case .duplicateKey: "A mapping repeats a key, or a list repeats a name."
        case .unknownKey: "A key the language does not have."
        case .invalidValue: "A value of the wrong type or form, or a missing required key."
        case .unsupportedVersion: "`flowspec:` is missing or not 1."
        case .limitExceeded: "The input exceeds one of flowspec's resource limits."
        case .undefinedState: "A name that should be a state of the machine is not one."
        case .undeclaredName: "An event, condition or effect that is not on its machine's declared list."
        case .unusedName: "A declared event, condition or effect that nothing uses."
        case .unreachableState: "A state that no path from `initial` reaches."
        case .deadEnd: "A non-terminal state with no outgoing transition."
        case .terminalExit: "A terminal state with its own `on`, `always` or `timeout`."
        case .infiniteLoop: "A cycle among task and choice states not broken by a bounded retry."
        case .missingTimeout: "A task state with no timeout."
        case .misplacedTimeout: "A timeout on a choice or terminal state."
        case .noWayOut: "A reachable state from which no terminal and no input state can be reached."
        case .shadowedCandidate: "A candidate listed after an unconditional one can never be taken."
        case .partialChoice: "A choice state whose last `always` branch has a condition."
        case .backwardTransition: "A transition from a later to an earlier member of a forward-only sequence."
        case .requirementFailed: "A `require` entry does not hold."
        case .invalidIdentifier: "A name that cannot become a Swift identifier."
        case .identifierCollision: "Two names that become the same Swift identifier."
        }
    }

    /// Rules are ordered as the format document lists them.
    public static func < (lhs: Rule, rhs: Rule) -> Bool {
        lhs.order < rhs.order
    }

    private var order: Int { Rule.allCases.firstIndex(of: self)! }
}
