/// What recorded traces of a machine exercised (`flowspec coverage`): each trace is replayed
/// against the spec, and the states entered, transitions taken (each candidate, `always`
/// branch, timeout, retry's `then`, machine-wide transition) and relaunches are counted.
///
/// A trace file may hold several runs: each `start -> …` line after the first begins a new
/// one (with the `+condition`/`-condition` lines just before it), so the text output of
/// `flowspec paths` and a log of many app launches both count.
public struct TraceCoverage: Sendable {
    /// The machine.
    public let program: FlowProgram
    /// What the runs so far exercised.
    public private(set) var exercised = Set<CoverageItem>()
    /// How many runs were replayed.
    public private(set) var runs = 0

    /// Nothing exercised yet.
    public init(program: FlowProgram) {
        self.program = program
    }

    /// Replays every run of `text` and counts what they exercise. Returns the first place
    /// where a run disagrees with the spec or cannot be read (line from 1), counting nothing of
    /// that run.
    public mutating func add(_ text: String) -> (line: Int, message: String)? {
        for run in Self.runs(of: text) {
            var found: Set<CoverageItem>? = []
            switch TraceReplay.check(run.text, program: program, exercised: &found) {
            case .agrees:
                exercised.formUnion(found ?? [])
                runs += 1
            case .disagrees(let line, let message):
                return (run.firstLine + line - 1, message)
            }
        }
        return nil
    }

    /// The runs of a trace text, each with the line it begins at (from 1).
    static func runs(of text: String) -> [(firstLine: Int, text: String)] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var starts: [Int] = []
        var sawStart = false
        var pendingConditions: Int?
        for (index, line) in lines.enumerated() {
            switch TraceLine.read(line) {
            case .condition:
                pendingConditions = pendingConditions ?? index
            case .step(.start, _):
                if sawStart { starts.append(pendingConditions ?? index) }
                sawStart = true
                pendingConditions = nil
            case .step:
                pendingConditions = nil
            case .skipped, .unreadable:
                break
            }
        }
        var runs: [(firstLine: Int, text: String)] = []
        var begin = 0
        for end in starts + [lines.count] {
            runs.append((begin + 1, lines[begin..<end].joined(separator: "\n")))
            begin = end
        }
        return runs
    }
}
