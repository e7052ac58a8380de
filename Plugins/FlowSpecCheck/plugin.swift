import Foundation
import PackagePlugin

/// `swift package flowspec-check`: checks every `*.flowspec.yaml` spec of the package's
/// targets (or of the targets named with `--target`) with `flowspec check`, for CI and for
/// people who never open a terminal tool. Other arguments are passed to `flowspec check`
/// (for example `--format github` or `--warnings-as-errors`). Fails when any finding is an error.
///
/// With `--base REF`, it then compares every spec with its version at the git revision REF
/// (`flowspec diff --base REF`, given the same other arguments), and fails when the change
/// breaks what users' devices stored.
@main
struct FlowSpecCheck: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        let targets = try targetNames.isEmpty ? context.package.targets : context.package.targets(named: targetNames)
        var specs: [String] = []
        for case let target as SourceModuleTarget in targets {
            specs += target.sourceFiles.map(\.url).filter(Self.isSpec).map(\.path)
        }
        specs.sort()
        guard !specs.isEmpty else {
            Diagnostics.remark(
                "flowspec-check: no *.flowspec.yaml specs in \(targetNames.isEmpty ? "the package" : targetNames.joined(separator: ", "))"
            )
            return
        }
        let base = extractor.extractOption(named: "base").last
        let tool = try context.tool(named: "flowspec").url
        try Self.run(tool, ["check"] + extractor.remainingArguments + specs)
        if let base {
            try Self.run(tool, ["diff", "--base", base] + extractor.remainingArguments + specs)
        }
    }

    /// Runs flowspec; throws when it exits with anything but 0.
    static func run(_ tool: URL, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            Diagnostics.error(
                "flowspec-check: flowspec \(arguments[0]) exited with status \(process.terminationStatus)")
            throw CheckFailed(command: arguments[0], status: process.terminationStatus)
        }
    }

    static func isSpec(_ url: URL) -> Bool {
        url.lastPathComponent.hasSuffix(".flowspec.yaml") || url.lastPathComponent.hasSuffix(".flowspec.yml")
    }
}

struct CheckFailed: Error, CustomStringConvertible {
    let command: String
    let status: Int32
    var description: String { "flowspec \(command) failed (exit status \(status))" }
}
