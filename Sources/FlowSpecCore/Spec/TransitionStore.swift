/// The event transitions of a machine's states, state after state, in chunks: each state's
/// are one run inside one chunk.
///
/// An array per state would cost an allocation and about 40 bytes a state; one array for the
/// whole machine would be copied each time it grew, and end up to half empty. A chunk is made
/// with room for a state's transitions at least and never grows: the first has room for
/// ``firstChunkCapacity``, each next one for twice as many as the one before, up to
/// ``chunkCapacity``. So a machine of a few states takes a few hundred bytes, a spec of many
/// small machines does not reserve a full chunk for each, and a large machine wastes at most
/// part of its last chunk.
public struct TransitionStore: Sendable {
    /// Where one state's transitions are.
    public struct Run: Sendable {
        let chunk: Int32
        let start: Int32
        /// How many transitions the state has.
        public let count: Int32

        /// No transitions.
        init() {
            self.init(chunk: 0, start: 0, count: 0)
        }

        init(chunk: Int32, start: Int32, count: Int32) {
            self.chunk = chunk
            self.start = start
            self.count = count
        }
    }

    /// How many transitions the first chunk has room for, unless one state needs more.
    static let firstChunkCapacity = 16
    /// How many transitions a chunk has room for at most, unless one state needs more.
    static let chunkCapacity = 2048

    private var chunks: [[EventTransition]] = []

    /// Creates an empty store.
    public init() {}

    /// One state's transitions, numbered from 0.
    public struct Transitions: RandomAccessCollection, Sendable {
        private let slice: ArraySlice<EventTransition>

        init(_ slice: ArraySlice<EventTransition>) {
            self.slice = slice
        }

        /// The first position, 0.
        public var startIndex: Int { 0 }
        /// The number of transitions.
        public var endIndex: Int { slice.count }

        /// The transition at a position.
        public subscript(position: Int) -> EventTransition {
            slice[slice.startIndex + position]
        }
    }

    /// The transitions of a run.
    public subscript(run: Run) -> Transitions {
        guard run.count > 0 else { return Transitions([]) }
        return Transitions(chunks[Int(run.chunk)][Int(run.start)..<Int(run.start + run.count)])
    }

    /// Starts a state's run with room for `count` transitions in one chunk; append them with
    /// ``append(_:)`` and end the run with ``endRun(startedAt:)``.
    public mutating func startRun(reserving count: Int) -> Run {
        if chunks.isEmpty || chunks[chunks.count - 1].capacity - chunks[chunks.count - 1].count < count {
            let room = chunks.last.map { min(Self.chunkCapacity, $0.capacity * 2) } ?? Self.firstChunkCapacity
            var chunk: [EventTransition] = []
            chunk.reserveCapacity(max(room, count))
            chunks.append(chunk)
        }
        return Run(chunk: Int32(chunks.count - 1), start: Int32(chunks[chunks.count - 1].count), count: 0)
    }

    /// Appends a transition to the run started last (within the room it reserved).
    public mutating func append(_ transition: EventTransition) {
        chunks[chunks.count - 1].append(transition)
    }

    /// How many transitions the chunks have room for in all.
    var reservedCapacity: Int { chunks.reduce(0) { $0 + $1.capacity } }

    /// The run started with ``startRun(reserving:)``, with the transitions appended since.
    public func endRun(startedAt run: Run) -> Run {
        Run(chunk: run.chunk, start: run.start, count: Int32(chunks[Int(run.chunk)].count) - run.start)
    }
}
