// swift-tools-version: 6.0
import PackageDescription

// The first-run experience: splash, three slides, the "Start Free Demo" CTA. The spec
// `Sources/FirstRun/FirstRun.flowspec.yaml` becomes Swift at build time through flowspec's
// build plugin, and FlowSpecRuntime's FlowDriver runs it.
let package = Package(
    name: "FirstRun",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "flowspec", path: "../..")
    ],
    targets: [
        .target(
            name: "FirstRun",
            dependencies: [.product(name: "FlowSpecRuntime", package: "flowspec")],
            plugins: [.plugin(name: "FlowSpecGenerate", package: "flowspec")]
        ),
        // The plugin on the test target writes the spec's test paths as a Swift Testing suite;
        // `FirstRunPathHarness` runs them on the app's coordinator.
        .testTarget(
            name: "FirstRunTests",
            dependencies: ["FirstRun", .product(name: "FlowSpecTesting", package: "flowspec")],
            plugins: [.plugin(name: "FlowSpecGenerate", package: "flowspec")]
        )
    ]
)
