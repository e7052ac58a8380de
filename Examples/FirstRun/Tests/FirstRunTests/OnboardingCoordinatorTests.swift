import Foundation
import Testing

@testable import FirstRun

/// The first-run flow's rules (reference flow 1), through the app-side coordinator.
@MainActor
@Suite("First run")
struct OnboardingCoordinatorTests {
    /// A throwaway defaults suite per test.
    let defaults: UserDefaults
    let suite = "flowspec.example.firstrun.\(UUID().uuidString)"

    init() throws {
        defaults = try #require(UserDefaults(suiteName: suite))
    }

    @Test func aFirstLaunchShowsTheSplashThenThreeSlidesInOrderThenTheCTA() {
        let coordinator = OnboardingCoordinator(defaults: defaults)
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
        #expect(!defaults.bool(forKey: OnboardingCoordinator.completedKey))
        coordinator.complete()
        #expect(coordinator.screen == .ctaStack([.cta]))
        #expect(defaults.bool(forKey: OnboardingCoordinator.completedKey), "completing persists the flag")
    }

    @Test func aReturningUserGoesStraightToTheCTA() {
        defaults.set(true, forKey: OnboardingCoordinator.completedKey)
        let coordinator = OnboardingCoordinator(defaults: defaults)
        #expect(coordinator.state == .demoCTA)
        #expect(coordinator.screen == .ctaStack([.cta]))
    }

    @Test func theCompletionFlagSurvivesARelaunch() {
        let first = OnboardingCoordinator(defaults: defaults)
        first.splashFinished()
        first.advance()
        first.advance()
        first.complete()
        let relaunched = OnboardingCoordinator(defaults: defaults)
        #expect(relaunched.screen == .ctaStack([.cta]))
    }

    @Test func theDemoIsPushedOnTheCTAAndPopsBack() {
        defaults.set(true, forKey: OnboardingCoordinator.completedKey)
        let coordinator = OnboardingCoordinator(defaults: defaults)
        coordinator.startDemo()
        #expect(coordinator.screen == .ctaStack([.cta, .demo]))
        coordinator.startDemo()
        #expect(coordinator.screen == .ctaStack([.cta, .demo]), "the demo is pushed once")
        coordinator.returnFromDemo()
        #expect(coordinator.screen == .ctaStack([.cta]))
        coordinator.startDemo()
        #expect(coordinator.screen == .ctaStack([.cta, .demo]), "the demo stub stays routable")
    }
}
