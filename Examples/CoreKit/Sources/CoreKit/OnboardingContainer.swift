import FlowSpecRuntime

/// What the app shows, derived from the flow's state.
enum Route: Equatable, Sendable {
    /// A page of the onboarding container, with what its page indicator needs.
    case onboarding(page: CoreKit.State, index: Int, count: Int)
    case home
    /// The profile, pushed on top of home.
    case profile
}

/// Asks the user for notification permission: answers with their choice, later or never.
protocol NotificationPermission: Sendable {
    /// The user's answer.
    func request() async -> Bool
}

/// The paged onboarding container of the app: an info page, a notification-permission request
/// that answers asynchronously (and moves on by itself after 10 s without an answer), and a
/// name form. "Next" on the last page calls `onFinish`, once; the same flow then routes the app
/// between home and profile.
///
/// A `FlowDriver` runs the generated `CoreKit` machine: the permission request is the work of
/// the permission page, started on every visit and cancelled when the page is left, and the
/// page's 10 s timeout is the driver's. The clock and the permission are injected, so tests
/// move time and answer (or never answer) themselves.
@MainActor
final class OnboardingContainer {
    /// Called when onboarding completes: "Next" on the last page, with a name entered.
    var onFinish: () -> Void = {}

    /// The name typed into the form; "Next" on the form needs one.
    var name = ""

    /// The user's answer to the permission request; `nil` while unanswered or after a timeout.
    private(set) var notificationsAllowed: Bool?

    /// The running flow.
    let flow: FlowDriver<CoreKit>

    /// The answer of the current visit's request, until the flow takes it.
    private var answer: Bool?

    /// Shows the first page.
    init(permission: any NotificationPermission, clock: any Clock<Duration> = ContinuousClock()) {
        // The driver's handlers reach the container once it exists.
        let owner = Owner()
        flow = FlowDriver(
            CoreKit.self, clock: clock,
            conditions: { CoreKit.Conditions(nameEntered: owner.container?.hasName ?? false) },
            effects: { owner.container?.carryOut($0) })
        owner.container = self
        flow.work(in: .notifications) {
            let visit = await owner.visit()
            let granted = await permission.request()
            await owner.container?.received(granted, in: visit)
            return .permissionAnswered
        }
        flow.onStep { [weak self] step in
            if step.input == .event(.permissionAnswered), !step.ignored { self?.notificationsAllowed = self?.answer }
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

    private func carryOut(_ effect: CoreKit.Effect) {
        switch effect {
        case .requestNotificationPermission: break  // the permission page's work asks
        case .finishOnboarding: onFinish()
        }
    }

    /// Keeps an answer while its visit is current; one that comes after the page was left
    /// (timed out, or "Back") is ignored, as the driver drops its event.
    private func received(_ granted: Bool, in visit: Int) {
        if flow.machine.visit == visit { answer = granted }
    }
}

/// A weak reference to the container, for the handlers it gives its driver.
@MainActor
private final class Owner {
    weak var container: OnboardingContainer?

    /// The current visit, when the page's work starts.
    func visit() -> Int { container?.flow.machine.visit ?? -1 }
}
