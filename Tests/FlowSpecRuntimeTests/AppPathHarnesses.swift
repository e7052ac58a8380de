import FlowSpecRuntime
import FlowSpecTesting
import Testing

// The harnesses the generated suites of specs/app.yaml (`AppFlowPaths.swift`) run with:
// what an app's test target writes beside the suite `flowspec gen --tests` generates.

/// FirstRun: the effect handler keeps the "onboarding completed" flag, as the app does; at
/// every state the flag must say whether the flow has passed the last slide.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
struct FirstRunPathHarness: FlowPathHarness {
    typealias Spec = FirstRun
    let flag = Box(false)

    mutating func makeDriver(
        clock: FlowTestClock, storage: InMemoryFlowStorage, conditions: @escaping @MainActor () -> FirstRun.Conditions
    ) -> FlowDriver<FirstRun> {
        let flag = self.flag
        return FlowDriver(FirstRun.self, clock: clock, keepingSteps: true, conditions: conditions) { effect in
            switch effect {
            case .persistOnboardingCompleted: flag.value = true
            }
        }
    }

    func verify(state: FirstRun.State, driver: FlowDriver<FirstRun>) async throws {
        let completedHere = driver.steps.contains { $0.effects.contains(.persistOnboardingCompleted) }
        #expect(flag.value == completedHere, "the flag is stored exactly when onboarding completed")
        if [.splash, .slide0, .slide1, .slide2].contains(state) {
            #expect(!flag.value, "a carousel screen is shown only before onboarding completed")
        }
    }
}

/// LaunchAuth: every task state has work, which waits on the test clock until the visit
/// ends and cancels it (the path sends the events; the late result is dropped); the driver
/// must report no problem at any state (a task state without work, an event after the end).
/// The effect handler keeps an error banner, as the app does: "every error has a visible UI",
/// so at every state the banner must be up exactly when the flow is in `error`.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
struct LaunchAuthPathHarness: FlowPathHarness {
    typealias Spec = LaunchAuth
    let banner = Box(false)

    mutating func makeDriver(
        clock: FlowTestClock, storage: InMemoryFlowStorage, conditions: @escaping @MainActor () -> LaunchAuth.Conditions
    ) -> FlowDriver<LaunchAuth> {
        let banner = self.banner
        let driver = FlowDriver(LaunchAuth.self, clock: clock, keepingSteps: true, conditions: conditions) { effect in
            switch effect {
            case .showError: banner.value = true
            }
        }
        driver.onStep { step in
            if step.to != .error { banner.value = false }
        }
        for state in LaunchAuth.State.allCases where LaunchAuth.kind(of: state) == .task {
            driver.work(in: state) {
                // Longer than any path waits: the visit always ends first, and cancels this.
                try? await clock.sleep(for: .seconds(365 * 86_400))
                return .forceReset
            }
        }
        return driver
    }

    func verify(state: LaunchAuth.State, driver: FlowDriver<LaunchAuth>) async throws {
        #expect(driver.problems.isEmpty, "\(driver.problems)")
        #expect(banner.value == (state == .error), "the error banner is up exactly on the error screen")
    }
}

/// Chapters: the persisted checkpoint must hold the current chapter after every step.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
struct ChaptersPathHarness: FlowPathHarness {
    typealias Spec = Chapters
    var storage: InMemoryFlowStorage?

    mutating func makeDriver(
        clock: FlowTestClock, storage: InMemoryFlowStorage, conditions: @escaping @MainActor () -> Chapters.Conditions
    ) -> FlowDriver<Chapters> {
        self.storage = storage
        return FlowDriver(
            Chapters.self, storage: storage, key: FlowPathRunner.storageKey, clock: clock, keepingSteps: true,
            conditions: conditions)
    }

    func verify(state: Chapters.State, driver: FlowDriver<Chapters>) async throws {
        let stored = try #require(storage?.values[FlowPathRunner.storageKey])
        #expect(stored == .int(state.rawValue), "the checkpoint stored is the chapter shown")
    }
}

/// A value the harness and the driver's handlers share.
@MainActor
final class Box<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// App, the three flows composed: at every state the part of the app is the sub-flow the
/// state's name says, the error banner is up exactly on sign-in's error screen, and the
/// onboarding flag is set exactly once the first run completed onboarding.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor
struct AppPathHarness: FlowPathHarness {
    typealias Spec = App
    let banner = Box(false)
    let flag = Box(false)

    mutating func makeDriver(
        clock: FlowTestClock, storage: InMemoryFlowStorage, conditions: @escaping @MainActor () -> App.Conditions
    ) -> FlowDriver<App> {
        let (banner, flag) = (self.banner, self.flag)
        let driver = FlowDriver(App.self, clock: clock, keepingSteps: true, conditions: conditions) { effect in
            switch effect {
            case .showError: banner.value = true
            case .persistOnboardingCompleted: flag.value = true
            case .saveCheckpoint: break
            }
        }
        driver.onStep { step in
            if step.to != .launchError { banner.value = false }
        }
        for state in App.State.allCases where App.kind(of: state) == .task {
            driver.work(in: state) {
                try? await clock.sleep(for: .seconds(365 * 86_400))
                return .forceReset
            }
        }
        // The session is watched until it is cancelled; the path sends `sessionExpired` itself.
        driver.activity(.watchSession) { _ in try? await clock.sleep(for: .seconds(365 * 86_400)) }
        return driver
    }

    func verify(state: App.State, driver: FlowDriver<App>) async throws {
        #expect(driver.problems.isEmpty, "\(driver.problems)")
        let signedIn = driver.machine.isIn(App.Compound.story) || state == .finished
        #expect(
            driver.machine.runningActivities.map(\.activity) == (signedIn ? [.watchSession] : []),
            "the session is watched exactly while signed in")
        let part = App.name(ofState: state).split(separator: ".").first.map(String.init)
        #expect(
            [App.Compound.firstRun, .launch, .story].filter(driver.machine.isIn).map { App.name(ofCompound: $0) }
                == (state == .finished ? [] : [part ?? ""]))
        #expect(banner.value == (state == .launchError), "the error banner is up exactly on the error screen")
        let completedHere = driver.steps.contains { $0.effects.contains(.persistOnboardingCompleted) }
        #expect(flag.value == completedHere, "the flag is stored exactly when onboarding completed")
    }
}
