/// How a transition chooses among its candidates, described once: the first candidate whose
/// guard holds is taken, and a guard holds when every condition it requires (`if`) holds and
/// none it forbids (`unless`) does. No candidate holding, the input is not handled there.
///
/// `simulate` chooses with ``chosen(among:_:)``, test paths steer the conditions with
/// ``steer(to:among:_:)``, and both generated forms are written from ``terms(of:)`` and
/// ``takeable(_:)``: the switch form as a `?:` chain, the table form as the records its
/// `firstHolding` reads. `DifferentialGenerationTests` runs both forms against `simulate`
/// under random conditions.
enum CandidateChoice {
    /// One term of a candidate's guard: a condition, by index, and the value it must have.
    struct Term: Hashable {
        var condition: Int
        var holds: Bool
    }

    /// A candidate's guard: the conditions it requires, then those it forbids. Empty for a
    /// candidate taken whatever the conditions.
    static func terms(of candidate: FlowProgram.Candidate) -> [Term] {
        candidate.requires.map { Term(condition: $0, holds: true) }
            + candidate.forbids.map { Term(condition: $0, holds: false) }
    }

    /// Whether a candidate's guard holds under `conditions`.
    static func holds(_ candidate: FlowProgram.Candidate, _ conditions: [Bool]) -> Bool {
        candidate.requires.allSatisfy { conditions[$0] } && !candidate.forbids.contains { conditions[$0] }
    }

    /// The candidate taken under `conditions`: the first whose guard holds, if any.
    static func chosen<Lowered>(
        among candidates: [Lowered], _ conditions: [Bool], written: (Lowered) -> FlowProgram.Candidate
    ) -> Lowered? {
        candidates.first { holds(written($0), conditions) }
    }

    /// How many of the candidates can ever be taken: those up to the first without a guard,
    /// and that one; all of them when each has a guard.
    static func takeable(_ candidates: [FlowProgram.Candidate]) -> Int {
        (candidates.firstIndex { $0.requires.isEmpty && $0.forbids.isEmpty }).map { $0 + 1 } ?? candidates.count
    }

    /// Fixes conditions so that the candidate at `position` is the one chosen: its guard holds,
    /// and each earlier one's fails on a condition not fixed yet. `false` when no assignment
    /// does it (the candidate is shadowed under what is fixed).
    ///
    /// `partial` holds the app's conditions only: a guard's states read (`in:`, `notIn:`, the
    /// conditions after them) are where the flow is, which no assignment changes. They are left
    /// to hold or not; an earlier candidate that only they can make fail is left to them too,
    /// and the caller sees from the step taken whether the candidate was.
    static func steer(to position: Int, among candidates: [FlowProgram.Candidate], _ partial: inout [Bool?]) -> Bool {
        let app = partial.indices
        let candidate = candidates[position]
        for condition in candidate.requires where app.contains(condition) {
            if partial[condition] == false { return false }
            partial[condition] = true
        }
        for condition in candidate.forbids where app.contains(condition) {
            if partial[condition] == true { return false }
            partial[condition] = false
        }
        for earlier in candidates[..<position] {
            let requires = earlier.requires.filter(app.contains)
            let forbids = earlier.forbids.filter(app.contains)
            let fails = requires.contains { partial[$0] == false } || forbids.contains { partial[$0] == true }
            if fails { continue }
            if let free = requires.first(where: { partial[$0] == nil }) {
                partial[free] = false
            } else if let free = forbids.first(where: { partial[$0] == nil }) {
                partial[free] = true
            } else if requires.count == earlier.requires.count, forbids.count == earlier.forbids.count {
                return false
            }
        }
        return true
    }
}
