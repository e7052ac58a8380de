import FlowSpecRuntime
import FlowSpecTesting
import Testing

/// Effects on the way in, in the generated machine and the driver
/// (`Tests/Fixtures/gen/golden/initial.yaml`): a compound state's `initial` runs its effects
/// when the state is entered through it (starting, a transition to the compound state, a region
/// entered with its parallel state, a shallow history resuming it), after the state's `entry`;
/// never when a transition names a state inside, a history resumes the state left, or a stored
/// state is restored. A history's `default` runs its own when taken.
@MainActor
@Suite("Effects on the way in")
struct InitialEffectsDriverTests {
    let clock = FlowTestClock()

    private func codeEntry(_ storage: InMemoryFlowStorage = InMemoryFlowStorage()) -> FlowDriver<CodeEntry> {
        FlowDriver(CodeEntry.self, storage: storage, key: "code", clock: clock, keepingSteps: true)
    }

    @Test func startingRunsTheInitialEffectsAfterTheEntries() {
        let started = FlowMachine<CodeEntry>.start()
        #expect(started.machine.state == .sending)
        #expect(Array(started.effects) == [.showSpinner, .startAttempt, .sendCode])
        // A persisted flow with nothing stored starts.
        let flow = codeEntry()
        flow.start()
        #expect(flow.trace == ["restore(nil) -> sending | effects: showSpinner, startAttempt, sendCode | timeout: -"])
    }

    @Test func aTransitionToTheCompoundStateRunsThemAndOneToAStateInsideDoesNot() {
        var machine = FlowMachine<CodeEntry>.start().machine
        #expect(Array(machine.send(.sent)) == [.focusField])
        #expect(Array(machine.send(.wrong)) == [])
        // `again: typing`, from inside `typing`: it leaves and enters `typing`, through its `initial`.
        #expect(Array(machine.send(.again)) == [.focusField])
        #expect(machine.state == .empty)
        #expect(Array(machine.send(.cancel)) == [.hideSpinner])
        // `retry: verifying` enters it through its `initial`.
        #expect(Array(machine.send(.retry)) == [.showSpinner, .startAttempt, .sendCode])
    }

    @Test func aShallowHistoryResumesThroughTheInitialOfTheStateItResumes() {
        var machine = FlowMachine<CodeEntry>.start().machine
        machine.send(.sent)
        machine.send(.wrong)
        machine.send(.cancel)
        // `verifying` is entered through its history, not its `initial`: no `startAttempt`;
        // `typing`, resumed, is entered through its own: `focusField`.
        #expect(Array(machine.send(.resume)) == [.showSpinner, .focusField])
        #expect(machine.state == .empty)
    }

    @Test func aHistoryTakingItsDefaultRunsTheDefaultsEffects() {
        let storage = InMemoryFlowStorage(["code": .string("idle")])
        let flow = codeEntry(storage)
        flow.start()
        #expect(flow.trace == ["restore(idle) -> idle | effects: - | timeout: -"])
        flow.send(.resume)
        #expect(flow.state == .empty)
        #expect(flow.lastStep?.effects == [.showSpinner, .restored, .focusField])
    }

    @Test func restoringAStoredStateRunsNoInitialEffectsAndNothingStoredStarts() {
        let stored = FlowMachine<CodeEntry>.restore(from: "mistyped")
        #expect(stored.machine.state == .mistyped)
        #expect(Array(stored.effects) == [.showSpinner])
        let nothing = FlowMachine<CodeEntry>.restore(from: nil)
        #expect(nothing.machine.state == .sending)
        #expect(Array(nothing.effects) == [.showSpinner, .startAttempt, .sendCode])
    }

    @Test func regionsEnteredThroughTheirInitialRunItsEffectsInDocumentOrder() {
        var radio = FlowMachine<Radio>.start().machine
        #expect(Array(radio.send(.power)) == [.turnOn, .rewind, .startPlaying, .resetVolume, .showNormal])
        #expect(radio.states == [.playing, .normal])
        #expect(Array(radio.send(.up)) == [.boost])
        #expect(Array(radio.send(.down)) == [.showNormal])
        radio.send(.halt)
        // `jump: paused` names a state inside `playback`: its `initial` runs nothing; `volume`'s does.
        #expect(Array(radio.send(.jump)) == [.turnOn, .startPause, .resetVolume, .showNormal])
        #expect(radio.states == [.paused, .normal])
    }
}
