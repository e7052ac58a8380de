// swift-tools-version: 6.0
import PackageDescription

// An onboarding container of mixed steps (an info page, a permission request with a timeout,
// a form), then home and profile. The spec `Sources/CoreKit/CoreKit.flowspec.yaml` becomes
// Swift at build time through flowspec's build plugin.
let package = Package(
    name: "CoreKit",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "flowspec", path: "../..")
    ],
    targets: [
        .target(
            name: "CoreKit",
            dependencies: [.product(name: "FlowSpecRuntime", package: "flowspec")],
            plugins: [.plugin(name: "FlowSpecGenerate", package: "flowspec")]
        ),
        .testTarget(name: "CoreKitTests", dependencies: ["CoreKit"])
    ]
)
