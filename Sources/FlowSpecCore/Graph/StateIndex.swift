/// A machine's state names to their indices, through the machine's ``NameTable``: finding a
/// state by its ``Name`` is reading an array, and by its text one lookup in the table. When two
/// states share a name, the first one is found.
public struct StateIndex: Sendable {
    private let names: NameTable
    /// By name: the index of the first state of that name, or -1.
    private let stateOfName: [Int32]

    /// Indexes a machine's states.
    init(_ machine: MachineSpec) {
        self.init(machine.states, names: machine.names)
    }

    /// Indexes states named in `names`.
    init(_ states: [StateSpec], names: NameTable) {
        var stateOfName = [Int32](repeating: -1, count: names.count)
        for index in states.indices {
            let name = Int(states[index].name.value.index)
            // A state's name is in its machine's table (the decoders put it there).
            guard name < stateOfName.count else { continue }
            if stateOfName[name] < 0 { stateOfName[name] = Int32(index) }
        }
        self.names = names
        self.stateOfName = stateOfName
    }

    /// The index of the first state with this name, if there is one.
    public subscript(name: String) -> Int? {
        names.name(name).flatMap { self[$0] }
    }

    /// The index of the first state with this name of the machine's table, if there is one.
    public subscript(name: Name) -> Int? {
        let position = Int(name.index)
        guard position >= 0, position < stateOfName.count, stateOfName[position] >= 0 else { return nil }
        return Int(stateOfName[position])
    }
}
