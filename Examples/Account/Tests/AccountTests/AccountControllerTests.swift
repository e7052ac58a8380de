import FlowSpecRuntime
import FlowSpecTesting
import Testing

@testable import Account

/// The account flow as the app runs it: what the compound states give every page inside them
/// (`cancel`, the sign-in time limit, the session's end), their `entry` and `exit` effects
/// and `done`, the password check after an expiry that comes back to the screen left (a deep
/// history state), and what the screens show. Time is a `FlowTestClock`: nothing sleeps.
@MainActor
@Suite("Account flow")
struct AccountControllerTests {
    let clock = FlowTestClock()
    let log = Log()
    let services: FakeServices
    let session: FakeSession
    let tracking: FakeTracking
    let storage = InMemoryFlowStorage()
    let controller: AccountController

    init() {
        services = FakeServices(clock: clock)
        session = FakeSession(log: log)
        tracking = FakeTracking(log: log)
        controller = AccountController(
            services: services, session: session, tracking: tracking, storage: storage, clock: clock)
        controller.start()
    }

    var flow: FlowDriver<Account> { controller.flow }

    /// The leaves inside `compound` the user can stop in (its terminal states are left at once).
    nonisolated static func pages(in compound: Account.Compound) -> [Account.State] {
        Account.State.allCases.filter { Account.contains(compound, $0) && Account.kind(of: $0) != .terminal }
    }

    // MARK: Getting somewhere

    /// Waits (in real time only: the test clock does not move) for what the driver does on
    /// its own, such as delivering a network answer.
    func settle(until condition: @MainActor () -> Bool, _ what: Comment) async {
        #expect(await FlowSettling.until(condition), what)
    }

    /// Moves the test clock on, and lets every timer that came due run, so that a check that
    /// follows sees what they did, or that they did nothing.
    func advance(by duration: Duration) async {
        clock.advance(by: duration)
        #expect(await FlowSettling.whatIsDue(of: flow))
    }

    /// Opens sign-in and types the credentials.
    func openSignIn() {
        controller.send(.startSignIn)
        controller.email = "ada@example.com"
        controller.password = "correct horse"
    }

    /// Submits the credentials; the server asks for a one-time code.
    func reachCode() async {
        services.signInReply = .now(.codeRequired)
        controller.send(.submit)
        await settle(until: { controller.state == .oneTimeCode }, "the code page")
    }

    /// Signs in with no code asked: ends on home.
    func signIn() async {
        openSignIn()
        services.signInReply = .now(.signedIn)
        controller.send(.submit)
        await settle(until: { controller.state == .home }, "home")
    }

    /// Takes the flow to `page`, one of the pages inside a compound state, by the usual way.
    func reach(_ page: Account.State) async {
        switch page {
        case .credentials: openSignIn()
        case .verifying:
            openSignIn()
            controller.send(.submit)
        case .oneTimeCode:
            openSignIn()
            await reachCode()
            controller.code = "123456"
        case .details:
            controller.send(.startSignUp)
            controller.password = "correct horse"
        case .submitting:
            await reach(.details)
            controller.send(.submit)
        case .confirmEmail:
            await reach(.details)
            services.signUpReply = .now(true)
            controller.send(.submit)
            await settle(until: { controller.state == .confirmEmail }, "the confirmation page")
        case .resetRequest: controller.send(.forgotPassword)
        case .sendingReset:
            controller.send(.forgotPassword)
            controller.send(.submit)
        case .checkEmail:
            controller.send(.forgotPassword)
            services.resetReply = .now(())
            controller.send(.submit)
            await settle(until: { controller.state == .checkEmail }, "check your email")
        case .home: await signIn()
        case .settings:
            await signIn()
            controller.send(.openSettings)
        case .profile:
            await signIn()
            controller.send(.openProfile)
        case .reenterPassword:
            await reach(.settings)
            controller.send(.sessionExpired)
            controller.password = "correct horse"
        case .checkingPassword:
            await reach(.reenterPassword)
            controller.send(.submit)
            await settle(until: { services.passwordChecks.count == 1 }, "the check under way")
        default: Issue.record("no way to \(page) written")
        }
        #expect(controller.state == page)
    }

    // MARK: Relaunching

    /// The app quits, and at its next launch a new controller starts over the same storage.
    func relaunched() -> AccountController {
        flow.stop()
        let next = AccountController(
            services: services, session: session, tracking: tracking, storage: storage, clock: clock)
        next.start()
        return next
    }

    /// The screen and the connection are each stored; a relaunch comes back to both, loads
    /// the account again (signedIn's `entry`) and shows the offline banner at once.
    @Test func aRelaunchComesBackToTheScreenAndTheConnection() async {
        await reach(.profile)
        controller.send(.connectionLost)
        #expect(storage.values["account"] == .string("profile"))
        #expect(storage.values["account.region.connection"] == .string("offline"))
        let next = relaunched()
        #expect(next.flow.machine.states == [.profile, .offline])
        #expect(next.section == .signedIn && next.isOffline)
        #expect(next.profile == AccountProfile(name: "Ada", email: "ada@example.com"))
        #expect(next.flow.lastStep?.effects == [.loadAccount, .showOfflineBanner])
        #expect(next.flow.problems.isEmpty)
        next.send(.connectionRestored)
        #expect(!next.isOffline)
    }

    /// A network call's form was not kept, so a relaunch during the call shows the form again
    /// (`resume`), not a call with nothing to send.
    @Test(arguments: [
        (Account.State.verifying, Account.State.credentials), (.submitting, .details), (.sendingReset, .resetRequest),
        (.checkingPassword, .reenterPassword)
    ])
    func aRelaunchDuringACallShowsItsForm(call: Account.State, form: Account.State) async {
        await reach(call)
        let next = relaunched()
        #expect(next.state == form)
    }

    /// What signedIn remembers is stored too: after a relaunch on the password check, passing
    /// it still comes back to the screen the session expired on.
    @Test func aRelaunchOnThePasswordCheckStillComesBackToTheScreenLeft() async {
        await reach(.reenterPassword)
        #expect(storage.values["account.history.screens"] == .string("settings"))
        let next = relaunched()
        #expect(next.state == .reenterPassword)
        next.password = "correct horse"
        services.passwordReply = .now(true)
        next.send(.submit)
        await settle(until: { next.isSignedIn }, "back in the app")
        #expect(next.flow.machine.states == [.settings, .online])
    }

    // MARK: Screens

    @Test func theFlowStartsOnTheWelcomeScreen() {
        #expect(controller.state == .welcome)
        #expect(controller.section == .welcome)
        #expect(!controller.isSignedIn)
        #expect(!controller.canCancel)
        #expect(controller.notice == nil)
        #expect(flow.machine.armedTimeouts.isEmpty)
        #expect(log.lines.isEmpty, "the welcome screen starts nothing")
    }

    @Test func isInTellsWhichCompoundStateHoldsThePage() async {
        let compounds = Account.Compound.allCases
        #expect(compounds.filter { flow.machine.isIn($0) }.isEmpty, "welcome is in none")
        await reach(.oneTimeCode)
        #expect(compounds.filter { flow.machine.isIn($0) } == [.signIn])
        #expect(controller.section == .signIn)
        controller.send(.cancel)
        controller.send(.forgotPassword)
        #expect(compounds.filter { flow.machine.isIn($0) } == [.forgotPassword])
        #expect(controller.section == .passwordReset)
        #expect(!controller.canCancel, "password reset has Back, not Cancel")
        controller.send(.back)
        #expect(controller.state == .credentials)
        #expect(controller.section == .signIn, "back leads to signing in")
        controller.send(.cancel)
        await signIn()
        controller.send(.openSettings)
        // Inside signedIn, the flow is in both of its regions.
        #expect(compounds.filter { flow.machine.isIn($0) } == [.signedIn, .screens, .connection])
        #expect(flow.machine.states == [.settings, .online])
        #expect(controller.isSignedIn)
        #expect(controller.section == .signedIn)
    }

    // MARK: Signing in

    @Test func signingInWithoutACodeEndsOnHomeThroughDone() async {
        openSignIn()
        #expect(controller.section == .signIn)
        #expect(controller.canCancel)
        #expect(tracking.isOpen, "entering signIn starts the funnel's timer")
        services.signInReply = .now(.signedIn)
        controller.send(.submit)
        #expect(controller.isBusy)
        await settle(until: { controller.state == .home }, "home")
        #expect(services.attempts == [SignInAttempt(email: "ada@example.com", password: "correct horse", code: nil)])
        // The terminal `signInFinished` took signIn's `done` at once: one step, from verifying.
        #expect(flow.lastStep?.from == .verifying)
        #expect(flow.lastStep?.input == .event(.verified))
        #expect(flow.lastStep?.effects == [.stopSignInTracking, .clearPassword, .loadAccount, .refreshFeed])
        #expect(controller.isSignedIn)
        #expect(controller.profile?.name == "Ada")
        #expect(controller.feedRefreshes == 1)
        #expect(controller.password.isEmpty)
        #expect(!tracking.isOpen)
        #expect(log.lines == ["tracking.start", "tracking.end", "session.profile"])
    }

    /// A session that becomes valid while signing in (another device approved this one) ends
    /// signing in from whichever page the user is on, as signIn's `always` branch says: the
    /// same exits and entries as signing in, and no request left running.
    @Test(arguments: [Account.State.credentials, .oneTimeCode])
    func aSessionThatBecomesValidEndsSigningIn(on page: Account.State) async {
        openSignIn()
        if page == .oneTimeCode {
            services.signInReply = .now(.codeRequired)
            controller.send(.submit)
            await settle(until: { controller.state == .oneTimeCode }, "the code page")
        }
        // Nothing changed yet: the flow stays, and says it did.
        controller.sessionChanged()
        #expect(controller.state == page)
        #expect(flow.lastStep?.input == .conditionsChanged && flow.lastStep?.ignored == true)
        session.isValid = true
        controller.sessionChanged()
        #expect(controller.state == .home)
        #expect(flow.lastStep?.effects == [.stopSignInTracking, .clearPassword, .loadAccount, .refreshFeed])
        #expect(controller.isSignedIn && controller.profile?.name == "Ada")
        #expect(controller.password.isEmpty && !tracking.isOpen)
        // signIn's five minutes are over with it.
        await advance(by: .seconds(300))
        #expect(flow.lastStep?.input == .conditionsChanged)
    }

    @Test func theOneTimeCodeIsSentWithTheCredentialsAndResendStaysOnThePage() async throws {
        openSignIn()
        await reachCode()
        #expect(controller.section == .signIn)
        let timer = try #require(flow.machine.armedTimeouts.first)
        controller.code = "000000"
        let visit = flow.machine.visit
        controller.send(.resend)
        // Resend has no target: the page stays, in the same visit, and signIn's limit runs on.
        #expect(flow.machine.visit == visit)
        #expect(controller.state == .oneTimeCode)
        #expect(flow.lastStep?.from == .oneTimeCode && flow.lastStep?.ignored == false)
        #expect(flow.lastStep?.effects == [.sendCode])
        #expect(controller.notice == .codeSent)
        #expect(flow.machine.armedTimeouts.first == timer, "signIn's time limit runs on")
        #expect(controller.password == "correct horse", "the password stays while signing in")
        await settle(until: { services.codesResent == ["ada@example.com"] }, "the code resent")
        controller.code = "123456"
        services.signInReply = .now(.signedIn)
        controller.send(.submit)
        #expect(controller.notice == nil, "a notice goes with its page")
        await settle(until: { controller.state == .home }, "home")
        #expect(services.attempts.last?.code == "123456")
        #expect(controller.code.isEmpty)
        #expect(log.lines == ["tracking.start", "tracking.end", "session.profile"], "resend starts no funnel")
    }

    @Test func refusedCredentialsGoBackToTheFormWithANotice() async {
        openSignIn()
        services.signInReply = .now(.rejected)
        controller.send(.submit)
        await settle(until: { controller.state == .credentials }, "the form again")
        #expect(controller.notice == .credentialsRefused)
        #expect(flow.lastStep?.effects == [.showRejected])
        #expect(tracking.isOpen, "still signing in")
        #expect(controller.emailFocusRequests == 1, "the cursor stays where the user fixes what they typed")
    }

    /// `cancel` is written once, on signIn; every page inside it inherits it.
    @Test(arguments: pages(in: .signIn))
    func cancelLeavesSignInFromEveryPageInside(page: Account.State) async {
        await reach(page)
        controller.send(.cancel)
        #expect(controller.state == .welcome)
        #expect(flow.lastStep?.effects == [.stopSignInTracking, .clearPassword])
        #expect(controller.password.isEmpty)
        #expect(controller.code.isEmpty)
        #expect(!tracking.isOpen)
        #expect(tracking.misuse.isEmpty)
        #expect(flow.machine.armedTimeouts.isEmpty, "signIn's time limit is gone with it")
        if page == .verifying {
            await settle(until: { services.cancelled == 1 }, "the request cancelled")
        }
    }

    @Test func thePagesInsideSignInAreTheOnesTheTestsReach() {
        #expect(Self.pages(in: .signIn) == [.credentials, .verifying, .oneTimeCode])
        #expect(Self.pages(in: .signUp) == [.details, .submitting, .confirmEmail])
        #expect(Self.pages(in: .forgotPassword) == [.resetRequest, .sendingReset, .checkEmail])
        #expect(Self.pages(in: .screens) == [.home, .settings, .profile])
        #expect(Self.pages(in: .reauth) == [.reenterPassword, .checkingPassword])
    }

    // MARK: The sign-in time limit (a compound state's timeout)

    @Test func signInsTimeLimitRunsFromEnteringSignInWhileThePagesInsideChange() async throws {
        openSignIn()
        let limit = try #require(flow.machine.armedTimeouts.first)
        #expect(limit.after == .seconds(300))
        #expect(limit.target == .welcome)
        #expect(limit.depth == 0)
        await advance(by: .seconds(240))
        await reachCode()
        #expect(flow.machine.armedTimeouts == [limit], "moving inside signIn keeps its timer")
        await advance(by: .seconds(30))
        controller.send(.resend)
        #expect(flow.machine.armedTimeouts == [limit])
        await advance(by: .seconds(29))
        #expect(controller.state == .oneTimeCode, "nothing fires before the limit")
        clock.advance(by: .seconds(1))
        await settle(until: { controller.state == .welcome }, "the limit 5 minutes after entering signIn")
        #expect(clock.elapsed == .seconds(300))
        #expect(flow.lastStep?.input == .compoundTimeout(.signIn))
        #expect(flow.lastStep?.from == .oneTimeCode)
        #expect(flow.lastStep?.effects == [.stopSignInTracking, .clearPassword])
        #expect(controller.password.isEmpty)
        #expect(!tracking.isOpen)
    }

    @Test func signInsTimeLimitFiresBeforeTheRequestsOwnAndCancelsIt() async {
        openSignIn()
        await advance(by: .seconds(290))
        controller.send(.submit)
        #expect(flow.machine.armedTimeouts.map(\.after) == [.seconds(300), .seconds(30)])
        await settle(until: { services.attempts.count == 1 }, "the request")
        clock.advance(by: .seconds(10))
        await settle(until: { controller.state == .welcome }, "signIn's limit, before the request's 30 s")
        #expect(flow.lastStep?.input == .compoundTimeout(.signIn))
        await settle(until: { services.cancelled == 1 }, "the request cancelled")
        await advance(by: .seconds(60))
        #expect(controller.state == .welcome, "the request's own timer went with it")
        #expect(controller.errorBanner == nil)
    }

    @Test func signInsTimeLimitIsCancelledWhenSignInIsLeft() async {
        openSignIn()
        await advance(by: .seconds(240))
        controller.send(.cancel)
        await advance(by: .seconds(120))
        #expect(controller.state == .welcome)
        #expect(flow.lastStep?.input == .event(.cancel), "no timer fired after cancel")
        // Entering again arms a new limit, from now.
        controller.send(.startSignIn)
        await advance(by: .seconds(299))
        #expect(controller.state == .credentials)
        clock.advance(by: .seconds(1))
        await settle(until: { controller.state == .welcome }, "the new limit")
        #expect(clock.elapsed == .seconds(660))
    }

    @Test func signInsTimeLimitIsCancelledWhenSigningInSucceeds() async {
        await signIn()
        await advance(by: .seconds(600))
        #expect(controller.state == .home)
        #expect(flow.lastStep?.input == .event(.verified))
    }

    @Test func aRequestThatTakesTooLongShowsTheErrorScreen() async {
        openSignIn()
        controller.send(.submit)
        await advance(by: .seconds(29))
        #expect(controller.state == .verifying)
        clock.advance(by: .seconds(1))
        await settle(until: { controller.state == .error }, "the request's 30 s timeout")
        #expect(flow.lastStep?.input == .timeout)
        // Leaving signIn for error: signIn's exit effects, then error's entry.
        #expect(flow.lastStep?.effects == [.stopSignInTracking, .clearPassword, .showError])
        #expect(controller.section == .error)
        #expect(controller.errorBanner == ErrorBanner(message: "Signing in took too long. Try again."))
        controller.send(.dismiss)
        #expect(controller.state == .welcome)
        #expect(controller.errorBanner == nil)
    }

    // MARK: Entry and exit effects

    @Test func exitsRunInnermostFirstThenTheTransitionsEffects() async {
        await reach(.settings)
        controller.settings.notifications = false
        log.lines = []
        controller.send(.sessionExpired)
        // settings' exit, then signedIn's, then the transition's own effect.
        #expect(flow.lastStep?.effects == [.saveSettings, .clearSession, .showSessionExpired])
        #expect(log.lines == ["session.save(notifications: false)", "session.end"])
        #expect(controller.notice == .sessionExpired)
    }

    @Test func entriesRunOutermostFirstAfterTheExits() async {
        await signIn()
        // signIn's exits, then signedIn's entry, then home's.
        #expect(flow.lastStep?.effects == [.stopSignInTracking, .clearPassword, .loadAccount, .refreshFeed])
        controller.send(.signOut)
        controller.send(.forgotPassword)
        controller.send(.back)
        // Into signIn from the password reset: signIn's entry, then its `initial`'s effects.
        #expect(flow.lastStep?.effects == [.startSignInTracking, .focusEmail])
        #expect(tracking.misuse.isEmpty)
    }

    @Test func movingBetweenTabsRunsOnlyTheirOwnEffects() async {
        await reach(.settings)
        controller.settings.notifications = false
        log.lines = []
        controller.send(.openProfile)
        #expect(flow.lastStep?.effects == [.saveSettings], "signedIn is not left")
        controller.send(.back)
        #expect(flow.lastStep?.effects == [.refreshFeed])
        #expect(controller.feedRefreshes == 2)
        #expect(log.lines == ["session.save(notifications: false)"])
        #expect(controller.profile != nil)
    }

    // MARK: The connection, a region beside the screens

    @Test func theOfflineBannerFollowsTheConnectionOnEveryScreen() async {
        await signIn()
        controller.send(.connectionLost)
        #expect(flow.machine.states == [.home, .offline])
        #expect(controller.isOffline)
        #expect(flow.lastStep?.effects == [.showOfflineBanner])
        // The screens move on; the connection region stays where it is.
        controller.send(.openSettings)
        #expect(flow.machine.states == [.settings, .offline])
        #expect(flow.lastStep?.effects == [], "home has no exit, settings no entry: the banner is not touched")
        #expect(controller.isOffline)
        controller.send(.connectionRestored)
        #expect(flow.machine.states == [.settings, .online])
        #expect(!controller.isOffline)
        #expect(controller.state == .settings)
    }

    @Test func pullingToRefreshReachesTheServerOnlyWhileOnline() async {
        await signIn()
        #expect(controller.feedRefreshes == 1, "home's entry")
        controller.send(.refresh)
        #expect(controller.feedRefreshes == 2)
        #expect(flow.machine.states == [.home, .online], "it stays: nothing is left or entered")
        // `in: online` reads the connection region: offline, home does not handle it.
        controller.send(.connectionLost)
        controller.send(.refresh)
        #expect(controller.feedRefreshes == 2)
        #expect(flow.lastStep?.ignored == true)
        #expect(flow.machine.states == [.home, .offline])
        controller.send(.connectionRestored)
        controller.send(.refresh)
        #expect(controller.feedRefreshes == 3)
    }

    @Test func leavingTheAppHidesTheBannerAndComingBackStartsOnline() async {
        await reach(.profile)
        controller.send(.connectionLost)
        expire()
        // The last region's state is left first, then the screen, then signedIn.
        #expect(flow.lastStep?.effects == [.hideOfflineBanner, .clearSession, .showSessionExpired])
        #expect(!controller.isOffline)
        await passTheCheck()
        #expect(flow.machine.states == [.profile, .online], "the screen resumed, the connection afresh")
        #expect(!controller.isOffline)
    }

    // MARK: The session's end, written once on signedIn

    /// Changed with the password check: the session's end used to lead to welcome; it now asks
    /// for the password, on a page of its own with no account on it.
    @Test(arguments: pages(in: .screens))
    func sessionExpiredAsksForThePasswordFromEveryScreenInside(page: Account.State) async {
        await reach(page)
        controller.email = ""
        controller.send(.sessionExpired)
        #expect(controller.state == .reenterPassword)
        #expect(controller.section == .reauth)
        let exits: [Account.Effect] = page == .settings ? [.saveSettings, .clearSession] : [.clearSession]
        #expect(flow.lastStep?.effects == exits + [.showSessionExpired])
        #expect(controller.notice == .sessionExpired)
        #expect(controller.profile == nil, "the expired session's account is not shown behind the check")
        #expect(!controller.isSignedIn)
        #expect(controller.canCancel)
        #expect(controller.email == "ada@example.com", "the check is for the account whose session expired")
        #expect(controller.returnsTo == page)
        #expect(flow.machine.lastState(in: .screens) == page)
        #expect(log.lines.last == "session.end")
    }

    @Test(arguments: pages(in: .screens))
    func signOutLeadsToWelcomeFromEveryScreenInside(page: Account.State) async {
        await reach(page)
        controller.send(.signOut)
        #expect(controller.state == .welcome)
        let exits: [Account.Effect] = page == .settings ? [.saveSettings, .clearSession] : [.clearSession]
        #expect(flow.lastStep?.effects == exits)
        #expect(controller.notice == nil)
        #expect(controller.profile == nil)
        #expect(controller.returnsTo == nil)
    }

    // MARK: The password check after an expiry, and coming back where the user was

    /// Expires the session on the current signed-in screen and types the password.
    func expire() {
        controller.send(.sessionExpired)
        #expect(controller.state == .reenterPassword)
        controller.password = "correct horse"
    }

    /// Submits the password, which the server accepts; ends on a signed-in screen.
    func passTheCheck() async {
        services.passwordReply = .now(true)
        controller.send(.submit)
        await settle(until: { controller.isSignedIn }, "back in the app")
    }

    @Test func expiryInSettingsComesBackToSettingsWithTheAccountReloaded() async {
        await reach(.settings)
        controller.settings.notifications = false
        let refreshes = controller.feedRefreshes
        log.lines = []
        expire()
        #expect(log.lines == ["session.save(notifications: false)", "session.end"])
        services.passwordReply = .now(true)
        controller.send(.submit)
        #expect(controller.state == .checkingPassword)
        #expect(controller.isBusy)
        #expect(controller.section == .reauth)
        await settle(until: { controller.state == .settings }, "settings again")
        #expect(services.passwordChecks == [PasswordCheck(email: "ada@example.com", password: "correct horse")])
        // One step from the check: reauth's exit, then signedIn's entry (settings has none).
        #expect(flow.lastStep?.from == .checkingPassword)
        #expect(flow.lastStep?.input == .event(.verified))
        #expect(flow.lastStep?.effects == [.clearPassword, .loadAccount])
        #expect(log.lines.last == "session.profile", "the new session's account is loaded")
        #expect(controller.profile == AccountProfile(name: "Ada", email: "ada@example.com"))
        #expect(controller.isSignedIn)
        #expect(controller.section == .signedIn)
        #expect(controller.password.isEmpty)
        #expect(controller.notice == nil)
        #expect(controller.returnsTo == nil)
        #expect(controller.feedRefreshes == refreshes, "settings, not home: no feed refresh")
        #expect(!controller.settings.notifications, "the settings form is as the user left it")
        #expect(!log.lines.contains("tracking.start"), "the check is not in the sign-in funnel")
        #expect(tracking.misuse.isEmpty)
        // Leaving settings saves them again, into the new session.
        controller.send(.back)
        #expect(log.lines.last == "session.save(notifications: false)")
    }

    /// Every screen is resumed the same way, through `resume`: its own `entry` runs again,
    /// after signedIn's.
    @Test(arguments: pages(in: .screens))
    func passingTheCheckComesBackToEveryScreen(page: Account.State) async {
        await reach(page)
        expire()
        await passTheCheck()
        #expect(controller.state == page)
        let entries: [Account.Effect] = page == .home ? [.loadAccount, .refreshFeed] : [.loadAccount]
        #expect(flow.lastStep?.effects == [.clearPassword] + entries)
        #expect(controller.profile != nil)
    }

    @Test func expiryInProfileThenCancelSignsOut() async {
        await reach(.profile)
        expire()
        controller.send(.cancel)
        #expect(controller.state == .welcome)
        #expect(controller.section == .welcome)
        #expect(flow.lastStep?.effects == [.clearPassword])
        #expect(controller.password.isEmpty)
        #expect(controller.profile == nil)
        #expect(!controller.isSignedIn)
        #expect(controller.notice == nil)
        #expect(controller.returnsTo == nil)
        #expect(log.lines.filter { $0 == "session.end" }.count == 1, "the session ended when it expired, once")
        #expect(services.passwordChecks.isEmpty)
        #expect(flow.machine.armedTimeouts.isEmpty)
    }

    /// Changed with the password check: the test used to expire the session and sign in from
    /// welcome; now welcome is reached by cancelling the check, and signedIn still remembers
    /// profile, but a sign-in enters signedIn through its `initial`, not its history.
    @Test func aSignInAfterCancellingTheCheckLandsOnHome() async {
        await reach(.profile)
        expire()
        controller.send(.cancel)
        #expect(flow.machine.lastState(in: .screens) == .profile)
        await signIn()
        #expect(controller.state == .home, "signing in starts signedIn at home")
    }

    @Test func theCheckComesBackToTheScreenLeftAfterMovingBetweenTabs() async {
        await reach(.settings)
        controller.send(.openProfile)
        controller.send(.back)
        controller.send(.openSettings)
        controller.send(.openProfile)
        #expect(flow.machine.lastState(in: .screens) == nil, "moving between tabs does not leave signedIn")
        expire()
        #expect(controller.returnsTo == .profile)
        await passTheCheck()
        #expect(controller.state == .profile)
        // What signedIn remembers is where it was left the last time, not the first.
        controller.send(.openSettings)
        controller.send(.back)
        expire()
        #expect(controller.returnsTo == .home)
        await passTheCheck()
        #expect(controller.state == .home)
        #expect(services.passwordChecks.count == 2)
    }

    @Test func aRefusedPasswordAsksAgainWithANotice() async {
        await reach(.settings)
        expire()
        services.passwordReply = .now(false)
        controller.send(.submit)
        await settle(until: { controller.state == .reenterPassword }, "the password page again")
        #expect(flow.lastStep?.effects == [.showRejected])
        #expect(controller.notice == .credentialsRefused)
        #expect(controller.returnsTo == .settings)
        #expect(controller.profile == nil)
        await passTheCheck()
        #expect(controller.state == .settings)
    }

    @Test func aFailedCheckAsksAgainWithANotice() async {
        await reach(.profile)
        expire()
        services.passwordReply = .fail
        controller.send(.submit)
        await settle(until: { controller.state == .reenterPassword }, "the password page again")
        #expect(flow.lastStep?.input == .event(.failed))
        #expect(flow.lastStep?.effects == [.showCheckFailed])
        #expect(controller.notice == .checkFailed)
        #expect(controller.errorBanner == nil, "a failed check keeps the user on the page, not the error screen")
        await passTheCheck()
        #expect(controller.state == .profile)
    }

    /// The spec's `timeout: { after: 30s, to: reenterPassword, effects: [showCheckFailed] }`:
    /// a check with no answer gives the page back, and the place in the app is kept.
    @Test func aCheckThatTakesTooLongAsksForThePasswordAgain() async throws {
        await reach(.checkingPassword)
        let timer = try #require(flow.machine.armedTimeouts.first)
        #expect(flow.machine.armedTimeouts.count == 1, "reauth has no time limit of its own")
        #expect(timer.after == .seconds(30))
        #expect(timer.target == .reenterPassword)
        await advance(by: .seconds(29))
        #expect(controller.state == .checkingPassword, "nothing fires before 30 s")
        clock.advance(by: .seconds(1))
        await settle(until: { controller.state == .reenterPassword }, "the check's 30 s timeout")
        #expect(clock.elapsed == .seconds(30))
        #expect(flow.lastStep?.input == .timeout)
        #expect(flow.lastStep?.effects == [.showCheckFailed])
        #expect(controller.notice == .checkFailed)
        #expect(controller.section == .reauth)
        #expect(controller.returnsTo == .settings)
        #expect(flow.machine.armedTimeouts.isEmpty)
        await settle(until: { services.cancelled == 1 }, "the check cancelled")
        controller.password = "correct horse"
        await passTheCheck()
        #expect(controller.state == .settings)
    }

    @Test func cancellingDuringTheCheckCancelsItAndALateExpiryChangesNothing() async {
        await reach(.checkingPassword)
        controller.send(.sessionExpired)
        #expect(flow.lastStep?.ignored == true, "only signed-in screens handle the session's end")
        #expect(controller.state == .checkingPassword)
        controller.send(.cancel)
        #expect(controller.state == .welcome)
        await settle(until: { services.cancelled == 1 }, "the check cancelled")
        await advance(by: .seconds(60))
        #expect(controller.state == .welcome, "the check's timer went with it")
        #expect(controller.notice == nil)
    }

    // MARK: Signing up

    @Test func signingUpEndsOnHomeThroughDone() async {
        controller.send(.startSignUp)
        #expect(controller.section == .signUp)
        controller.name = "Ada"
        controller.email = "ada@example.com"
        controller.password = "correct horse"
        services.signUpReply = .now(true)
        controller.send(.submit)
        await settle(until: { controller.state == .confirmEmail }, "the confirmation page")
        #expect(services.signUps == [SignUpDetails(name: "Ada", email: "ada@example.com", password: "correct horse")])
        session.isValid = true  // confirming on this device opened a session
        controller.send(.emailConfirmed)
        #expect(controller.state == .home)
        #expect(flow.lastStep?.effects == [.clearPassword, .loadAccount, .refreshFeed])
        #expect(controller.password.isEmpty)
        #expect(!tracking.isOpen, "signing up is not in the sign-in funnel")
    }

    @Test func signingUpWithoutASessionEndsOnTheSignInForm() async {
        controller.send(.startSignUp)
        controller.email = "ada@example.com"
        controller.password = "correct horse"
        services.signUpReply = .now(true)
        controller.send(.submit)
        await settle(until: { controller.state == .confirmEmail }, "the confirmation page")
        controller.send(.emailConfirmed)  // confirmed on another device: no session here
        #expect(controller.state == .credentials)
        #expect(flow.lastStep?.effects == [.clearPassword, .showAccountCreated, .startSignInTracking, .focusEmail])
        #expect(controller.notice == .accountCreated)
        #expect(controller.email == "ada@example.com", "the form keeps the new account's email")
        #expect(controller.password.isEmpty)
    }

    @Test func refusedDetailsGoBackToTheFormWithANotice() async {
        controller.send(.startSignUp)
        services.signUpReply = .now(false)
        controller.send(.submit)
        await settle(until: { controller.state == .details }, "the form again")
        #expect(controller.notice == .detailsRefused)
    }

    @Test(arguments: pages(in: .signUp))
    func cancelLeavesSignUpFromEveryPageInside(page: Account.State) async {
        await reach(page)
        controller.send(.cancel)
        #expect(controller.state == .welcome)
        #expect(flow.lastStep?.effects == [.clearPassword])
        #expect(controller.password.isEmpty)
        if page == .submitting {
            await settle(until: { services.cancelled == 1 }, "the request cancelled")
        }
    }

    @Test func aFailedSignUpShowsTheErrorScreen() async {
        controller.send(.startSignUp)
        services.signUpReply = .fail
        controller.send(.submit)
        await settle(until: { controller.state == .error }, "the error screen")
        #expect(controller.errorBanner == ErrorBanner(message: "Creating your account failed. Try again."))
    }

    // MARK: Resetting a password

    @Test func theResetEmailLeadsBackToSigningIn() async {
        openSignIn()
        controller.send(.forgotPassword)
        #expect(controller.state == .resetRequest)
        #expect(flow.lastStep?.effects == [.stopSignInTracking, .clearPassword])
        #expect(controller.email == "ada@example.com", "the email carries over")
        services.resetReply = .now(())
        controller.send(.submit)
        await settle(until: { controller.state == .checkEmail }, "check your email")
        #expect(services.resetEmails == ["ada@example.com"])
        controller.send(.dismiss)
        // The terminal `resetFinished` took forgotPassword's `done` into signIn.
        #expect(controller.state == .credentials)
        #expect(flow.lastStep?.effects == [.startSignInTracking, .focusEmail])
        #expect(flow.machine.armedTimeouts.map(\.after) == [.seconds(300)])
    }

    @Test(arguments: pages(in: .forgotPassword))
    func backLeadsToSigningInFromEveryPageOfTheReset(page: Account.State) async {
        await reach(page)
        controller.send(.back)
        #expect(controller.state == .credentials)
        if page == .sendingReset {
            await settle(until: { services.cancelled == 1 }, "the request cancelled")
        }
    }

    @Test func aResetEmailThatTakesTooLongShowsTheErrorScreen() async {
        await reach(.sendingReset)
        clock.advance(by: .seconds(30))
        await settle(until: { controller.state == .error }, "the 30 s timeout")
        #expect(controller.errorBanner == ErrorBanner(message: "Sending the reset email took too long. Try again."))
        #expect(flow.problems.isEmpty)
    }
}
