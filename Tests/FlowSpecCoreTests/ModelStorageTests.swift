import FlowSpecTestSupport
import Testing

@testable import FlowSpecCore

/// The model keeps rare parts out of line (a candidate's conditions, effects, retry and a
/// location of its own; a state's summary and timeout; a timeout's retry) and optional
/// locations packed.
/// Whatever is stored where, every property reads back exactly what was set.
@Suite("Model storage")
struct ModelStorageTests {
    static let here = SourceLocation(line: 3, column: 7)
    static let there = SourceLocation(line: 4, column: 11)
    /// Names as a machine's table would number them.
    static let b = Name(index: 1)
    static let c = Name(index: 2)

    @Test func aCandidateKeepsItsOwnLocationWhereItDiffersFromItsTarget() {
        let bare = Candidate(location: Self.there, target: Located(Self.b, at: Self.there))
        #expect(bare.location == Self.there && !bare.hasExtras)

        var long = Candidate(location: Self.here, target: Located(Self.b, at: Self.there))
        #expect(long.location == Self.here && long.target?.location == Self.there && !long.hasExtras)
        long.effects = [Located("log", at: Self.there)]
        long.effects = []
        #expect(long.location == Self.here && !long.hasExtras)
        long.target = Located(Self.c, at: SourceLocation(line: 9, column: 1))
        #expect(long.location == Self.here)
        long.location = SourceLocation(line: 9, column: 1)
        #expect(long.location == SourceLocation(line: 9, column: 1))

        var moved = bare
        moved.target = Located(Self.c, at: Self.here)
        #expect(moved.location == Self.there && moved.target?.location == Self.here)
    }

    @Test func aStatesOptionalLocationsReadBackAsSet() {
        var state = StateSpec(name: Located(Name(index: 0), at: Self.here), kind: .input)
        #expect(state.kindLocation == nil && state.onLocation == nil && state.timeoutLocation == nil)
        state.kindLocation = Self.here
        state.onLocation = Self.there
        state.timeoutLocation = SourceLocation(line: 1, column: 1)
        #expect(state.kindLocation == Self.here && state.onLocation == Self.there)
        #expect(state.timeoutLocation == SourceLocation(line: 1, column: 1))
        state.onLocation = nil
        #expect(state.onLocation == nil && state.kindLocation == Self.here)
        #expect(state.summary == nil)
        state.summary = "Shows the welcome screen"
        #expect(state.summary == "Shows the welcome screen")
        state.summary = nil
        #expect(state.summary == nil)
    }

    @Test func aTimeoutsDurationReadsBackAsSet() {
        var timeout = Timeout(
            location: Self.here, after: Located(.seconds(2), at: Self.there),
            target: Located(Self.b, at: Self.there))
        #expect(timeout.after?.value == .seconds(2) && timeout.after?.location == Self.there)
        timeout.after = nil
        #expect(timeout.after == nil)
        timeout.after = Located(.zero, at: Self.here)
        #expect(timeout.after?.value == .zero && timeout.after?.location == Self.here)
    }

    @Test func aCandidatesRetryReadsBackAsSetBesideItsOtherParts() {
        var candidate = Candidate(
            location: Self.here, target: Located(Self.b, at: Self.there),
            effects: [Located("log", at: Self.there)],
            retry: Retry(location: Self.there, max: nil, then: Located(Self.c, at: Self.here)))
        #expect(candidate.retry?.then.value == Self.c && candidate.effects.map(\.value) == ["log"])
        candidate.retry = nil
        #expect(candidate.retry == nil && candidate.hasExtras && candidate.location == Self.here)
        candidate.effects = []
        #expect(!candidate.hasExtras && candidate.location == Self.here)
    }

    /// A candidate given exactly one extra part when made keeps it (a bare one builds no box).
    @Test func aCandidateMadeWithOnePartKeepsIt() {
        let target = Located(Self.b, at: Self.there)
        let retry = Retry(location: Self.here, max: Located(2, at: Self.here), then: Located(Self.c, at: Self.here))
        #expect(Candidate(location: Self.there, target: target, retry: retry).retry?.then.value == Self.c)
        #expect(
            Candidate(location: Self.there, target: target, condition: Located("x", at: Self.here)).condition?.value
                == "x")
        #expect(
            Candidate(
                location: Self.there, target: target,
                unlessCondition: Located("y", at: Self.here)
            ).unlessCondition?.value == "y")
        #expect(
            Candidate(location: Self.there, target: target, effects: [Located("log", at: Self.here)])
                .effects.map(\.value) == ["log"])
        let facts = Candidate(
            location: Self.there, target: target, unlessCondition: Located("y", at: Self.here),
            retry: retry
        ).edgeFacts
        #expect(facts.isConditional && facts.retry?.max?.value == 2)
        #expect(!Candidate(location: Self.there, target: target).edgeFacts.isConditional)
    }

    @Test func aTimeoutsRetryReadsBackAsSet() {
        var timeout = Timeout(location: Self.here, after: nil, target: Located(Self.b, at: Self.there))
        #expect(timeout.retry == nil)
        timeout.retry = Retry(
            location: Self.there, max: Located(3, at: Self.there), then: Located(Self.c, at: Self.here))
        #expect(timeout.retry?.max?.value == 3 && timeout.retry?.then.value == Self.c)
        timeout.retry = nil
        #expect(timeout.retry == nil)
    }

    /// A transition of one candidate keeps it inline (with its box of extras, if any); a list of
    /// several, or none, is boxed.
    /// Either way the candidates read back as set, and setting them again moves between the two.
    @Test func aTransitionsCandidatesReadBackAsSetInlineOrBoxed() {
        let event = Located(Name(index: 0), at: Self.here)
        let bare = Candidate(location: Self.there, target: Located(Self.b, at: Self.there))
        let long = Candidate(location: Self.here, target: Located(Self.c, at: Self.there))
        let guarded = Candidate(
            location: Self.there, target: Located(Self.c, at: Self.there),
            condition: Located("ready", at: Self.here))
        func describe(_ candidates: Candidates) -> [String] {
            candidates.map {
                "\($0.target!.value.index)@\($0.target!.location) at \($0.location) if \($0.condition?.value ?? "-")"
            }
        }
        for candidates: Candidates in [[bare], [long], [guarded], [bare, guarded], [guarded, bare], []] {
            var transition = EventTransition(event: event, candidates: candidates)
            #expect(describe(transition.candidates) == describe(candidates))
            #expect(transition.event == event)
            transition.candidates = [bare]
            #expect(describe(transition.candidates) == describe([bare]))
            transition.candidates = candidates
            #expect(describe(transition.candidates) == describe(candidates))
        }
        #expect(MemoryLayout<EventTransition>.size == 32)
    }

    /// The sizes `docs/performance.md` gives (a large machine holds one state and a
    /// few transitions per state): a field added or moved carelessly grows them.
    @Test func theModelKeepsItsSizes() {
        #expect(MemoryLayout<StateSpec>.stride == 80)
        #expect(MemoryLayout<EventTransition>.stride == 32)
        #expect(MemoryLayout<Edge>.stride == 16)
    }

    static func streamed(_ yaml: String) -> (Spec, [Diagnostic]) {
        let read = StateStreamingTests.streamed(Array(yaml.utf8))
        return (read.0, read.1)
    }

    /// A store keeps each run in one chunk: runs that fill chunks, empty runs and a run larger
    /// than a chunk all read back as appended, numbered from 0.
    @Test func aTransitionStoreReadsEveryRunBackAsAppended() {
        var store = TransitionStore()
        var runs: [(TransitionStore.Run, [Int32])] = []
        var next: Int32 = 0
        // Small runs first, across the first chunks' boundaries (they grow from 16), then large.
        for count in [3, 0, 13, 1, 16, 17, 40, 2_000, 1, 47, 0, 5_000, 2_048, 2, 2_047, 1] {
            var run = store.startRun(reserving: count)
            var events: [Int32] = []
            for _ in 0..<count {
                let name = Located(Name(index: next), at: Self.here)
                store.append(EventTransition(event: name, candidates: [Candidate(location: Self.there, target: name)]))
                events.append(next)
                next += 1
            }
            run = store.endRun(startedAt: run)
            runs.append((run, events))
        }
        for (run, events) in runs {
            let transitions = store[run]
            #expect(Int(run.count) == events.count && transitions.count == events.count)
            #expect(transitions.map(\.event.value.index) == events)
            #expect(transitions.indices == 0..<events.count)
        }
    }

    /// A store's chunks start small and double: a machine of a few transitions takes room for
    /// a few (a spec of many small machines must not reserve a full chunk for each), and a
    /// large one leaves at most its last chunk partly empty.
    @Test func aTransitionStoreReservesRoomInProportion() {
        func filled(_ total: Int, runsOf size: Int) -> TransitionStore {
            var store = TransitionStore()
            let name = Located(Name(index: 0), at: Self.here)
            for _ in 0..<(total / size) {
                let run = store.startRun(reserving: size)
                for _ in 0..<size { store.append(EventTransition(event: name, candidates: [])) }
                _ = store.endRun(startedAt: run)
            }
            return store
        }
        #expect(TransitionStore().reservedCapacity == 0)
        #expect(filled(1, runsOf: 1).reservedCapacity <= 2 * TransitionStore.firstChunkCapacity)
        #expect(filled(20, runsOf: 4).reservedCapacity <= 4 * TransitionStore.firstChunkCapacity)
        for total in [3_000, 100_000] {
            let reserved = filled(total, runsOf: 5).reservedCapacity
            #expect(reserved >= total && reserved <= total + 2 * TransitionStore.chunkCapacity, "\(total): \(reserved)")
        }
    }

    /// Decoded end to end, each state of a machine larger than a chunk of the store has its own
    /// transitions, whether the states were decoded while the YAML was read or afterwards.
    @Test func eachStateOfALargeMachineHasItsOwnTransitions() throws {
        let count = 1_500
        var yaml = "flowspec: 1\nmachines:\n  M:\n    initial: s0\n    defaults: { kind: input }\n    states:\n"
        for index in 0..<count {
            yaml += "      s\(index): { on: { a\(index % 7): s\((index + 1) % count), b: s\(index / 2), c: s0 } }\n"
        }
        for streamed in [false, true] {
            let (spec, findings) = streamed ? Self.streamed(yaml) : StateStreamingTests.wholeTree(Array(yaml.utf8))
            #expect(findings.isEmpty)
            let machine = try #require(spec.machines.first)
            #expect(machine.states.count == count)
            var disagreements = Disagreements()
            for index in 0..<count {
                let transitions = machine.transitions(of: index)
                disagreements.check(
                    transitions.map { machine.names[$0.event.value] } == ["a\(index % 7)", "b", "c"],
                    "the events of s\(index)")
                disagreements.check(
                    transitions.map { machine.names[$0.candidates[0].target!.value] }
                        == ["s\((index + 1) % count)", "s\(index / 2)", "s0"], "the targets of s\(index)")
            }
            #expect(disagreements.count == 0, "streamed: \(streamed), \(disagreements.summary)")
        }
    }
}
