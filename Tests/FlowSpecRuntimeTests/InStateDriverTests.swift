import FlowSpecRuntime
import FlowSpecTesting
import Testing

/// Guards that read where the flow is (`in:`, `notIn:`), in the generated machine and the
/// driver (`Tests/Fixtures/gen/golden/instate.yaml`): the kernel sets them from the states the
/// flow is in before each choice of steps, so a region's guard sees the other regions, an
/// `always` branch holds as soon as another region's step makes it, and a compound state's
/// transition tells the states inside it apart. The app never sets them.
@MainActor
@Suite("Guards on where the flow is")
struct InStateDriverTests {
    let clock = FlowTestClock()

    /// An `Upload` machine whose upload region is `ready`, its form `drafting`.
    func uploaded() -> Upload.Machine {
        var machine = Upload.Machine.start().machine
        machine.send(.pick)
        machine.send(.uploaded)
        return machine
    }

    @Test func aRegionsCandidateReadsTheOtherRegion() {
        var machine = Upload.Machine.start().machine
        #expect(machine.states == [.idle, .drafting])
        // Not `ready`: the second candidate stays and warns.
        #expect(Array(machine.send(.publish)) == [.warn])
        #expect(machine.states == [.idle, .drafting])
        machine = uploaded()
        #expect(Array(machine.send(.publish)) == [.post])
        #expect(machine.states == [.ready, .publishing])
    }

    @Test func anotherRegionsStepMakesAnAlwaysBranchHold() {
        var machine = uploaded()
        machine.send(.publish)
        // Leaving `ready` makes `publishing`'s `notIn: ready` hold in the same input.
        #expect(Array(machine.send(.pick)) == [])
        #expect(machine.states == [.sending, .drafting])
    }

    @Test func theParallelStatesOwnTransitionReadsWhereItsRegionsAre() {
        var machine = uploaded()
        // `cancel`, the parallel state's, holds only while the form is `publishing`.
        #expect(machine.handle(.cancel).handled == false)
        machine.send(.publish)
        #expect(Array(machine.send(.cancel)) == [.discard])
        #expect(machine.states == [.cancelled])
        machine.send(.restart)
        #expect(machine.states == [.idle, .drafting])
    }

    @Test func theDriverReadsWhereTheFlowIsAtEveryInput() async {
        let flow = FlowDriver(Upload.self, clock: clock, keepingSteps: true)
        flow.start()
        flow.send(.pick)
        flow.send(.uploaded)
        flow.send(.publish)
        flow.send(.pick)
        #expect(flow.machine.states == [.sending, .drafting])
        flow.send(.uploaded)
        flow.send(.publish)
        #expect(flow.machine.states == [.ready, .publishing])
        flow.send(.pick)
        clock.advance(by: .seconds(30))
        await settle(until: { flow.machine.states == [.idle, .drafting] }, "the upload timed out")
        #expect(flow.problems == [])
    }

    @Test func aCompoundStatesTransitionTellsTheStatesInsideApart() {
        var machine = Playback.Machine.start().machine
        #expect(Array(machine.send(.back)) == [.askToPause])
        #expect(machine.state == .playing)
        machine.send(.pause)
        #expect(Array(machine.send(.back)) == [])
        #expect(machine.state == .menu)
    }

    @Test func theAppCannotSetWhereTheFlowIs() {
        // The conditions the app gives hold none of the states read, whatever it set by index.
        var conditions = Playback.Conditions()
        conditions[condition: 0] = true
        #expect(Playback.Conditions.names == [])
        var machine = Playback.Machine.start().machine
        #expect(Array(machine.send(.back, conditions: conditions)) == [.askToPause])
    }
}
