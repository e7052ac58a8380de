/// `invalid-parallel`: a parallel state (`parallel:`) or one of its regions written in a way
/// that has no meaning. The decoder finds these as it reads the states, so the rule's messages
/// live here, beside it.
///
/// A parallel state's regions are all active while it is; each region is a state, entered
/// through its own `initial` chain. So:
///
/// - a parallel state has at least two regions, and writes neither `states` nor `initial`
///   (every region is entered), nor `kind` (it waits for nothing itself);
/// - a region is a compound state or a state that waits (`input`, `task`): not a choice or
///   terminal state, which a region the flow stays in cannot be. A shallow history state may
///   stand directly under `parallel` (it is no region: it enters the parallel state afresh once
///   the parallel state was left); a deep one there would resume one state per region, and a
///   history state remembers one;
/// - a deep history state does not resume a compound state that holds a parallel state: it
///   remembers one state, and a parallel state is left in one state per region;
/// - a transition written inside one region does not target a state of another region of the
///   same parallel state: it would leave the parallel state and enter it again, every other
///   region at its `initial`, which is never what moving another region means.
enum ParallelRule: RuleHome {
    static let definition = RuleDefinition(
        rule: .invalidParallel, defaultSeverity: .error,
        summary: "A parallel state or region written in a way that has no meaning.",
        reportedAt: "the key or name to fix",
        finding:
            "a parallel state with fewer than two regions, or with `states`, `initial` or `kind`; a region that is a choice or terminal state; a deep history state directly under or around a parallel state; a transition from inside one region to a state of another region of the same parallel state"
    )

    /// What a parallel state may not write: `states` (its regions are its states), `initial`
    /// (every region is entered), a `kind` (it waits for nothing itself); nor an `always`
    /// branch without a condition.
    static func checkParallel(_ index: Int, in decoded: inout StateDecoder.Decoded, reader: inout NodeReader) {
        let name = reader.nameTable[decoded.states[index].name.value]
        var details = decoded.details[index] ?? StateDetails()
        var problems: [(key: String, location: SourceLocation, why: String, fix: String)] = []
        if let states = details.statesLocation {
            problems.append(
                (
                    "states", states, "its regions, under `parallel`, are the states inside it",
                    "move these states into a region, or remove `parallel` to make '\(name)' a compound state"
                ))
            details.statesLocation = nil
        }
        if let initial = details.initial {
            problems.append(
                (
                    "initial", initial.location, "entering it enters every region",
                    "remove `initial`; give each region its own `initial`"
                ))
            details.initial = nil
        }
        if let kind = decoded.states[index].kindLocation {
            problems.append(
                (
                    "kind", kind, "the states inside its regions say what the flow waits for",
                    "remove `kind`, or give it to the states inside the regions"
                ))
        }
        for problem in problems.sorted(by: { $0.location < $1.location }) {
            reader.report(
                .invalidParallel, "parallel state '\(name)' cannot have `\(problem.key)`: \(problem.why)",
                at: problem.location, subjects: [name], notes: [.init(problem.fix)])
            decoded.states[index].isMalformed = true
        }
        // Its `states`, unread, may hold what transitions name.
        if problems.contains(where: { $0.key == "states" }) { decoded.states[index].hasLostTransitions = true }
        decoded.details[index] = details
        StateDecoder.checkEventless(&decoded.states[index], reader: &reader)
        // The kind of a parallel state is never read as a kind: only its leaves wait.
        decoded.states[index].kind = .input
        decoded.states[index].kindLocation = nil
    }

    /// A parallel state with fewer than two regions: none is reported as empty; one runs
    /// alone, which a compound state says plainly.
    static func checkRegionCount(_ count: Int, of name: String, at location: SourceLocation, reader: inout NodeReader) {
        guard count < 2 else { return }
        if count == 0 {
            reader.report(
                .invalidParallel, "`parallel` of '\(name)' is empty; a parallel state needs at least two regions",
                at: location, subjects: [name], notes: [.init("add its regions, or remove `parallel`")])
        } else {
            reader.report(
                .invalidParallel,
                "`parallel` of '\(name)' has one region; a parallel state runs at least two at once",
                at: location, subjects: [name],
                notes: [.init("add another region, or write the region's states under `states` instead")])
        }
    }

    /// Whether a state's body, as written, makes it a history state (`kind: history`): one
    /// under `parallel` is no region.
    static func isHistory(_ body: YAMLDocument.NodeID, in document: YAMLDocument) -> Bool {
        guard document[body].kind == .mapping else { return false }
        let children = document.children(of: body)
        for position in stride(from: children.startIndex, to: children.endIndex - 1, by: 2)
        where document[children[position]].scalarValue == .string("kind") {
            return document[children[position + 1]].scalarValue == .string("history")
        }
        return false
    }

    /// The regions of the parallel state at `index`, once decoded: each is a compound state
    /// or a state that waits; a history state beside them is shallow.
    static func checkRegions(of index: Int, in decoded: inout StateDecoder.Decoded, reader: inout NodeReader) {
        let name = reader.nameTable[decoded.states[index].name.value]
        var region = index + 1
        while region < decoded.states.count, decoded.parents[region] == Int32(index) {
            let kind = decoded.states[region].kind
            let isCompound = region + 1 < decoded.states.count && decoded.parents[region + 1] == Int32(region)
            let end = decoded.subtreeEnd(of: region)
            defer { region = end }
            if !isCompound, kind == .history {
                checkHistory(region, of: name, in: &decoded, reader: &reader)
                continue
            }
            guard !isCompound, kind == .choice || kind == .terminal else { continue }
            let regionName = reader.nameTable[decoded.states[region].name.value]
            let why =
                kind == .choice
                ? "a choice state leaves at once, and a region stays active while '\(name)' is"
                : "a terminal state inside a region ends the region; a region that is one would never run"
            reader.report(
                .invalidParallel, "region '\(regionName)' of '\(name)' is a \(kind.rawValue) state: \(why)",
                at: decoded.states[region].kindLocation ?? decoded.states[region].name.location,
                subjects: [regionName],
                notes: [
                    .init(
                        "make '\(regionName)' a compound state, with `states` and `initial`, holding the \(kind.rawValue) state"
                    )
                ])
            decoded.states[region].isMalformed = true
            decoded.states[region].hasLostTransitions = true
        }
    }

    /// A history state directly under `parallel`: a shallow one enters the parallel state
    /// afresh (every region at its `initial`, as SCXML restores the regions it records); a deep
    /// one would resume one state per region, where a history state remembers one.
    private static func checkHistory(
        _ index: Int, of parallel: String, in decoded: inout StateDecoder.Decoded, reader: inout NodeReader
    ) {
        guard let deep = decoded.details[index]?.deep, deep.value else { return }
        let name = reader.nameTable[decoded.states[index].name.value]
        reader.report(
            .invalidParallel,
            "deep history state '\(name)' of parallel state '\(parallel)' would resume one state in each region, and a history state remembers one",
            at: deep.location, subjects: [name],
            notes: [
                .init(
                    "make it shallow (it then enters '\(parallel)' afresh), or put a deep history state inside each region"
                )
            ])
        decoded.states[index].isMalformed = true
        decoded.states[index].hasLostTransitions = true
    }

    /// What only the whole machine shows: deep history states around parallel states, and
    /// transitions from one region into another (once the machine holds its names and
    /// transitions).
    static func checkMachine(_ machine: MachineSpec, reader: inout NodeReader) {
        guard machine.nesting.hasParallel else { return }
        let nesting = machine.nesting
        func name(_ state: Int) -> String { machine.name(of: state) }
        for index in machine.states.indices where machine.isHistory(index) {
            guard let deep = nesting.details[index]?.deep, deep.value, let compound = nesting.parent(of: index),
                let parallel = nesting.descendants(of: compound).first(where: nesting.isParallel)
            else { continue }
            reader.report(
                .invalidParallel,
                "deep history state '\(name(index))' cannot resume '\(name(compound))', which holds parallel state '\(name(parallel))': a history state remembers one state, and '\(name(parallel))' is left in one state per region",
                at: deep.location, subjects: [name(index), name(parallel)],
                notes: [
                    .init(
                        "make it shallow (it then enters '\(name(parallel))' afresh), or put a deep history state inside each region"
                    )
                ])
        }
        // Each state's index by name: the first of a name (a second is `invalid-nesting`).
        var indexOf: [Name: Int] = [:]
        for index in machine.states.indices where indexOf[machine.states[index].name.value] == nil {
            indexOf[machine.states[index].name.value] = index
        }
        for index in machine.states.indices {
            let regions = nesting.regions(around: index)
            guard !regions.isEmpty else { continue }
            func check(_ target: Located<Name>) {
                // A history state directly under the parallel state enters it afresh, as the
                // parallel state itself does.
                guard let resolved = indexOf[target.value],
                    let crossed = regions.first(where: {
                        nesting.descendants(of: $0.parallel).contains(resolved)
                            && !nesting.isWithin(resolved, $0.region)
                            && !(machine.isHistory(resolved) && nesting.parent(of: resolved) == $0.parallel)
                    })
                else { return }
                let other = regionOf(resolved, in: crossed.parallel, nesting)
                let text = machine.names[target.value]
                let what = other == resolved ? "region '\(text)'" : "'\(text)' in region '\(name(other))'"
                let source =
                    index == crossed.region
                    ? "region '\(name(index))'" : "'\(name(index))' in region '\(name(crossed.region))'"
                reader.report(
                    .invalidParallel,
                    "\(source) targets \(what) of the same parallel state '\(name(crossed.parallel))': a transition moves one region, and this one would leave '\(name(crossed.parallel))' and enter it again",
                    at: target.location, subjects: [text],
                    notes: [
                        .init(
                            "to move region '\(name(other))', send an event it handles; to enter '\(name(crossed.parallel))' afresh, target '\(name(crossed.parallel))'"
                        )
                    ])
            }
            let transitions = machine.transitions(of: index)
            for position in transitions.indices {
                let candidates = transitions[position].candidates
                for candidate in candidates.indices {
                    if let target = candidates[candidate].target { check(target) }
                    if let retry = candidates[candidate].retry { check(retry.then) }
                }
            }
            func check(_ candidates: Candidates?) {
                for candidate in candidates ?? [] {
                    if let target = candidate.target { check(target) }
                    if let retry = candidate.retry { check(retry.then) }
                }
            }
            check(machine.states[index].always?.value)
            if machine.isCompound(index) { check(nesting.details[index]?.done?.value) }
            if let timeout = machine.states[index].timeout {
                check(timeout.target)
                if let retry = timeout.retry { check(retry.then) }
            }
        }
    }

    /// The region of `parallel` that holds `state`.
    private static func regionOf(_ state: Int, in parallel: Int, _ nesting: Nesting) -> Int {
        nesting.children(of: parallel).first { nesting.isWithin(state, $0) } ?? state
    }

}
