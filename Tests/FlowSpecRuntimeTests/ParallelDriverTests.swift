import FlowSpecRuntime
import FlowSpecTesting
import Testing

/// The generated machine and `FlowDriver` on parallel regions
/// (`Tests/Fixtures/gen/golden/parallel.yaml`), on the test clock: a state per region, a timer
/// per armed timeout, the work of every task state the flow is in running side by side (a step
/// in one region leaves the others' alone), and the trace `flowspec simulate` prints.
@MainActor
@Suite("Driver on parallel regions")
struct ParallelDriverTests {
    let clock = FlowTestClock()

    @Test func theMachineIsInAStatePerRegion() {
        var machine = Workspace.Machine.start().machine
        machine.send(.start)
        #expect(machine.states == [.home, .syncing, .online])
        #expect(machine.state == .home)
        #expect(machine.isIn(.signedIn) && machine.isIn(.data) && machine.isIn(.syncing))
        #expect(!machine.isIn(.settings))
        #expect(Set(machine.stateVisits).count == 3)
        let effects = machine.send(.lost)
        #expect(Array(effects) == [.showOffline])
        #expect(machine.states == [.home, .syncing, .offline])
        // Every timer armed, in the order armed, each saying whose it is.
        #expect(machine.armedTimeouts.map(\.after) == [.seconds(1800), .seconds(20), .seconds(5)])
        #expect(machine.armedTimeouts.map(\.owner) == [.home, .syncing, .offline])
        #expect(machine.armedTimeouts.map(\.depth) == [0, nil, nil])
        #expect(Array(machine.send(.sessionExpired)) == [.hideOffline, .leaveArea])
        #expect(machine.states == [.reauth])
    }

    @Test func workInTwoRegionsRunsSideBySide() async {
        let flow = FlowDriver(Workspace.self, clock: clock, keepingSteps: true)
        let syncing = Gate()
        let probing = Gate()
        Self.register(flow, syncing: syncing, probing: probing)
        flow.start()
        flow.send(.start)
        flow.send(.lost)
        #expect(flow.machine.states == [.home, .syncing, .offline])
        // A step in the navigation region leaves both regions' work running.
        flow.send(.open)
        await probing.open()
        await settle(until: { flow.machine.states == [.settings, .syncing, .online] }, "connectivity found")
        await syncing.open()
        await settle(until: { flow.machine.states == [.settings, .idle, .online] }, "data synced")
        #expect(flow.droppedResults == 0)
        #expect(flow.problems == [])
    }

    @Test func leavingTheParallelStateCancelsEveryRegionsWork() async {
        let flow = FlowDriver(Workspace.self, clock: clock, keepingSteps: true)
        let gate = Gate()
        Self.register(flow, syncing: gate, probing: gate)
        flow.start()
        flow.send(.start)
        flow.send(.lost)
        flow.send(.sessionExpired)
        await gate.open()
        await settle(until: { flow.droppedResults == 2 }, "both results dropped")
        #expect(flow.state == .reauth)
    }

    @Test func eachRegionsTimerFiresForItsState() async {
        let flow = FlowDriver(Workspace.self, clock: clock, keepingSteps: true)
        flow.work(in: .syncing) { .synced }
        flow.work(in: .offline) { .found }
        flow.start()
        flow.send(.start)
        await settle(until: { flow.machine.states == [.home, .idle, .online] }, "data synced")
        flow.stop()
        let quiet = FlowDriver(Workspace.self, clock: clock, keepingSteps: true)
        let never = Gate()
        Self.register(quiet, syncing: never, probing: never)
        quiet.start()
        quiet.send(.start)
        quiet.send(.lost)
        clock.advance(by: .seconds(5))
        await settle(quiet)
        #expect(quiet.machine.states == [.home, .syncing, .online])
        #expect(quiet.lastStep?.input == .stateTimeout(.offline))
        clock.advance(by: .seconds(15))
        await settle(quiet)
        #expect(quiet.machine.states == [.home, .idle, .online])
        #expect(quiet.lastStep?.input == .stateTimeout(.syncing))
        // The lines `flowspec simulate` prints for the same inputs (`--replay` checks them).
        #expect(
            quiet.trace == [
                "start -> welcome | effects: - | timeout: -",
                "start -> home, syncing, online | effects: trackSignedIn | timeout: signedIn 1800000ms -> welcome, syncing 20000ms -> idle",
                "lost -> home, syncing, offline | effects: showOffline | timeout: signedIn 1800000ms -> welcome, syncing 20000ms -> idle, offline 5000ms -> online",
                "@timeout(offline) -> home, syncing, online | effects: hideOffline | timeout: signedIn 1800000ms -> welcome, syncing 20000ms -> idle",
                "@timeout(syncing) -> home, idle, online | effects: - | timeout: signedIn 1800000ms -> welcome"
            ])
        await never.open()
        await settle(until: { quiet.droppedResults == 2 }, "late results dropped")
    }

    // MARK: Persistence

    /// A persisted driver whose two task states' work waits until the test opens `gate`.
    func persisted(_ storage: InMemoryFlowStorage, _ gate: Gate) -> FlowDriver<Workspace> {
        let flow = FlowDriver(Workspace.self, storage: storage, key: "ws", clock: clock, keepingSteps: true)
        Self.register(flow, syncing: gate, probing: gate)
        return flow
    }

    /// A persisted driver started and taken to settings, syncing and offline.
    func inSettingsOffline(_ storage: InMemoryFlowStorage, _ gate: Gate) -> FlowDriver<Workspace> {
        let flow = persisted(storage, gate)
        flow.start()
        flow.send(.start)
        flow.send(.open)
        flow.send(.lost)
        return flow
    }

    /// The work of syncing and of probing for the connection, each answering once its gate opens.
    static func register(_ flow: FlowDriver<Workspace>, syncing: Gate, probing: Gate) {
        flow.work(in: .syncing) {
            await syncing.wait()
            return .synced
        }
        flow.work(in: .offline) {
            await probing.wait()
            return .found
        }
    }

    /// Every change saves the flow's state and each region's; a relaunch enters each region's
    /// stored state, with the entries of every state entered, in document order.
    @Test func everyRegionsStateIsStoredAndRestored() async {
        let storage = InMemoryFlowStorage()
        let gate = Gate()
        let first = inSettingsOffline(storage, gate)
        #expect(
            storage.values == [
                "ws": .string("settings"), "ws.region.navigation": .string("settings"),
                "ws.region.data": .string("syncing"), "ws.region.connectivity": .string("offline")
            ])
        first.stop()
        let second = persisted(storage, gate)
        second.start()
        #expect(second.machine.states == [.settings, .syncing, .offline])
        // The line `flowspec simulate --restore` and `--replay` print for the same value.
        #expect(
            second.trace == [
                "restore(settings, data=syncing, connectivity=offline) -> settings, syncing, offline | effects: trackSignedIn, showSettings, showOffline | timeout: signedIn 1800000ms -> welcome, syncing 20000ms -> idle, offline 5000ms -> online"
            ])
        #expect(second.problems.isEmpty)
        await gate.open()
        await settle(until: { second.machine.states == [.settings, .idle, .online] }, "both regions' work resumed")
        #expect(storage.values["ws.region.connectivity"] == .string("online"))
        #expect(storage.values["ws.region.data"] == .string("idle"))
    }

    /// Leaving the parallel state leaves the regions' values stored, and a restore outside it
    /// reads none of them; what the deep history remembers brings navigation back, the other
    /// regions at their `initial`.
    @Test func regionsLeftAreNotRestored() {
        let storage = InMemoryFlowStorage()
        let gate = Gate()
        let first = inSettingsOffline(storage, gate)
        first.send(.sessionExpired)
        first.stop()
        #expect(storage.values["ws"] == .string("reauth"))
        #expect(storage.values["ws.history.navigation"] == .string("settings"))
        let second = persisted(storage, gate)
        second.start()
        #expect(second.trace == ["restore(reauth; navigation=settings) -> reauth | effects: - | timeout: -"])
        second.send(.signedInAgain)
        #expect(second.machine.states == [.settings, .syncing, .online])
        second.stop()
    }

    /// A value stored before the machine had regions restores into its region, the others at
    /// their `initial`; a region's value that is not a state inside it, or not a raw value, is
    /// reported, and the region is entered through its `initial`.
    @Test(arguments: [
        (["ws": FlowStoredValue.string("offline")], [Workspace.State.home, .syncing, .offline], [String]()),
        (
            ["ws": .string("settings"), "ws.region.connectivity": .string("idle"), "ws.region.data": .int(4)],
            [.settings, .syncing, .online],
            [
                "the value stored under 'ws.region.data' (4) is not a Workspace's raw value; the region is entered through its `initial`",
                "the value stored under 'ws.region.connectivity' (idle) is not a state inside 'connectivity'; the region is entered through its `initial`"
            ]
        )
    ])
    func aRegionsValueThatCannotBeUsedIsReported(
        stored: [String: FlowStoredValue], states: [Workspace.State], problems: [String]
    ) {
        let flow = persisted(InMemoryFlowStorage(stored), Gate())
        flow.start()
        #expect(flow.machine.states == states)
        #expect(flow.problems == problems)
        flow.stop()
    }

    @Test func theFlowEndsWhenEveryRegionHas() {
        var machine = Workspace.Machine.start().machine
        machine.send(.start)
        machine.send(.synced)
        machine.send(.finish)
        #expect(machine.state == .welcome, "every region ended: the parallel state's `done`")
    }

    /// `MediaPlayer` is parallel at its top: it starts in every region, the machine's name enters
    /// every region afresh, and the flow ends once both regions have.
    @Test func aMachineParallelAtItsTopRunsItsRegionsFromTheStart() {
        let flow = FlowDriver(MediaPlayer.self, clock: clock, keepingSteps: true)
        flow.start()
        #expect(flow.machine.states == [.paused, .normal])
        #expect(flow.machine.isIn(.MediaPlayer) && flow.machine.isIn(.playback) && flow.machine.isIn(.volume))
        flow.send(.play)
        flow.send(.mute)
        #expect(flow.machine.states == [.playing, .muted])
        flow.send(.reset)
        #expect(flow.machine.states == [.paused, .normal])
        flow.send(.eject)
        #expect(flow.machine.states == [.ejected, .silent])
        #expect(flow.problems == [])
        flow.send(.play)
        #expect(flow.problems.count == 1, "an event after every region ended: \(flow.problems)")
        #expect(
            flow.trace == [
                "start -> paused, normal | effects: - | timeout: -",
                "play -> playing, normal | effects: startAudio | timeout: -",
                "mute -> playing, muted | effects: - | timeout: -",
                "reset -> paused, normal | effects: stopAudio, resetVolume | timeout: -",
                "eject -> ejected, silent | effects: - | timeout: -",
                "play -> ejected, silent (ignored) | effects: - | timeout: -"
            ])
        flow.stop()
    }
}
