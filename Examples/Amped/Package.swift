// swift-tools-version: 6.0
import PackageDescription

// Onboarding that survives backgrounding: four steps, restored from `UserDefaults` before the
// first screen, then the app proper. The spec `Sources/Amped/Amped.flowspec.yaml` becomes
// Swift at build time through flowspec's build plugin; FlowSpecRuntime's FlowDriver restores and
// saves the step.
let package = Package(
    name: "Amped",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "flowspec", path: "../..")
    ],
    targets: [
        .target(
            name: "Amped",
            dependencies: [.product(name: "FlowSpecRuntime", package: "flowspec")],
            plugins: [.plugin(name: "FlowSpecGenerate", package: "flowspec")]
        ),
        // The plugin on the test target writes the spec's test paths as a Swift Testing suite;
        // `AmpedPathHarness` runs them on the app's session.
        .testTarget(
            name: "AmpedTests",
            dependencies: ["Amped", .product(name: "FlowSpecTesting", package: "flowspec")],
            plugins: [.plugin(name: "FlowSpecGenerate", package: "flowspec")]
        )
    ]
)
