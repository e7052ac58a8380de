/// One machine as two versions of a spec write it, for `flowspec diff`: what the compatibility
/// rules and the change listing read.
struct MachinePair {
    let old: MachineSpec
    let new: MachineSpec
    let oldFile: String
    let newFile: String
    /// The names of the states, compound ones too, in source order, read once.
    let oldStates: [String]
    let newStates: [String]
    /// The names of the leaves (the states with no states inside, history states aside), in
    /// source order: the only states a machine can be in, so the only ones `persist` stores. An
    /// `int` raw value is a position here. A flat machine's leaves are its states.
    let oldLeaves: [String]
    let newLeaves: [String]
    /// Per leaf, its index in the machine's states.
    let oldLeafIndices: [Int]
    let newLeafIndices: [Int]

    init(old: MachineSpec, new: MachineSpec, oldFile: String, newFile: String) {
        self.old = old
        self.new = new
        self.oldFile = oldFile
        self.newFile = newFile
        let (oldStates, newStates) = (Self.stateNames(old), Self.stateNames(new))
        let (oldLeafIndices, newLeafIndices) = (Self.leaves(of: old), Self.leaves(of: new))
        (self.oldStates, self.newStates) = (oldStates, newStates)
        (self.oldLeafIndices, self.newLeafIndices) = (oldLeafIndices, newLeafIndices)
        // A flat machine shares its state names rather than copying them.
        oldLeaves = oldLeafIndices.count == oldStates.count ? oldStates : oldLeafIndices.map { oldStates[$0] }
        newLeaves = newLeafIndices.count == newStates.count ? newStates : newLeafIndices.map { newStates[$0] }
    }

    /// The names of a machine's states, in source order.
    static func stateNames(_ machine: MachineSpec) -> [String] { machine.states.indices.map(machine.name(of:)) }

    /// The indices of a machine's leaves, in source order. A history state is never current, so
    /// it is no leaf: it takes no position, and adding one moves none.
    static func leaves(of machine: MachineSpec) -> [Int] {
        // A history state stands inside a compound state; one at the top level is already
        // `invalid-history`, but is no more stored for that.
        guard machine.nesting.isNested || machine.states.contains(where: { $0.kind == .history }) else {
            return Array(machine.states.indices)
        }
        return machine.states.indices.filter(machine.isLeaf)
    }

    /// The leaf that entering a state of the new version ends in: the state itself, or for a
    /// compound state its `initial` chain (the first state inside that is no history state,
    /// where `initial` is absent).
    func enteredLeaf(of state: Int) -> Int {
        var current = state
        while new.isCompound(current) {
            current = Self.initialChild(of: current, in: new, names: newStates)
        }
        return current
    }

    /// The state directly inside a compound state that entering it enters: its `initial`, or
    /// its first state that is no history state (a history state is never entered: the decoder
    /// holds `initial` to that too).
    static func initialChild(of compound: Int, in machine: MachineSpec, names: [String]) -> Int {
        let children = machine.nesting.children(of: compound)
        let initial = machine.nesting.details[compound]?.initial?.value
        return children.first { names[$0] == initial && !machine.isHistory($0) }
            ?? children.first { !machine.isHistory($0) } ?? children[0]
    }

    /// What the value a persisted machine stored for a leaf of the old version (its name, or its
    /// `int` position) stands for now that the leaf is `now` in the new version: the value, and
    /// the new version's leaf at that value (`nil`: none, a position past the end). A name
    /// stands for the leaf of that name.
    func storedValue(of leaf: Int, now: Int, form: Persist.RawValue) -> (stored: String, leaf: Int?) {
        guard form == .int else { return (newStates[now], now) }
        let was = Self.position(of: leaf, in: oldLeafIndices)
        guard was != Self.position(of: now, in: newLeafIndices) else { return (String(was), now) }
        return (String(was), was < newLeaves.count ? newLeafIndices[was] : nil)
    }

    /// A leaf's position among the leaves (its `int` raw value).
    static func position(of leaf: Int, in leaves: [Int]) -> Int {
        // The leaves are in source order: a binary search finds one among thousands.
        var (low, high) = (0, leaves.count)
        while low < high {
            let middle = (low + high) / 2
            if leaves[middle] < leaf { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// A finding of `rule` in the new spec (or, `inOld`, the old one), for the machine.
    func finding(
        _ rule: Rule, _ message: String, at location: SourceLocation, inOld: Bool = false, subjects: [String] = [],
        notes: [Diagnostic.Note] = []
    ) -> Diagnostic {
        Diagnostic(
            rule: rule, message: message, file: inOld ? oldFile : newFile, location: location,
            machine: new.name.value, subjects: subjects, notes: notes)
    }
}

/// A compatibility rule of `flowspec diff`: what a change of one machine breaks for users who
/// have the old version's state stored, or for the app's screens and work.
protocol DiffRule: RuleHome, Sendable {
    /// The rule's findings for one machine present in both versions.
    static func find(in pair: MachinePair) -> [Diagnostic]
}

/// The compatibility rules, in the order of the rules table.
enum DiffRules {
    static var all: [any DiffRule.Type] {
        [
            StoredFormChangedRule.self, StoredStateRemovedRule.self, StoredPositionChangedRule.self,
            StoredValuesClampedRule.self, StateKindChangedRule.self, StoredHistoryDroppedRule.self,
            StoredRegionDroppedRule.self
        ]
    }
}
