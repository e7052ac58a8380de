import FlowSpecRuntime

/// Runs the story's progression for the game: a `FlowDriver` of the generated `Chapters`,
/// which restores the checkpoint at launch (clamped into the story) and saves it on every
/// advance. Nothing here reads or writes storage itself.
@MainActor
public final class ChapterProgress {
    /// The storage key of the checkpoint: the highest unlocked chapter's raw value, an `Int`.
    public static let checkpointKey = "highestUnlockedChapter"

    /// The running flow (its `problems` say what storage held that it could not restore).
    let flow: FlowDriver<Chapters>

    /// Resumes at the start of the saved chapter: no checkpoint starts at the first chapter,
    /// an integer out of range is clamped, and a value that is not an integer is reported in
    /// the flow's `problems` and starts at the first chapter. Never traps.
    ///
    /// - Parameter storage: where the checkpoint lives; the app passes `UserDefaultsFlowStorage()`,
    ///   which reads the integer earlier versions stored under ``checkpointKey``.
    public init(storage: any FlowStorage) {
        // `saveCheckpoint` needs no handler: the driver saves every change of state.
        flow = FlowDriver(Chapters.self, storage: storage, key: Self.checkpointKey)
        flow.start()
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

    /// The player finished the chapter: the next one unlocks, and is saved.
    public func completeCurrentChapter() {
        // Finishing the last chapter again is a no-op of the game's; sent to an ended flow it
        // would be reported as misuse.
        guard !isFinished else { return }
        flow.send(.completeCurrentChapter)
    }
}
