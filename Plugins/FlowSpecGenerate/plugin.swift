import Foundation
import PackagePlugin

/// Generates Swift from every `*.flowspec.yaml` spec in a target, at build time.
///
/// Each spec becomes one Swift file (named after the spec) in the plugin's work directory,
/// compiled into the target. `flowspec gen` checks the spec first: its findings appear as
/// build diagnostics at the spec's file, line and column, and an error fails the build. The
/// command declares the target's specs as its inputs (a spec may import another, `imports:`)
/// and the Swift file as its output, so unchanged specs regenerate nothing on the next build.
///
/// Applied to a test target, it also writes the test suite of every spec in the targets the
/// test target depends on (`flowspec gen --tests --testable-import MODULE`): each machine's
/// test paths, run by FlowSpecTesting with the test target's `<Machine>PathHarness`.
@main
struct FlowSpecGenerate: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let tool = try context.tool(named: "flowspec")
        let own = specs(in: target.sourceFiles)
        var commands = own.map { spec in
            command(for: spec, inputs: own, tool: tool.url, workDirectory: context.pluginWorkDirectoryURL)
        }
        if target.kind == .test {
            for case .target(let dependency) in target.dependencies {
                guard let module = dependency as? SourceModuleTarget else { continue }
                let theirs = specs(in: module.sourceFiles)
                for spec in theirs {
                    commands.append(
                        testCommand(
                            for: spec, inputs: theirs, module: module.moduleName, tool: tool.url,
                            workDirectory: context.pluginWorkDirectoryURL))
                }
            }
        }
        return commands
    }
}

/// The spec files among a target's files: `*.flowspec.yaml` or `*.flowspec.yml`, in path order.
func specs(in files: FileList) -> [URL] {
    files.map(\.url).filter { isSpec($0) }.sorted { $0.path < $1.path }
}

func isSpec(_ url: URL) -> Bool {
    url.lastPathComponent.hasSuffix(".flowspec.yaml") || url.lastPathComponent.hasSuffix(".flowspec.yml")
}

/// The spec's name without `.flowspec.yaml`.
func specName(_ spec: URL) -> String {
    spec.lastPathComponent.replacingOccurrences(of: ".flowspec.yaml", with: "")
        .replacingOccurrences(of: ".flowspec.yml", with: "")
}

/// `flowspec gen SPEC --tests --testable-import MODULE --output WORK/NAMEPathTests.swift`, run
/// again when any of `inputs` (the target's specs, which it may import) changes.
func testCommand(for spec: URL, inputs: [URL], module: String, tool: URL, workDirectory: URL) -> Command {
    let name = specName(spec)
    let output = workDirectory.appendingPathComponent("\(name)PathTests.swift")
    return .buildCommand(
        displayName: "flowspec: generating \(name)PathTests.swift from \(spec.lastPathComponent)",
        executable: tool,
        arguments: ["gen", spec.path, "--tests", "--testable-import", module, "--output", output.path],
        inputFiles: inputs,
        outputFiles: [output])
}

/// `flowspec gen SPEC --output WORK/NAME.swift`, with its inputs (the target's specs, which it
/// may import) and output declared.
func command(for spec: URL, inputs: [URL], tool: URL, workDirectory: URL) -> Command {
    let name = specName(spec)
    let output = workDirectory.appendingPathComponent("\(name).swift")
    return .buildCommand(
        displayName: "flowspec: generating \(name).swift from \(spec.lastPathComponent)",
        executable: tool,
        arguments: ["gen", spec.path, "--output", output.path],
        inputFiles: inputs,
        outputFiles: [output])
}

#if canImport(XcodeProjectPlugin)
    import XcodeProjectPlugin

    extension FlowSpecGenerate: XcodeBuildToolPlugin {
        func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
            let tool = try context.tool(named: "flowspec")
            let own = specs(in: target.inputFiles)
            return own.map { spec in
                command(for: spec, inputs: own, tool: tool.url, workDirectory: context.pluginWorkDirectoryURL)
            }
        }
    }
#endif
