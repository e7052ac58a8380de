import Testing

@testable import FlowSpecCore

/// Large machines go through the whole pipeline without recursion-depth crashes. (Speed is
/// measured by the benchmark, not here.)
@Suite("Scale")
struct ScaleTests {
    /// A spec of one machine whose states `s0`, `s1`, … are `count` lines that `body` writes,
    /// followed by `tail`.
    static func spec(_ machine: String, states count: Int, tail: String, _ body: (Int) -> String) -> String {
        var text = "flowspec: 1\nmachines:\n  \(machine):\n    initial: s0\n    states:\n"
        for index in 0..<count { text += "      s\(index): \(body(index))\n" }
        return text + tail
    }

    /// A chain of `count` task states, each timing out into the next, ending in a terminal.
    static func chain(_ count: Int) -> String {
        spec("Chain", states: count, tail: "      s\(count): { kind: terminal }\n") {
            "{ timeout: { after: 1s, to: s\($0 + 1) } }"
        }
    }

    /// The number of findings and the first three, for a failed expectation. Expectations here
    /// compare counts and rules, never the findings themselves: a broken build can make
    /// 100,000 findings, and an expectation that printed them all once exhausted the test
    /// process's memory.
    static func brief(_ diagnostics: [Diagnostic]) -> String {
        let first = diagnostics.prefix(3).map {
            "\($0.rule) at \($0.location.line):\($0.location.column): \($0.message)"
        }
        return "\(diagnostics.count) findings; the first: \(first.joined(separator: "; "))"
    }

    @Test func aHundredThousandStateChainChecksClean() {
        let result = SpecChecker().check(SourceFile(path: "chain.yaml", text: Self.chain(100_000)))
        let findings = result.diagnostics.count
        #expect(findings == 0, "\(Self.brief(result.diagnostics))")
        #expect(result.graphs.first?.stateCount == 100_001)
    }

    @Test func aFortyThousandStateLoopIsOneFinding() {
        let count = 40_000
        let text = Self.spec("Ring", states: count, tail: "") { "{ timeout: { after: 1s, to: s\(($0 + 1) % count) } }" }
        let result = SpecChecker().check(SourceFile(path: "ring.yaml", text: text))
        let onlyAnInfiniteLoop = result.diagnostics.map(\.rule) == [.infiniteLoop]
        #expect(onlyAnInfiniteLoop, "\(Self.brief(result.diagnostics))")
        #expect(result.diagnostics.first?.subjects.count == count)
        #expect(result.diagnostics.first?.location == SourceLocation(line: 6, column: 7))
        // The loop's note is a line of a dozen names, not all 40,000.
        #expect(
            result.diagnostics.first?.notes.first?.message
                == "loop: s0 → s1 → s2 → s3 → s4 → s5 → (39989 more) → s39995 → s39996 → s39997 → s39998 → s39999 → s0")
    }

    /// A loop's note names every state up to 12 states, and from 13 on leaves the middle out.
    @Test(arguments: [
        (12, "loop: s0 → s1 → s2 → s3 → s4 → s5 → s6 → s7 → s8 → s9 → s10 → s11 → s0"),
        (13, "loop: s0 → s1 → s2 → s3 → s4 → s5 → (2 more) → s8 → s9 → s10 → s11 → s12 → s0")
    ])
    func aLoopsNoteIsWrittenWholeUpToTwelveStates(count: Int, note: String) {
        let text = Self.spec("Ring", states: count, tail: "") { "{ timeout: { after: 1s, to: s\(($0 + 1) % count) } }" }
        let result = SpecChecker().check(SourceFile(path: "ring.yaml", text: text))
        #expect(result.diagnostics.first { $0.rule == .infiniteLoop }?.notes.first?.message == note)
    }

    /// Every state of a 100,000-state loop is stuck (the terminal state is never reached), and
    /// each gets its `no-way-out` finding with a note of at most a dozen names: the note of the
    /// last state once named all 100,000 states on its way, and the notes together took
    /// gigabytes and minutes.
    @Test func aHundredThousandStuckStatesGetShortNotes() {
        let count = 100_000
        let text = Self.spec("Stuck", states: count, tail: "      done: { kind: terminal }\n") {
            "{ timeout: { after: 1s, to: s\(($0 + 1) % count) } }"
        }
        let result = SpecChecker().check(SourceFile(path: "stuck.yaml", text: text))
        let stuck = result.diagnostics.filter { $0.rule == .noWayOut }
        #expect(stuck.count == count, "\(Self.brief(result.diagnostics))")
        let others = result.diagnostics.filter { $0.rule != .noWayOut }.map(\.rule)
        #expect(others.sorted { $0.rawValue < $1.rawValue } == [.infiniteLoop, .unreachableState])
        let notes = stuck.map { $0.notes.first?.message ?? "" }
        let longest = notes.map { $0.components(separatedBy: " → ").count }.max() ?? 0
        #expect(longest == MachineAnalysis.shortPathLimit)
        #expect(notes.last == "reached by: s0 → (99994 more) → s99995 → s99996 → s99997 → s99998 → s99999")
    }

    /// Each of 499 `alwaysReachable` goals near the end of a 20,000-state chain fails, and
    /// each counterexample shows at most a dozen states of its path: written whole, the 499
    /// paths came to nearly 10 million names (1,001 goals on 100,000 states: 55 s and 3.8 GB).
    @Test func manyAlwaysReachableGoalsGetShortCounterexamples() {
        let count = 20_000
        var text = Self.chain(count)
        text +=
            "    require:\n      - alwaysReachable: [\((count - 500...count).map { "s\($0)" }.joined(separator: ", "))]\n"
        let result = SpecChecker().check(SourceFile(path: "goals.yaml", text: text))
        let failed = result.diagnostics.filter { $0.rule == .requirementFailed }
        // Not `s20000`, the terminal state, nor `s19999`: only the terminal state cannot reach
        // it, and terminal states are not counted.
        #expect(failed.count == 499 && failed.count == result.diagnostics.count, "\(Self.brief(result.diagnostics))")
        let counterexamples = failed.map { $0.notes.first?.message ?? "" }
        // Each path is long: the initial state, the count left out, the last five.
        let parts = Set(counterexamples.map { $0.components(separatedBy: " → ").count })
        #expect(parts == [7])
        #expect(
            counterexamples.first
                == "counterexample: s0 → (19496 more) → s19497 → s19498 → s19499 → s19500 → s19501, and from 's19501' no path leads to 's19500'"
        )
    }

    /// A chain of 20,000 timeouts, each with a bounded retry: none can be taken twice, so the
    /// search keeps no counter for any. With one counter per retry, each configuration it met
    /// held 20,000 of them (at 100,000 states, 20 GB before it gave up).
    @Test func withinFollowsALongChainOfRetries() {
        let count = 20_000
        let tail =
            "      s\(count): { kind: terminal }\n    require:\n      - within: { from: s0, to: [s\(count)], max: 1h }\n"
        let text = Self.spec("Chain", states: count, tail: tail) {
            "{ timeout: { after: 1s, to: s\($0 + 1), retry: { max: 3, then: s\($0 + 1) } } }"
        }
        let result = SpecChecker().check(SourceFile(path: "chain.yaml", text: text))
        let onlyTheRequirement = result.diagnostics.map(\.rule) == [.requirementFailed]
        #expect(onlyTheRequirement, "\(Self.brief(result.diagnostics))")
        #expect(
            result.diagnostics.first?.message.contains("can take 20000s") == true, "\(Self.brief(result.diagnostics))")
    }

    /// 5,000 targets that are not states, in a machine of 5,000 states: each is reported, and
    /// the "did you mean" searches stop when their budget is spent (2 million comparisons: 399
    /// searches of 5,001 states). Searching for every one compared 25 million pairs; at 20,000
    /// it took minutes.
    @Test func manyUndefinedTargetsShareABudgetOfHints() {
        let count = 5_000
        let text = Self.spec("Typos", states: count, tail: "      s\(count): { kind: terminal }\n") {
            "{ kind: input, on: { go: t\($0), next: s\($0 + 1) } }"
        }
        let result = SpecChecker().check(SourceFile(path: "typos.yaml", text: text))
        let undefined = result.diagnostics.filter { $0.rule == .undefinedState }
        #expect(
            undefined.count == count && undefined.count == result.diagnostics.count, "\(Self.brief(result.diagnostics))"
        )
        let hinted = undefined.filter { $0.message.contains("did you mean") }
        #expect(hinted.count == 2_000_000 / (count + 1))
        #expect(hinted.first?.message == "target 't0' is not a state of machine 'Typos'; did you mean 's0'?")
    }

    @Test func withinFollowsALongChainWithoutRecursion() {
        var text = Self.chain(50_000)
        text += "    require:\n      - within: { from: s0, to: [s50000], max: 10h }\n"
        let result = SpecChecker().check(SourceFile(path: "chain.yaml", text: text))
        let onlyTheRequirement = result.diagnostics.map(\.rule) == [.requirementFailed]
        #expect(onlyTheRequirement, "\(Self.brief(result.diagnostics))")
        #expect(result.diagnostics.first?.message.contains("50000s") == true)
    }
}
