// swift-tools-version: 6.0
import PackageDescription

// An onboarding container of mixed steps (an info page, a permission request with a timeout,
// a form), then home and profile. The spec `Sources/CoreKit/CoreKit.flowspec.yaml` becomes
// Swift at build time through flowspec's build plugin, and FlowSpecRuntime's FlowDriver runs it.
let package = Package(
    name: "CoreKit",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "flowspec", path: "../.."),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1")
    ],
    targets: [
        .target(
            name: "CoreKit",
            dependencies: [.product(name: "FlowSpecRuntime", package: "flowspec")],
            plugins: [.plugin(name: "FlowSpecGenerate", package: "flowspec")]
        ),
        // The plugin on the test target writes the spec's test paths as a Swift Testing suite;
        // `CoreKitPathHarness` runs them on the app's container.
        .testTarget(
            name: "CoreKitTests",
            dependencies: [
                "CoreKit", .product(name: "FlowSpecTesting", package: "flowspec"),
                .product(name: "Clocks", package: "swift-clocks")
            ],
            plugins: [.plugin(name: "FlowSpecGenerate", package: "flowspec")]
        )
    ]
)
