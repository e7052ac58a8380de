import Foundation
import Testing

@testable import FirstRun

/// The completion flag in memory, counting its writes.
@MainActor
final class InMemoryOnboardingFlag: OnboardingFlagStore {
    private(set) var writes = 0
    var onboardingCompleted = false {
        didSet { writes += 1 }
    }
}

/// The first-run flow's rules (reference flow 1), through the app-side coordinator. A relaunch
/// is a new coordinator on the same flag.
@MainActor
@Suite("First run")
struct OnboardingCoordinatorTests {
    let flag = InMemoryOnboardingFlag()

    /// A coordinator on the last slide.
    func lastSlide() -> OnboardingCoordinator {
        let coordinator = OnboardingCoordinator(flag: flag)
        coordinator.splashFinished()
        coordinator.advance()
        coordinator.advance()
        return coordinator
    }

    @Test func aFirstLaunchShowsTheSplashThenThreeSlidesInOrderThenTheCTA() {
        let coordinator = OnboardingCoordinator(flag: flag)
        #expect(coordinator.screen == .splash)
        coordinator.advance()
        #expect(coordinator.screen == .splash, "the splash is not dismissed by a swipe")
        coordinator.splashFinished()
        #expect(coordinator.screen == .slide(index: 0, count: 3))
        coordinator.advance()
        #expect(coordinator.screen == .slide(index: 1, count: 3))
        coordinator.advance()
        #expect(coordinator.screen == .slide(index: 2, count: 3))
        coordinator.advance()
        #expect(coordinator.screen == .slide(index: 2, count: 3), "there is no fourth slide")
        #expect(!flag.onboardingCompleted)
        coordinator.complete()
        #expect(coordinator.screen == .ctaStack([.cta]))
        #expect(flag.onboardingCompleted, "completing persists the flag")
    }

    @Test func completingPersistsTheFlagOnceThroughTheEffect() {
        let coordinator = lastSlide()
        #expect(flag.writes == 0, "nothing is persisted before the end")
        coordinator.complete()
        #expect(coordinator.flow.lastStep?.effects == [.persistOnboardingCompleted])
        #expect(flag.writes == 1)
        coordinator.startDemo()
        coordinator.returnFromDemo()
        #expect(flag.writes == 1, "and only there")
    }

    @Test func theFlagIsReadAtEachInput() {
        let coordinator = lastSlide()
        coordinator.complete()
        // The step that completed onboarding was taken before its effect set the flag;
        // the next one reads it set.
        #expect(coordinator.flow.lastStep?.conditions.onboardingCompleted == false)
        coordinator.startDemo()
        #expect(coordinator.flow.lastStep?.conditions.onboardingCompleted == true)
    }

    @Test func aReturningUserGoesStraightToTheCTA() {
        flag.onboardingCompleted = true
        let coordinator = OnboardingCoordinator(flag: flag)
        #expect(coordinator.state == .demoCTA)
        #expect(coordinator.screen == .ctaStack([.cta]))
    }

    @Test func theCompletionFlagSurvivesARelaunch() {
        lastSlide().complete()
        let relaunched = OnboardingCoordinator(flag: flag)
        #expect(relaunched.screen == .ctaStack([.cta]))
    }

    @Test func theDemoIsPushedOnTheCTAAndPopsBack() {
        flag.onboardingCompleted = true
        let coordinator = OnboardingCoordinator(flag: flag)
        coordinator.startDemo()
        #expect(coordinator.screen == .ctaStack([.cta, .demo]))
        coordinator.startDemo()
        #expect(coordinator.screen == .ctaStack([.cta, .demo]), "the demo is pushed once")
        coordinator.returnFromDemo()
        #expect(coordinator.screen == .ctaStack([.cta]))
        coordinator.startDemo()
        #expect(coordinator.screen == .ctaStack([.cta, .demo]), "the demo stub stays routable")
    }

    @Test func inUserDefaultsTheFlagIsTheBoolEarlierVersionsStored() throws {
        let suite = "flowspec.example.firstrun.\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        let first = OnboardingCoordinator(flag: UserDefaultsOnboardingFlag(defaults))
        first.splashFinished()
        first.advance()
        first.advance()
        #expect(!defaults.bool(forKey: "onboarding.completed"))
        first.complete()
        #expect(defaults.bool(forKey: "onboarding.completed"), "completing persists the flag")
        let relaunched = OnboardingCoordinator(flag: UserDefaultsOnboardingFlag(defaults))
        #expect(relaunched.screen == .ctaStack([.cta]))
    }
}
