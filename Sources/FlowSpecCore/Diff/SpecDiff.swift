/// What changed between two versions of a spec (`flowspec diff`), per machine and in a stable
/// order, and what the change breaks: the compatibility rules' findings.
///
/// Machines, states, events, conditions and effects are matched by name; renames are not
/// guessed (a persisted machine declares them with `persist: migrate`). Each change is
/// located in the new spec, or in the old one for what was removed.
///
/// In a machine with compound states, what a compound state writes (its `on`, timeout,
/// `entry`, `exit`, `initial`, `done`) is listed once, as its own; a leaf that moved to other
/// compound states also lists the transitions it inherits that changed, by the state that
/// writes them. The compatibility rules read the leaves only: they are what `persist` stores.
public struct SpecDiff: Sendable {
    /// One change.
    public struct Change: Sendable, Equatable {
        /// Added, removed or changed.
        public enum Kind: String, Sendable {
            case added, removed, changed
        }

        /// The machine.
        public var machine: String
        /// What kind of change.
        public var kind: Kind
        /// What changed: `machine`, `state 'x'`, `timeout of 'x'`, `'x' on 'go'`,
        /// `'x' on 'go' inherited from 'y'`, …
        public var subject: String
        /// The old and new values, for a change (`10s -> 5s`).
        public var detail: String?
        /// The file the location is in: the new spec, or the old one for a removal.
        public var file: String
        /// Where the change is.
        public var location: SourceLocation
        /// The state the change is of or from, if any (`nil` for machine-wide transitions).
        public var state: String? = nil
        /// For a transition, what takes it.
        public var trigger: Trigger? = nil

        /// What takes a transition that changed.
        public enum Trigger: Sendable, Equatable {
            case event(String)
            case always
            case timeout
            /// The `done` of the compound state around a terminal state.
            case done
        }
    }

    /// The changes, machine by machine (new order, then removed machines), each machine's in
    /// the order of its parts.
    public private(set) var changes: [Change] = []
    /// The compatibility rules' findings, before severity settings.
    public private(set) var findings: [Diagnostic] = []

    /// The difference between `old` (read from `oldFile`) and `new`.
    public init(old: Spec, oldFile: String, new: Spec, newFile: String) {
        let oldMachines = Dictionary(old.machines.map { ($0.name.value, $0) }, uniquingKeysWith: { first, _ in first })
        let newNames = Set(new.machines.map(\.name.value))
        for machine in new.machines {
            guard let before = oldMachines[machine.name.value] else {
                changes.append(
                    Change(
                        machine: machine.name.value, kind: .added, subject: "machine", file: newFile,
                        location: machine.name.location))
                continue
            }
            let pair = MachinePair(old: before, new: machine, oldFile: oldFile, newFile: newFile)
            var machineChanges = MachineChanges(pair: pair)
            changes += machineChanges.all()
            for rule in DiffRules.all { findings += rule.find(in: pair) }
        }
        for machine in old.machines where !newNames.contains(machine.name.value) {
            changes.append(
                Change(
                    machine: machine.name.value, kind: .removed, subject: "machine", file: oldFile,
                    location: machine.name.location))
        }
    }
}

/// The changes of one machine present in both versions (what nesting adds is in
/// `MachineChanges+Nesting.swift`).
struct MachineChanges {
    let pair: MachinePair
    var changes: [SpecDiff.Change] = []

    init(pair: MachinePair) {
        self.pair = pair
    }

    mutating func all() -> [SpecDiff.Change] {
        compareStates()
        compareNames("event", pair.old.events, pair.new.events)
        compareNames("condition", pair.old.conditions, pair.new.conditions)
        compareNames("effect", pair.old.effects, pair.new.effects)
        compareTransitions()
        compareSequences()
        comparePersist()
        compareRequirements()
        return changes
    }

    mutating func add(
        _ kind: SpecDiff.Change.Kind, _ subject: String, _ detail: String? = nil, at location: SourceLocation,
        inOld: Bool = false, state: String? = nil, trigger: SpecDiff.Change.Trigger? = nil
    ) {
        changes.append(
            SpecDiff.Change(
                machine: pair.new.name.value, kind: kind, subject: subject, detail: detail,
                file: inOld ? pair.oldFile : pair.newFile, location: location, state: state, trigger: trigger))
    }

    /// Added, removed, and for those in both a change of kind, summary or timeout.
    private mutating func compareStates() {
        let old = Dictionary(pair.oldStates.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let new = Set(pair.newStates)
        let hasNesting = Self.hasNesting(pair.old) || Self.hasNesting(pair.new)
        for (index, name) in pair.newStates.enumerated() {
            let state = pair.new.states[index]
            guard let was = old[name] else {
                add(.added, "state '\(name)'", kindText(pair.new, index), at: state.name.location, state: name)
                continue
            }
            let before = pair.old.states[was]
            compareKinds(was, index, name)
            if before.summary != state.summary {
                add(.changed, "summary of '\(name)'", at: state.name.location, state: name)
            }
            if !sameTimeout(before.timeout, state.timeout) {
                let (oldTimeout, newTimeout) = (timeout(before.timeout, pair.old), timeout(state.timeout, pair.new))
                add(
                    .changed, "timeout of '\(name)'", "\(oldTimeout ?? "none") -> \(newTimeout ?? "none")",
                    at: state.timeoutLocation ?? state.name.location, state: name, trigger: .timeout)
            }
            if hasNesting { compareNesting(was, index, name) }
        }
        for (index, name) in pair.oldStates.enumerated() where !new.contains(name) {
            add(.removed, "state '\(name)'", at: pair.old.states[index].name.location, inOld: true, state: name)
        }
    }

    /// Whether two versions of a timeout are the same, read without making text.
    func sameTimeout(_ old: Timeout?, _ new: Timeout?) -> Bool {
        guard let old, let new else { return old == nil && new == nil }
        return old.after?.value == new.after?.value
            && pair.old.names[old.target.value] == pair.new.names[new.target.value]
            && old.effects.map(\.value) == new.effects.map(\.value) && sameRetry(old.retry, new.retry)
    }

    func timeout(_ timeout: Timeout?, _ machine: MachineSpec) -> String? {
        guard let timeout else { return nil }
        var text = "\(timeout.after?.value.specDescription ?? "?") to '\(machine.names[timeout.target.value])'"
        if !timeout.effects.isEmpty { text += " / " + timeout.effects.map(\.value).joined(separator: ", ") }
        if let retry = timeout.retry { text += Self.describe(retry, machine) }
        return text
    }

    /// Whether two versions of a retry bound do the same: the same `max`, `then` and effects.
    private func sameRetry(_ old: Retry?, _ new: Retry?) -> Bool {
        guard let old, let new else { return old == nil && new == nil }
        return old.max?.value == new.max?.value && pair.old.names[old.then.value] == pair.new.names[new.then.value]
            && old.effects.map(\.value) == new.effects.map(\.value)
    }

    private mutating func compareNames(_ what: String, _ old: [Located<String>]?, _ new: [Located<String>]?) {
        let oldNames = Set((old ?? []).map(\.value))
        let newNames = Set((new ?? []).map(\.value))
        for name in new ?? [] where !oldNames.contains(name.value) {
            add(.added, "\(what) '\(name.value)'", at: name.location)
        }
        for name in old ?? [] where !newNames.contains(name.value) {
            add(.removed, "\(what) '\(name.value)'", at: name.location, inOld: true)
        }
    }

    /// Each state's transitions by event and its `always` branches (and, for a leaf that moved,
    /// those it inherits), then the machine-wide ones.
    private mutating func compareTransitions() {
        let oldIndex = Dictionary(pair.oldStates.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let nested = pair.old.nesting.isNested || pair.new.nesting.isNested
        for (index, name) in pair.newStates.enumerated() {
            guard let was = oldIndex[name] else { continue }
            compare("'\(name)'", transitions(pair.old, of: was), transitions(pair.new, of: index), state: name)
            if nested { compareInherited(was, index, name) }
        }
        compare("machine-wide", machineWide(pair.old), machineWide(pair.new), state: nil)
    }

    /// A transition as compared: what takes it (the key), its candidates, where it is written.
    /// Its text is made only for a transition that changed (most of a large spec's did not).
    private struct Entry {
        var trigger: SpecDiff.Change.Trigger
        var candidates: Candidates
        var location: SourceLocation
    }

    /// Whether two versions of a transition do the same: the same targets, conditions,
    /// effects and retries, in order.
    func same(_ old: Candidates, _ new: Candidates) -> Bool {
        guard old.count == new.count else { return false }
        let (oldNames, newNames) = (pair.old.names, pair.new.names)
        for index in old.indices {
            let (a, b) = (old[index], new[index])
            guard a.target.map({ oldNames[$0.value] }) == b.target.map({ newNames[$0.value] }) else { return false }
            guard a.hasExtras || b.hasExtras else { continue }
            guard a.condition?.value == b.condition?.value, a.unlessCondition?.value == b.unlessCondition?.value,
                a.inState.map({ oldNames[$0.value] }) == b.inState.map({ newNames[$0.value] }),
                a.notInState.map({ oldNames[$0.value] }) == b.notInState.map({ newNames[$0.value] }),
                a.effects.map(\.value) == b.effects.map(\.value), sameRetry(a.retry, b.retry)
            else { return false }
        }
        return true
    }

    private mutating func compare(_ owner: String, _ old: [Entry], _ new: [Entry], state: String?) {
        // A state has a few transitions: a linear search beats building dictionaries.
        func subject(_ entry: Entry) -> String { "\(owner) \(Self.text(entry.trigger))" }
        for entry in new {
            guard let before = old.first(where: { $0.trigger == entry.trigger }) else {
                add(
                    .added, subject(entry), Self.describe(entry.candidates, pair.new), at: entry.location, state: state,
                    trigger: entry.trigger)
                continue
            }
            if !same(before.candidates, entry.candidates) {
                add(
                    .changed, subject(entry),
                    "\(Self.describe(before.candidates, pair.old)) -> \(Self.describe(entry.candidates, pair.new))",
                    at: entry.location, state: state, trigger: entry.trigger)
            }
        }
        for entry in old where !new.contains(where: { $0.trigger == entry.trigger }) {
            add(
                .removed, subject(entry), Self.describe(entry.candidates, pair.old), at: entry.location, inOld: true,
                state: state, trigger: entry.trigger)
        }
    }

    /// `on 'go'`, `always`, `timeout`, `done`: what takes a transition, in a change's subject.
    static func text(_ trigger: SpecDiff.Change.Trigger) -> String {
        switch trigger {
        case .event(let event): "on '\(event)'"
        case .always: "always"
        case .timeout: "timeout"
        case .done: "done"
        }
    }

    private func transitions(_ machine: MachineSpec, of state: Int) -> [Entry] {
        var result: [Entry] = []
        for transition in machine.transitions(of: state) {
            let event = machine.names[transition.event.value]
            result.append(
                Entry(trigger: .event(event), candidates: transition.candidates, location: transition.event.location))
        }
        if let always = machine.states[state].always {
            result.append(
                Entry(trigger: .always, candidates: always.value, location: always.location))
        }
        return result
    }

    private func machineWide(_ machine: MachineSpec) -> [Entry] {
        machine.machineWide.map {
            let event = machine.names[$0.event.value]
            return Entry(trigger: .event(event), candidates: $0.candidates, location: $0.event.location)
        }
    }

    /// `'b' if ready / log, 'c' in 'd' (retry ×3, then 'd')`.
    static func describe(_ candidates: Candidates, _ machine: MachineSpec) -> String {
        candidates.map { candidate in
            var text = candidate.target.map { "'\(machine.names[$0.value])'" } ?? "(stays)"
            if let condition = candidate.condition { text += " if \(condition.value)" }
            if let condition = candidate.unlessCondition { text += " unless \(condition.value)" }
            if let state = candidate.inState { text += " in '\(machine.names[state.value])'" }
            if let state = candidate.notInState { text += " not in '\(machine.names[state.value])'" }
            if !candidate.effects.isEmpty { text += " / " + candidate.effects.map(\.value).joined(separator: ", ") }
            if let retry = candidate.retry { text += describe(retry, machine) }
            return text
        }.joined(separator: ", ")
    }

    /// ` (retry ×3, then 'd' / showError)`.
    static func describe(_ retry: Retry, _ machine: MachineSpec) -> String {
        var text = " (retry ×\(retry.max?.value ?? 0), then '\(machine.names[retry.then.value])'"
        if !retry.effects.isEmpty { text += " / " + retry.effects.map(\.value).joined(separator: ", ") }
        return text + ")"
    }

    private mutating func compareSequences() {
        let old = Dictionary(pair.old.sequences.map { ($0.name.value, $0) }, uniquingKeysWith: { first, _ in first })
        let newNames = Set(pair.new.sequences.map(\.name.value))
        for sequence in pair.new.sequences {
            let members = sequence.states.map(\.value).joined(separator: ", ")
            guard let before = old[sequence.name.value] else {
                add(.added, "sequence '\(sequence.name.value)'", members, at: sequence.name.location)
                continue
            }
            let was = before.states.map(\.value).joined(separator: ", ")
            if was != members || before.forwardOnly != sequence.forwardOnly {
                add(
                    .changed, "sequence '\(sequence.name.value)'",
                    "[\(was)]\(before.forwardOnly ? " forwardOnly" : "") -> [\(members)]"
                        + (sequence.forwardOnly ? " forwardOnly" : ""),
                    at: sequence.name.location)
            }
        }
        for sequence in pair.old.sequences where !newNames.contains(sequence.name.value) {
            add(.removed, "sequence '\(sequence.name.value)'", at: sequence.name.location, inOld: true)
        }
    }

    private mutating func comparePersist() {
        let (old, new) = (persistText(pair.old.persist), persistText(pair.new.persist))
        guard old != new else { return }
        switch (pair.old.persist, pair.new.persist) {
        case (nil, let persist?): add(.added, "persist", new, at: persist.location)
        case (let persist?, nil): add(.removed, "persist", old, at: persist.location, inOld: true)
        case (_, let persist?): add(.changed, "persist", "\(old ?? "") -> \(new ?? "")", at: persist.location)
        case (nil, nil): break
        }
    }

    private func persistText(_ persist: Persist?) -> String? {
        guard let persist else { return nil }
        var parts = ["rawValue: \(persist.rawValue.rawValue)", "restore: \(persist.restore.rawValue)"]
        if !persist.resume.isEmpty {
            parts.append(
                "resume: {" + persist.resume.map { "\($0.from.value): \($0.to.value)" }.joined(separator: ", ") + "}")
        }
        if !persist.migrate.isEmpty {
            parts.append(
                "migrate: {" + persist.migrate.map { "\($0.from.value): \($0.to.value)" }.joined(separator: ", ") + "}")
        }
        return parts.joined(separator: ", ")
    }

    private mutating func compareRequirements() {
        let old = pair.old.requirements.map { (text: $0.text, location: location($0)) }
        let new = pair.new.requirements.map { (text: $0.text, location: location($0)) }
        let oldTexts = Set(old.map(\.text))
        let newTexts = Set(new.map(\.text))
        for requirement in new where !oldTexts.contains(requirement.text) {
            add(.added, "requirement", requirement.text, at: requirement.location)
        }
        for requirement in old where !newTexts.contains(requirement.text) {
            add(.removed, "requirement", requirement.text, at: requirement.location, inOld: true)
        }
    }

    private func location(_ requirement: Requirement) -> SourceLocation { requirement.location }
}
