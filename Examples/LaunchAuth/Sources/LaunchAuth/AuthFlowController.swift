/// What the app shows, derived from the flow's state.
public enum AuthScreen: Equatable, Sendable {
    case splash
    /// A background check runs (onboarding or session): a spinner.
    case checking
    case onboarding
    /// The login screen, where the user is never stuck: the flow always gets back here.
    case login
    /// A login attempt runs.
    case signingIn
    /// Signed in; the main app loads.
    case loadingMainApp
    case mainApp
    /// The error screen: it waits for the user to retry or start over.
    case error
}

/// The error banner the UI shows when the flow asks for it (`showError`): every error has a
/// visible message and an action.
public struct ErrorBanner: Equatable, Sendable {
    /// What went wrong, in words for the user.
    public let message: String
    /// What the user can do about it.
    public let actions: [ErrorAction]
}

/// The user's ways out of the error screen.
public enum ErrorAction: Equatable, Sendable {
    /// Back to the login screen (`retry`).
    case retry
    /// Check onboarding and the session again from the start (`hardReset`).
    case startOver
}

/// Runs the launch and authentication flow for the app: owns the generated
/// `LaunchAuth.Machine`, forwards the app's events to it, carries out its effects, and keeps
/// exactly one timer armed, the one of the current visit.
///
/// Time comes from an injected `FlowScheduler`, so tests move it by hand.
final class AuthFlowController {
    /// Whether this is the app's first launch (the `firstLaunch` condition).
    let conditions: LaunchAuth.Conditions

    /// The running flow.
    private(set) var machine: LaunchAuth.Machine

    /// The error banner on screen, if any: set by `showError`, gone once the flow leaves `error`.
    private(set) var errorBanner: ErrorBanner?

    private let scheduler: any FlowScheduler
    private var timer: Cancellation?

    /// Starts the flow at a cold launch: the splash, with its timeout armed.
    init(firstLaunch: Bool, scheduler: any FlowScheduler) {
        conditions = LaunchAuth.Conditions(firstLaunch: firstLaunch)
        self.scheduler = scheduler
        let (machine, effects) = LaunchAuth.Machine.start(conditions: conditions)
        self.machine = machine
        carryOut(effects, failedIn: LaunchAuth.initial)
        armTimeout()
    }

    deinit {
        timer?.cancel()
    }

    /// The flow's current state.
    var state: LaunchAuth.State { machine.state }

    /// What to show now.
    var screen: AuthScreen {
        switch machine.state {
        // `initial` and `onboardingComplete` are choice states, left at once: never current.
        case .initial, .splash: .splash
        case .onboardingCheck, .authCheck: .checking
        case .onboarding: .onboarding
        case .onboardingComplete, .unauthenticated: .login
        case .authLoading: .signingIn
        case .authenticated: .loadingMainApp
        case .mainApp: .mainApp
        case .error: .error
        }
    }

    /// Forwards an app event (a check finished, the user tapped something, a request failed).
    func send(_ event: LaunchAuth.Event) {
        handle(.event(event))
    }

    /// The scheduled timer of `visit` went off. A timer of an earlier visit changes nothing.
    func fireTimeout(visit: Int) {
        handle(.timeout(visit: visit))
    }

    /// One of the error banner's actions.
    func perform(_ action: ErrorAction) {
        switch action {
        case .retry: send(.retry)
        case .startOver: send(.hardReset)
        }
    }

    private func handle(_ input: LaunchAuth.Input) {
        let (next, effects) = LaunchAuth.reduce(machine, input, conditions: conditions)
        // An ignored input leaves the visit as it was, and its timer armed.
        guard next.visit != machine.visit else { return }
        let left = machine.state
        machine = next
        if machine.state != .error { errorBanner = nil }
        carryOut(effects, failedIn: left)
        armTimeout()
    }

    private func carryOut(_ effects: LaunchAuth.Effects, failedIn state: LaunchAuth.State) {
        for effect in effects {
            switch effect {
            case .showError:
                errorBanner = ErrorBanner(message: Self.message(forFailureIn: state), actions: [.retry, .startOver])
            }
        }
    }

    /// Cancels the previous visit's timer and arms the current visit's, if its state has one.
    private func armTimeout() {
        timer?.cancel()
        timer = nil
        guard let timeout = machine.armedTimeout else { return }
        timer = scheduler.schedule(after: timeout.after) { [weak self] in
            self?.fireTimeout(visit: timeout.visit)
        }
    }

    /// The banner's message for a failure while the flow was in `state`.
    private static func message(forFailureIn state: LaunchAuth.State) -> String {
        switch state {
        case .splash: "The app could not start."
        case .onboardingCheck, .onboarding, .onboardingComplete: "Setting up the app failed."
        case .authCheck: "Your session could not be checked."
        case .authLoading: "Signing in failed."
        case .authenticated: "The app could not be loaded."
        case .initial, .unauthenticated, .mainApp, .error: "Something went wrong."
        }
    }
}
