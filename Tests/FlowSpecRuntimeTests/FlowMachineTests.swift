import Clocks
import FlowSpecRuntime
import Testing

/// The runtime's machine on generated code: what bad use gets (a timeout of an old visit, an
/// event after the end) and the value semantics apps rely on. The full semantics are compared
/// with `flowspec simulate` by the differential tests.
@Suite("Flow machine")
struct FlowMachineTests {
    @Test func aTimeoutOfAnEarlierVisitChangesNothing() throws {
        var (flow, _) = LaunchAuth.Machine.start()
        let splash = try #require(flow.armedTimeout)
        flow.send(.splashAnimationCompleted)
        let before = flow
        #expect(flow.fireTimeout(visit: splash.visit).isEmpty)
        #expect(flow == before)
        #expect(flow.fireTimeout(visit: flow.visit).isEmpty)
        #expect(flow.state == .authCheck)
    }

    @Test func aTerminalStateIgnoresEveryEvent() {
        var (flow, _) = Chapters.Machine.restore(from: 5)
        #expect(Chapters.isTerminal(flow.state))
        let before = flow
        #expect(flow.send(.completeCurrentChapter).isEmpty)
        #expect(flow == before)
    }

    @Test func effectsCompareWithLiteralsHowEverTheyAreHeld() {
        var (flow, _) = Amped.Machine.restore(from: "welcome")
        let effects = flow.send(.next)
        #expect(effects == [.saveStep])
        #expect(Array(effects) == [.saveStep])
        #expect(effects.description == Array(effects).description)
        #expect(Amped.Effects() == [])
    }

    @Test func theReducerIsTheMachinesSendAndFireTimeout() {
        let (start, _) = LaunchAuth.Machine.start()
        let (next, effects) = LaunchAuth.reduce(start, .event(.splashFailed))
        #expect(next.state == .error)
        #expect(effects == [.showError])
        let (timedOut, _) = LaunchAuth.reduce(start, .timeout(visit: start.visit))
        #expect(timedOut.state == .onboardingCheck)
    }

    @Test func namesAreTheSpecsForTraces() {
        #expect(Amped.name(ofState: .personalizationIntro) == "personalization-intro")
        #expect(Chapters.name(ofState: .cipher) == "cipher")
        #expect(LaunchAuth.name(ofEvent: .loginAttempted) == "loginAttempted")
        #expect(LaunchAuth.Conditions.names == ["firstLaunch"])
        #expect(Poller.Conditions.names == [])
    }
}
