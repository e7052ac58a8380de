import Clocks
import Testing

@testable import CoreKit

/// The rules of the onboarding container, then home and profile (reference flow 5), with the
/// permission request as the permission page's work and its timeout on a test clock.
@MainActor
@Suite("CoreKit onboarding container")
struct OnboardingContainerTests {
    let clock = TestClock()
    let dialogs: PermissionDialogs
    let container: OnboardingContainer

    init() {
        dialogs = PermissionDialogs(clock: clock)
        container = OnboardingContainer(permission: dialogs, clock: clock)
    }

    /// The user answers dialog after dialog at once, granting.
    func answerAtOnce() {
        dialogs.answers = Array(repeating: .init(granted: true, after: .zero), count: 4)
    }

    /// Pages through to the form, the user granting permission at once.
    func goToTheForm() async {
        answerAtOnce()
        container.next()
        await settle(until: { container.state == .nameEntry }, "the form")
    }

    /// Moves the test clock on: its timers fire, and the users whose time has come answer.
    func moveClock(by duration: Duration) async {
        await clock.advance(by: duration)
        dialogs.answerDue()
    }

    /// Moves the test clock on, and lets every timer it made due run, for checking that
    /// nothing happens.
    func advance(by duration: Duration) async {
        await moveClock(by: duration)
        await settle(container.flow)
    }

    @Test func theContainerStartsOnTheInfoPage() async {
        #expect(container.route == .onboarding(page: .intro, index: 0, count: 3))
        #expect(container.pageIndex == 0)
        #expect(container.pageCount == 3)
        #expect(container.flow.machine.armedTimeout == nil)
        // The request is the permission page's work, and the driver runs work in task states
        // only: the info page is not one.
        #expect(CoreKit.kind(of: .intro) == .input)
        await settle(container.flow)
        #expect(dialogs.shown == 0, "nothing is requested before the permission page")
    }

    @Test func nextAndBackMoveBetweenThePagesWithTheirPositions() async {
        dialogs.answers = [.init(granted: true, after: .seconds(1))]
        container.next()
        #expect(container.route == .onboarding(page: .notifications, index: 1, count: 3))
        // The user's answer waits on the test clock only once the request has started.
        await settle(until: { dialogs.shown == 1 }, "the request")
        await moveClock(by: .seconds(1))
        await settle(until: { container.state == .nameEntry }, "the answer")
        #expect(container.route == .onboarding(page: .nameEntry, index: 2, count: 3))
        container.back()
        #expect(container.route == .onboarding(page: .notifications, index: 1, count: 3))
        container.back()
        #expect(container.route == .onboarding(page: .intro, index: 0, count: 3))
        container.back()
        #expect(container.route == .onboarding(page: .intro, index: 0, count: 3), "there is no page before the first")
    }

    @Test func thePermissionPageRequestsOnEveryVisitAndWaitsForTheAnswer() async {
        dialogs.answers = [.init(granted: false, after: .seconds(3))]
        container.next()
        await settle(until: { dialogs.shown == 1 }, "the request")
        container.next()
        #expect(container.state == .notifications, "Next does not skip a pending request")
        await moveClock(by: .seconds(3))
        await settle(until: { container.state == .nameEntry }, "the answer")
        #expect(container.notificationsAllowed == false)
        container.back()
        await settle(until: { dialogs.shown == 2 }, "coming back asks again")
    }

    @Test func anUnansweredRequestTimesOutAfter10SecondsIsCancelledAndItsLateAnswerChangesNothing() async throws {
        dialogs.answers = [.init(granted: true, after: .seconds(12))]
        container.next()
        let timeout = try #require(container.flow.machine.armedTimeout)
        #expect(timeout.after == .seconds(10))
        #expect(timeout.target == .nameEntry)
        await settle(until: { dialogs.shown == 1 }, "the request")
        await advance(by: .milliseconds(9_999))
        #expect(container.state == .notifications, "nothing happens before the timeout")
        await moveClock(by: .milliseconds(1))
        await settle(until: { container.state == .nameEntry }, "the 10 s timeout")
        #expect(container.flow.lastStep?.input == .timeout)
        #expect(container.route == .onboarding(page: .nameEntry, index: 2, count: 3))
        #expect(container.notificationsAllowed == nil, "no answer, no permission")
        await settle(until: { dialogs.cancelled == [0] }, "the request still running at the timeout cancelled")
        await moveClock(by: .seconds(2))
        await settle(until: { container.flow.droppedResults == 1 }, "the late answer dropped")
        #expect(container.state == .nameEntry, "a late answer does nothing")
        #expect(container.notificationsAllowed == nil)
        await #expect(throws: Never.self, "the form arms no timer") { try await clock.checkSuspension() }
    }

    @Test func anIgnoredNextArmsNoNewTimerAndTheFormWaitsAsLongAsItTakes() async {
        container.next()
        await advance(by: .seconds(5))
        container.next()
        #expect(container.state == .notifications)
        await moveClock(by: .seconds(5))
        await settle(until: { container.state == .nameEntry }, "the timeout 10 s after entering, not 15")
        #expect(container.flow.machine.armedTimeout == nil)
        await advance(by: .seconds(3_600))
        #expect(container.state == .nameEntry, "the form waits as long as it takes")
    }

    @Test func leavingThePermissionPageCancelsItsTimerAndItsRequest() async {
        dialogs.answers = [.init(granted: true, after: .seconds(5))]
        container.next()
        await settle(until: { dialogs.shown == 1 }, "the request")
        await advance(by: .seconds(4))
        container.back()
        #expect(container.state == .intro)
        await settle(until: { dialogs.cancelled == [0] }, "the request cancelled with its page")
        await moveClock(by: .seconds(1))
        await settle(until: { container.flow.droppedResults == 1 }, "the answer that came after, dropped")
        // Nothing sleeps on the clock any more: the page's timer, due at 10 s, is gone.
        await #expect(throws: Never.self) { try await clock.checkSuspension() }
        await advance(by: .seconds(5))
        #expect(container.state == .intro)
        #expect(container.flow.lastStep?.input == .event(.back))
        #expect(container.notificationsAllowed == nil)
    }

    @Test func aTimerOrAnswerFromAnEarlierVisitDoesNothing() async {
        dialogs.answers = [.init(granted: true, after: .seconds(7))]
        container.next()
        await settle(until: { dialogs.shown == 1 }, "the first visit's request")
        await advance(by: .seconds(5))
        container.back()
        container.next()
        await settle(until: { dialogs.shown == 2 }, "the second visit's request")
        await moveClock(by: .seconds(2))
        await settle(until: { container.flow.droppedResults == 1 }, "the earlier visit's answer dropped")
        #expect(container.state == .notifications, "the earlier visit's answer is stale")
        #expect(container.notificationsAllowed == nil)
        await advance(by: .seconds(3))
        #expect(container.state == .notifications, "the earlier visit's timer is stale")
        await moveClock(by: .seconds(5))
        await settle(until: { container.state == .nameEntry }, "the second visit's own 10 s")
    }

    @Test func anImmediateAnswerMovesOnAtOnce() async {
        answerAtOnce()
        container.next()
        await settle(until: { container.state == .nameEntry }, "the answer")
        #expect(container.notificationsAllowed == true)
        await advance(by: .seconds(10))
        #expect(container.state == .nameEntry)
        #expect(container.flow.lastStep?.input == .event(.permissionGranted), "the page's timer no longer applies")
    }

    @Test func theCompletionCallbackFiresOnceAtTheEndAndNotBefore() async {
        var finished = 0
        container.onFinish = { finished += 1 }
        await goToTheForm()
        container.back()
        await settle(until: { container.state == .nameEntry }, "the form again")
        #expect(finished == 0)
        container.next()
        #expect(container.state == .nameEntry, "Next on the form needs a name")
        container.name = "   "
        container.next()
        #expect(container.state == .nameEntry, "a blank name is no name")
        #expect(finished == 0)
        container.name = "Ada"
        container.next()
        #expect(finished == 1)
        #expect(container.route == .home)
        #expect(container.pageIndex == nil)
        container.next()
        container.back()
        container.openProfile()
        container.closeProfile()
        #expect(finished == 1, "onboarding completes once")
    }

    @Test func homeOpensTheProfileAndTheProfileLeavesBackToHome() async {
        await goToTheForm()
        container.openProfile()
        #expect(container.state == .nameEntry, "no profile during onboarding")
        container.name = "Ada"
        container.next()
        #expect(container.route == .home)
        container.closeProfile()
        #expect(container.route == .home)
        container.openProfile()
        #expect(container.route == .profile)
        container.openProfile()
        #expect(container.route == .profile)
        container.back()
        #expect(container.route == .profile, "Back belongs to the onboarding pages")
        container.closeProfile()
        #expect(container.route == .home)
        container.openProfile()
        #expect(container.route == .profile, "the profile stays reachable")
    }
}
