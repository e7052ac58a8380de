// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "flowspec",
    // FlowDriver (Observation) needs macOS 14 / iOS 17; the rest of the runtime, macOS 13.
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "flowspec", targets: ["flowspec"]),
        .executable(name: "flowspec-lsp", targets: ["flowspec-lsp"]),
        .library(name: "FlowSpecCore", targets: ["FlowSpecCore"]),
        .library(name: "FlowSpecRuntime", targets: ["FlowSpecRuntime"]),
        .library(name: "FlowSpecTesting", targets: ["FlowSpecTesting"]),
        .plugin(name: "FlowSpecGenerate", targets: ["FlowSpecGenerate"]),
        .plugin(name: "FlowSpecCheck", targets: ["FlowSpecCheck"])
    ],
    dependencies: [
        // Test clocks for the runtime's tests only: apps that use flowspec do not build it.
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1")
    ],
    targets: [
        // libyaml, the C YAML parser, from the system (`apt-get install libyaml-dev`).
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        // Every stage of the pipeline: YAML → spec model → state graph → findings → output.
        // `simulate` runs machines on the kernel apps run.
        .target(
            name: "FlowSpecCore",
            dependencies: ["CYAML", "FlowSpecKernel"]
        ),
        // The semantics of every machine, written once: what a step is and how an input changes
        // a running flow. Imports nothing (not even Foundation), so the tool that links it
        // starts as fast as without it.
        .target(name: "FlowSpecKernel"),
        // What generated code and apps link: the kernel (re-exported), the machine type and the
        // driver that runs a flow (timers, task work, effects, persistence, observation).
        .target(name: "FlowSpecRuntime", dependencies: ["FlowSpecKernel"]),
        // What app test targets link to run the suites `flowspec gen --tests` writes: a test
        // clock and the runner of test paths. Depends on the runtime only.
        .target(name: "FlowSpecTesting", dependencies: ["FlowSpecRuntime"]),
        // The command-line tool: a thin layer over FlowSpecCore.
        .executableTarget(
            name: "flowspec",
            dependencies: ["FlowSpecCore"]
        ),
        // The language server (LSP over standard input and output), apart from `flowspec` so
        // that the command-line tool keeps loading no Foundation.
        .executableTarget(
            name: "flowspec-lsp",
            dependencies: ["FlowSpecCore"]
        ),
        // Build plugin: `*.flowspec.yaml` specs in a target become Swift at build time.
        .plugin(
            name: "FlowSpecGenerate",
            capability: .buildTool(),
            dependencies: ["flowspec"]
        ),
        // Command plugin: `swift package flowspec-check` checks every spec of the package.
        .plugin(
            name: "FlowSpecCheck",
            capability: .command(
                intent: .custom(verb: "flowspec-check", description: "Check every *.flowspec.yaml spec in the package.")
            ),
            dependencies: ["flowspec"]
        ),
        // Helpers the test targets share (running processes).
        .target(
            name: "FlowSpecTestSupport",
            path: "Tests/Support"
        ),
        .testTarget(
            name: "FlowSpecCoreTests",
            dependencies: ["FlowSpecCore", "FlowSpecTestSupport"]
        ),
        .testTarget(
            name: "FlowSpecRuntimeTests",
            dependencies: ["FlowSpecRuntime", "FlowSpecTesting", .product(name: "Clocks", package: "swift-clocks")]
        ),
        .testTarget(
            name: "FlowSpecCLITests",
            dependencies: ["flowspec", "flowspec-lsp", "FlowSpecTestSupport"]
        )
    ]
)
