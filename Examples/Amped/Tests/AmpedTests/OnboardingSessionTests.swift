import FlowSpecRuntime
import Foundation
import Testing

@testable import Amped

/// The completion flag in memory, counting its writes.
@MainActor
final class InMemoryOnboardingFlag: OnboardingFlagStore {
    private(set) var writes = 0
    var onboardingCompleted = false {
        didSet { writes += 1 }
    }
}

/// The rules of onboarding that survives backgrounding (reference flow 4), through the
/// app-side session. A relaunch is a new session on the same storage; there is no scene-phase
/// hook, so every relaunch here is one after the app was killed without notice.
@MainActor
@Suite("Amped onboarding")
struct OnboardingSessionTests {
    let storage = InMemoryFlowStorage()
    let flag = InMemoryOnboardingFlag()

    /// The onboarding steps, in order (read by `@Test(arguments:)` off the main actor).
    nonisolated static let steps: [Amped.State] = [.welcome, .personalizationIntro, .questionnaire, .notifications]

    /// A launch (or relaunch) of the app.
    func launch() -> OnboardingSession {
        OnboardingSession(steps: storage, completion: flag)
    }

    /// A session moved forward from `welcome` to `step`.
    func session(at step: Amped.State) throws -> OnboardingSession {
        let session = launch()
        let index = try #require(Self.steps.firstIndex(of: step))
        for _ in 0..<index { session.next() }
        try #require(session.state == step)
        return session
    }

    /// The stored step's raw value, if a string is stored.
    var storedStep: String? {
        guard case .string(let step)? = storage.values[OnboardingSession.stepKey] else { return nil }
        return step
    }

    /// Storage holding `value` as the step.
    func store(_ value: FlowStoredValue) {
        storage.set(value, forKey: OnboardingSession.stepKey)
    }

    @Test func aFirstLaunchStartsAtWelcomeAndSavesIt() {
        let session = launch()
        #expect(session.state == .welcome)
        #expect(session.screen == .step(prompt: "What should we call you?", index: 0, count: 4))
        #expect(storedStep == "welcome")
    }

    @Test func everyStepChangeSavesTheStepAsItsStringRawValueAsItIsShown() {
        let session = launch()
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
        _ = try session(at: step)
        let relaunched = launch()
        #expect(relaunched.state == step)
        #expect(relaunched.flow.lastStep?.input == .restore(.string(step.rawValue)))
        guard case .step(_, let index, _) = relaunched.screen else {
            Issue.record("\(step) is not shown as a step")
            return
        }
        #expect(index == Self.steps.firstIndex(of: step))
    }

    @Test func comingBackAfterStepsForwardAndBackLandsOnTheLastStepShown() throws {
        let session = try session(at: .notifications)
        session.back()
        let relaunched = launch()
        #expect(relaunched.state == .questionnaire, "never back on welcome")
    }

    @Test func onlyAChangeOfStepIsSaved() throws {
        // What the scene-phase hook used to guarantee (leaving the foreground loses nothing)
        // now holds at every moment: the step on screen is the step stored.
        let session = try session(at: .questionnaire)
        #expect(storedStep == "questionnaire")
        let writes = storage.writes
        session.finish()  // not the last step: ignored
        #expect(session.state == .questionnaire)
        #expect(storage.writes == writes, "an ignored input saves nothing")
        session.next()
        #expect(storage.writes == writes + 1)
        #expect(storedStep == "notifications")
    }

    @Test(arguments: ["", "settings", "Questionnaire", "launch"])
    func anUnknownStoredValueStartsAtWelcome(stored: String) {
        store(.string(stored))
        let session = launch()
        #expect(session.state == .welcome)
        #expect(storedStep == "welcome", "the unknown value is replaced")
        #expect(session.flow.problems.isEmpty, "a string of no step is an old or foreign value, not garbage")
    }

    @Test func aStoredValueOfTheWrongKindIsReportedAndStartsAtWelcome() {
        store(.int(2))
        let session = launch()
        #expect(session.state == .welcome)
        #expect(storedStep == "welcome")
        #expect(
            session.flow.problems == [
                "the value stored under 'currentOnboardingStep' (2) is not a Amped's raw value; "
                    + "the flow restored as if nothing were stored"
            ])
    }

    @Test func noStoredValueStartsAtWelcome() {
        #expect(storedStep == nil)
        let session = launch()
        #expect(session.state == .welcome)
        #expect(session.flow.lastStep?.input == .restore(nil))
    }

    @Test func aStoredHomeWithoutTheCompletionFlagStartsAtWelcome() {
        store(.string("home"))
        let session = launch()
        #expect(session.state == .welcome, "only the completion flag sends a launch home")
    }

    @Test func completingOnboardingGoesHomeSetsTheFlagOnceAndStoresHome() throws {
        let session = try session(at: .notifications)
        #expect(!session.isOnboardingComplete)
        session.finish()
        #expect(session.state == .home)
        #expect(session.screen == .home)
        #expect(session.isOnboardingComplete)
        #expect(flag.writes == 1, "the flag is set once, by the effect")
        #expect(session.flow.lastStep?.effects == [.markOnboardingCompleted])
        // The driver stores every state: `home`, which is no onboarding step (a stored `home`
        // without the flag starts at welcome, above).
        #expect(storedStep == "home")
        #expect(Amped.position(of: .home, in: .steps) == nil)
    }

    @Test func afterCompletionARelaunchGoesHomeAndRestoresNothing() throws {
        try session(at: .notifications).finish()
        let writes = storage.writes
        let relaunched = launch()
        #expect(relaunched.state == .home)
        #expect(relaunched.screen == .home)
        #expect(relaunched.flow.lastStep?.input == .start, "nothing is restored")
        #expect(storage.writes == writes, "nor saved")
    }

    @Test func onceCompleteAStaleStoredStepIsNotRestored() {
        flag.onboardingCompleted = true
        store(.string("questionnaire"))
        let session = launch()
        #expect(session.state == .home)
    }

    @Test func onlyTheLastStepFinishesAndWelcomeHasNoBack() {
        let session = launch()
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

    @Test func theScreenFollowsTheSteps() throws {
        let session = launch()
        let prompts = [
            "What should we call you?", "Let's make Amped yours.", "What gets you moving?",
            "Want a nudge when it's time?"
        ]
        for (index, step) in Self.steps.enumerated() {
            #expect(session.state == step)
            #expect(session.screen == .step(prompt: prompts[index], index: index, count: 4))
            session.next()
        }
        session.finish()
        #expect(session.screen == .home)
    }

    @Test func inUserDefaultsTheStepAndTheFlagAreWhereEarlierVersionsKeptThem() throws {
        let suite = "flowspec.example.amped.\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        defaults.set("questionnaire", forKey: OnboardingSession.stepKey)
        let session = OnboardingSession(defaults: defaults)
        #expect(session.state == .questionnaire)
        session.next()
        #expect(defaults.string(forKey: OnboardingSession.stepKey) == "notifications")
        session.finish()
        #expect(defaults.bool(forKey: OnboardingSession.completedKey))
        #expect(OnboardingSession(defaults: defaults).state == .home)
    }
}
