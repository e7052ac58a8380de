import FlowSpecRuntime
import Foundation
import Testing

@testable import Chapters

/// The story progression's rules (reference flow 3), through the app-side progress. A relaunch
/// is a new progress on the same storage.
@MainActor
@Suite("Chapters")
struct ChapterProgressTests {
    let storage = InMemoryFlowStorage()

    /// The stored checkpoint, if any.
    var checkpoint: FlowStoredValue? { storage.values[ChapterProgress.checkpointKey] }

    /// A progress whose storage holds `stored` as the checkpoint.
    func launch(withCheckpoint stored: FlowStoredValue) -> ChapterProgress {
        storage.set(stored, forKey: ChapterProgress.checkpointKey)
        return ChapterProgress(storage: storage)
    }

    @Test func theChaptersComeInOrderWithRawValuesZeroToFive() {
        #expect(Chapters.State.allCases == [.handshake, .packetRun, .cipher, .firewall, .blueprint, .eventHorizon])
        #expect(Chapters.State.allCases.map(\.rawValue) == [0, 1, 2, 3, 4, 5])
    }

    @Test func aFirstLaunchStartsAtTheHandshakeAndUnlocksNothingMore() {
        let progress = ChapterProgress(storage: storage)
        #expect(progress.chapter == .handshake)
        #expect(progress.flow.lastStep?.input == .restore(nil), "nothing was stored")
        // The driver stores the state it starts in: the first chapter, which unlocks nothing.
        #expect(checkpoint == .int(0))
        #expect(progress.flow.problems.isEmpty)
    }

    @Test func completingAChapterAdvancesToTheNextAndSavesTheCheckpoint() {
        let progress = ChapterProgress(storage: storage)
        var played: [Chapters.State] = [progress.chapter]
        for _ in 1...5 {
            progress.completeCurrentChapter()
            played.append(progress.chapter)
            #expect(
                checkpoint == .int(progress.chapter.rawValue), "saved right after the advance to \(progress.chapter)")
        }
        #expect(played == Chapters.State.allCases, "one chapter at a time, none skipped")
    }

    @Test func theProgressIndicatorShowsThePositionOutOfSix() {
        let progress = ChapterProgress(storage: storage)
        #expect(progress.chapterCount == 6)
        for position in 0..<6 {
            #expect(progress.position == position)
            progress.completeCurrentChapter()
        }
    }

    @Test(arguments: Chapters.State.allCases.filter { !Chapters.isTerminal($0) })
    func theOnlyWayIsForward(chapter: Chapters.State) {
        #expect(Chapters.Event.allCases == [.completeCurrentChapter], "no back, no chapter selection, no skip")
        let progress = launch(withCheckpoint: .int(chapter.rawValue))
        progress.completeCurrentChapter()
        #expect(progress.chapter.rawValue == chapter.rawValue + 1)
    }

    @Test func theEventHorizonIsTheEndAndCompletingItAgainDoesNothing() {
        let progress = launch(withCheckpoint: .int(Chapters.State.eventHorizon.rawValue))
        #expect(progress.isFinished)
        let writes = storage.writes
        progress.completeCurrentChapter()
        progress.completeCurrentChapter()
        #expect(progress.chapter == .eventHorizon)
        #expect(progress.position == 5)
        #expect(storage.writes == writes, "a no-op saves nothing")
        #expect(progress.flow.problems.isEmpty, "finishing the story again is not misuse")
    }

    @Test(arguments: [
        (3, Chapters.State.firewall),
        (0, .handshake),
        (5, .eventHorizon),
        (99, .eventHorizon),
        (6, .eventHorizon),
        (-1, .handshake),
        (Int.min, .handshake)
    ])
    func aSavedCheckpointRestoresClamped(saved: Int, chapter: Chapters.State) {
        let progress = launch(withCheckpoint: .int(saved))
        #expect(progress.chapter == chapter)
        #expect(progress.flow.lastStep?.input == .restore(.int(saved)))
        #expect(checkpoint == .int(chapter.rawValue), "the clamped checkpoint replaces the stored one")
        #expect(progress.flow.problems.isEmpty, "an integer out of range is clamped, not a problem")
    }

    @Test func aCorruptedCheckpointThatIsNotAnIntegerIsReportedAndStartsAtTheHandshake() {
        let progress = launch(withCheckpoint: .string("firewall"))
        #expect(progress.chapter == .handshake)
        #expect(
            progress.flow.problems == [
                "the value stored under 'highestUnlockedChapter' (firewall) is not a Chapters's raw value; "
                    + "the flow restored as if nothing were stored"
            ])
        #expect(checkpoint == .int(0), "the garbage is replaced")
    }

    @Test func aRelaunchResumesAtTheSavedChapter() {
        let first = ChapterProgress(storage: storage)
        first.completeCurrentChapter()
        first.completeCurrentChapter()
        #expect(first.chapter == .cipher)
        let relaunched = ChapterProgress(storage: storage)
        #expect(relaunched.chapter == .cipher)
        relaunched.completeCurrentChapter()
        #expect(relaunched.chapter == .firewall, "and carries on from there")
        #expect(checkpoint == .int(Chapters.State.firewall.rawValue))
    }

    @Test func inUserDefaultsTheCheckpointIsTheIntegerEarlierVersionsStored() throws {
        let suite = "flowspec.example.chapters.\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }
        defaults.set(2, forKey: ChapterProgress.checkpointKey)
        let progress = ChapterProgress(storage: UserDefaultsFlowStorage(defaults))
        #expect(progress.chapter == .cipher)
        progress.completeCurrentChapter()
        #expect(defaults.object(forKey: ChapterProgress.checkpointKey) as? Int == 3)
        defaults.set("firewall", forKey: ChapterProgress.checkpointKey)
        let corrupted = ChapterProgress(storage: UserDefaultsFlowStorage(defaults))
        #expect(corrupted.chapter == .handshake)
        #expect(corrupted.flow.problems.count == 1)
    }
}
