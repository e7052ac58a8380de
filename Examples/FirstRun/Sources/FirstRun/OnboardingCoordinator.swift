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

/// Where the app keeps the "onboarding completed" flag between launches.
@MainActor
public protocol OnboardingFlagStore: AnyObject {
    /// Whether onboarding was completed, on this launch or an earlier one.
    var onboardingCompleted: Bool { get set }
}

/// The flag as a `Bool` in `UserDefaults`, under the key earlier versions of the app used.
@MainActor
public final class UserDefaultsOnboardingFlag: OnboardingFlagStore {
    /// The `UserDefaults` key of the flag.
    public static let key = "onboarding.completed"

    private let defaults: UserDefaults

    /// The flag in `defaults` (the standard defaults unless given).
    public init(_ defaults: UserDefaults = .standard) {
        self.defaults = defaults
    }

    /// The `Bool` under ``key`` (`false` when there is none).
    public var onboardingCompleted: Bool {
        get { defaults.bool(forKey: Self.key) }
        set { defaults.set(newValue, forKey: Self.key) }
    }
}

/// Runs the first-run flow for the app: a `FlowDriver` of the generated `FirstRun`, which reads
/// the completion flag as the `onboardingCompleted` condition at each input and hands its one
/// effect, `persistOnboardingCompleted`, to the flag's store. The views are told what to show.
@MainActor
public final class OnboardingCoordinator {
    /// The running flow.
    let flow: FlowDriver<FirstRun>

    /// Starts the flow at a cold launch: returning users (the flag set) go straight to the CTA.
    ///
    /// - Parameter flag: where the completion flag lives (`UserDefaultsOnboardingFlag()` in the app).
    public init(flag: any OnboardingFlagStore) {
        flow = FlowDriver(
            FirstRun.self,
            conditions: { FirstRun.Conditions(onboardingCompleted: flag.onboardingCompleted) },
            effects: { effect in
                switch effect {
                case .persistOnboardingCompleted: flag.onboardingCompleted = true
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
        // The slides are shown above; `launch` is a choice, left at once: never current.
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
