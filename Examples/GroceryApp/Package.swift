// swift-tools-version:6.0
// GroceryApp: seed 000's push logic (cards 5, 7 and 8) as an iOS app would write it, tested
// with PushContracts' fakes and scenarios through their public API only.
import PackageDescription

let package = Package(
    name: "GroceryApp",
    platforms: [.macOS(.v13), .iOS(.v17)],
    products: [
        .library(name: "App", targets: ["App"]),
    ],
    dependencies: [
        .package(name: "PushContracts", path: "../.."),
    ],
    targets: [
        // The app never links the toolkit: only its tests do.
        .target(name: "App"),
        .testTarget(name: "AppTests", dependencies: [
            "App",
            .product(name: "Contracts", package: "PushContracts"),
            .product(name: "FakeBackend", package: "PushContracts"),
            .product(name: "FakeAPNs", package: "PushContracts"),
            .product(name: "PushScenarios", package: "PushContracts"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
