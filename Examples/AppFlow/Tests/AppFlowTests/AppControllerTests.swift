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
    let splashCancelled = Flag()

    init(validSession: Bool = true, holdingOn clock: FlowTestClock? = nil) {
        self.validSession = validSession
        self.clock = clock
    }

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
