import FlowSpecRuntime
import Observation

/// The part of the app on screen, from the sub-flow the app is in.
public enum AppSection: Equatable, Sendable {
    /// The first run: splash, carousel and the demo call to action.
    case firstRun
    /// Launch and sign-in.
    case signIn
    /// A chapter of the story, by its position (0 to 5).
    case chapter(Int)
    /// Every chapter completed.
    case finished
}

/// The work the sign-in sub-flow's task states wait for. Each call runs while its state is
/// current and is cancelled when the state is left, by an answer, its timeout or a transition
/// of the app around it.
public protocol AppServices: Sendable {
    /// Plays the splash animation to its end.
    func playSplash() async throws
    /// Checks what onboarding needs.
    func checkOnboarding() async throws
    /// Whether a stored session is still valid.
    func hasValidSession() async throws -> Bool
    /// Signs in: `false` when the credentials are refused; throws when the network fails.
    func signIn() async throws -> Bool
    /// Loads what the main app shows first.
    func loadMainApp() async throws
    /// Returns when the signed-in session expires. Runs while the user is signed in (the
    /// `watchSession` activity), and is cancelled when they leave that part of the app.
    func sessionExpiry() async throws
}

/// The work of sign-in's task states, written for the `LaunchAuth` flow as it runs on its own
/// (its generated `LaunchAuth.Work`, with its own events). The composed flow runs it as is
/// while it is in `launch`: `FlowDriver<App>.work(_:launch:)` takes it, and sends its events
/// as the app's. A task state added to `LaunchAuth` without its work here does not compile.
struct SignInWork: LaunchAuth.Work {
    let services: any AppServices

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

/// The work of the composed flow's own: the session watch, an activity of `App`'s. The
/// generated `App.Work` has a requirement per task state and activity `App` itself declares.
struct AppWork: App.Work {
    let services: any AppServices

    func watchSession(_ send: @escaping @Sendable (App.Event) async -> Void) async {
        // Cancelled when the user leaves the signed-in part: then there is nothing to send.
        guard (try? await services.sessionExpiry()) != nil else { return }
        await send(.sessionExpired)
    }
}

/// Runs the whole app's flow: one `FlowDriver` of the generated `App`, which runs the first
/// run, sign-in and the chapters as sub-flows. The app keeps the onboarding flag and the
/// chapter checkpoint that the sub-flows' effects write, and shows the error banner that
/// sign-in asks for; everything else (which sub-flow runs, timers, cancelling work) is the
/// spec's and the driver's.
@MainActor
@Observable
final class AppController {
    /// The running flow.
    let flow: FlowDriver<App>
    /// Whether the first run's onboarding was completed (`persistOnboardingCompleted`).
    private(set) var onboardingCompleted = false
    /// The error banner's message, while sign-in shows its error screen (`showError`).
    private(set) var errorMessage: String?
    /// The chapter saved as the checkpoint, right after each advance (`saveCheckpoint`).
    private(set) var checkpoint: Int?

    /// The story's chapters in order, as the `Chapters` flow names them.
    static let chapters: [Chapters.State] = [.handshake, .packetRun, .cipher, .firewall, .blueprint, .eventHorizon]

    /// A flow at a cold launch whose conditions are the app's flag: a returning user goes
    /// straight to the call to action, and sign-in skips its onboarding step.
    convenience init(onboardingCompleted: Bool, services: any AppServices, clock: any Clock<Duration>) {
        let flag = Flag(onboardingCompleted)
        self.init(
            conditions: { App.Conditions(onboardingCompleted: flag.value, firstLaunch: !flag.value) },
            services: services, clock: clock)
        self.onboardingCompleted = onboardingCompleted
        flag.read = { [weak self] in self?.onboardingCompleted ?? false }
    }

    /// A flow whose conditions are read at each input.
    init(
        conditions: @escaping @MainActor () -> App.Conditions, services: any AppServices, clock: any Clock<Duration>
    ) {
        // The effects handler reaches the controller once it exists.
        let owner = Owner()
        flow = FlowDriver(App.self, clock: clock, conditions: conditions, effects: { owner.controller?.carryOut($0) })
        owner.controller = self
        flow.onStep { [weak self] step in
            if step.to != .launchError { self?.errorMessage = nil }
        }
        flow.work(AppWork(services: services), launch: SignInWork(services: services))
    }

    /// Starts the flow at the first run's splash (or, for a returning user, its call to action).
    func start() {
        flow.start()
    }

    /// What the app shows now.
    var section: AppSection {
        let machine = flow.machine
        if machine.isIn(.firstRun) { return .firstRun }
        if machine.isIn(.launch) { return .signIn }
        // The chapter as the `Chapters` flow's own state: the story's views need not know the app.
        if let chapter = flow.state.story { return .chapter(Self.chapters.firstIndex(of: chapter) ?? 0) }
        return .finished
    }

    /// Forwards what the user did.
    func send(_ event: App.Event) {
        flow.send(event)
    }

    private func carryOut(_ effect: App.Effect) {
        switch effect {
        case .persistOnboardingCompleted:
            onboardingCompleted = true
        case .showError:
            errorMessage = "Signing in went wrong. Try again, or start over."
        case .saveCheckpoint:
            // The chapter after the one completed: the last one's advance leaves the story at
            // once (its outcome), so the step's end is no chapter.
            checkpoint = flow.lastStep?.from?.story.flatMap { Self.chapters.firstIndex(of: $0) }.map { $0 + 1 }
        }
    }
}

/// A weak reference to the controller, for the handler it gives its driver.
@MainActor
private final class Owner {
    weak var controller: AppController?
}

/// The onboarding flag as the conditions read it: the controller's, once it exists.
@MainActor
private final class Flag {
    var read: @MainActor () -> Bool

    init(_ initial: Bool) {
        read = { initial }
    }

    var value: Bool { read() }
}
