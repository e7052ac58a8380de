import FlowSpecRuntime
import FlowSpecTesting
import Testing

/// `FlowDriver` running activities (`Tests/Fixtures/gen/golden/activities.yaml`) on the test
/// clock: an activity starts when a state that lists it is entered, keeps running while the
/// flow moves inside that state, and is cancelled when it is left; what it sends after that,
/// or outside its `sends`, changes nothing. (CI runs these under ThreadSanitizer with the rest
/// of the runtime's.)
@MainActor
@Suite("Driver on activities")
struct ActivityDriverTests {
    let clock = FlowTestClock()

    /// Counts the runs of each activity, and the runs that saw their cancellation.
    @MainActor
    final class Runs {
        var started: [String: Int] = [:]
        var cancelled: [String: Int] = [:]
    }

    /// An activity whose first run sends each event at its instant of the test clock (an
    /// instant past by the time the run gets there sends at once), and then, like every later
    /// run, waits until it is cancelled; `runs` records each start and each cancellation.
    func activity<Event: Sendable>(
        _ name: String, sends events: [(Event, at: Duration)], runs: Runs
    ) -> @Sendable (_ send: @escaping @Sendable (Event) async -> Void) async -> Void {
        let clock = self.clock
        return { send in
            let run = await MainActor.run {
                runs.started[name, default: 0] += 1
                return runs.started[name]!
            }
            do {
                for (event, offset) in run == 1 ? events : [] {
                    let instant = FlowTestClock.Instant(offset: offset)
                    if clock.now < instant { try await clock.sleep(until: instant, tolerance: nil) }
                    try Task.checkCancellation()
                    await send(event)
                }
                try await clock.sleep(until: FlowTestClock.Instant(offset: .seconds(86_400)), tolerance: nil)
            } catch {
                await MainActor.run { runs.cancelled[name, default: 0] += 1 }
            }
        }
    }

    @Test func anActivityRunsWhileItsStateIsActiveAndIsCancelledWhenItIsLeft() async {
        let runs = Runs()
        let driver = FlowDriver(Account.self, clock: clock, keepingSteps: true)
        driver.activity(
            .watchSession, activity("watchSession", sends: [(.sessionExpired, at: .seconds(60))], runs: runs))
        driver.activity(.poll, activity("poll", sends: [], runs: runs))
        driver.start()
        #expect(driver.machine.runningActivities.isEmpty)
        driver.send(.signIn)
        #expect(driver.machine.runningActivities.map(\.activity) == [.watchSession, .poll])
        await settle(until: { runs.started == ["watchSession": 1, "poll": 1] }, "both activities start")
        // Moving inside `signedIn` keeps its activity; leaving `feed` cancels `poll`.
        driver.send(.open)
        #expect(driver.state == .profile)
        await settle(until: { runs.cancelled["poll"] == 1 }, "leaving feed cancels poll")
        driver.send(.back)
        await settle(until: { runs.started["poll"] == 2 }, "entering feed again starts poll again")
        #expect(runs.started["watchSession"] == 1 && runs.cancelled["watchSession"] == nil)
        // The session expires: the activity's event leaves `signedIn`, which cancels both.
        clock.advance(by: .seconds(60))
        await settle(until: { driver.state == .signedOut }, "the activity's sessionExpired")
        await settle(until: { runs.cancelled == ["watchSession": 1, "poll": 2] }, "leaving cancels both")
        #expect(driver.machine.runningActivities.isEmpty)
        #expect(driver.trace.last == "sessionExpired -> signedOut | effects: - | timeout: -")
        #expect(driver.problems.isEmpty, "\(driver.problems)")
    }

    /// How a parent runs each machine's own work for the activities that machine lists (the
    /// generated `work(_:launch:)`): a registration for a compound state serves the states
    /// inside it, the innermost first, and not the compound state itself.
    @Test func anActivityRegisteredForACompoundStateRunsForTheStatesInsideIt() async {
        let runs = Runs()
        let driver = FlowDriver(Account.self, clock: clock)
        driver.activity(.watchSession, activity("watchSession", sends: [], runs: runs))
        driver.activity(.watchSession, in: .signedIn, activity("watchSession in signedIn", sends: [], runs: runs))
        driver.activity(.poll, activity("poll", sends: [], runs: runs))
        driver.activity(.poll, in: .signedIn, activity("poll in signedIn", sends: [], runs: runs))
        driver.start()
        driver.send(.signIn)
        await settle(until: { runs.started.values.reduce(0, +) == 2 }, "both activities start")
        // `signedIn` lists `watchSession` itself; `feed`, inside it, lists `poll`.
        #expect(runs.started == ["watchSession": 1, "poll in signedIn": 1])
        #expect(driver.problems.isEmpty, "\(driver.problems)")
    }

    @Test func anEventSentAfterTheStateIsLeftChangesNothing() async {
        let gate = Gate()
        let driver = FlowDriver(Account.self, clock: clock)
        // An activity that does not stop when cancelled, and sends once its gate opens.
        driver.activity(.watchSession) { send in
            await gate.wait()
            await send(.sessionExpired)
        }
        driver.activity(.poll) { _ in }
        driver.start()
        driver.send(.signIn)
        driver.send(.signOut)
        driver.send(.signIn)
        #expect(driver.state == .feed)
        await gate.open()
        // Both runs' events come late or early: the first run's is dropped, the second's leaves.
        await settle(until: { driver.droppedResults == 1 }, "the first run's late event")
        await settle(until: { driver.state == .signedOut }, "the second run's event")
    }

    @Test func anEventItsSendsDoesNotListIsIgnoredAndReported() async {
        let driver = FlowDriver(Account.self, clock: clock)
        let sent = Flag()
        driver.activity(.watchSession) { send in
            await send(.signOut)
            await sent.set()
        }
        driver.activity(.poll) { _ in }
        driver.start()
        driver.send(.signIn)
        await settle(until: { !driver.problems.isEmpty }, "the report")
        #expect(await sent.isSet)
        #expect(driver.state == .feed)
        #expect(
            driver.problems == [
                "activity 'watchSession' sent 'signOut', which its `sends` does not list; it was ignored"
            ])
    }

    @Test func anActivityWithoutWorkIsReportedOnce() {
        let driver = FlowDriver(Account.self, clock: clock)
        driver.activity(.poll) { _ in }
        driver.start()
        driver.send(.signIn)
        driver.send(.signOut)
        driver.send(.signIn)
        #expect(
            driver.problems == [
                "activity 'watchSession' has no work registered, so the events it sends never arrive; "
                    + "register it with activity(_:_:) before start()"
            ])
    }

    @Test func anActivityRegisteredLateStartsInTheStateThatListsIt() async {
        let runs = Runs()
        let driver = FlowDriver(Account.self, clock: clock)
        driver.activity(.watchSession) { _ in }
        driver.start()
        driver.send(.signIn)
        driver.activity(.poll, activity("poll", sends: [], runs: runs))
        await settle(until: { runs.started["poll"] == 1 }, "poll, registered while feed is current")
        #expect(driver.problems.count == 1, "poll had no work when feed was entered: \(driver.problems)")
    }

    @Test func anAsyncSequenceSendsItsElementsUntilItsStateIsLeft() async {
        let driver = FlowDriver(Account.self, clock: clock, keepingSteps: true)
        let (events, continuation) = AsyncStream.makeStream(of: Account.Event.self)
        let ended = Flag()
        continuation.onTermination = { _ in Task { await ended.set() } }
        driver.activity(.watchSession, events: { events })
        driver.activity(.poll) { _ in }
        driver.start()
        driver.send(.signIn)
        driver.send(.open)
        continuation.yield(.tokenRefreshed)
        await settle(until: { driver.steps.count == 4 }, "the sequence's tokenRefreshed")
        #expect(driver.trace.last == "tokenRefreshed -> profile | effects: - | timeout: -")
        driver.send(.signOut)
        await settle(until: { driver.state == .signedOut }, "signing out")
        // Leaving cancels the iteration, which ends the stream.
        var ended_ = false
        for _ in 0..<100 where !ended_ {
            await Task.yield()
            ended_ = await ended.isSet
        }
        #expect(ended_, "the stream ends when its activity is cancelled")
    }

    @Test func aSequenceThatThrowsEndsItsRunAndIsReported() async {
        struct Lost: Error {}
        let driver = FlowDriver(Account.self, clock: clock)
        driver.activity(
            .watchSession, events: { AsyncThrowingStream<Account.Event, any Error> { $0.finish(throwing: Lost()) } })
        driver.activity(.poll) { _ in }
        driver.start()
        driver.send(.signIn)
        await settle(until: { !driver.problems.isEmpty }, "the report")
        #expect(driver.problems == ["activity 'watchSession' ended by throwing Lost()"])
        #expect(driver.state == .feed, "the state stays")
    }

    @Test func anActivityInOneRegionSendsToTheOther() async {
        let runs = Runs()
        let driver = FlowDriver(Player.self, clock: clock, keepingSteps: true)
        driver.activity(
            .watchNetwork,
            activity(
                "watchNetwork", sends: [(.networkLost, at: .seconds(5)), (.networkBack, at: .seconds(10))], runs: runs))
        driver.start()
        #expect(driver.machine.states == [.playing, .network])
        clock.advance(by: .seconds(5))
        await settle(until: { driver.machine.states == [.paused, .network] }, "networkLost, in the player region")
        clock.advance(by: .seconds(5))
        await settle(until: { driver.machine.states == [.playing, .network] }, "networkBack")
        #expect(runs.started == ["watchNetwork": 1], "the network region never left its state")
        driver.send(.stop)
        await settle(until: { runs.cancelled["watchNetwork"] == 1 }, "leaving the region cancels it")
        driver.send(.play)
        await settle(until: { runs.started["watchNetwork"] == 2 }, "entering it again starts it again")
    }

    /// Work that the compiler checks: a conformer of `Account.Work` has a requirement per
    /// activity, and `work(_:)` registers them all.
    struct AccountWork: Account.Work {
        func watchSession(_ send: @escaping @Sendable (Account.Event) async -> Void) async {
            await send(.tokenRefreshed)
        }
        func poll(_ send: @escaping @Sendable (Account.Event) async -> Void) async {}
    }

    @Test func aConformerRegistersEveryActivity() async {
        let driver = FlowDriver(Account.self, clock: clock, keepingSteps: true)
        driver.work(AccountWork())
        driver.start()
        driver.send(.signIn)
        driver.send(.open)
        await settle(until: { driver.steps.count == 4 }, "watchSession's tokenRefreshed in profile")
        #expect(driver.problems.isEmpty, "\(driver.problems)")
    }

    @Test func stopCancelsActivitiesAndTheNextInputStartsThemAgain() async {
        let runs = Runs()
        let driver = FlowDriver(Account.self, clock: clock)
        driver.activity(.watchSession, activity("watchSession", sends: [], runs: runs))
        driver.activity(.poll, activity("poll", sends: [], runs: runs))
        driver.start()
        driver.send(.signIn)
        await settle(until: { runs.started == ["watchSession": 1, "poll": 1] }, "both start")
        driver.stop()
        await settle(until: { runs.cancelled == ["watchSession": 1, "poll": 1] }, "stop cancels both")
        driver.send(.open)
        await settle(until: { runs.started["watchSession"] == 2 }, "the next input starts watchSession again")
        #expect(runs.started["poll"] == 1, "poll's state was left")
    }
}
