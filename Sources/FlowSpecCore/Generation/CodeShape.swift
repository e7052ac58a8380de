/// Which form a machine's generated code takes.
///
/// Machines of ordinary size get readable `switch` statements over enums. Large machines get
/// `State`, `Event` and `Effect` as structs over an index and their transitions as integer
/// tables decoded once from string literals: a `switch` of thousands of cases, array literals of
/// thousands of numbers and compiler-synthesised `Hashable` on thousands of enum cases all make
/// compile time explode (see `docs/performance.md`), while a table compiles in constant time and
/// dispatches by index. The public API is the same in both forms.
enum CodeShape: Equatable {
    case switches, tables

    /// Above this many states (compound ones included) or events a machine uses tables.
    static let tableThreshold = 128

    static func choose(for program: FlowProgram, _ requested: GenerationOptions.Shape) -> CodeShape {
        switch requested {
        case .switches: .switches
        case .tables: .tables
        case .automatic:
            program.states.count + program.compounds.count > tableThreshold || program.events.count > tableThreshold
                ? .tables : .switches
        }
    }
}
