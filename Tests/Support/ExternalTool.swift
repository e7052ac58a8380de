import Foundation

/// Finds the optional programs some tests need (Graphviz's `dot`, `strace`, util-linux's
/// `script`) on `PATH`. A test that needs one is skipped, with a message, where it is absent;
/// `.ci/run` hides them from `PATH` once to show that a fresh machine passes that way.
public enum ExternalTool {
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
