/// What entering runs in a machine where a compound state's `initial`, or a history state's
/// default, runs effects (``FlowProgram/hasInitialEffects``): then the entries of a state
/// depend on how it was entered, not only on the state and how many compound states stay.
/// A step in a machine without parallel states has its entries in its own effects already;
/// these are the rest the kernel asks for: starting, what a shallow history resumes and, with
/// parallel states, each step whose entries are not its target's usual ones.
struct InitialEntries {
    /// What starting runs (``FlowRules/startEffects``).
    var start: [Int]
    /// Per state a shallow history may resume, per number of compound states kept, the
    /// depth from which compound states are entered through their `initial`, and what
    /// entering then runs: in order of the histories, then of the states.
    var resumed: [(key: ResumeKey, entries: [Int])] = []

    /// A state entered keeping some compound states, those from a depth entered through
    /// their `initial`.
    struct ResumeKey: Hashable {
        var state: Int
        var keep: Int
        var initialFrom: Int
    }

    /// The entries of a machine with `initial` or default effects, or `nil` for one without.
    init?(_ program: FlowProgram, _ regions: ProgramSteps.Regions?) {
        guard program.hasInitialEffects else { return nil }
        func entries(of state: Int, keeping keep: Int, initialFrom: Int) -> [Int] {
            regions?.entries(of: state, keeping: keep, initialFrom: initialFrom)
                ?? program.entryEffects(of: state, keeping: keep, initialFrom: initialFrom)
        }
        start = entries(of: program.initial, keeping: 0, initialFrom: program.initialFrom)
        var seen = Set<ResumeKey>()
        for history in program.histories where !history.deep {
            let compound = program.compounds[history.compound]
            for state in compound.states {
                for keep in 0...(compound.depth + 1) {
                    let key = ResumeKey(state: state, keep: keep, initialFrom: compound.depth + 1)
                    guard seen.insert(key).inserted else { continue }
                    resumed.append((key, entries(of: state, keeping: keep, initialFrom: key.initialFrom)))
                }
            }
        }
    }

    /// With parallel states, the entries a step taking `candidate` (or, `fellBack`, its
    /// retry's `then`) runs when they are not its target's usual ones; `nil` otherwise.
    static func stepEntries(
        of candidate: FlowProgram.Candidate, fellBack: Bool, _ program: FlowProgram, _ regions: ProgramSteps.Regions?
    ) -> [Int]? {
        guard let regions, program.hasInitialEffects, !candidate.isTargetless else { return nil }
        let (target, keep, initialFrom, history) =
            fellBack
            ? candidate.retry.map { ($0.fallback, $0.keep, $0.initialFrom, $0.history) }
                ?? (candidate.target, candidate.keep, candidate.initialFrom, candidate.history)
            : (candidate.target, candidate.keep, candidate.initialFrom, candidate.history)
        let entries = regions.entries(of: target, keeping: keep, initialFrom: initialFrom, history: history)
        return entries == regions.entries[target][keep] ? nil : entries
    }
}
