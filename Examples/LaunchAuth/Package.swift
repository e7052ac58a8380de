// swift-tools-version: 6.0
import PackageDescription

// Launch and authentication with a timeout on every async step. The spec
// `Sources/LaunchAuth/LaunchAuth.flowspec.yaml` becomes Swift at build time through
// flowspec's build plugin; the controller drives its timeouts through an injectable clock.
let package = Package(
    name: "LaunchAuth",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "flowspec", path: "../..")
    ],
    targets: [
        .target(
            name: "LaunchAuth",
            dependencies: [.product(name: "FlowSpecRuntime", package: "flowspec")],
            plugins: [.plugin(name: "FlowSpecGenerate", package: "flowspec")]
        ),
        .testTarget(name: "LaunchAuthTests", dependencies: ["LaunchAuth"])
    ]
)
