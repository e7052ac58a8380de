import Foundation

/// Finds the optional programs some tests need (Graphviz's `dot`, `strace`, `script`, Neovim)
/// on `PATH`. A test that needs one is skipped where it is absent, with a message naming the
/// program missing (see ``notOnPath(_:for:install:)``); `.ci/run` hides them from `PATH` once to
/// show that a fresh machine passes that way.
public enum ExternalTool {
    /// Whether this is a CI run (`CI=true`). `.ci/run` then fails unless every optional tool is
    /// installed and works, so a test may treat a tool that is there but does not work as a
    /// failure rather than a reason to skip.
    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// The skip message of a test whose tool is missing: which program is not on `PATH`, what
    /// cannot be tested without it, and how to install it.
    public static func notOnPath(_ name: String, for purpose: String, install: String) -> String {
        "`\(name)` is not on PATH, so \(purpose) (\(install))"
    }

    /// The executable called `name` in the first directory of `PATH` that has one, if any.
    public static func find(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}
