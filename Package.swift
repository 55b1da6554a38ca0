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
        .target(name: "ContractCheckCLI", dependencies: ["PushCore", "PushCrypto", "Contracts", "LoopbackHTTP", "FakeSupport", "FakeBackend", "FakeAPNs", "PushScenarios"]),
        .executableTarget(name: "contract-check", dependencies: ["ContractCheckCLI"]),
        // Benchmark-only server (Benchmarks/h2.sh); not a product.
        .executableTarget(name: "loopback-echo-server", dependencies: ["LoopbackHTTP"], path: "Benchmarks/EchoServer"),
        // Benchmark-only server (Benchmarks/apns.sh); not a product.
        .executableTarget(name: "fake-apns-bench-server", dependencies: ["FakeAPNs", "LoopbackHTTP", "FakeSupport"], path: "Benchmarks/FakeAPNsServer"),
        // Benchmark-only h2c load client, a different payload on every push (Benchmarks/apns.sh); not a product.
        .executableTarget(name: "apns-load", dependencies: ["Contracts", "LoopbackHTTP", "PushCrypto"], path: "Benchmarks/APNsLoad"),
        .executableTarget(name: "backend-start-benchmark", dependencies: ["FakeBackend", "LoopbackHTTP", "FakeSupport"], path: "Benchmarks/BackendStart"),
        .testTarget(name: "ContractsTests", dependencies: ["Contracts", "PushCore"]),
        .testTarget(name: "LoopbackHTTPTests", dependencies: ["LoopbackHTTP", "PushCore", "PushCrypto", "FakeSupport"]),
        .testTarget(name: "FakeSupportTests", dependencies: ["FakeSupport", "LoopbackHTTP", "PushCore", "Contracts"]),
        .testTarget(name: "FakeBackendTests", dependencies: ["FakeBackend", "FakeSupport", "LoopbackHTTP", "PushCore", "Contracts"]),
        .testTarget(name: "FakeAPNsTests", dependencies: ["FakeAPNs", "FakeSupport", "LoopbackHTTP", "PushCore", "PushCrypto", "Contracts"]),
        .testTarget(name: "ContractCheckTests", dependencies: ["ContractCheckCLI", "FakeSupport", "LoopbackHTTP", "PushCore", "Contracts"]),
        .testTarget(name: "ScenarioTests", dependencies: ["PushScenarios", "FakeBackend", "FakeAPNs", "Contracts"]),
    ],
    swiftLanguageModes: [.v6]
)
