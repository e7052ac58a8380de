/// Bounds on what flowspec reads, so that hostile input ends quickly with a located
/// `limit-exceeded` error. The YAML reader enforces the sizes; the spec decoder the number of
/// states and transitions of a machine (a machine over either is not checked further).
public struct YAMLLimits: Sendable, Equatable {
    /// The largest file read, in bytes. Default 256 MiB.
    public var maxFileSize: Int = 256 << 20
    /// How deeply collections may nest. Default 256 (a spec needs about 8; states nested the
    /// deepest they may, 126 levels, need about 260).
    public var maxDepth: Int = 256
    /// The largest ``maxDepth`` the command line accepts: libyaml checks every open flow
    /// collection at each token, so its time grows with the square of their depth (8,000
    /// levels take seconds, 40,000 a minute).
    public static let largestMaxDepth = 1024
    /// How many nodes aliases may add in all once expanded. Default 100,000.
    public var maxAliasExpansion: Int = 100_000
    /// The longest scalar, in bytes. Default 1 MiB.
    public var maxScalarLength: Int = 1 << 20
    /// The most states one machine may have. Default 1,000,000.
    public var maxStates: Int = 1_000_000
    /// The most transitions one machine may have, counting every candidate, `always` branch,
    /// timeout and each inherited machine-wide candidate. Default 10,000,000; at most
    /// 536,870,911 (``Edge/maximumIndex``) whatever is set.
    public var maxTransitions: Int = 10_000_000
    /// The most states composition may copy into the machines of one spec: each `run:` copies
    /// the machine it runs, and machines that run one another from several states multiply
    /// (24 machines of three states, each running the next twice, would copy 2^24). Checked
    /// before each machine is composed, over the whole spec. Default 100,000.
    public var maxComposedStates: Int = 100_000

    /// The default limits.
    public init() {}
}
