/// The steps of a machine that go to a history state, numbered once for both generated forms:
/// each is a candidate taken from a state (its retry's `then` counts apart), since what it runs
/// on the way (the exits of that state) differs from state to state. A step names its number in
/// its `FlowResume`, and `historyStep` maps the number and the state recorded to the step taken.
struct HistorySites {
    /// A candidate taken from a state, to its target or (`fellBack`) to its retry's `then`.
    struct Site: Hashable {
        var source: Int
        var candidate: FlowProgram.Candidate
        var fellBack: Bool

        /// The history state it goes to.
        var history: Int { (fellBack ? candidate.retry?.history : candidate.history) ?? 0 }

        /// How many compound states around the source stay active.
        var keep: Int { fellBack ? candidate.retry?.keep ?? 0 : candidate.keep }

        /// Every effect the step runs when the history sends it to `target`.
        func effects(resumingAt target: Int, _ program: FlowProgram) -> [Int] {
            program.effects(of: candidate, from: source, resumingAt: target, fellBack: fellBack)
        }
    }

    /// The sites, in the order the machine's states list their candidates: events, `always`
    /// and `done`, the state's timeout, the timeouts of the compound states around it.
    private(set) var sites: [Site] = []
    private var numbers: [Site: Int] = [:]

    init(_ program: FlowProgram) {
        guard !program.histories.isEmpty else { return }
        for (index, state) in program.states.enumerated() {
            var candidates = state.transitions.flatMap(\.candidates) + state.always
            if let done = state.done { candidates.append(done) }
            if let timeout = state.timeout { candidates.append(timeout.candidate) }
            candidates += state.outerTimeouts.map(\.timeout.candidate)
            for candidate in candidates {
                if candidate.history != nil { add(Site(source: index, candidate: candidate, fellBack: false)) }
                if candidate.retry?.history != nil { add(Site(source: index, candidate: candidate, fellBack: true)) }
            }
        }
    }

    private mutating func add(_ site: Site) {
        guard numbers[site] == nil else { return }
        numbers[site] = sites.count
        sites.append(site)
    }

    /// The number of a site.
    func number(of site: Site) -> Int? { numbers[site] }
}

extension FlowProgram {
    /// The names of the compound states with memory, by slot, as Swift string literals.
    var memorySlotNameLiterals: String {
        compounds.filter { $0.memorySlot != nil }.map { MachineEmitter.stringLiteral($0.name) }.joined(separator: ", ")
    }
}
