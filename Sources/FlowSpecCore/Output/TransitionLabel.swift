/// What an edge of a ``FlowDiagram`` says: its trigger, conditions, effects and retry bound,
/// written the same way in every diagram format.
///
/// The text reads `trigger [if c] [unless d] / effect1, effect2 (retry ×3)`, for example
/// `networkError (retry ×3)`, `always [if onboardingCompleted]` or `after 10s / showError`.
/// A candidate after the first of its list is taken only when the earlier ones are not, so its
/// guard starts with `else`: `always [else]`, `submit [else if online]`. A retry's `then` edge
/// says `(after 3 retries)`; a machine-wide transition that some states handle themselves ends
/// with `(except a, b)`.
public struct TransitionLabel: Sendable, Equatable {
    /// What makes the transition happen.
    public enum Trigger: Sendable, Equatable {
        /// An event (own or machine-wide).
        case event(String)
        /// An `always` branch of a choice state.
        case always
        /// The state's timeout, after the given duration (`nil` if the duration is invalid).
        case timeout(Duration?)
        /// A compound state's `done`, taken once a terminal state directly inside it is entered.
        case done
        /// A history state's default, entered when its compound state was never left.
        case historyDefault
    }

    /// The part a bounded `retry` plays in the transition.
    public enum RetryRole: Sendable, Equatable {
        /// The bounded transition itself, taken at most `max` times in a row (`nil` if the
        /// written bound is invalid).
        case bounded(max: Int?)
        /// The retry's `then`, taken once the bound is used up.
        case exhausted(max: Int?)
    }

    /// What triggers the transition.
    public var trigger: Trigger
    /// The `if:` condition, if any.
    public var condition: String?
    /// The `unless:` condition, if any.
    public var unlessCondition: String?
    /// The state the flow must be in (`in:`), if any.
    public var inState: String?
    /// The state the flow must not be in (`notIn:`), if any.
    public var notInState: String?
    /// Whether the candidate comes after another of its list (taken only when they are not).
    public var isLaterCandidate: Bool
    /// The effects, in order.
    public var effects: [String]
    /// The retry role, if the transition has a bounded retry.
    public var retry: RetryRole?
    /// For a machine-wide transition: the input and task states that handle the event
    /// themselves and so do not inherit it.
    public var exceptions: [String]

    /// Creates a label.
    public init(
        trigger: Trigger, condition: String? = nil, unlessCondition: String? = nil, inState: String? = nil,
        notInState: String? = nil, isLaterCandidate: Bool = false, effects: [String] = [], retry: RetryRole? = nil,
        exceptions: [String] = []
    ) {
        self.trigger = trigger
        self.condition = condition
        self.unlessCondition = unlessCondition
        self.inState = inState
        self.notInState = notInState
        self.isLaterCandidate = isLaterCandidate
        self.effects = effects
        self.retry = retry
        self.exceptions = exceptions
    }

    /// The label's text, with every spec name passed through `escape` (the format's escaping)
    /// and the label's own words and punctuation (`[if `, ` / `, `×`, parentheses) as they are.
    public func text(escapingNames escape: (String) -> String) -> String {
        var text = triggerText(escape) + guardText(escape)
        if !effects.isEmpty { text += " / " + effects.map(escape).joined(separator: ", ") }
        if let retry { text += " (\(Self.retryText(retry)))" }
        if !exceptions.isEmpty { text += " (except " + exceptions.map(escape).joined(separator: ", ") + ")" }
        return text
    }

    /// ` [if c] [unless d] [in s] [not in t]`, with `else` in front of the first guard of a
    /// later candidate.
    private func guardText(_ escape: (String) -> String) -> String {
        var guards: [String] = []
        if let condition { guards.append("if \(escape(condition))") }
        if let unlessCondition { guards.append("unless \(escape(unlessCondition))") }
        if let inState { guards.append("in \(escape(inState))") }
        if let notInState { guards.append("not in \(escape(notInState))") }
        if isLaterCandidate { guards = guards.isEmpty ? ["else"] : ["else " + guards[0]] + guards.dropFirst() }
        return guards.map { " [\($0)]" }.joined()
    }

    private func triggerText(_ escape: (String) -> String) -> String {
        switch trigger {
        case .event(let name): escape(name)
        case .always: "always"
        case .timeout(let after): after.map { "after \($0.specDescription)" } ?? "timeout"
        case .done: "done"
        case .historyDefault: "default"
        }
    }

    /// `retry ×3` for the bounded transition, `after 3 retries` for its `then`.
    static func retryText(_ role: RetryRole) -> String {
        switch role {
        case .bounded(let max): max.map { "retry ×\($0)" } ?? "retry"
        case .exhausted(let max): max.map { "after \($0) \($0 == 1 ? "retry" : "retries")" } ?? "after the retries"
        }
    }
}
