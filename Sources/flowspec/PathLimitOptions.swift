import FlowSpecCore

/// The command-line overrides of the limits on planning test paths, shared by the commands
/// that plan them: `paths`, `coverage` (which machines' items no path can take) and
/// `gen --tests`. Each limit has a documented default (see `PathCover.Limits` and
/// docs/testing-flows.md).
struct PathLimitOptions {
    static let maxPaths = OptionSyntax(
        long: "max-paths", arity: .single, value: .integer, valueName: "count",
        help: "Most paths for one machine (default 10000).")
    static let maxSteps = OptionSyntax(
        long: "max-steps", arity: .single, value: .integer, valueName: "count",
        help: "Most steps in all paths of one machine (default 2000000).")
    static let maxConfigurations = OptionSyntax(
        long: "max-configurations", arity: .single, value: .integer, valueName: "count",
        help: "Most configurations of one machine explored to plan its paths (default "
            + "\(PathCover.Limits.defaultMaxConfigurations); "
            + "\(PathCover.Limits.defaultMaxParallelConfigurations) with parallel regions).")

    /// The options, in the order the help lists them.
    static let options = [maxPaths, maxSteps, maxConfigurations]

    /// The default limits with the given overrides applied.
    let limits: PathCover.Limits

    /// The limits a command line gives; throws for a limit below 1.
    init(_ arguments: ParsedArguments) throws {
        var limits = PathCover.Limits()
        for option in Self.options {
            if let given = arguments.integer(option), given < 1 {
                throw UsageError("--\(option.long) must be at least 1; got \(given)", command: arguments.command)
            }
        }
        if let given = arguments.integer(Self.maxPaths) { limits.maxPaths = given }
        if let given = arguments.integer(Self.maxSteps) { limits.maxSteps = given }
        limits.maxConfigurations = arguments.integer(Self.maxConfigurations)
        self.limits = limits
    }
}
