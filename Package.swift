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
        .target(name: "Contracts"),
        .target(name: "CLoopbackShim"),
        .target(name: "LoopbackHTTP", dependencies: ["CLoopbackShim", "Contracts"]),
        .target(name: "FakeBackend", dependencies: ["Contracts", "LoopbackHTTP"]),
        .target(name: "FakeAPNs", dependencies: ["Contracts", "LoopbackHTTP"]),
        .target(name: "PushScenarios", dependencies: ["Contracts", "LoopbackHTTP", "FakeBackend", "FakeAPNs"]),
        .target(name: "ContractCheckCLI", dependencies: ["Contracts", "LoopbackHTTP", "FakeBackend", "FakeAPNs", "PushScenarios"]),
        .executableTarget(name: "contract-check", dependencies: ["ContractCheckCLI"]),
        // Benchmark-only server (Benchmarks/h2.sh); not a product.
        .executableTarget(name: "loopback-echo-server", dependencies: ["LoopbackHTTP"], path: "Benchmarks/EchoServer"),
        // Benchmark-only server (Benchmarks/apns.sh); not a product.
        .executableTarget(name: "fake-apns-bench-server", dependencies: ["FakeAPNs", "LoopbackHTTP"], path: "Benchmarks/FakeAPNsServer"),
        // Benchmark-only h2c load client, a different payload on every push (Benchmarks/apns.sh); not a product.
        .executableTarget(name: "apns-load", dependencies: ["Contracts", "LoopbackHTTP"], path: "Benchmarks/APNsLoad"),
        .executableTarget(name: "backend-start-benchmark", dependencies: ["FakeBackend"], path: "Benchmarks/BackendStart"),
        .testTarget(name: "ContractsTests", dependencies: ["Contracts", "LoopbackHTTP"]),
        .testTarget(name: "LoopbackHTTPTests", dependencies: ["LoopbackHTTP"]),
        .testTarget(name: "FakeBackendTests", dependencies: ["FakeBackend", "LoopbackHTTP", "Contracts"]),
        .testTarget(name: "FakeAPNsTests", dependencies: ["FakeAPNs", "LoopbackHTTP", "Contracts"]),
        .testTarget(name: "ContractCheckTests", dependencies: ["ContractCheckCLI", "Contracts"]),
        .testTarget(name: "ScenarioTests", dependencies: ["PushScenarios", "FakeBackend", "FakeAPNs", "Contracts"]),
    ],
    swiftLanguageModes: [.v6]
)
