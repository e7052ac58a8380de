/// How `flowspec gen` writes Swift.
public struct GenerationOptions: Sendable, Equatable {
    /// The access level of the generated declarations.
    public enum AccessLevel: String, Sendable, CaseIterable {
        case `public`, `internal`
    }

    /// The form of the generated transition code.
    public enum Shape: String, Sendable, CaseIterable {
        /// `switch` statements for machines of ordinary size, tables for large ones.
        case automatic = "auto"
        /// Always `switch` statements over enums.
        case switches = "switch"
        /// Always index-backed types and integer tables.
        case tables = "table"
    }

    /// `public` or `internal` (the default).
    public var accessLevel: AccessLevel = .internal
    /// The form of the generated code (automatic by default).
    public var shape: Shape = .automatic
    /// The spec's path as the generated header names it (relative, never absolute).
    public var sourcePath: String
    /// For a test suite (`gen --tests`): the module of the machines, imported `@testable`.
    public var testableImport: String?

    /// Creates options.
    public init(sourcePath: String, accessLevel: AccessLevel = .internal, shape: Shape = .automatic) {
        self.sourcePath = sourcePath
        self.accessLevel = accessLevel
        self.shape = shape
    }

    /// The modifier to put before declarations: `"public "` or `""`.
    var access: String { accessLevel == .public ? "public " : "" }
}
