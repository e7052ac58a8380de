import Clocks
import FlowSpecRuntime
import FlowSpecTesting
import Testing

/// Transitions without a target (`progressed: { effects: [showProgress] }`), in the generated
/// machine and the driver: the effects run and the flow stays, leaving and entering nothing, so
/// visits, timers, work, activities and retry counters carry on as if the event had not come
/// (`Tests/Fixtures/gen/golden/features.yaml` and `parallel.yaml`).
@MainActor
@Suite("Transitions without a target")
struct TargetlessDriverTests {
    let clock = TestClock()

    /// An `Amped` machine on its task state `syncing`.
    func syncing() -> Amped.Machine {
        var machine = Amped.Machine.start().machine
        machine.send(.next)
        machine.send(.next)
        machine.send(.next)
        return machine
    }

    @Test func itRunsItsEffectsAndKeepsTheVisit() {
        var machine = syncing()
        #expect(machine.state == .syncing)
        let visit = machine.visit
        let armed = machine.armedTimeout
        let (effects, handled) = machine.handle(.progressed)
        #expect(handled)
        #expect(Array(effects) == [.showProgress])
        #expect(machine.state == .syncing && machine.visit == visit)
        #expect(machine.armedTimeout == armed)
        // Machine-wide, on an input state: `help` is handled everywhere it is inherited.
        var start = Amped.Machine.start().machine
        let before = start.visit
        #expect(Array(start.send(.help)) == [.showHelp])
        #expect(start.state == .welcome && start.visit == before)
        // An event no state handles is not handled.
        #expect(start.handle(.synced).handled == false)
    }

    @Test func itLeavesTheRetryCountersAsTheyWere() {
        // `failed` retries twice, then goes to `default`: staying in between counts for nothing,
        // as entering an input state would (it resets the counters).
        var machine = syncing()
        machine.send(.failed)
        machine.send(.progressed)
        machine.send(.failed)
        #expect(machine.state == .syncing)
        machine.send(.progressed)
        machine.send(.failed)
        #expect(machine.state == .default)
    }

    @Test func theTimerKeepsItsDeadlineAndTheWorkIsNotStartedAgain() async {
        let driver = FlowDriver(Amped.self, clock: clock, keepingSteps: true)
        let starts = StartCount()
        let gate = Gate()
        let later = Gate()
        driver.work(in: .syncing) {
            // The first visit's work reports progress once its gate opens; the next one's waits.
            await starts.add() == 1 ? await gate.wait() : await later.wait()
            return .progressed
        }
        driver.start()
        driver.send(.next)
        driver.send(.next)
        driver.send(.next)
        #expect(driver.state == .syncing)
        await settle(until: { starts.count == 1 }, "the work started")
        await clock.advance(by: .milliseconds(1_000))
        await gate.open()
        await settle(until: { driver.lastStep?.input == .event(.progressed) }, "the work's event")
        #expect(driver.lastStep?.ignored == false)
        #expect(driver.lastStep?.effects == [.showProgress])
        #expect(driver.state == .syncing)
        // 1500 ms from entering `syncing`, not from the event: the timer was not armed again.
        await clock.advance(by: .milliseconds(499))
        await settle(driver)
        #expect(driver.lastStep?.input == .event(.progressed))
        #expect(starts.count == 1)
        await clock.advance(by: .milliseconds(1))
        await settle(until: { driver.lastStep?.input == .timeout }, "the timeout, on time")
        // The timeout enters `syncing` again: a new visit, whose work starts.
        await settle(until: { starts.count == 2 }, "the next visit's work")
        #expect(
            Array(driver.trace.suffix(2)) == [
                "progressed -> syncing | effects: showProgress | timeout: 1500ms -> syncing",
                "@timeout -> syncing | effects: logFailure | timeout: 1500ms -> syncing"
            ])
        #expect(driver.problems.isEmpty)
        driver.stop()
        await later.open()
    }

    @Test func oneWrittenAroundSeveralRegionsRunsOnce() {
        var machine = Workspace.Machine.start().machine
        machine.send(.start)
        let visits = machine.stateVisits
        // `ping` is the parallel state's: every region inherits it, and it is one transition.
        #expect(Array(machine.send(.ping)) == [.logPing])
        #expect(machine.states == [.home, .syncing, .online] && machine.stateVisits == visits)
        // A region's own: the others stay too, and every timer is as it was.
        let armed = machine.armedTimeouts
        #expect(Array(machine.send(.progressed)) == [.showProgress])
        #expect(machine.states == [.home, .syncing, .online] && machine.stateVisits == visits)
        #expect(machine.armedTimeouts == armed)
    }
}

/// How many times something happened, counted on the main actor from any executor.
@MainActor
final class StartCount {
    private(set) var count = 0

    /// Counts one more; returns the count.
    func add() -> Int {
        count += 1
        return count
    }
}
