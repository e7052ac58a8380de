import FlowSpecTesting

@testable import Account

/// How a fake network call answers.
enum Reply<Value> {
    /// At once, with the value.
    case now(Value)
    /// At once, with an error.
    case fail
    /// Never: the call waits on the test clock until its state is left and it is cancelled.
    case never
}

struct FakeError: Error {}

/// A password check the app asked the server for.
struct PasswordCheck: Equatable {
    var email: String
    var password: String
}

/// The network, as the test scripts it: each call answers as its reply says, and is recorded.
@MainActor
final class FakeServices: AccountServices {
    let clock: FlowTestClock
    var signInReply: Reply<SignInAnswer> = .never
    var signUpReply: Reply<Bool> = .never
    var resetReply: Reply<Void> = .never
    var passwordReply: Reply<Bool> = .never
    private(set) var attempts: [SignInAttempt] = []
    private(set) var signUps: [SignUpDetails] = []
    private(set) var resetEmails: [String] = []
    private(set) var codesResent: [String] = []
    private(set) var passwordChecks: [PasswordCheck] = []
    /// How many calls that never answer were cancelled (their state was left).
    private(set) var cancelled = 0

    init(clock: FlowTestClock) {
        self.clock = clock
    }

    func signIn(_ attempt: SignInAttempt) async throws -> SignInAnswer {
        attempts.append(attempt)
        return try await answer(signInReply)
    }

    func resendCode(to email: String) async throws {
        codesResent.append(email)
    }

    func signUp(_ details: SignUpDetails) async throws -> Bool {
        signUps.append(details)
        return try await answer(signUpReply)
    }

    func sendPasswordReset(to email: String) async throws {
        resetEmails.append(email)
        try await answer(resetReply)
    }

    func confirmPassword(_ password: String, for email: String) async throws -> Bool {
        passwordChecks.append(PasswordCheck(email: email, password: password))
        return try await answer(passwordReply)
    }

    private func answer<Value>(_ reply: Reply<Value>) async throws -> Value {
        switch reply {
        case .now(let value): return value
        case .fail: throw FakeError()
        case .never:
            do {
                try await clock.sleep(for: .seconds(365 * 86_400))
            } catch {
                cancelled += 1
                throw error
            }
            throw FakeError()
        }
    }
}

/// What the session and the analytics were asked to do, in order.
@MainActor
final class Log {
    var lines: [String] = []
}

/// A session the server opened, with a fixed profile.
@MainActor
final class FakeSession: AccountSession {
    let log: Log
    var profile: AccountProfile? {
        log.lines.append("session.profile")
        return AccountProfile(name: "Ada", email: "ada@example.com")
    }

    init(log: Log) {
        self.log = log
    }

    func save(_ settings: AccountSettings) {
        log.lines.append("session.save(notifications: \(settings.notifications))")
    }

    private(set) var endedAccountEmail: String?
    /// Whether the device holds a session the server accepts (false until a test says so).
    var isValid = false

    func end() {
        log.lines.append("session.end")
        endedAccountEmail = "ada@example.com"
    }
}

/// The sign-in funnel's analytics: whether its timer runs, and any misuse.
@MainActor
final class FakeTracking: SignInTracking {
    let log: Log
    private(set) var isOpen = false
    private(set) var misuse: [String] = []

    init(log: Log) {
        self.log = log
    }

    func signInStarted() {
        log.lines.append("tracking.start")
        if isOpen { misuse.append("started twice") }
        isOpen = true
    }

    func signInEnded() {
        log.lines.append("tracking.end")
        if !isOpen { misuse.append("ended while not started") }
        isOpen = false
    }
}
