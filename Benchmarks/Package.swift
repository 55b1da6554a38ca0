// swift-tools-version:6.0
// The benchmark executables, in a package of their own (as swift-nio keeps its benchmarks), so
// that `swift build` of PushContracts, or of a package that depends on it, never compiles them.
//
// They use `package` declarations of internal modules (LoopbackHTTP, FakeSupport, …), which
// only a module of the same package can see. So this package compiles those modules again,
// under the same names, from the main package's own folders: each Modules/<Name> is a
// symbolic link to ../../Sources/<Name>. Same names keep the symbols the same, so callgrind
// toggles written for the main package's binaries (`$s8FakeAPNs…`) match here too.
//
// Build from the repository root: swift build -c release --package-path Benchmarks
import PackageDescription

let package = Package(
    name: "PushContractsBenchmarks",
    platforms: [.macOS(.v13)],
    targets: [
        // The main package's layers (Docs/readme/architecture.md), through Modules/ links.
        .target(name: "PushCore", path: "Modules/PushCore"),
        .target(name: "PushCrypto", path: "Modules/PushCrypto"),
        .target(name: "Contracts", path: "Modules/Contracts"),
        .target(name: "CLoopbackShim", path: "Modules/CLoopbackShim"),
        .target(name: "LoopbackHTTP", dependencies: ["CLoopbackShim", "PushCore", "PushCrypto"], path: "Modules/LoopbackHTTP"),
        .target(name: "FakeSupport", dependencies: ["PushCore", "Contracts", "LoopbackHTTP"], path: "Modules/FakeSupport"),
        .target(name: "FakeBackend", dependencies: ["PushCore", "Contracts", "LoopbackHTTP", "FakeSupport"], path: "Modules/FakeBackend"),
        .target(name: "FakeAPNs", dependencies: ["PushCore", "PushCrypto", "Contracts", "LoopbackHTTP", "FakeSupport"], path: "Modules/FakeAPNs"),
        // LoopbackHTTP with a handler that does nothing (h2.sh, backend.sh, callgrind.sh echo).
        .executableTarget(name: "loopback-echo-server", dependencies: ["LoopbackHTTP"], path: "EchoServer"),
        // FakeAPNs on h2c or TLS with a registered key, printing a valid token (apns.sh, tls.sh, callgrind.sh apns).
        .executableTarget(name: "fake-apns-bench-server", dependencies: ["FakeAPNs", "LoopbackHTTP", "FakeSupport", "Contracts"], path: "FakeAPNsServer"),
        // An h2c load client, a different payload on every push (apns.sh, callgrind.sh apns).
        .executableTarget(name: "apns-load", dependencies: ["Contracts", "LoopbackHTTP", "PushCrypto"], path: "APNsLoad"),
        // FakeBackend.start() to ready, and the handler alone (backend.sh).
        .executableTarget(name: "backend-start-benchmark", dependencies: ["FakeBackend", "LoopbackHTTP", "FakeSupport"], path: "BackendStart"),
    ],
    swiftLanguageModes: [.v6]
)
