// swift-tools-version:6.0
// PushContracts: contracts, contract-check and loopback fakes for push notifications.
// No package dependencies, by design: only the toolchain.
import PackageDescription

let package = Package(
    name: "PushContracts",
    platforms: [.macOS(.v13), .iOS(.v17)],
    products: [
        .library(name: "Contracts", targets: ["Contracts"]),
        .library(name: "FakeBackend", targets: ["FakeBackend"]),
        .library(name: "FakeAPNs", targets: ["FakeAPNs"]),
        .library(name: "PushScenarios", targets: ["PushScenarios"]),
        .executable(name: "contract-check", targets: ["contract-check"]),
    ],
    dependencies: [],
    targets: [
        // The layers, bottom up (Docs/readme/architecture.md): nothing here imports a layer above it.
        .target(name: "PushCore"),
        .target(name: "PushCrypto"),
        .target(name: "Contracts"),
        .target(name: "CLoopbackShim"),
        .target(name: "LoopbackHTTP", dependencies: ["CLoopbackShim", "PushCore", "PushCrypto"]),
        .target(name: "FakeSupport", dependencies: ["PushCore", "Contracts", "LoopbackHTTP"]),
        .target(name: "FakeBackend", dependencies: ["PushCore", "Contracts", "LoopbackHTTP", "FakeSupport"]),
        .target(name: "FakeAPNs", dependencies: ["PushCore", "PushCrypto", "Contracts", "LoopbackHTTP", "FakeSupport"]),
        .target(name: "PushScenarios", dependencies: ["PushCore", "Contracts", "FakeSupport", "FakeBackend", "FakeAPNs"]),
        .target(name: "ContractCheckCLI", dependencies: ["CLoopbackShim", "PushCore", "PushCrypto", "Contracts", "LoopbackHTTP", "FakeSupport", "FakeBackend", "FakeAPNs", "PushScenarios"]),
        .executableTarget(name: "contract-check", dependencies: ["ContractCheckCLI"]),
        // The benchmark executables are a package of their own: Benchmarks/Package.swift.
        // What the test targets share (a raw TCP client, hex for vectors), once: no target keeps a copy.
        .target(name: "PushTestSupport", path: "Tests/PushTestSupport"),
        .testTarget(name: "ContractsTests", dependencies: ["Contracts", "PushCore"]),
        .testTarget(name: "PushCryptoTests", dependencies: ["PushCrypto", "PushCore", "PushTestSupport"]),
        .testTarget(name: "LoopbackHTTPTests", dependencies: ["LoopbackHTTP", "PushCore", "PushCrypto", "FakeSupport", "PushTestSupport"]),
        .testTarget(name: "FakeSupportTests", dependencies: ["FakeSupport", "LoopbackHTTP", "PushCore", "Contracts"]),
        .testTarget(name: "FakeBackendTests", dependencies: ["FakeBackend", "FakeSupport", "LoopbackHTTP", "PushCore", "Contracts", "PushTestSupport"]),
        .testTarget(name: "FakeAPNsTests", dependencies: ["FakeAPNs", "FakeSupport", "LoopbackHTTP", "PushCore", "PushCrypto", "Contracts", "PushTestSupport"]),
        .testTarget(name: "ContractCheckTests", dependencies: ["ContractCheckCLI", "FakeSupport", "LoopbackHTTP", "PushCore", "Contracts", "PushTestSupport"]),
        // The repository's documents (README, CHANGELOG, Docs/readme, doc snippets, package pins).
        .testTarget(name: "RepositoryDocsTests", dependencies: ["ContractCheckCLI", "FakeAPNs", "FakeBackend", "PushTestSupport"]),
        .testTarget(name: "ScenarioTests", dependencies: ["PushScenarios", "FakeBackend", "FakeAPNs", "Contracts", "PushTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
