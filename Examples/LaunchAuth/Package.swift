// swift-tools-version: 6.0
import PackageDescription

// Launch and authentication with a timeout on every async step. The spec
// `Sources/LaunchAuth/LaunchAuth.flowspec.yaml` becomes Swift at build time through
// flowspec's build plugin, and FlowSpecRuntime's FlowDriver runs it: the app supplies the
// services its task states wait for, and the screens.
let package = Package(
    name: "LaunchAuth",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "flowspec", path: "../.."),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1")
    ],
    targets: [
        .target(
            name: "LaunchAuth",
            dependencies: [.product(name: "FlowSpecRuntime", package: "flowspec")],
            plugins: [.plugin(name: "FlowSpecGenerate", package: "flowspec")]
        ),
        // The plugin on the test target writes the spec's test paths as a Swift Testing suite;
        // `LaunchAuthPathHarness` runs them on the app's controller.
        .testTarget(
            name: "LaunchAuthTests",
            dependencies: [
                "LaunchAuth", .product(name: "FlowSpecTesting", package: "flowspec"),
                .product(name: "Clocks", package: "swift-clocks")
            ],
            plugins: [.plugin(name: "FlowSpecGenerate", package: "flowspec")]
        )
    ]
)
