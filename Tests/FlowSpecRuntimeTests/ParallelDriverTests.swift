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
        flow.work(in: .syncing) {
            await syncing.wait()
            return .synced
        }
        flow.work(in: .offline) {
            await probing.wait()
            return .found
        }
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
        flow.work(in: .syncing) {
            await gate.wait()
            return .synced
        }
        flow.work(in: .offline) {
            await gate.wait()
            return .found
        }
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
        quiet.work(in: .syncing) {
            await never.wait()
            return .synced
        }
        quiet.work(in: .offline) {
            await never.wait()
            return .found
        }
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

    @Test func theFlowEndsWhenEveryRegionHas() {
        var machine = Workspace.Machine.start().machine
        machine.send(.start)
        machine.send(.synced)
        machine.send(.finish)
        #expect(machine.state == .welcome, "every region ended: the parallel state's `done`")
    }
}
