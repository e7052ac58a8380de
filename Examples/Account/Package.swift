// swift-tools-version: 6.0
import PackageDescription

// An account flow: sign in (with a one-time code), sign up, password reset and the signed-in
// app, written with compound states so that what every screen of a part shares (cancelling,
// a time limit, the session's end) is written once. When the session expires the user enters
// the password again and comes back to the very screen they left, through a history state.
// Signed in, the screens and the connection to the server run side by side, as two regions.
// The spec `Sources/Account/Account.flowspec.yaml` becomes Swift at build time through
// flowspec's build plugin, and FlowSpecRuntime's FlowDriver runs it: the app supplies the
// network calls its task states wait for, the session, the analytics and the screens.
let package = Package(
    name: "Account",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "flowspec", path: "../..")
    ],
    targets: [
        .target(
            name: "Account",
            dependencies: [.product(name: "FlowSpecRuntime", package: "flowspec")],
            plugins: [.plugin(name: "FlowSpecGenerate", package: "flowspec")]
        ),
        // The plugin on the test target writes the spec's test paths as a Swift Testing suite;
        // `AccountPathHarness` runs them on the app's controller. The tests move time with
        // FlowSpecTesting's `FlowTestClock`.
        .testTarget(
            name: "AccountTests",
            dependencies: ["Account", .product(name: "FlowSpecTesting", package: "flowspec")],
            plugins: [.plugin(name: "FlowSpecGenerate", package: "flowspec")]
        )
    ]
)
