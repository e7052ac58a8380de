import FlowSpecRuntime

/// A test path of a machine: a run from the start that `flowspec gen --tests` writes, with
/// what the spec expects after every step. ``FlowPathRunner`` runs it through a
/// ``FlowDriver`` on a ``FlowTestClock``.
public struct FlowPath<Spec: FlowSpec>: Sendable, CustomStringConvertible {
    /// What a step feeds the flow.
    public enum Input: Sendable {
        /// The flow starts (``FlowDriver/start()``): `initial`, or what a persisted flow restores.
        case start
        /// An event is sent.
        case event(Spec.Event)
        /// The armed timeout fires: the clock is advanced by its whole duration.
        case timeout
        /// Time passes: the clock is advanced by the duration, and the timer due then fires: the
        /// timeout of the given compound state around the state, or (`nil`) the state's own.
        case wait(Duration, timeoutOf: Spec.Compound?)
        /// With parallel regions: time passes, and the timeout of one of the states the flow is
        /// in fires.
        case regionWait(Duration, timeoutOf: Spec.State)
        /// The app is relaunched: the driver stops and a new one over the same storage starts,
        /// restoring the state the old one saved.
        case relaunch
        /// The app says its conditions changed (``FlowDriver/conditionsChanged()``).
        case conditionsChanged
    }

    /// A timer the spec expects armed after a step.
    public struct Timer: Sendable, Equatable {
        /// How long after entering the state it fires.
        public var after: Duration
        /// Where it leads.
        public var target: Spec.State
        /// With parallel regions: the name of the state or compound state whose timer it is.
        public var owner: String? = nil

        /// A timer of `after` leading to `target`.
        public static func after(_ after: Duration, _ target: Spec.State) -> Timer {
            Timer(after: after, target: target)
        }

        /// A timer of `after` leading to `target`, of the state or compound state named `owner`.
        public static func after(_ after: Duration, _ target: Spec.State, of owner: String) -> Timer {
            Timer(after: after, target: target, owner: owner)
        }
    }

    /// One step and its expectations.
    public struct Step: Sendable {
        /// The input.
        public var input: Input
        /// The conditions that hold for it, by spec name (the others do not).
        public var conditions: [String]
        /// The state after it.
        public var state: Spec.State
        /// The effects it runs, in order.
        public var effects: [Spec.Effect]
        /// The timer armed after it.
        public var timer: Timer?
        /// The timers of the compound states around the state after it, outermost first (each
        /// from when its compound state was entered).
        public var compoundTimers: [Timer]
        /// With parallel regions: every state the flow is in after it, in document order
        /// (`state` is the first), and every timer armed, in the order armed (in place of
        /// `timer` and `compoundTimers`).
        public var states: [Spec.State]
        public var timers: [Timer]

        /// A step.
        public init(
            _ input: Input, when conditions: [String] = [], _ state: Spec.State, states: [Spec.State] = [],
            effects: [Spec.Effect] = [], timer: Timer? = nil, compoundTimers: [Timer] = [], timers: [Timer] = []
        ) {
            self.input = input
            self.conditions = conditions
            self.state = state
            self.states = states
            self.effects = effects
            self.timer = timer
            self.compoundTimers = compoundTimers
            self.timers = timers
        }
    }

    /// A `within` requirement a path checks: from the step at `fromStep` to the last, the test
    /// clock moves at most `max`.
    public struct Budget: Sendable {
        /// The step that enters the requirement's `from` state (from 0, the start).
        public var fromStep: Int
        /// The requirement's bound.
        public var max: Duration

        /// A budget.
        public init(fromStep: Int, max: Duration) {
            self.fromStep = fromStep
            self.max = max
        }
    }

    /// What the path is for, as `flowspec paths` says it.
    public var name: String
    /// The steps; the first is the start.
    public var steps: [Step]
    /// The time budget it checks, if any.
    public var budget: Budget?

    /// A path.
    public init(_ name: String, budget: Budget? = nil, _ steps: [Step]) {
        self.name = name
        self.steps = steps
        self.budget = budget
    }

    /// The name, as test reports show the path.
    public var description: String { name }
}
