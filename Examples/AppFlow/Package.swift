// swift-tools-version: 6.0
import PackageDescription

// The whole app, composed of the three reference flows: `App` runs `FirstRun`, `LaunchAuth`
// and `Chapters` as sub-flows. The spec `Sources/AppFlow/App.flowspec.yaml` imports them from
// `Sources/AppFlow/Flows.flowspec.yaml`; both become Swift at build time through flowspec's
// build plugin, and FlowSpecRuntime's FlowDriver runs it.
let package = Package(
    name: "AppFlow",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "flowspec", path: "../..")
    ],
    targets: [
        .target(
            name: "AppFlow",
            dependencies: [.product(name: "FlowSpecRuntime", package: "flowspec")],
            plugins: [.plugin(name: "FlowSpecGenerate", package: "flowspec")]
        ),
        // The plugin on the test target writes the test paths of every machine of the spec as
        // Swift Testing suites; `AppPathHarness` runs the composed flow's on the app's controller.
        .testTarget(
            name: "AppFlowTests",
            dependencies: ["AppFlow", .product(name: "FlowSpecTesting", package: "flowspec")],
            plugins: [.plugin(name: "FlowSpecGenerate", package: "flowspec")]
        )
    ]
)
