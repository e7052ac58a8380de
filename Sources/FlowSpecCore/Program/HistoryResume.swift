/// How a generated step into a history state resumes it, the `FlowResume` it carries: the
/// memory slot of the history's compound state, that state's depth, whether the history is
/// deep, and what the step runs before it enters the state resumed (the exits of the state it
/// is taken from, its own effects, a used-up retry's). The entries are the runtime's to take
/// from the state resumed, so the generated code grows with the steps, not with the states
/// each may resume.
struct HistoryResume {
    var slot: Int
    var depth: Int
    var deep: Bool
    var before: [Int]

    /// The resume of a candidate taken from a state to its target or (`fellBack`) to its
    /// retry's `then`, or `nil` when that is not a history state.
    init?(_ candidate: FlowProgram.Candidate, from source: Int, fellBack: Bool, _ program: FlowProgram) {
        guard let history = fellBack ? candidate.retry?.history : candidate.history else { return nil }
        let compound = program.compounds[program.histories[history].compound]
        guard let slot = compound.memorySlot else { return nil }
        self.slot = slot
        depth = compound.depth
        deep = program.histories[history].deep
        before = program.effectsBeforeEntries(of: candidate, from: source, fellBack: fellBack)
    }

    /// What each step into a history state runs before its entries, in the order the states
    /// list their candidates (events, `always` and `done`, timeouts, the compound states'
    /// timeouts): lists the effect list must hold.
    static func beforeLists(_ program: FlowProgram) -> [[Int]] {
        guard !program.histories.isEmpty else { return [] }
        var lists: [[Int]] = []
        for (index, state) in program.states.enumerated() {
            var candidates = state.transitions.flatMap(\.candidates) + state.always + state.eventless + state.done
            if let timeout = state.timeout { candidates.append(timeout.candidate) }
            candidates += state.outerTimeouts.map(\.timeout.candidate)
            for candidate in candidates {
                for fellBack in [false, true] {
                    if let resume = HistoryResume(candidate, from: index, fellBack: fellBack, program) {
                        lists.append(resume.before)
                    }
                }
            }
        }
        return lists
    }
}

extension FlowProgram {
    /// The names of the compound states with memory, by slot, as Swift string literals.
    var memorySlotNameLiterals: String {
        compounds.filter { $0.memorySlot != nil }.map { MachineEmitter.stringLiteral($0.name) }.joined(separator: ", ")
    }
}
