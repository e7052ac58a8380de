/// The generated code of guards that read where the flow is (`in:`, `notIn:`): in both forms,
/// the states they read are conditions after the app's (``FlowProgram/statesRead``), held as
/// bits of words in `Conditions` that only the generated code writes, and set by
/// `conditions(_:whileIn:_:)` from the states the flow is in before each choice of steps.
struct StatesReadEmitter {
    let program: FlowProgram
    let access: String
    /// An expression for a state, as the machine's form spells it.
    let state: (Int) -> String

    /// The words' name, then their number: one that no condition's Swift name starts with.
    var base: String {
        var base = "flowStatesRead"
        while program.conditions.contains(where: { $0.swiftName.code.hasPrefix(base) }) { base += "_" }
        return base
    }

    /// How many 64-bit words hold the states read.
    var wordCount: Int { (program.statesRead.count + 63) / 64 }

    /// The words, in the `Conditions` struct: private to the file, so that the app never sets
    /// them; and the function that reads one state's bit, which every guard calls (a term of
    /// integer literals and operators in a long `?:` chain would take the type checker ages).
    func emitWords(_ w: inout SwiftWriter) {
        guard program.readsStates else { return }
        for word in 0..<wordCount { w.line("fileprivate var \(base)\(word): Swift.UInt64 = 0") }
        w.block("fileprivate func \(base)(_ read: Swift.Int) -> Swift.Bool") { w in
            guard wordCount > 1 else {
                w.line("self.\(base)0 & (1 &<< read) != 0")
                return
            }
            w.switchBlock("switch read &>> 6") { w in
                for word in 0..<wordCount {
                    w.line("case \(word): self.\(base)\(word) & (1 &<< (read & 63)) != 0")
                }
                w.line("default: false")
            }
        }
    }

    /// The case of `subscript(condition:)`'s getter that reads the words (the table form reads
    /// every guard through it).
    func emitSubscriptCases(_ w: inout SwiftWriter) {
        guard program.readsStates else { return }
        let first = program.conditions.count
        let read = first == 0 ? "index" : "index &- \(first)"
        w.line("case \(first)..<\(first + program.statesRead.count): self.\(base)(\(read))")
    }

    /// A guard's term on a state read, as the switch form writes it: `position` among the
    /// conditions (after the app's).
    func term(_ position: Int, holds: Bool) -> String {
        (holds ? "" : "!") + "conditions.\(base)(\(position - program.conditions.count))"
    }

    /// `readsStates` and `conditions(_:whileIn:_:)`: per state the flow can be in, the bits of
    /// the states read that it is in (itself and the compound states around it).
    func emitReading(_ w: inout SwiftWriter, tables: Bool) {
        guard program.readsStates else { return }
        w.line("\(access)static let readsStates = true")
        // The switch form's tables are the default, named: a generic witness that names an
        // associated type still being inferred makes that inference fail.
        let tablesType = tables ? "Tables" : "FlowSpecRuntime.FlowNoTables"
        w.block(
            "\(access)static func conditions(_ conditions: Conditions, whileIn states: some Swift.Collection<State>, _: \(tablesType)) -> Conditions"
        ) { w in
            w.line("var seen = conditions")
            for word in 0..<wordCount { w.line("seen.\(base)\(word) = 0") }
            w.block("for state in states") { w in
                w.switchBlock(tables ? "switch state.ordinal" : "switch state") { w in
                    for (index, read) in program.statesReadWhileIn.enumerated() where !read.isEmpty {
                        let bits = (0..<wordCount).compactMap { word -> String? in
                            let mask = read.filter { $0 / 64 == word }.reduce(UInt64(0)) { $0 | 1 << UInt64($1 % 64) }
                            return mask == 0 ? nil : "seen.\(base)\(word) |= \(mask)"
                        }
                        w.line("case \(tables ? String(index) : state(index)): " + bits.joined(separator: "; "))
                    }
                    // Only a state outside every state read goes without a case.
                    if program.statesReadWhileIn.contains(where: \.isEmpty) || tables { w.line("default: break") }
                }
            }
            w.line("return seen")
        }
    }
}
