// swift-tools-version: 6.0
import PackageDescription

// The six-chapter story progression with a checkpoint. The spec
// `Sources/Chapters/Chapters.flowspec.yaml` becomes Swift at build time through flowspec's
// build plugin, and FlowSpecRuntime's FlowDriver restores and saves the checkpoint.
let package = Package(
    name: "Chapters",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "flowspec", path: "../..")
    ],
    targets: [
        .target(
            name: "Chapters",
            dependencies: [.product(name: "FlowSpecRuntime", package: "flowspec")],
            plugins: [.plugin(name: "FlowSpecGenerate", package: "flowspec")]
        ),
        // The plugin on the test target writes the spec's test paths as a Swift Testing suite;
        // `ChaptersPathHarness` runs them on the game's progress.
        .testTarget(
            name: "ChaptersTests",
            dependencies: ["Chapters", .product(name: "FlowSpecTesting", package: "flowspec")],
            plugins: [.plugin(name: "FlowSpecGenerate", package: "flowspec")]
        )
    ]
)
