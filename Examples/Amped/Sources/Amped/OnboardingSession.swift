import Foundation

/// The app's scene phases, as SwiftUI's `ScenePhase` reports them (modelled here without
/// SwiftUI).
enum ScenePhase: Sendable {
    case active, inactive, background
}

extension Amped.State {
    /// What the step asks the user, for the onboarding screens; `nil` outside onboarding.
    var prompt: String? {
        switch self {
        case .welcome: "What should we call you?"
        case .personalizationIntro: "Let's make Amped yours."
        case .questionnaire: "What gets you moving?"
        case .notifications: "Want a nudge when it's time?"
        case .launch, .home: nil
        }
    }
}

/// Runs the onboarding of the app so that it survives backgrounding: restores the step the
/// user left before the first screen is drawn, saves the current step whenever it changes or
/// the app leaves the foreground, and forgets it once onboarding is complete.
///
/// The defaults store is injected, so tests use a throwaway suite and relaunch by creating a
/// new session on the same store.
final class OnboardingSession {
    /// The `UserDefaults` key of the current step: its string raw value.
    static let stepKey = "currentOnboardingStep"
    /// The `UserDefaults` key of the completion flag.
    static let completedKey = "onboardingCompleted"

    private let defaults: UserDefaults
    private var flow: Amped.Machine

    /// Restores the flow synchronously, at launch: the stored step while onboarding is under
    /// way (an unknown or missing value starts at `welcome`), home once it is complete.
    init(defaults: UserDefaults) {
        self.defaults = defaults
        let completed = defaults.bool(forKey: Self.completedKey)
        // Once onboarding is complete nothing is restored: the launch choice goes home.
        let stored = completed ? nil : defaults.string(forKey: Self.stepKey)
        let (flow, effects) = Amped.Machine.restore(from: stored, conditions: .init(onboardingCompleted: completed))
        self.flow = flow
        perform(effects)
    }

    /// The flow's current state: an onboarding step, or `home`.
    var state: Amped.State { flow.state }

    /// Where the current step stands in onboarding, for the progress indicator; `nil` at home.
    var progress: (index: Int, count: Int)? {
        Amped.position(of: flow.state, in: .steps).map { ($0, Amped.length(of: .steps)) }
    }

    /// Whether onboarding has been completed (on this launch or an earlier one).
    var isOnboardingComplete: Bool { defaults.bool(forKey: Self.completedKey) }

    /// "Continue" on a step.
    func next() { send(.next) }

    /// Back to the previous step.
    func back() { send(.back) }

    /// "Get started" on the last step: completes onboarding.
    func finish() { send(.finish) }

    /// The scene changed phase: leaving the foreground saves the current step, so that a
    /// relaunch lands exactly where the user left.
    func scenePhaseChanged(to phase: ScenePhase) {
        switch phase {
        case .inactive, .background: saveCurrentStep()
        case .active: break
        }
    }

    private var conditions: Amped.Conditions {
        .init(onboardingCompleted: defaults.bool(forKey: Self.completedKey))
    }

    private func send(_ event: Amped.Event) {
        perform(flow.send(event, conditions: conditions))
    }

    private func perform(_ effects: Amped.Effects) {
        for effect in effects {
            switch effect {
            case .saveStep:
                saveCurrentStep()
            case .markOnboardingCompleted:
                defaults.set(true, forKey: Self.completedKey)
                defaults.removeObject(forKey: Self.stepKey)
            }
        }
    }

    /// Stores the current step's raw value; outside onboarding there is nothing to store.
    private func saveCurrentStep() {
        guard Amped.position(of: flow.state, in: .steps) != nil else { return }
        defaults.set(flow.state.rawValue, forKey: Self.stepKey)
    }
}
