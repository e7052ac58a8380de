/// What the app shows, derived from the flow's state.
enum Route: Equatable, Sendable {
    /// A page of the onboarding container, with what its page indicator needs.
    case onboarding(page: CoreKit.State, index: Int, count: Int)
    case home
    /// The profile, pushed on top of home.
    case profile
}

/// The paged onboarding container of the app: an info page, a notification-permission request
/// that answers asynchronously (and moves on by itself after 10 s without an answer), and a
/// name form. "Next" on the last page calls `onFinish`, once; the same flow then routes the app
/// between home and profile.
///
/// The permission request and the timer are injected, so tests answer (or never answer) the
/// request and fire timers themselves. Use it from one thread (the main thread, in an app).
final class OnboardingContainer {
    /// Asks for notification permission and calls `answer` with the user's choice, later or
    /// never.
    typealias PermissionRequest = (_ answer: @escaping (_ granted: Bool) -> Void) -> Void
    /// Calls `fire` once `after` has passed.
    typealias Timer = (_ after: Duration, _ fire: @escaping () -> Void) -> Void

    /// Called when onboarding completes: "Next" on the last page, with a name entered.
    var onFinish: () -> Void = {}

    /// The name typed into the form; "Next" on the form needs one.
    var name = ""

    /// The user's answer to the permission request; `nil` while unanswered or after a timeout.
    private(set) var notificationsAllowed: Bool?

    private let requestPermission: PermissionRequest
    private let timer: Timer
    private var flow: CoreKit.Machine

    /// Shows the first page.
    init(requestPermission: @escaping PermissionRequest, timer: @escaping Timer) {
        self.requestPermission = requestPermission
        self.timer = timer
        flow = CoreKit.Machine.start().machine
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

    /// The timeout armed for the current page, if it waits for asynchronous work.
    var armedTimeout: CoreKit.ArmedTimeout? { flow.armedTimeout }

    /// "Next": the info page and the form move on; the permission page waits for its answer.
    func next() { send(.next) }

    /// "Back" to the previous page.
    func back() { send(.back) }

    /// Opens the profile from home.
    func openProfile() { send(.openProfile) }

    /// Leaves the profile, back to home.
    func closeProfile() { send(.closeProfile) }

    /// The timer of `visit` fired; a timer of an earlier visit of the page does nothing.
    func fireTimeout(visit: Int) {
        let conditions = conditions
        apply { $0.fireTimeout(visit: visit, conditions: conditions) }
    }

    private var conditions: CoreKit.Conditions {
        .init(nameEntered: !name.allSatisfy(\.isWhitespace))
    }

    private func send(_ event: CoreKit.Event) {
        let conditions = conditions
        apply { $0.send(event, conditions: conditions) }
    }

    /// Runs one input on the flow: starts the timer of a newly entered page that has a
    /// timeout, then carries out the effects, in order.
    private func apply(_ input: (inout CoreKit.Machine) -> CoreKit.Effects) {
        let visit = flow.visit
        let effects = input(&flow)
        if flow.visit != visit, let timeout = flow.armedTimeout {
            timer(timeout.after) { [weak self] in self?.fireTimeout(visit: timeout.visit) }
        }
        for effect in effects {
            switch effect {
            case .requestNotificationPermission:
                requestNotificationPermission()
            case .finishOnboarding:
                onFinish()
            }
        }
    }

    /// Asks for permission on this visit of the permission page. An answer that arrives after
    /// the page was left (timed out, or "Back") is ignored, even if the page is shown again.
    private func requestNotificationPermission() {
        let visit = flow.visit
        requestPermission { [weak self] granted in
            guard let self, self.flow.visit == visit else { return }
            self.notificationsAllowed = granted
            self.send(.permissionAnswered)
        }
    }
}
