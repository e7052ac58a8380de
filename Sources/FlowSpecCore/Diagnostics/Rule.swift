/// The stable identifiers of everything `flowspec check` reports, and of what `flowspec diff`
/// reports about a change of a spec.
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
    case invalidNesting = "invalid-nesting"
    case invalidHistory = "invalid-history"
    case invalidParallel = "invalid-parallel"
    case invalidRun = "invalid-run"
    case invalidImport = "invalid-import"
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
    case doneNeverFires = "done-never-fires"
    case unhandledOutcome = "unhandled-outcome"
    case regionConflict = "region-conflict"
    case fixedStateCondition = "fixed-state-condition"
    case eventNeverArrives = "event-never-arrives"
    case requirementFailed = "requirement-failed"
    case invalidIdentifier = "invalid-identifier"
    case identifierCollision = "identifier-collision"
    case storedFormChanged = "stored-form-changed"
    case storedStateRemoved = "stored-state-removed"
    case storedPositionChanged = "stored-position-changed"
    case storedValuesClamped = "stored-values-clamped"
    case stateKindChanged = "state-kind-changed"
    case storedHistoryDropped = "stored-history-dropped"
    case storedRegionDropped = "stored-region-dropped"

    /// Where the rule lives: the check that finds it, or the file that declares a rule the
    /// reader and decoder find (see ``RuleHome``). Start there to read or change a rule.
    var home: any RuleHome.Type {
        switch self {
        case .yamlSyntax: YAMLSyntaxRule.self
        case .duplicateKey: DuplicateKeyRule.self
        case .unknownKey: UnknownKeyRule.self
        case .invalidValue: InvalidValueRule.self
        case .unsupportedVersion: UnsupportedVersionRule.self
        case .limitExceeded: LimitExceededRule.self
        case .invalidNesting: NestingRule.self
        case .invalidHistory: HistoryRule.self
        case .invalidParallel: ParallelRule.self
        case .invalidRun: RunRule.self
        case .invalidImport: ImportRule.self
        case .undefinedState: UndefinedStateRule.self
        case .undeclaredName: UndeclaredNameCheck.self
        case .unusedName: UnusedNameCheck.self
        case .unreachableState: UnreachableStateCheck.self
        case .deadEnd: DeadEndCheck.self
        case .terminalExit: TerminalExitCheck.self
        case .infiniteLoop: InfiniteLoopCheck.self
        case .missingTimeout: MissingTimeoutCheck.self
        case .misplacedTimeout: MisplacedTimeoutCheck.self
        case .noWayOut: NoWayOutCheck.self
        case .shadowedCandidate: ShadowedCandidateCheck.self
        case .partialChoice: PartialChoiceCheck.self
        case .backwardTransition: BackwardTransitionCheck.self
        case .doneNeverFires: DoneNeverFiresCheck.self
        case .unhandledOutcome: UnhandledOutcomeCheck.self
        case .regionConflict: RegionConflictCheck.self
        case .fixedStateCondition: FixedStateConditionCheck.self
        case .eventNeverArrives: EventNeverArrivesCheck.self
        case .requirementFailed: RequirementCheck.self
        case .invalidIdentifier: InvalidIdentifierCheck.self
        case .identifierCollision: IdentifierCollisionCheck.self
        case .storedFormChanged: StoredFormChangedRule.self
        case .storedStateRemoved: StoredStateRemovedRule.self
        case .storedPositionChanged: StoredPositionChangedRule.self
        case .storedValuesClamped: StoredValuesClampedRule.self
        case .stateKindChanged: StateKindChangedRule.self
        case .storedHistoryDropped: StoredHistoryDroppedRule.self
        case .storedRegionDropped: StoredRegionDroppedRule.self
        }
    }

    /// The rule's definition, from its home.
    public var definition: RuleDefinition { home.definition }

    /// The severity a finding of this rule has unless configured otherwise.
    public var defaultSeverity: Severity { definition.defaultSeverity }

    /// A one-line description of the rule (used by SARIF and `flowspec rules`).
    public var summary: String { definition.summary }

    /// The rules table of `docs/language.md`, made from every rule's definition.
    public static var documentationTable: String {
        var table = "| rule id | default | reported at | finding |\n|---|---|---|---|\n"
        for rule in allCases {
            let definition = rule.definition
            table +=
                "| `\(rule.rawValue)` | \(definition.defaultSeverity.rawValue) | \(definition.reportedAt) | \(definition.finding) |\n"
        }
        return table
    }

    /// Rules are ordered as the format document lists them.
    public static func < (lhs: Rule, rhs: Rule) -> Bool {
        lhs.order < rhs.order
    }

    private var order: Int { Rule.allCases.firstIndex(of: self)! }
}
