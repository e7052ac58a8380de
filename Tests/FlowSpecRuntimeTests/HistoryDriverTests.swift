import FlowSpecRuntime
import FlowSpecTesting
import Testing

/// `FlowDriver` on a machine with history states (`Tests/Fixtures/gen/golden/history.yaml`):
/// a deep history resumes the very state left, a shallow one the state directly inside its
/// compound state afresh; what a compound state remembers is stored beside the state, under
/// `KEY.history.NAME`, restored before anything else, and dropped, never trapped on, when it
/// cannot be read.
@MainActor
@Suite("Driver on history states")
struct HistoryDriverTests {
    let clock = FlowTestClock()

    func driver(_ storage: InMemoryFlowStorage, effects: @escaping @MainActor (Session.Effect) -> Void = { _ in })
        -> FlowDriver<Session>
    {
        FlowDriver(Session.self, storage: storage, key: "session", clock: clock, keepingSteps: true, effects: effects)
    }

    /// Into `settings`, to `privacy`, then the session expires and is signed into again.
    func expireInPrivacy(_ flow: FlowDriver<Session>) {
        flow.send(.signIn)
        flow.send(.open)
        flow.send(.next)
        #expect(flow.state == .privacy)
        flow.send(.expired)
        #expect(flow.state == .reauth)
    }

    @Test func aDeepHistoryResumesTheStateLeft() {
        var ran: [Session.Effect] = []
        let flow = driver(InMemoryFlowStorage()) { ran.append($0) }
        flow.start()
        expireInPrivacy(flow)
        #expect(flow.machine.lastState(in: .area) == .privacy)
        ran.removeAll()
        flow.send(.signedInAgain)
        #expect(flow.state == .privacy)
        #expect(ran == [.trackArea, .showSettings])
        #expect(flow.machine.isIn(.settings))
    }

    @Test func aShallowHistoryEntersTheStateInsideAfresh() {
        let flow = driver(InMemoryFlowStorage())
        flow.start()
        expireInPrivacy(flow)
        flow.send(.cancel)
        #expect(flow.state == .general)
        #expect(flow.trace.last == "cancel -> general | effects: trackArea, showSettings | timeout: -")
    }

    @Test func aHistoryNeverLeftTakesItsCompoundStatesInitial() {
        let storage = InMemoryFlowStorage(["session": .string("reauth")])
        let flow = driver(storage)
        flow.start()
        #expect(flow.machine.lastState(in: .area) == nil)
        flow.send(.signedInAgain)
        #expect(flow.state == .feed)
    }

    @Test func whatTheAreaRemembersIsStoredAndRestored() {
        let storage = InMemoryFlowStorage()
        let first = driver(storage)
        first.start()
        expireInPrivacy(first)
        #expect(storage.values == ["session": .string("reauth"), "session.history.area": .string("privacy")])
        let second = driver(storage)
        second.start()
        #expect(second.trace == ["restore(reauth; area=privacy) -> reauth | effects: - | timeout: -"])
        second.send(.signedInAgain)
        #expect(second.state == .privacy)
        #expect(second.problems.isEmpty)
    }

    /// `reset` leaves `area` and enters it again through its shallow history: the state stays
    /// `feed`, but what `area` remembers changes, and is saved.
    @Test func aChangeOfMemoryAloneIsSaved() {
        let storage = InMemoryFlowStorage()
        let flow = driver(storage)
        flow.start()
        expireInPrivacy(flow)
        flow.send(.signedInAgain)
        flow.send(.back)
        flow.send(.expired)
        flow.send(.signedInAgain)
        #expect(flow.state == .general)
        #expect(storage.values["session.history.area"] == .string("general"))
        flow.send(.reset)
        #expect(flow.state == .general)
        flow.send(.next)
        flow.send(.reset)
        #expect(flow.state == .general)
        #expect(storage.values["session.history.area"] == .string("privacy"))
        let writes = storage.writes
        flow.send(.reset)
        #expect(storage.values["session.history.area"] == .string("general"))
        #expect(storage.writes == writes + 1)
    }

    /// A flow stored before the machine had history states (nothing under the memory's key)
    /// restores as it was; a remembered value that is not a state inside `area`, or not a
    /// name at all, is dropped (reported), and the history takes its default.
    @Test(arguments: [
        (["session": FlowStoredValue.string("reauth")], [String]()),
        (
            ["session": .string("reauth"), "session.history.area": .string("welcome")],
            [
                "the value stored under 'session.history.area' (welcome) is not a state inside 'area'; its history states take their default"
            ]
        ),
        (
            ["session": .string("reauth"), "session.history.area": .int(3)],
            [
                "the value stored under 'session.history.area' (3) is not a Session's raw value; its history states take their default"
            ]
        )
    ])
    func memoryThatCannotBeReadIsDropped(stored: [String: FlowStoredValue], problems: [String]) {
        let flow = driver(InMemoryFlowStorage(stored))
        flow.start()
        #expect(flow.state == .reauth)
        #expect(flow.problems == problems)
        #expect(flow.trace == ["restore(reauth) -> reauth | effects: - | timeout: -"])
        flow.send(.signedInAgain)
        #expect(flow.state == .feed)
    }

    @Test func eachMachineRemembersWhereItLeftTheArea() {
        var leftInPrivacy = FlowMachine<Session>.start().machine
        var leftInFeed = leftInPrivacy
        for event: Session.Event in [.signIn, .open, .next, .back, .back] { leftInPrivacy.send(event) }
        for event: Session.Event in [.signIn] { leftInFeed.send(event) }
        leftInPrivacy.send(.expired)
        leftInFeed.send(.expired)
        #expect(leftInPrivacy.state == leftInFeed.state)
        #expect(leftInPrivacy.rememberedStates == [.general])
        #expect(leftInFeed.rememberedStates == [.feed])
    }
}
