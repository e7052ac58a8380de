import FlowSpecRuntime

/// What an app supplies to the test suite `flowspec gen --tests` writes for a machine (as a
/// type named `<Machine>PathHarness`): how to make the driver its flow runs on, and the app's
/// own checks at every state of every path.
///
/// Every requirement has a default, so the least a harness is:
///
///     struct LaunchAuthPathHarness: FlowPathHarness {
///         typealias Spec = LaunchAuth
///     }
///
/// A harness that builds the app's own object around the driver (a view model, a
/// coordinator) keeps it in a stored property when ``makeDriver(clock:storage:conditions:)``
/// makes it, and checks it in ``verify(state:driver:)``, where it may also keep what a step
/// showed for the next ones.
/// The path sends every event itself, so work registered for task states should not finish
/// on its own (work that waits until it is cancelled is fine): an event the work sends is an
/// unexpected step, and the runner reports it.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
public protocol FlowPathHarness<Spec> {
    /// The machine.
    associatedtype Spec: FlowSpec

    /// The harness a path starts with (a new one for every path).
    init()

    /// A driver on `clock` whose conditions are read from `conditions`; for a persisted
    /// machine, over `storage`, so that a relaunch restores what the last driver saved.
    /// Called at the start and at every relaunch; the runner starts the driver unless the
    /// app's object already has.
    mutating func makeDriver(
        clock: FlowTestClock, storage: InMemoryFlowStorage, conditions: @escaping @MainActor () -> Spec.Conditions
    ) -> FlowDriver<Spec>

    /// The app's checks after each step, when the driver is in `state` as the spec expects:
    /// the screen shown, the value stored. Throwing fails the path at this step. Mutating, so
    /// that a harness may keep what earlier steps showed, to compare a later one with it.
    mutating func verify(state: Spec.State, driver: FlowDriver<Spec>) async throws
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension FlowPathHarness {
    /// A plain driver on the test clock, keeping its steps.
    public mutating func makeDriver(
        clock: FlowTestClock, storage: InMemoryFlowStorage, conditions: @escaping @MainActor () -> Spec.Conditions
    ) -> FlowDriver<Spec> {
        FlowDriver(Spec.self, clock: clock, keepingSteps: true, conditions: conditions)
    }

    /// No checks of the app's own.
    public mutating func verify(state: Spec.State, driver: FlowDriver<Spec>) async throws {}
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension FlowPathHarness where Spec: PersistentFlowSpec, Spec.State.RawValue: FlowStorableRawValue {
    /// A persisted driver over `storage` on the test clock, keeping its steps.
    public mutating func makeDriver(
        clock: FlowTestClock, storage: InMemoryFlowStorage, conditions: @escaping @MainActor () -> Spec.Conditions
    ) -> FlowDriver<Spec> {
        FlowDriver(
            Spec.self, storage: storage, key: FlowPathRunner.storageKey, clock: clock, keepingSteps: true,
            conditions: conditions)
    }
}
