/// How `flowspec gen` writes Swift.
public struct GenerationOptions: Sendable, Equatable {
    /// The access level of the generated declarations.
    public enum AccessLevel: String, Sendable, CaseIterable {
        case `public`, `internal`
    }

    /// `public` or `internal` (the default).
    public var accessLevel: AccessLevel = .internal
    /// The spec's path as the generated header names it (relative, never absolute).
    public var sourcePath: String

    /// Creates options.
    public init(sourcePath: String, accessLevel: AccessLevel = .internal) {
        self.sourcePath = sourcePath
        self.accessLevel = accessLevel
    }

    /// The modifier to put before declarations: `"public "` or `""`.
    var access: String { accessLevel == .public ? "public " : "" }
}
