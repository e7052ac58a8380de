import Foundation

/// Runs the story's progression for the game: restores the checkpoint into the generated
/// `Chapters` machine at launch, forwards "chapter complete", and saves the checkpoint
/// (`saveCheckpoint`) right after each advance.
///
/// The defaults store is injected, so tests use a throwaway suite.
public final class ChapterProgress {
    /// The `UserDefaults` key of the checkpoint: the highest unlocked chapter's raw value, an `Int`.
    public static let checkpointKey = "highestUnlockedChapter"

    private let defaults: UserDefaults
    private var flow: Chapters.Machine

    /// Resumes at the start of the saved chapter. No checkpoint, or one that is not an
    /// integer, starts at the first chapter; an integer out of range is clamped. Never traps.
    public init(defaults: UserDefaults) {
        self.defaults = defaults
        let stored = defaults.object(forKey: Self.checkpointKey) as? Int
        let (flow, effects) = Chapters.Machine.restore(from: stored)
        self.flow = flow
        carryOut(effects)
    }

    /// The chapter being played.
    var chapter: Chapters.State { flow.state }

    /// The chapter's place in the story, from 0, for a progress indicator.
    public var position: Int {
        // Every state is a member of the `chapters` sequence.
        Chapters.position(of: flow.state, in: .chapters) ?? 0
    }

    /// How many chapters the story has.
    public var chapterCount: Int { Chapters.length(of: .chapters) }

    /// Whether the story is over: the last chapter ignores further completions.
    public var isFinished: Bool { Chapters.isTerminal(flow.state) }

    /// The player finished the chapter: unlock the next one and save it.
    public func completeCurrentChapter() {
        carryOut(flow.send(.completeCurrentChapter))
    }

    private func carryOut(_ effects: Chapters.Effects) {
        for effect in effects {
            switch effect {
            case .saveCheckpoint:
                defaults.set(flow.state.rawValue, forKey: Self.checkpointKey)
            }
        }
    }
}
