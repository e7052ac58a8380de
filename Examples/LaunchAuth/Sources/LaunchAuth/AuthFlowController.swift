import FlowSpecRuntime
import Observation

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

/// The work the flow's task states wait for. Each call runs while its state is current and is
/// cancelled when the state is left, by an answer or by the state's timeout.
public protocol AuthServices: Sendable {
    /// Plays the splash animation to its end.
    func playSplash() async throws
    /// Checks what onboarding needs (content, feature flags).
    func checkOnboarding() async throws
    /// Whether a stored session is still valid.
    func hasValidSession() async throws -> Bool
    /// Signs in with what the user entered: `false` when the credentials are refused; throws
    /// when the network fails (the flow retries, up to three times).
    func signIn() async throws -> Bool
    /// Loads what the main app shows first.
    func loadMainApp() async throws
}

/// The work of the flow's task states, the services' calls with their outcomes as the flow's
/// events. The generated `LaunchAuth.Work` has a requirement per task state, so a task state
/// added to the spec without its work here does not compile.
struct AuthWork: LaunchAuth.Work {
    let services: any AuthServices

    func splash() async -> LaunchAuth.Event {
        do {
            try await services.playSplash()
            return .splashAnimationCompleted
        } catch {
            return .splashFailed
        }
    }

    func onboardingCheck() async -> LaunchAuth.Event {
        do {
            try await services.checkOnboarding()
            return .onboardingCheckSucceeded
        } catch {
            return .onboardingCheckFailed
        }
    }

    func authCheck() async -> LaunchAuth.Event {
        do { return try await services.hasValidSession() ? .validSession : .noSession } catch {
            return .authCheckFailed
        }
    }

    func authLoading() async -> LaunchAuth.Event {
        do { return try await services.signIn() ? .loginSucceeded : .loginFailed } catch { return .networkError }
    }

    func authenticated() async -> LaunchAuth.Event {
        do {
            try await services.loadMainApp()
            return .mainAppLoaded
        } catch {
            return .mainAppLoadFailed
        }
    }
}

/// Runs the launch and authentication flow: a `FlowDriver` of the generated `LaunchAuth`,
/// with the app's services as the work of its task states, and what the app shows derived
/// from the state. Timers, cancellation and retries are the driver's and the spec's: nothing
/// here schedules anything. (Internal, like the generated code it holds; an app target would
/// keep it beside its screens.)
@MainActor
@Observable
final class AuthFlowController {
    /// The running flow.
    let flow: FlowDriver<LaunchAuth>

    /// The error banner on screen, if any: set by `showError`, gone once the flow leaves `error`.
    private(set) var errorBanner: ErrorBanner?

    /// A flow for a cold launch, on `clock` (the continuous clock in the app, a test clock in
    /// tests); ``start()`` shows the splash.
    convenience init(firstLaunch: Bool, services: any AuthServices, clock: any Clock<Duration> = ContinuousClock()) {
        self.init(conditions: { LaunchAuth.Conditions(firstLaunch: firstLaunch) }, services: services, clock: clock)
    }

    /// A flow whose conditions are read at each input (whether this is the first launch).
    init(
        conditions: @escaping @MainActor () -> LaunchAuth.Conditions, services: any AuthServices,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        // The effects handler reaches the controller once it exists.
        let owner = Owner()
        flow = FlowDriver(
            LaunchAuth.self, clock: clock, conditions: conditions, effects: { owner.controller?.carryOut($0) })
        owner.controller = self
        flow.onStep { [weak self] step in
            if step.to != .error { self?.errorBanner = nil }
        }
        flow.work(AuthWork(services: services))
    }

    /// Starts the flow: the splash, with its timeout armed and its animation playing.
    func start() {
        flow.start()
    }

    /// The flow's current state.
    var state: LaunchAuth.State { flow.state }

    /// What to show now.
    var screen: AuthScreen {
        switch flow.state {
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

    /// Forwards what the user did (finished onboarding, tapped "Sign in", forced a reset).
    func send(_ event: LaunchAuth.Event) {
        flow.send(event)
    }

    private func carryOut(_ effect: LaunchAuth.Effect) {
        switch effect {
        case .showError:
            errorBanner = ErrorBanner(
                message: Self.message(forFailureIn: flow.lastStep?.from ?? .splash), actions: [.retry, .startOver])
        }
    }

    /// One of the error banner's actions.
    func perform(_ action: ErrorAction) {
        switch action {
        case .retry: send(.retry)
        case .startOver: send(.hardReset)
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

/// A weak reference to the controller, for the handler it gives its driver.
@MainActor
private final class Owner {
    weak var controller: AuthFlowController?
}
