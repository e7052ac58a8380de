import FlowSpecRuntime
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

/// Runs the first-run flow for the app: a `FlowDriver` of the generated `FirstRun` machine,
/// which reads the persisted completion flag at each input (the `onboardingCompleted`
/// condition), and carries out its one effect, persisting that flag. The views are told what
/// to show.
///
/// The defaults store is injected, so tests use a throwaway suite.
@MainActor
public final class OnboardingCoordinator {
    /// The `UserDefaults` key of the completion flag.
    public static let completedKey = "onboarding.completed"

    /// The running flow.
    let flow: FlowDriver<FirstRun>

    /// Starts the flow at a cold launch: returning users (the flag set) go straight to the CTA.
    public init(defaults: UserDefaults) {
        flow = FlowDriver(
            FirstRun.self,
            conditions: { FirstRun.Conditions(onboardingCompleted: defaults.bool(forKey: Self.completedKey)) },
            effects: { effect in
                switch effect {
                case .persistOnboardingCompleted: defaults.set(true, forKey: Self.completedKey)
                }
            })
        flow.start()
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
    public func splashFinished() { flow.send(.splashFinished) }

    /// Swipe or "Next" on a slide.
    public func advance() { flow.send(.slideAdvance) }

    /// "Continue" on the last slide.
    public func complete() { flow.send(.onboardingComplete) }

    /// "Start Free Demo" on the CTA.
    public func startDemo() { flow.send(.startDemo) }

    /// Back from the demo.
    public func returnFromDemo() { flow.send(.returnFromDemo) }
}
