import ArgumentParser
import FlowSpecCore

/// The command-line overrides of flowspec's input limits, shared by every command that reads
/// a spec. Each limit has a documented default (see `YAMLLimits` and docs/language.md).
struct LimitOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Largest spec file read, in bytes (default 268435456).", valueName: "bytes"))
    var maxFileSize: Int?

    @Option(help: ArgumentHelp("Deepest nesting of YAML collections (default 256).", valueName: "levels"))
    var maxDepth: Int?

    @Option(help: ArgumentHelp("Most nodes aliases may add in all once expanded (default 100000).", valueName: "nodes"))
    var maxAliasExpansion: Int?

    @Option(help: ArgumentHelp("Longest scalar, in bytes (default 1048576).", valueName: "bytes"))
    var maxScalarLength: Int?

    @Option(help: ArgumentHelp("Most states in one machine (default 1000000).", valueName: "count"))
    var maxStates: Int?

    @Option(help: ArgumentHelp("Most transitions in one machine (default 10000000, at most 536870911).",
                               valueName: "count"))
    var maxTransitions: Int?

    func validate() throws {
        for (name, value) in [("--max-file-size", maxFileSize), ("--max-depth", maxDepth),
                              ("--max-alias-expansion", maxAliasExpansion), ("--max-scalar-length", maxScalarLength),
                              ("--max-states", maxStates), ("--max-transitions", maxTransitions)] {
            if let value, value < 1 { throw ValidationError("\(name) must be at least 1; got \(value).") }
        }
        if let maxTransitions, maxTransitions > Edge.maximumIndex {
            throw ValidationError("--max-transitions can be at most \(Edge.maximumIndex); got \(maxTransitions).")
        }
    }

    /// The default limits with the given overrides applied.
    var limits: YAMLLimits {
        var limits = YAMLLimits()
        if let maxFileSize { limits.maxFileSize = maxFileSize }
        if let maxDepth { limits.maxDepth = maxDepth }
        if let maxAliasExpansion { limits.maxAliasExpansion = maxAliasExpansion }
        if let maxScalarLength { limits.maxScalarLength = maxScalarLength }
        if let maxStates { limits.maxStates = maxStates }
        if let maxTransitions { limits.maxTransitions = maxTransitions }
        return limits
    }
}
