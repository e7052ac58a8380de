import FlowSpecRuntime
import Observation

/// The part of the app on screen: what a SwiftUI root view switches on, each part a view of
/// its own that shows the current page (``AccountController/state``) inside it.
public enum AccountSection: Equatable, Sendable {
    case welcome
    /// Signing in: email and password, the check, the one-time code.
    case signIn
    /// Creating an account: the details, the check, the email confirmation.
    case signUp
    /// A password-reset email: the request, the sending, "check your email".
    case passwordReset
    /// The app proper: home, settings and profile tabs.
    case signedIn
    /// The session expired: the password again, and its check, before the app comes back on
    /// the screen that was left (``AccountController/returnsTo``).
    case reauth
    /// The error screen.
    case error
}

/// A one-line message shown on the page the flow just moved to, until it moves again.
public enum AccountNotice: Equatable, Sendable {
    /// The email and password (or the code) were refused.
    case credentialsRefused
    /// The sign-up details were refused (an email already in use, a weak password).
    case detailsRefused
    /// A new one-time code is on its way.
    case codeSent
    /// The session ended while the user was signed in.
    case sessionExpired
    /// The password could not be checked (the network failed, or no answer came in time): the
    /// page asks for it again.
    case checkFailed
    /// The account was created and its email confirmed elsewhere: the user signs in with it.
    case accountCreated
}

/// The error banner the error screen shows (`showError`): what went wrong, and the way back.
public struct ErrorBanner: Equatable, Sendable {
    /// What went wrong, in words for the user.
    public let message: String
}

/// What the server said to a sign-in attempt.
public enum SignInAnswer: Equatable, Sendable {
    /// Signed in: the server opened a session.
    case signedIn
    /// The password is right and the account asks for a one-time code, which the server sent.
    case codeRequired
    /// The email, password or code is wrong.
    case rejected
}

/// What the user entered to sign in.
public struct SignInAttempt: Equatable, Sendable {
    public var email: String
    public var password: String
    /// The one-time code, once the server asked for one.
    public var code: String?
}

/// What the user entered to create an account.
public struct SignUpDetails: Equatable, Sendable {
    public var name: String
    public var email: String
    public var password: String
}

/// The signed-in user, as the session holds it.
public struct AccountProfile: Equatable, Sendable {
    public var name: String
    public var email: String
}

/// The settings the settings tab edits.
public struct AccountSettings: Equatable, Sendable {
    public var notifications = true

    public init(notifications: Bool = true) {
        self.notifications = notifications
    }
}

/// The network calls the flow's task states wait for. Each runs while its state is current and
/// is cancelled when the state is left: by its answer, by `cancel` or `back`, or by a timeout.
public protocol AccountServices: Sendable {
    /// Checks an attempt; the server opens the session when it answers `signedIn`.
    func signIn(_ attempt: SignInAttempt) async throws -> SignInAnswer
    /// Sends a new one-time code.
    func resendCode(to email: String) async throws
    /// Creates an account and sends its confirmation email: `false` when the details are refused.
    func signUp(_ details: SignUpDetails) async throws -> Bool
    /// Sends a password-reset email.
    func sendPasswordReset(to email: String) async throws
    /// Checks the password of the account whose session expired: `true` when it is right and
    /// the server opened a new session, `false` when it is wrong.
    func confirmPassword(_ password: String, for email: String) async throws -> Bool
}

/// The session the server opened, kept on the device (the keychain, in the app).
@MainActor
public protocol AccountSession: AnyObject {
    /// The signed-in user, if there is a session.
    var profile: AccountProfile? { get }
    /// Saves the user's settings.
    func save(_ settings: AccountSettings)
    /// Ends the session and forgets what it held.
    func end()
    /// The email of the account whose session ended last, kept on the device as the session
    /// is: what the password check asks for when a relaunch comes back to it.
    var endedAccountEmail: String? { get }
    /// Whether the device holds a session the server accepts: restored from the keychain, or
    /// opened by another device that approved this one. The app calls
    /// ``AccountController/sessionChanged()`` when it becomes valid.
    var isValid: Bool { get }
}

/// The analytics of the sign-in funnel.
@MainActor
public protocol SignInTracking: AnyObject {
    /// The user started signing in (the funnel's timer starts).
    func signInStarted()
    /// The user left signing in, whichever way (the funnel's timer stops).
    func signInEnded()
}

/// Runs the account flow: a `FlowDriver` of the generated `Account`, with the app's network
/// calls as the work of its task states, the effects carried out on the session, the forms
/// and the analytics, and what the screens show derived from the state. Timers, cancellation
/// and what leaving or entering a part of the flow does are the spec's and the driver's:
/// nothing here schedules anything, and no screen handles `cancel` or `sessionExpired` itself.
/// Nor does anything here remember which screen to come back to after the password check: the
/// spec's history state `resume` does.
/// (Internal, like the generated code it holds; an app target would keep it beside its views.)
@MainActor
@Observable
final class AccountController {
    /// The running flow.
    let flow: FlowDriver<Account>

    /// The sign-in and password-reset forms' email field; the password check's email, set to the
    /// account's when the session ends.
    var email = ""
    /// The sign-in form's and the password check's password field: cleared whenever signing in
    /// (or in again) ends (`clearPassword`).
    var password = ""
    /// The one-time code field, cleared with the password.
    var code = ""
    /// The sign-up form's name field (its email and password are the fields above).
    var name = ""
    /// The settings tab's toggles, saved when the tab is left (`saveSettings`).
    var settings = AccountSettings()

    /// The signed-in user: loaded on entering the signed-in part (again on coming back to it
    /// after the password check: the new session's), gone when the session ends.
    private(set) var profile: AccountProfile?
    /// How many times the home feed was asked to refresh: a home view reloads on each change
    /// (`.task(id: controller.feedRefreshes)`).
    private(set) var feedRefreshes = 0
    /// How many times the email field was asked to take the cursor: each time signing in
    /// starts afresh, never when a refused attempt comes back to the form (a form view moves
    /// its focus on each change, `.onChange(of: controller.emailFocusRequests)`).
    private(set) var emailFocusRequests = 0
    /// Whether the offline banner shows, over whichever screen is on: the connection region
    /// shows it on losing the connection and hides it on finding it again or on leaving the app.
    private(set) var isOffline = false

    private let services: any AccountServices
    private let session: any AccountSession
    private let tracking: any SignInTracking
    /// The notice and the error banner, each with the visit it was shown for: shown while the
    /// flow is in that visit, gone once it moves (to another state, or the same one again).
    private var shownNotice: (notice: AccountNotice, visit: Int)?
    private var shownBanner: (banner: ErrorBanner, visit: Int)?

    /// A flow on `clock` (the continuous clock in the app, a test clock in tests), saved in
    /// `storage` (`UserDefaultsFlowStorage` in the app) under `account`: ``start()`` comes back
    /// to the page, and the connection, the user was on, or shows the welcome screen. Its
    /// conditions are the session's (`conditions` replaces them, for test paths that set them).
    init(
        services: any AccountServices, session: any AccountSession, tracking: any SignInTracking,
        storage: any FlowStorage, clock: any Clock<Duration> = ContinuousClock(),
        conditions: (@MainActor () -> Account.Conditions)? = nil
    ) {
        self.services = services
        self.session = session
        self.tracking = tracking
        // The effects handler reaches the controller once it exists.
        let owner = Owner()
        let sessionConditions = { @MainActor in Account.Conditions(sessionValid: session.isValid) }
        flow = FlowDriver(
            Account.self, storage: storage, key: "account", clock: clock, conditions: conditions ?? sessionConditions,
            effects: { owner.controller?.carryOut($0) })
        owner.controller = self
        registerWork()
    }

    /// The network call of each task state. Each reads the form when its state is entered,
    /// on the main actor, and answers with the event the spec expects; any error is `failed`.
    private func registerWork() {
        let services = services
        flow.work(
            in: .verifying,
            { [weak self] in
                guard let attempt = await self?.signInAttempt else { throw CancellationError() }
                return switch try await services.signIn(attempt) {
                case .signedIn: .verified
                case .codeRequired: .codeRequired
                case .rejected: .rejected
                }
            }, onError: { _ in .failed })
        flow.work(
            in: .submitting,
            { [weak self] in
                guard let details = await self?.signUpDetails else { throw CancellationError() }
                return try await services.signUp(details) ? .accepted : .rejected
            }, onError: { _ in .failed })
        flow.work(
            in: .sendingReset,
            { [weak self] in
                guard let email = await self?.email else { throw CancellationError() }
                try await services.sendPasswordReset(to: email)
                return .sent
            }, onError: { _ in .failed })
        flow.work(
            in: .checkingPassword,
            { [weak self] in
                guard let attempt = await self?.signInAttempt else { throw CancellationError() }
                return try await services.confirmPassword(attempt.password, for: attempt.email) ? .verified : .rejected
            }, onError: { _ in .failed })
    }

    /// What the sign-in form holds: the code once the server asked for one.
    private var signInAttempt: SignInAttempt {
        SignInAttempt(email: email, password: password, code: code.isEmpty ? nil : code)
    }

    private var signUpDetails: SignUpDetails {
        SignUpDetails(name: name, email: email, password: password)
    }

    /// Starts the flow: on the welcome screen, or where the user was when the app last ran.
    /// Back on the password check, its email is the account's whose session ended (the form
    /// was not kept).
    func start() {
        flow.start()
        if flow.machine.isIn(.reauth), email.isEmpty { email = session.endedAccountEmail ?? "" }
    }

    /// Forwards what the user did: a button, a tab, a link opened, the server saying the
    /// session ended, or the system saying the connection went or came back.
    func send(_ event: Account.Event) {
        flow.send(event)
    }

    /// Tells the flow the device's session changed (``AccountSession/isValid``): signing in,
    /// on whichever page, ends as soon as it is valid.
    func sessionChanged() {
        flow.conditionsChanged()
    }

    // MARK: What the screens show

    /// The current page, inside ``section`` (signed in, the screen: the first of the states
    /// the flow is in, before the connection's).
    var state: Account.State { flow.state }

    /// The part of the app on screen, from the compound state the flow is in: a page added to
    /// a part of the spec later shows in that part with no change here.
    var section: AccountSection {
        let machine = flow.machine
        if machine.isIn(.signIn) { return .signIn }
        if machine.isIn(.signUp) { return .signUp }
        if machine.isIn(.forgotPassword) { return .passwordReset }
        if machine.isIn(.signedIn) { return .signedIn }
        if machine.isIn(.reauth) { return .reauth }
        return flow.state == .error ? .error : .welcome
    }

    /// Whether the user is signed in: the root view shows the tabs, not the welcome flow.
    var isSignedIn: Bool { flow.machine.isIn(.signedIn) }

    /// Whether the page shows a Cancel button: everywhere in signing in, signing up and the
    /// password check, where the spec's `cancel` holds.
    var canCancel: Bool {
        let machine = flow.machine
        return machine.isIn(.signIn) || machine.isIn(.signUp) || machine.isIn(.reauth)
    }

    /// During the password check, the screen the app comes back on once it passes: where the
    /// session expired, as signedIn's screens remember it for their history state `resume`. The page says
    /// so ("Enter your password to go back to Settings"); `nil` elsewhere.
    var returnsTo: Account.State? {
        flow.machine.isIn(.reauth) ? flow.machine.lastState(in: .screens) : nil
    }

    /// Whether a request runs (a task state): the page shows a spinner and disables its form.
    var isBusy: Bool { Account.kind(of: flow.state) == .task }

    /// The notice on the current page, if any.
    var notice: AccountNotice? {
        guard let shownNotice, shownNotice.visit == flow.machine.visit else { return nil }
        return shownNotice.notice
    }

    /// The error banner, on the error screen.
    var errorBanner: ErrorBanner? {
        guard let shownBanner, shownBanner.visit == flow.machine.visit else { return nil }
        return shownBanner.banner
    }

    // MARK: Effects

    private func carryOut(_ effect: Account.Effect) {
        switch effect {
        case .startSignInTracking: tracking.signInStarted()
        case .stopSignInTracking: tracking.signInEnded()
        case .clearPassword:
            password = ""
            code = ""
        case .sendCode:
            show(.codeSent)
            // Fire and forget: the code page waits for the user either way.
            Task { [services, email] in try? await services.resendCode(to: email) }
        case .showRejected:
            show(flow.lastStep?.from == .submitting ? .detailsRefused : .credentialsRefused)
        case .showError:
            shownBanner = (ErrorBanner(message: errorMessage), flow.machine.visit)
        case .loadAccount: profile = session.profile
        case .refreshFeed: feedRefreshes += 1
        case .saveSettings: session.save(settings)
        case .clearSession:
            // The account's email stays for the forms, so that the password check after an
            // expiry (or the next sign-in) asks for the password alone.
            if let profile { email = profile.email }
            session.end()
            profile = nil
        case .showSessionExpired: show(.sessionExpired)
        case .showCheckFailed: show(.checkFailed)
        case .showOfflineBanner: isOffline = true
        case .hideOfflineBanner: isOffline = false
        case .showAccountCreated: show(.accountCreated)
        case .focusEmail: emailFocusRequests += 1
        }
    }

    /// Shows `notice` on the page the flow is moving to (the effects of a step run once the
    /// machine is in its new visit).
    private func show(_ notice: AccountNotice) {
        shownNotice = (notice, flow.machine.visit)
    }

    /// The error banner's message for the step that led to the error screen.
    private var errorMessage: String {
        let timedOut = flow.lastStep?.input == .timeout
        let what =
            switch flow.lastStep?.from {
            case .verifying: "Signing in"
            case .submitting: "Creating your account"
            case .sendingReset: "Sending the reset email"
            default: "That"
            }
        return timedOut ? "\(what) took too long. Try again." : "\(what) failed. Try again."
    }
}

/// A weak reference to the controller, for the handler it gives its driver.
@MainActor
private final class Owner {
    weak var controller: AccountController?
}
