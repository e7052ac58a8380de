import Clocks
import Testing

@testable import CoreKit

/// Permission requests that the test answers by hand, or never.
@MainActor
final class Permissions: NotificationPermission {
    /// The requests made, in order, each waiting for its answer until answered.
    private(set) var requests: [CheckedContinuation<Bool, Never>?] = []

    nonisolated func request() async -> Bool {
        await withCheckedContinuation { continuation in
            Task { @MainActor in self.requests.append(continuation) }
        }
    }

    /// Answers request `index` (from 0), once.
    func answer(_ index: Int, _ granted: Bool) {
        requests[index]?.resume(returning: granted)
        requests[index] = nil
    }

    /// Answers whatever is still waiting, so that no request is left hanging after a test.
    func answerTheRest() {
        for index in requests.indices { answer(index, false) }
    }
}

/// Lets the main actor run what is ready (timers the test clock fired, requests made or
/// answered) until `condition` holds; no time passes.
@MainActor
func settle(
    until condition: @MainActor () -> Bool, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
) async {
    for _ in 0..<100_000 {
        if condition() { return }
        await Task.yield()
    }
    Issue.record("never happened: \(what)", sourceLocation: sourceLocation)
}

/// Lets the main actor run whatever is ready, for checking that nothing happens.
@MainActor
func settle() async {
    for _ in 0..<500 { await Task.yield() }
}

/// The rules of the onboarding container, then home and profile (reference flow 5), with the
/// permission request as the permission page's work and its timeout on a test clock.
@MainActor
@Suite("CoreKit onboarding container")
struct OnboardingContainerTests {
    let permissions = Permissions()
    let clock = TestClock()
    let container: OnboardingContainer

    init() {
        container = OnboardingContainer(permission: permissions, clock: clock)
    }

    /// Waits for request `count` (from 1) to be made.
    func waitForRequest(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
        await settle(until: { permissions.requests.count == count }, "request \(count)", sourceLocation: sourceLocation)
    }

    /// Pages through to the form, answering the permission request.
    func goToTheForm() async {
        container.next()
        await waitForRequest(1)
        permissions.answer(0, true)
        await settle(until: { container.state == .nameEntry }, "the form")
    }

    @Test func theContainerStartsOnTheInfoPage() async {
        #expect(container.route == .onboarding(page: .intro, index: 0, count: 3))
        #expect(container.pageIndex == 0)
        #expect(container.pageCount == 3)
        await settle()
        #expect(permissions.requests.isEmpty, "nothing is requested before the permission page")
    }

    @Test func nextAndBackMoveBetweenThePagesWithTheirPositions() async {
        container.next()
        #expect(container.route == .onboarding(page: .notifications, index: 1, count: 3))
        await waitForRequest(1)
        permissions.answer(0, true)
        await settle(until: { container.state == .nameEntry }, "the form")
        #expect(container.route == .onboarding(page: .nameEntry, index: 2, count: 3))
        container.back()
        #expect(container.route == .onboarding(page: .notifications, index: 1, count: 3))
        container.back()
        #expect(container.route == .onboarding(page: .intro, index: 0, count: 3))
        container.back()
        #expect(container.route == .onboarding(page: .intro, index: 0, count: 3), "there is no page before the first")
        permissions.answerTheRest()
    }

    @Test func thePermissionPageRequestsOnEveryVisitAndWaitsForTheAnswer() async {
        container.next()
        await waitForRequest(1)
        container.next()
        #expect(container.state == .notifications, "Next does not skip a pending request")
        permissions.answer(0, false)
        await settle(until: { container.state == .nameEntry }, "the answer")
        #expect(container.notificationsAllowed == false)
        container.back()
        await waitForRequest(2)
        #expect(permissions.requests.count == 2, "coming back asks again")
        permissions.answerTheRest()
    }

    @Test func anUnansweredPermissionRequestTimesOutAfter10SecondsMovesOnAndIsCancelled() async throws {
        container.next()
        await waitForRequest(1)
        let timeout = try #require(container.flow.machine.armedTimeout)
        #expect(timeout.after == .seconds(10))
        #expect(timeout.target == .nameEntry)
        await clock.advance(by: .milliseconds(9_999))
        await settle()
        #expect(container.state == .notifications)
        await clock.advance(by: .milliseconds(1))
        await settle(until: { container.state == .nameEntry }, "the 10 s timeout")
        #expect(container.route == .onboarding(page: .nameEntry, index: 2, count: 3))
        #expect(container.notificationsAllowed == nil, "no answer, no permission")
        permissions.answer(0, true)
        await settle(until: { container.flow.droppedResults == 1 }, "the late answer dropped")
        #expect(container.state == .nameEntry, "a late answer does nothing")
        #expect(container.notificationsAllowed == nil)
    }

    @Test func thePermissionPageArmsOneTimerPerVisitAndTheFormNone() async {
        container.next()
        #expect(container.flow.machine.armedTimeout?.after == .seconds(10))
        let visit = container.flow.machine.visit
        container.next()
        #expect(container.flow.machine.visit == visit, "an ignored Next arms no new timer")
        await clock.advance(by: .seconds(10))
        await settle(until: { container.state == .nameEntry }, "the timeout")
        #expect(container.flow.machine.armedTimeout == nil, "the form waits as long as it takes")
        permissions.answerTheRest()
    }

    @Test func aTimerOrAnswerFromAnEarlierVisitDoesNothing() async {
        container.next()
        await waitForRequest(1)
        await clock.advance(by: .seconds(5))
        await settle()
        container.back()
        container.next()
        await waitForRequest(2)
        await clock.advance(by: .seconds(5))
        await settle()
        #expect(container.state == .notifications, "the earlier visit's timer was cancelled with it")
        permissions.answer(0, true)
        await settle(until: { container.flow.droppedResults == 1 }, "the earlier visit's answer dropped")
        #expect(container.state == .notifications, "the earlier visit's answer is stale")
        #expect(container.notificationsAllowed == nil)
        await clock.advance(by: .seconds(5))
        await settle(until: { container.state == .nameEntry }, "the current visit's own 10 s")
        permissions.answerTheRest()
    }

    @Test func anImmediateAnswerMovesOnAtOnce() async {
        struct Granting: NotificationPermission {
            func request() async -> Bool { true }
        }
        let container = OnboardingContainer(permission: Granting(), clock: clock)
        container.next()
        await settle(until: { container.state == .nameEntry }, "the answer")
        #expect(container.notificationsAllowed == true)
        await clock.advance(by: .seconds(10))
        await settle()
        #expect(container.state == .nameEntry, "the permission page's timer no longer applies")
    }

    @Test func theCompletionCallbackFiresOnceAtTheEndAndNotBefore() async {
        var finished = 0
        container.onFinish = { finished += 1 }
        await goToTheForm()
        container.back()
        await waitForRequest(2)
        permissions.answer(1, true)
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
