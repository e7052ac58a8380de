/// One machine as two versions of a spec write it, for `flowspec diff`: what the compatibility
/// rules and the change listing read.
struct MachinePair {
    let old: Machine
    let new: Machine
    let oldFile: String
    let newFile: String
    /// The names of the states, in source order (their `int` raw values), read once.
    let oldStates: [String]
    let newStates: [String]

    init(old: Machine, new: Machine, oldFile: String, newFile: String) {
        self.old = old
        self.new = new
        self.oldFile = oldFile
        self.newFile = newFile
        oldStates = Self.stateNames(old)
        newStates = Self.stateNames(new)
    }

    /// The names of a machine's states, in source order.
    static func stateNames(_ machine: Machine) -> [String] { machine.states.indices.map(machine.name(of:)) }

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
            StoredValuesClampedRule.self, StateKindChangedRule.self
        ]
    }
}
