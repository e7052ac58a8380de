import FlowSpecRuntime
import Foundation

/// What the app shows, derived from the flow's state.
enum Screen: Equatable, Sendable {
    /// An onboarding step: what it asks, and where it stands for the progress indicator.
    case step(prompt: String, index: Int, count: Int)
    /// The app proper.
    case home
}

/// Where the app keeps whether onboarding was completed. A flag of its own, because a stored
/// step proves nothing on its own (the spec resumes a stored `home` through the launch choice).
@MainActor
protocol OnboardingFlagStore: AnyObject {
    /// Whether onboarding was completed, on this launch or an earlier one.
    var onboardingCompleted: Bool { get set }
}

/// The flag as a `Bool` in `UserDefaults`, where earlier versions of the app kept it.
@MainActor
final class UserDefaultsOnboardingFlag: OnboardingFlagStore {
    private let defaults: UserDefaults
    private let key: String

    /// The flag under `key` in `defaults`.
    init(_ defaults: UserDefaults, key: String) {
        self.defaults = defaults
        self.key = key
    }

    /// The `Bool` under the key (`false` when there is none).
    var onboardingCompleted: Bool {
        get { defaults.bool(forKey: key) }
        set { defaults.set(newValue, forKey: key) }
    }
}

/// Runs the onboarding of the app so that it survives backgrounding: a `FlowDriver` of the
/// generated `Amped` restores the step the user left before the first screen is drawn and
/// saves every step as it is shown, so that no scene phase can lose it. Once onboarding is
/// complete, nothing is restored.
@MainActor
final class OnboardingSession {
    /// The storage key of the current step: its string raw value.
    static let stepKey = "currentOnboardingStep"
    /// The `UserDefaults` key of the completion flag.
    static let completedKey = "onboardingCompleted"

    /// The running flow.
    let flow: FlowDriver<Amped>
    private let completion: any OnboardingFlagStore

    /// Restores the flow synchronously, at launch: the stored step while onboarding is under
    /// way (a missing or unknown value starts at `welcome`), home once it is complete.
    ///
    /// - Parameters:
    ///   - steps: where the current step lives (`UserDefaultsFlowStorage` in the app).
    ///   - completion: where the completion flag lives.
    init(steps: any FlowStorage, completion: any OnboardingFlagStore) {
        self.completion = completion
        let conditions: @MainActor () -> Amped.Conditions = {
            Amped.Conditions(onboardingCompleted: completion.onboardingCompleted)
        }
        let effects: @MainActor (Amped.Effect) -> Void = { effect in
            switch effect {
            case .markOnboardingCompleted: completion.onboardingCompleted = true
            }
        }
        // Once onboarding is complete there is no step to restore (a stale one must not bring
        // it back) nor to save: the flow starts at the launch choice, which goes home.
        flow =
            completion.onboardingCompleted
            ? FlowDriver(Amped.self, conditions: conditions, effects: effects)
            : FlowDriver(Amped.self, storage: steps, key: Self.stepKey, conditions: conditions, effects: effects)
        flow.start()
    }

    /// A session on the app's defaults, with the step and the flag where earlier versions of
    /// the app kept them.
    convenience init(defaults: UserDefaults = .standard) {
        self.init(
            steps: UserDefaultsFlowStorage(defaults),
            completion: UserDefaultsOnboardingFlag(defaults, key: Self.completedKey))
    }

    /// The flow's current state: an onboarding step, or `home`.
    var state: Amped.State { flow.state }

    /// What to show now.
    var screen: Screen {
        guard let index = Amped.position(of: flow.state, in: .steps) else { return .home }
        return .step(prompt: Self.prompt(of: flow.state), index: index, count: Amped.length(of: .steps))
    }

    /// Whether onboarding has been completed (on this launch or an earlier one).
    var isOnboardingComplete: Bool { completion.onboardingCompleted }

    /// "Continue" on a step.
    func next() { flow.send(.next) }

    /// Back to the previous step.
    func back() { flow.send(.back) }

    /// "Get started" on the last step: completes onboarding.
    func finish() { flow.send(.finish) }

    /// What a step asks the user.
    private static func prompt(of step: Amped.State) -> String {
        switch step {
        case .welcome: "What should we call you?"
        case .personalizationIntro: "Let's make Amped yours."
        case .questionnaire: "What gets you moving?"
        case .notifications: "Want a nudge when it's time?"
        // `launch` is a choice, never current; `home` is not a step.
        case .launch, .home: ""
        }
    }
}
