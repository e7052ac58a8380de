import Foundation
import Testing

@testable import Amped

/// The rules of onboarding that survives backgrounding (reference flow 4), through the
/// app-side session. A relaunch is a new session on the same defaults store.
@Suite("Amped onboarding")
struct OnboardingSessionTests {
    /// A throwaway defaults suite per test.
    let defaults: UserDefaults
    let suite = "flowspec.example.amped.\(UUID().uuidString)"

    init() throws {
        defaults = try #require(UserDefaults(suiteName: suite))
    }

    /// The onboarding steps, in order.
    static let steps: [Amped.State] = [.welcome, .personalizationIntro, .questionnaire, .notifications]

    /// A session moved forward from `welcome` to `step`.
    func session(at step: Amped.State) throws -> OnboardingSession {
        let session = OnboardingSession(defaults: defaults)
        let index = try #require(Self.steps.firstIndex(of: step))
        for _ in 0..<index { session.next() }
        try #require(session.state == step)
        return session
    }

    var storedStep: String? { defaults.string(forKey: OnboardingSession.stepKey) }

    @Test func aFirstLaunchStartsAtWelcomeAndSavesIt() {
        let session = OnboardingSession(defaults: defaults)
        #expect(session.state == .welcome)
        #expect(session.state.prompt == "What should we call you?")
        #expect(storedStep == "welcome")
    }

    @Test func everyStepChangeSavesTheStepAsItsStringRawValue() {
        let session = OnboardingSession(defaults: defaults)
        session.next()
        #expect(storedStep == "personalizationIntro")
        session.next()
        #expect(storedStep == "questionnaire")
        session.back()
        #expect(storedStep == "personalizationIntro")
        session.next()
        session.next()
        #expect(storedStep == "notifications")
    }

    @Test(arguments: steps)
    func leavingMidOnboardingAndComingBackLandsOnTheStepLeft(step: Amped.State) throws {
        let session = try session(at: step)
        session.scenePhaseChanged(to: .inactive)
        session.scenePhaseChanged(to: .background)
        let relaunched = OnboardingSession(defaults: defaults)
        #expect(relaunched.state == step)
        #expect(relaunched.progress?.index == Self.steps.firstIndex(of: step))
    }

    @Test func comingBackAfterStepsForwardAndBackLandsOnTheLastStepShown() throws {
        let session = try session(at: .notifications)
        session.back()
        session.scenePhaseChanged(to: .background)
        let relaunched = OnboardingSession(defaults: defaults)
        #expect(relaunched.state == .questionnaire, "never back on welcome")
    }

    @Test(arguments: [ScenePhase.inactive, .background])
    func leavingTheForegroundSavesTheCurrentStep(phase: ScenePhase) throws {
        let session = try session(at: .questionnaire)
        defaults.removeObject(forKey: OnboardingSession.stepKey)
        session.scenePhaseChanged(to: .active)
        #expect(storedStep == nil, "becoming active saves nothing")
        session.scenePhaseChanged(to: phase)
        #expect(storedStep == "questionnaire")
    }

    @Test(arguments: ["", "settings", "Questionnaire", "launch"])
    func anUnknownStoredValueStartsAtWelcome(stored: String) {
        defaults.set(stored, forKey: OnboardingSession.stepKey)
        let session = OnboardingSession(defaults: defaults)
        #expect(session.state == .welcome)
        #expect(storedStep == "welcome", "the unknown value is replaced")
    }

    @Test func noStoredValueStartsAtWelcome() {
        #expect(storedStep == nil)
        #expect(OnboardingSession(defaults: defaults).state == .welcome)
    }

    @Test func aStoredHomeWithoutTheCompletionFlagStartsAtWelcome() {
        defaults.set("home", forKey: OnboardingSession.stepKey)
        let session = OnboardingSession(defaults: defaults)
        #expect(session.state == .welcome, "only the completion flag sends a launch home")
    }

    @Test func completingOnboardingGoesHomeSetsTheFlagAndForgetsTheStep() throws {
        let session = try session(at: .notifications)
        #expect(!session.isOnboardingComplete)
        session.finish()
        #expect(session.state == .home)
        #expect(session.isOnboardingComplete)
        #expect(storedStep == nil)
        session.scenePhaseChanged(to: .background)
        #expect(storedStep == nil, "home is not an onboarding step")
    }

    @Test func afterCompletionARelaunchGoesHomeAndRestoresNothing() throws {
        try session(at: .notifications).finish()
        let relaunched = OnboardingSession(defaults: defaults)
        #expect(relaunched.state == .home)
        #expect(relaunched.progress == nil)
        #expect(storedStep == nil)
    }

    @Test func onceCompleteAStaleStoredStepIsNotRestored() {
        defaults.set(true, forKey: OnboardingSession.completedKey)
        defaults.set("questionnaire", forKey: OnboardingSession.stepKey)
        let session = OnboardingSession(defaults: defaults)
        #expect(session.state == .home)
    }

    @Test func onlyTheLastStepFinishesAndWelcomeHasNoBack() {
        let session = OnboardingSession(defaults: defaults)
        session.back()
        #expect(session.state == .welcome)
        session.finish()
        #expect(session.state == .welcome)
        #expect(!session.isOnboardingComplete)
        session.next()
        session.next()
        session.next()
        session.next()
        #expect(session.state == .notifications, "there is no step after the last one")
    }

    @Test func progressFollowsTheSteps() throws {
        let session = OnboardingSession(defaults: defaults)
        for (index, step) in Self.steps.enumerated() {
            #expect(session.state == step)
            #expect(session.progress?.index == index)
            #expect(session.progress?.count == 4)
            #expect(step.prompt != nil)
            session.next()
        }
        session.finish()
        #expect(session.progress == nil)
    }
}
