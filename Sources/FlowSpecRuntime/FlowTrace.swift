/// One step a ``FlowDriver`` took: the input, the state before and after, whether the input
/// was ignored, the effects it ran in order, the timeout armed for the new visit, and the
/// conditions it was taken under.
public struct FlowStepRecord<Spec: FlowSpec>: Sendable {
    /// What happened to the machine.
    public enum Input: Sendable, Hashable {
        /// The flow started at `initial`.
        case start
        /// The flow was restored from a stored value (`nil`: nothing was stored).
        case restore(FlowStoredValue?)
        /// An event: sent by the app, or produced by a task state's work.
        case event(Spec.Event)
        /// The current visit's timeout fired.
        case timeout
        /// The timeout of a compound state around the current state fired.
        case compoundTimeout(Spec.Compound)
        /// With parallel regions: the timeout of one of the states the flow is in, not the first
        /// (``FlowMachine/state``), fired.
        case stateTimeout(Spec.State)
        /// The app said its conditions changed (``FlowDriver/conditionsChanged()``).
        case conditionsChanged
    }

    /// What happened.
    public let input: Input
    /// The state before (`nil` at the start).
    public let from: Spec.State?
    /// The state after (with parallel regions, the first of ``states``).
    public let to: Spec.State
    /// The states after, in document order: ``to`` alone, unless parallel regions run.
    public let states: [Spec.State]
    /// Whether the machine ignored the input (nothing changed).
    public let ignored: Bool
    /// The effects it ran, in order.
    public let effects: [Spec.Effect]
    /// Every timeout armed after the step: those of the compound states around the state,
    /// outermost first, then the state's own.
    public let armedTimeouts: [FlowArmedTimeout<Spec.State>]
    /// The conditions the step was taken under.
    public let conditions: Spec.Conditions
    /// For a restore: what the compound states with history states inside were restored to
    /// remember (those that remember anything), by the order of ``FlowSpec/memorySlotNames``.
    public let restoredMemory: [Remembered]
    /// For a restore of a machine with parallel states: the stored value of each region the
    /// restore took it for (those the flow's own state or an outer region's did not place
    /// already), by the order of ``PersistentFlowSpec/storedRegions``.
    public let restoredRegions: [Remembered]

    /// The state a compound state remembers, or a region was stored in, as stored.
    public struct Remembered: Sendable, Hashable {
        /// The compound state's (or region's) name.
        public let compound: String
        /// The stored value of the state.
        public let value: FlowStoredValue
    }

    /// What a restore read: the state's stored value (`nil`: none, or none the machine could
    /// read), what compound states were restored to remember, and the regions' values.
    struct Restored {
        var value: FlowStoredValue?
        var memory: [Remembered] = []
        var regions: [Remembered] = []
    }

    /// The state's own timeout armed for the visit after the step, if any.
    public var armedTimeout: FlowArmedTimeout<Spec.State>? {
        armedTimeouts.last.flatMap { $0.depth == nil ? $0 : nil }
    }

    /// The step as `flowspec simulate` prints it:
    /// `loginAttempted -> authLoading | effects: - | timeout: 10000ms -> error`.
    /// With parallel regions, the line lists the states, and names every timeout after its
    /// state or compound state:
    /// `lost -> home, offline | effects: - | timeout: signedIn 1800000ms -> welcome, offline 5000ms -> online`.
    public var traceLine: String {
        let effects = effects.map(Spec.name(ofEffect:))
        let regions = Spec.maximumLeaves > 1
        let timeouts = armedTimeouts.map { armed in
            let owner = armed.owner ?? to
            let compound = armed.depth.flatMap { Spec.compound(around: owner, atDepth: $0) }.map(Spec.name(ofCompound:))
            return TraceLine.Timeout(
                scope: compound ?? (regions ? Spec.name(ofState: owner) : nil),
                milliseconds: FlowTrace.milliseconds(armed.after), target: Spec.name(ofState: armed.target))
        }
        return TraceLine.text(
            input: FlowTrace.label(input, restoredMemory, regions: restoredRegions),
            state: regions ? states.map(Spec.name(ofState:)).joined(separator: ", ") : Spec.name(ofState: to),
            ignored: ignored, effects: effects, timeouts: timeouts)
    }
}

/// The trace format of `flowspec simulate`, which a ``FlowDriver`` records so that a log from
/// a user's device replays with `flowspec simulate --replay` and is checked against the spec.
///
/// A trace is one line per step (``FlowStepRecord/traceLine``), with a line `+name` or `-name`
/// before a step whose conditions differ from the step before it (from all false at the start).
public enum FlowTrace {
    /// The lines of `steps`, in order, with the condition changes between them.
    public static func lines<Spec: FlowSpec>(_ steps: [FlowStepRecord<Spec>]) -> [String] {
        var lines: [String] = []
        var previous = Spec.Conditions()
        for step in steps {
            lines += conditionChanges(from: previous, to: step.conditions)
            previous = step.conditions
            lines.append(step.traceLine)
        }
        return lines
    }

    /// `+name` for each condition that became true, `-name` for each that became false.
    public static func conditionChanges<Conditions: FlowConditions>(from old: Conditions, to new: Conditions)
        -> [String]
    {
        Conditions.names.indices.compactMap { index in
            let (was, now) = (old[condition: index], new[condition: index])
            return was == now ? nil : TraceLine.condition(Conditions.names[index], holds: now)
        }
    }

    /// The input as the trace names it: `start`, `restore(2)`, `restore(nil)` (with the regions'
    /// values, then what compound states remember: `restore(2, connectivity=7; signedIn=5)`), an
    /// event's name, `@timeout`, or `@timeout(signIn)` for a compound state's.
    static func label<Spec: FlowSpec>(
        _ input: FlowStepRecord<Spec>.Input, _ memory: [FlowStepRecord<Spec>.Remembered] = [],
        regions: [FlowStepRecord<Spec>.Remembered] = []
    ) -> String {
        let stored =
            regions.map { ", \($0.compound)=\(text($0.value))" }.joined()
            + memory.map { "; \($0.compound)=\(text($0.value))" }.joined()
        let named: TraceLine.Input =
            switch input {
            case .start: .start
            case .restore(let value?): .restore(text(value) + stored)
            case .restore(nil): .restore("nil" + stored)
            case .event(let event): .event(Spec.name(ofEvent: event))
            case .timeout: .timeout
            case .compoundTimeout(let compound): .timeoutOf(Spec.name(ofCompound: compound))
            case .stateTimeout(let state): .timeoutOf(Spec.name(ofState: state))
            case .conditionsChanged: .conditions
            }
        return named.text
    }

    /// A stored value as `--restore` takes it.
    static func text(_ value: FlowStoredValue) -> String {
        switch value {
        case .int(let int): String(int)
        case .string(let string): string
        }
    }

    /// Whole milliseconds of a duration.
    static func milliseconds(_ duration: Duration) -> Int64 {
        let components = duration.components
        return components.seconds * 1_000 + components.attoseconds / 1_000_000_000_000_000
    }
}
