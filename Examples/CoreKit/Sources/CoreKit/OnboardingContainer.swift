import FlowSpecRuntime
import Observation

/// What the app shows, derived from the flow's state.
enum Route: Equatable, Sendable {
    /// A page of the onboarding container, with what its page indicator needs.
    case onboarding(page: CoreKit.State, index: Int, count: Int)
    case home
    /// The profile, pushed on top of home.
    case profile
}

/// Asks the user for notification permission: the work of the permission page.
protocol NotificationPermission: Sendable {
    /// Shows the request and returns the user's answer, later or never. Called on every visit
    /// of the permission page; when the page is left first (its timeout, or "Back"), the task
    /// is cancelled, and an answer that still comes changes nothing.
    func request() async -> Bool
}

/// The paged onboarding container of the app: an info page, a notification-permission request
/// that answers asynchronously (and moves on by itself after 10 s without an answer), and a
/// name form. "Next" on the last page calls `onFinish`, once; the same flow then routes the app
/// between home and profile.
///
/// A `FlowDriver` of the generated `CoreKit` runs it: the permission request is the permission
/// page's work, and its 10 s timeout is the driver's timer, on the clock given.
@MainActor
@Observable
final class OnboardingContainer {
    /// Called when onboarding completes: "Next" on the last page, with a name entered.
    @ObservationIgnored var onFinish: () -> Void = {}

    /// The name typed into the form; "Next" on the form needs one.
    var name = ""

    /// The user's answer to the permission request; `nil` until one is taken.
    private(set) var notificationsAllowed: Bool?

    /// The running flow.
    let flow: FlowDriver<CoreKit>

    /// Shows the first page; time comes from `clock` (a test clock in tests). Whether a name
    /// was entered is read from ``name``, or from `nameEntered` when given (tests that set the
    /// condition directly).
    init(
        permission: any NotificationPermission, clock: any Clock<Duration> = ContinuousClock(),
        nameEntered: (@MainActor () -> Bool)? = nil
    ) {
        // The driver's handlers reach the container once it exists.
        let owner = Owner()
        flow = FlowDriver(
            CoreKit.self, clock: clock,
            conditions: { CoreKit.Conditions(nameEntered: nameEntered?() ?? owner.container?.hasName ?? false) },
            effects: { effect in
                switch effect {
                case .finishOnboarding: owner.container?.onFinish()
                }
            })
        owner.container = self
        flow.work(in: .notifications) { await permission.request() ? .permissionGranted : .permissionDenied }
        // The answer is kept from the step that takes it, so one the driver dropped (it came
        // after its visit) is never kept.
        flow.onStep { [weak self] step in
            guard !step.ignored, case .event(let event) = step.input else { return }
            switch event {
            case .permissionGranted: self?.notificationsAllowed = true
            case .permissionDenied: self?.notificationsAllowed = false
            case .next, .back, .openProfile, .closeProfile: break
            }
        }
        flow.start()
    }

    /// The flow's current state.
    var state: CoreKit.State { flow.state }

    /// The current page's position in the container, from 0; `nil` after onboarding.
    var pageIndex: Int? { CoreKit.position(of: flow.state, in: .pages) }

    /// How many pages the container has.
    var pageCount: Int { CoreKit.length(of: .pages) }

    /// What to show now.
    var route: Route {
        if let pageIndex {
            return .onboarding(page: flow.state, index: pageIndex, count: pageCount)
        }
        return flow.state == .profile ? .profile : .home
    }

    /// "Next": the info page and the form move on; the permission page waits for its answer.
    func next() { flow.send(.next) }

    /// "Back" to the previous page.
    func back() { flow.send(.back) }

    /// Opens the profile from home.
    func openProfile() { flow.send(.openProfile) }

    /// Leaves the profile, back to home.
    func closeProfile() { flow.send(.closeProfile) }

    private var hasName: Bool { !name.allSatisfy(\.isWhitespace) }
}

/// A weak reference to the container, for the handlers it gives its driver.
@MainActor
private final class Owner {
    weak var container: OnboardingContainer?
}
