import FlowSpecRuntime
import FlowSpecTesting
import Testing

@testable import AppFlow

/// The whole app through its controller: the sub-flows in turn, what each hands to the next,
/// and what leaving one cancels.
@MainActor
@Suite("The app composed of its flows")
struct AppControllerTests {
    let clock = FlowTestClock()

    func settle(until condition: @MainActor () -> Bool, _ what: String) async {
        #expect(await FlowSettling.until(condition), "waited for \(what)")
    }

    @Test func aNewUserGoesFromTheFirstRunThroughSignInToTheLastChapter() async {
        let services = AnsweringServices(validSession: true)
        let app = AppController(onboardingCompleted: false, services: services, clock: clock)
        app.start()
        #expect(app.flow.state == .firstRunSplash)
        for event in [App.Event.splashFinished, .slideAdvance, .slideAdvance, .onboardingComplete] { app.send(event) }
        #expect(app.flow.state == .firstRunDemoCTA)
        #expect(app.onboardingCompleted, "the first run's effect reached the app")

        // Sign-in's services answer at once: splash, onboarding check, session, main app.
        app.send(.signIn)
        #expect(app.section == .signIn)
        await settle(until: { app.section == .chapter(0) }, "the story once signed in")
        #expect(app.flow.state == .storyHandshake)

        for chapter in 1...5 {
            app.send(.completeCurrentChapter)
            #expect(app.checkpoint == chapter)
        }
        // Completing the last chapter is the story's outcome, which the app maps to `finished`.
        #expect(app.section == .finished)
        app.send(.signOut)
        #expect(app.flow.state == .launchSplash, "signing out starts sign-in again")
    }

    @Test func aReturningUserSkipsTheCarouselAndSignInSkipsOnboarding() async {
        let app = AppController(
            onboardingCompleted: true, services: AnsweringServices(validSession: false), clock: clock)
        app.start()
        #expect(app.flow.state == .firstRunDemoCTA)
        app.send(.signIn)
        await settle(until: { app.flow.state == .launchUnauthenticated }, "the login screen")
        #expect(app.flow.lastStep?.conditions.firstLaunch == false)
    }

    @Test func aResetInSignInCancelsTheSplashAndItsLateAnswerChangesNothing() async {
        let services = AnsweringServices(holdingOn: clock)
        let app = AppController(onboardingCompleted: true, services: services, clock: clock)
        app.start()
        app.send(.signIn)
        #expect(app.flow.state == .launchSplash)
        // LaunchAuth's own machine-wide reset is the sub-flow's: it stays in sign-in.
        app.send(.forceReset)
        #expect(app.flow.state == .launchUnauthenticated)
        await settle(until: { services.splashCancelled.value }, "the splash's work to be cancelled")
        #expect(app.flow.state == .launchUnauthenticated, "the cancelled splash sends nothing")
    }

    @Test func anExpiredSessionSendsTheUserBackToSignIn() async {
        let services = AnsweringServices(validSession: true, sessionLasts: .seconds(3_600), on: clock)
        let app = AppController(onboardingCompleted: true, services: services, clock: clock)
        app.start()
        app.send(.signIn)
        await settle(until: { app.section == .chapter(0) }, "the story once signed in")
        app.send(.completeCurrentChapter)
        #expect(app.flow.machine.runningActivities.map(\.activity) == [.watchSession])
        await settle(until: { services.watching.value }, "the session watch to start")
        clock.advance(by: .seconds(3_600))
        await settle(until: { app.section == .signIn }, "sign-in once the session expired")
        #expect(app.flow.machine.runningActivities.isEmpty, "nobody watches a session signed out")
        #expect(app.checkpoint == 1, "the chapter reached is kept")
    }

    @Test func signingOutStopsTheSessionWatch() async {
        let services = AnsweringServices(validSession: true, sessionLasts: .seconds(3_600), on: clock)
        let app = AppController(onboardingCompleted: true, services: services, clock: clock)
        app.start()
        app.send(.signIn)
        await settle(until: { app.section == .chapter(0) }, "the story once signed in")
        await settle(until: { services.watching.value }, "the session watch to start")
        app.send(.signOut)
        await settle(until: { services.watchCancelled.value }, "the watch to be cancelled")
        #expect(app.section == .signIn)
    }

    @Test func theSignInTimeoutsAreTheSubFlows() async {
        let app = AppController(onboardingCompleted: true, services: AnsweringServices(holdingOn: clock), clock: clock)
        app.start()
        app.send(.signIn)
        clock.advance(by: .seconds(2))
        await settle(until: { app.flow.state == .launchOnboardingCheck }, "the splash's 2 s timeout")
        clock.advance(by: .seconds(3))
        // The onboarding check's 3 s timeout leads to the session check, which answers at once.
        await settle(until: { app.section == .chapter(0) }, "the story once the session is valid")
    }
}

/// Services that answer at once, or, held, wait on the test clock until their state is left.
final class AnsweringServices: AppServices {
    let validSession: Bool
    let clock: FlowTestClock?
    /// How long a session lasts on `clock` (forever without one).
    let sessionLasts: Duration?
    let splashCancelled = Flag()
    let watching = Flag()
    let watchCancelled = Flag()

    init(validSession: Bool = true, holdingOn clock: FlowTestClock? = nil) {
        self.validSession = validSession
        self.clock = clock
        sessionLasts = nil
        sessionClock = nil
    }

    /// Services that answer at once, whose session expires `sessionLasts` after it is watched.
    init(validSession: Bool, sessionLasts: Duration, on clock: FlowTestClock) {
        self.validSession = validSession
        self.clock = nil
        self.sessionLasts = sessionLasts
        sessionClock = clock
    }

    private let sessionClock: FlowTestClock?

    func playSplash() async throws {
        do {
            try await hold()
        } catch {
            await MainActor.run { splashCancelled.value = true }
            throw error
        }
    }
    func checkOnboarding() async throws { try await hold() }
    func hasValidSession() async throws -> Bool { validSession }
    func signIn() async throws -> Bool { true }
    func loadMainApp() async throws {}
    func sessionExpiry() async throws {
        guard let sessionClock, let sessionLasts else { return try await Task.sleep(for: .seconds(365 * 86_400)) }
        let deadline = sessionClock.now.advanced(by: sessionLasts)
        await MainActor.run { watching.value = true }
        do {
            try await sessionClock.sleep(until: deadline, tolerance: nil)
        } catch {
            await MainActor.run { watchCancelled.value = true }
            throw error
        }
    }

    private func hold() async throws {
        guard let clock else { return }
        try await clock.sleep(for: .seconds(365 * 86_400))
    }
}

/// A flag the main actor sets and reads.
@MainActor
final class Flag: Sendable {
    var value = false
}
