import FlowSpecCore

/// The command-line overrides of flowspec's input limits, shared by every command that reads
/// a spec. Each limit has a documented default (see `YAMLLimits` and docs/language.md).
struct LimitOptions {
    static let maxFileSize = limit("max-file-size", "bytes", "Largest spec file read, in bytes (default 268435456).")
    static let maxDepth = limit(
        "max-depth", "levels", "Deepest nesting of YAML collections (default 256, at most 1024).")
    static let maxAliasExpansion = limit(
        "max-alias-expansion", "nodes",
        "Most nodes aliases may add in all once expanded (default 100000).")
    static let maxScalarLength = limit("max-scalar-length", "bytes", "Longest scalar, in bytes (default 1048576).")
    static let maxStates = limit("max-states", "count", "Most states in one machine (default 1000000).")
    static let maxTransitions = limit(
        "max-transitions", "count",
        "Most transitions in one machine (default 10000000, at most 536870911).")

    static let maxComposedStates = limit(
        "max-composed-states", "count",
        "Most states the machines of a spec copy from the machines they run (default 100000).")

    /// The options, in the order the help lists them.
    static let options = [
        maxFileSize, maxDepth, maxAliasExpansion, maxScalarLength, maxStates, maxTransitions, maxComposedStates
    ]

    /// The default limits with the given overrides applied.
    let limits: YAMLLimits

    /// The limits a command line gives; throws for a limit below 1 or too many transitions.
    init(_ arguments: ParsedArguments) throws {
        for option in Self.options {
            if let value = arguments.integer(option), value < 1 {
                throw UsageError("--\(option.long) must be at least 1; got \(value)", command: arguments.command)
            }
        }
        if let maxTransitions = arguments.integer(Self.maxTransitions), maxTransitions > Edge.maximumIndex {
            throw UsageError(
                "--max-transitions can be at most \(Edge.maximumIndex); got \(maxTransitions)",
                command: arguments.command)
        }
        if let maxDepth = arguments.integer(Self.maxDepth), maxDepth > YAMLLimits.largestMaxDepth {
            throw UsageError(
                "--max-depth can be at most \(YAMLLimits.largestMaxDepth); got \(maxDepth) (a spec needs about 260 "
                    + "at most, and libyaml's time grows with the square of the depth)",
                command: arguments.command)
        }
        var limits = YAMLLimits()
        if let value = arguments.integer(Self.maxFileSize) { limits.maxFileSize = value }
        if let value = arguments.integer(Self.maxDepth) { limits.maxDepth = value }
        if let value = arguments.integer(Self.maxAliasExpansion) { limits.maxAliasExpansion = value }
        if let value = arguments.integer(Self.maxScalarLength) { limits.maxScalarLength = value }
        if let value = arguments.integer(Self.maxStates) { limits.maxStates = value }
        if let value = arguments.integer(Self.maxTransitions) { limits.maxTransitions = value }
        if let value = arguments.integer(Self.maxComposedStates) { limits.maxComposedStates = value }
        self.limits = limits
    }

    private static func limit(_ long: String, _ valueName: String, _ help: String) -> OptionSyntax {
        OptionSyntax(long: long, arity: .single, value: .integer, valueName: valueName, help: help, section: .limits)
    }
}
