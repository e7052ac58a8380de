import Foundation

/// What the app shows, derived from the flow's state.
public enum Screen: Equatable, Sendable {
    case splash
    /// One slide of the carousel, with what the progress indicator needs.
    case slide(index: Int, count: Int)
    /// The navigation stack of the call to action: `[.cta]`, or `[.cta, .demo]` with the demo
    /// pushed on top of it.
    case ctaStack([CTAScreen])
}

/// The screens of the call-to-action stack.
public enum CTAScreen: Equatable, Sendable {
    case cta, demo
}

/// Runs the first-run flow for the app: feeds the persisted completion flag to the generated
/// `FirstRun` machine at launch, carries out its effects, and tells the views what to show.
///
/// The defaults store is injected, so tests use a throwaway suite.
public final class OnboardingCoordinator {
    /// The `UserDefaults` key of the completion flag.
    public static let completedKey = "onboarding.completed"

    private let defaults: UserDefaults
    private var flow: FirstRun.Machine

    /// Starts the flow at a cold launch: returning users (the flag set) go straight to the CTA.
    public init(defaults: UserDefaults) {
        self.defaults = defaults
        let completed = defaults.bool(forKey: Self.completedKey)
        flow = FirstRun.Machine.start(conditions: .init(onboardingCompleted: completed)).machine
    }

    /// The flow's current state.
    var state: FirstRun.State { flow.state }

    /// What to show now.
    public var screen: Screen {
        if let index = FirstRun.position(of: flow.state, in: .slides) {
            return .slide(index: index, count: FirstRun.length(of: .slides))
        }
        switch flow.state {
        case .demoCTA: return .ctaStack([.cta])
        case .demoStub: return .ctaStack([.cta, .demo])
        default: return .splash
        }
    }

    /// The splash view appeared and finished.
    public func splashFinished() { send(.splashFinished) }

    /// Swipe or "Next" on a slide.
    public func advance() { send(.slideAdvance) }

    /// "Continue" on the last slide.
    public func complete() { send(.onboardingComplete) }

    /// "Start Free Demo" on the CTA.
    public func startDemo() { send(.startDemo) }

    /// Back from the demo.
    public func returnFromDemo() { send(.returnFromDemo) }

    private func send(_ event: FirstRun.Event) {
        for effect in flow.send(event, conditions: .init(onboardingCompleted: defaults.bool(forKey: Self.completedKey)))
        {
            perform(effect)
        }
    }

    private func perform(_ effect: FirstRun.Effect) {
        switch effect {
        case .persistOnboardingCompleted:
            defaults.set(true, forKey: Self.completedKey)
        }
    }
}
