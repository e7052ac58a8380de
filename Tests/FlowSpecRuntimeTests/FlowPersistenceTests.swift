import Clocks
import FlowSpecRuntime
import Foundation
import Testing

/// A persisted machine's driver restores at start and saves on every change of state, so that
/// backgrounding never loses a step; what storage holds that the machine cannot read is
/// reported and restores as if nothing were stored.
@MainActor
@Suite("Flow persistence")
struct FlowPersistenceTests {
    let clock = TestClock()

    @Test func anIntegerCheckpointIsRestoredAndSavedOnEveryChange() {
        let storage = InMemoryFlowStorage(["chapter": .int(3)])
        let driver = FlowDriver(Chapters.self, storage: storage, key: "chapter", clock: clock)
        driver.start()
        #expect(driver.state == .firewall)
        #expect(driver.lastStep?.input == .restore(.int(3)))
        driver.send(.completeCurrentChapter)
        #expect(storage.values["chapter"] == .int(4))
        driver.send(.completeCurrentChapter)
        #expect(storage.values["chapter"] == .int(5))
        #expect(driver.state == .eventHorizon)
    }

    @Test(arguments: [(-4, Chapters.State.handshake), (99, .eventHorizon), (0, .handshake)])
    func anIntegerOutOfRangeIsClamped(stored: Int, restored: Chapters.State) {
        let storage = InMemoryFlowStorage(["chapter": .int(stored)])
        let driver = FlowDriver(Chapters.self, storage: storage, key: "chapter", clock: clock)
        driver.start()
        #expect(driver.state == restored)
        #expect(driver.problems.isEmpty)
    }

    @Test func nothingStoredStartsAtInitialAndIsSaved() {
        let storage = InMemoryFlowStorage()
        let driver = FlowDriver(Chapters.self, storage: storage, key: "chapter", clock: clock)
        driver.start()
        #expect(driver.state == .handshake)
        #expect(driver.lastStep?.input == .restore(nil))
        #expect(storage.values["chapter"] == .int(0))
    }

    @Test func aValueOfTheWrongKindIsReportedAndRestoresAsNothingStored() {
        let storage = InMemoryFlowStorage(["chapter": .string("firewall")])
        let driver = FlowDriver(Chapters.self, storage: storage, key: "chapter", clock: clock)
        driver.start()
        #expect(driver.state == .handshake)
        #expect(
            driver.problems == [
                "the value stored under 'chapter' (firewall) is not a Chapters's raw value; the flow restored as if nothing were stored"
            ])
    }

    @Test func aStringStepIsRestoredResumedAndSaved() {
        // Amped stores the step's name; a restored `syncing` resumes on the questionnaire.
        let storage = InMemoryFlowStorage(["step": .string("syncing")])
        let driver = FlowDriver(Amped.self, storage: storage, key: "step", clock: clock)
        driver.start()
        #expect(driver.state == .questionnaire)
        #expect(storage.values["step"] == .string("questionnaire"))
        driver.send(.next)
        #expect(storage.values["step"] == .string("syncing"))
        let unknown = FlowDriver(Amped.self, storage: InMemoryFlowStorage(["step": .string("gone")]), key: "step")
        unknown.start()
        #expect(unknown.state == .welcome)
    }

    @Test func aRelaunchAtTheStoredStateWritesNothingUntilItChanges() {
        let storage = InMemoryFlowStorage(["chapter": .int(2)])
        let driver = FlowDriver(Chapters.self, storage: storage, key: "chapter", clock: clock)
        driver.start()
        #expect(driver.state == .cipher)
        #expect(storage.writes == 0)
        driver.send(.completeCurrentChapter)
        #expect(storage.writes == 1)
        // A clamped value is written back as the state it restored to.
        let clamped = InMemoryFlowStorage(["chapter": .int(99)])
        FlowDriver(Chapters.self, storage: clamped, key: "chapter", clock: clock).start()
        #expect(clamped.values["chapter"] == .int(5))
    }

    @Test func anIgnoredEventSavesNothing() {
        let storage = InMemoryFlowStorage()
        let driver = FlowDriver(Amped.self, storage: storage, key: "step", clock: clock)
        driver.start()
        let writes = storage.writes
        driver.send(.synced)  // not handled on the welcome screen
        #expect(storage.writes == writes)
    }

    @Test func userDefaultsKeepIntegersAndStringsAndReadNothingElse() throws {
        let suite = "flowspec-tests-\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        let storage = UserDefaultsFlowStorage(defaults)
        storage.set(.int(4), forKey: "chapter")
        storage.set(.string("questionnaire"), forKey: "step")
        #expect(storage.value(forKey: "chapter") == .int(4))
        #expect(storage.value(forKey: "step") == .string("questionnaire"))
        #expect(storage.value(forKey: "missing") == nil)
        defaults.set(true, forKey: "flag")
        defaults.set(2.5, forKey: "fraction")
        defaults.set(Data([1, 2]), forKey: "data")
        defaults.set(["a": 1], forKey: "dictionary")
        for key in ["flag", "fraction", "data", "dictionary"] {
            #expect(storage.value(forKey: key) == nil, "\(key)")
        }
        // What an app stored itself before adopting the driver restores.
        defaults.set(2, forKey: "legacy")
        let driver = FlowDriver(Chapters.self, storage: storage, key: "legacy")
        driver.start()
        #expect(driver.state == .cipher)
    }
}

/// Values an earlier version stored restore to the states `migrate` maps them to, before
/// `resume`; values needing escapes in Swift included.
@Suite("Flow migrations")
@MainActor
struct FlowMigrationTests {
    @Test(arguments: [
        ("welcomeStep", Amped.State.welcome), ("say \"hi\"\\n", .questionnaire), ("welcome", .welcome),
        ("questionnaire", .questionnaire), ("syncing", .questionnaire), ("gone", .welcome)
    ])
    func anOldStoredValueRestoresToItsNewState(stored: String, restored: Amped.State) {
        #expect(Amped.resumed(Amped.restoredState(from: stored)) == restored)
        let storage = InMemoryFlowStorage(["step": .string(stored)])
        let driver = FlowDriver(Amped.self, storage: storage, key: "step", clock: ContinuousClock())
        driver.start()
        #expect(driver.state == restored)
        #expect(driver.problems.isEmpty)
        #expect(storage.values["step"] == .string(Amped.name(ofState: restored)), "the new value is saved")
    }
}
