import Testing

@testable import CoreKit

/// A permission request that the test answers by hand, or never.
final class PendingPermissionRequests {
    /// The answer callbacks of every request made, in order.
    private(set) var answers: [(Bool) -> Void] = []

    func request(_ answer: @escaping (Bool) -> Void) { answers.append(answer) }
}

/// Timers that the test fires by hand.
final class ManualTimers {
    /// Every timer started, in order.
    private(set) var started: [(after: Duration, fire: () -> Void)] = []

    func start(after: Duration, fire: @escaping () -> Void) { started.append((after, fire)) }
}

/// The rules of the onboarding container, then home and profile (reference flow 5).
@Suite("CoreKit onboarding container")
struct OnboardingContainerTests {
    let permissions = PendingPermissionRequests()
    let timers = ManualTimers()
    let container: OnboardingContainer

    init() {
        container = OnboardingContainer(requestPermission: permissions.request, timer: timers.start)
    }

    /// Pages through to the form, answering the permission request.
    func goToTheForm() throws {
        container.next()
        try #require(permissions.answers.count == 1)
        permissions.answers[0](true)
        try #require(container.state == .nameEntry)
    }

    @Test func theContainerStartsOnTheInfoPage() {
        #expect(container.route == .onboarding(page: .intro, index: 0, count: 3))
        #expect(container.pageIndex == 0)
        #expect(container.pageCount == 3)
        #expect(permissions.answers.isEmpty, "nothing is requested before the permission page")
    }

    @Test func nextAndBackMoveBetweenThePagesWithTheirPositions() {
        container.next()
        #expect(container.route == .onboarding(page: .notifications, index: 1, count: 3))
        permissions.answers[0](true)
        #expect(container.route == .onboarding(page: .nameEntry, index: 2, count: 3))
        container.back()
        #expect(container.route == .onboarding(page: .notifications, index: 1, count: 3))
        container.back()
        #expect(container.route == .onboarding(page: .intro, index: 0, count: 3))
        container.back()
        #expect(container.route == .onboarding(page: .intro, index: 0, count: 3), "there is no page before the first")
    }

    @Test func thePermissionPageRequestsOnEveryVisitAndWaitsForTheAnswer() {
        container.next()
        #expect(permissions.answers.count == 1)
        container.next()
        #expect(container.state == .notifications, "Next does not skip a pending request")
        permissions.answers[0](false)
        #expect(container.state == .nameEntry)
        #expect(container.notificationsAllowed == false)
        container.back()
        #expect(permissions.answers.count == 2, "coming back asks again")
    }

    @Test func anUnansweredPermissionRequestTimesOutAfter10SecondsAndMovesOn() throws {
        container.next()
        let timeout = try #require(container.armedTimeout)
        #expect(timeout.after == .seconds(10))
        #expect(timeout.target == .nameEntry)
        container.fireTimeout(visit: timeout.visit)
        #expect(container.route == .onboarding(page: .nameEntry, index: 2, count: 3))
        #expect(container.notificationsAllowed == nil, "no answer, no permission")
        permissions.answers[0](true)
        #expect(container.state == .nameEntry, "a late answer does nothing")
        #expect(container.notificationsAllowed == nil)
    }

    @Test func thePermissionPageStartsOneTimerPerVisit() throws {
        container.next()
        #expect(timers.started.count == 1)
        #expect(timers.started[0].after == .seconds(10))
        container.next()
        #expect(timers.started.count == 1, "an ignored Next starts no timer")
        timers.started[0].fire()
        #expect(container.state == .nameEntry)
        #expect(container.armedTimeout == nil, "the form waits as long as it takes")
    }

    @Test func aTimerOrAnswerFromAnEarlierVisitDoesNothing() throws {
        container.next()
        let firstVisit = try #require(container.armedTimeout).visit
        container.back()
        container.next()
        container.fireTimeout(visit: firstVisit)
        timers.started[0].fire()
        #expect(container.state == .notifications, "the earlier visit's timer is stale")
        permissions.answers[0](true)
        #expect(container.state == .notifications, "the earlier visit's answer is stale")
        #expect(container.notificationsAllowed == nil)
        timers.started[1].fire()
        #expect(container.state == .nameEntry)
    }

    @Test func anImmediateAnswerMovesOnAtOnce() {
        let container = OnboardingContainer(requestPermission: { $0(true) }, timer: timers.start)
        container.next()
        #expect(container.state == .nameEntry)
        #expect(container.notificationsAllowed == true)
        timers.started[0].fire()
        #expect(container.state == .nameEntry, "the permission page's timer no longer applies")
    }

    @Test func theCompletionCallbackFiresOnceAtTheEndAndNotBefore() throws {
        var finished = 0
        container.onFinish = { finished += 1 }
        container.next()
        permissions.answers[0](true)
        container.back()
        permissions.answers[1](true)
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

    @Test func homeOpensTheProfileAndTheProfileLeavesBackToHome() throws {
        try goToTheForm()
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
