import Foundation
import Testing

@testable import Chapters

/// The story progression's rules (reference flow 3), through the app-side progress.
@Suite("Chapters")
struct ChapterProgressTests {
    /// A throwaway defaults suite per test.
    let defaults: UserDefaults
    let suite = "flowspec.example.chapters.\(UUID().uuidString)"

    init() throws {
        defaults = try #require(UserDefaults(suiteName: suite))
    }

    /// The stored checkpoint, if any.
    var checkpoint: Int? { defaults.object(forKey: ChapterProgress.checkpointKey) as? Int }

    @Test func theChaptersComeInOrderWithRawValuesZeroToFive() {
        #expect(Chapters.State.allCases == [.handshake, .packetRun, .cipher, .firewall, .blueprint, .eventHorizon])
        #expect(Chapters.State.allCases.map(\.rawValue) == [0, 1, 2, 3, 4, 5])
    }

    @Test func aFirstLaunchStartsAtTheHandshake() {
        let progress = ChapterProgress(defaults: defaults)
        #expect(progress.chapter == .handshake)
        #expect(checkpoint == nil, "launching saves nothing")
    }

    @Test func completingAChapterAdvancesToTheNextAndSavesTheCheckpoint() {
        let progress = ChapterProgress(defaults: defaults)
        var played: [Chapters.State] = [progress.chapter]
        for _ in 1...5 {
            progress.completeCurrentChapter()
            played.append(progress.chapter)
            #expect(checkpoint == progress.chapter.rawValue, "saved right after the advance to \(progress.chapter)")
        }
        #expect(played == Chapters.State.allCases, "one chapter at a time, none skipped")
    }

    @Test func theProgressIndicatorShowsThePositionOutOfSix() {
        let progress = ChapterProgress(defaults: defaults)
        #expect(progress.chapterCount == 6)
        for position in 0..<6 {
            #expect(progress.position == position)
            progress.completeCurrentChapter()
        }
    }

    @Test func theOnlyWayIsForward() {
        #expect(Chapters.Event.allCases == [.completeCurrentChapter], "no back, no chapter selection, no skip")
        for chapter in Chapters.State.allCases where !Chapters.isTerminal(chapter) {
            var flow = Chapters.Machine.restore(from: chapter.rawValue).machine
            flow.send(.completeCurrentChapter)
            #expect(flow.state.rawValue == chapter.rawValue + 1)
        }
    }

    @Test func theEventHorizonIsTheEndAndCompletingItAgainDoesNothing() {
        defaults.set(Chapters.State.eventHorizon.rawValue, forKey: ChapterProgress.checkpointKey)
        let progress = ChapterProgress(defaults: defaults)
        #expect(progress.isFinished)
        defaults.removeObject(forKey: ChapterProgress.checkpointKey)
        progress.completeCurrentChapter()
        progress.completeCurrentChapter()
        #expect(progress.chapter == .eventHorizon)
        #expect(progress.position == 5)
        #expect(checkpoint == nil, "a no-op saves nothing")
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
        defaults.set(saved, forKey: ChapterProgress.checkpointKey)
        #expect(ChapterProgress(defaults: defaults).chapter == chapter)
    }

    @Test func aCorruptedCheckpointThatIsNotAnIntegerStartsAtTheHandshake() {
        defaults.set("firewall", forKey: ChapterProgress.checkpointKey)
        #expect(ChapterProgress(defaults: defaults).chapter == .handshake)
    }

    @Test func aRelaunchResumesAtTheSavedChapter() {
        let first = ChapterProgress(defaults: defaults)
        first.completeCurrentChapter()
        first.completeCurrentChapter()
        #expect(first.chapter == .cipher)
        let relaunched = ChapterProgress(defaults: defaults)
        #expect(relaunched.chapter == .cipher)
        relaunched.completeCurrentChapter()
        #expect(relaunched.chapter == .firewall, "and carries on from there")
        #expect(checkpoint == Chapters.State.firewall.rawValue)
    }
}
