import Foundation
import Testing
@testable import ContractCheckCLI
import FakeAPNs
import PushScenarios

/// `contract-check serve` as the local-development tool: both fakes in one process, tokens
/// PUT to the backend delivered to by FakeAPNs, the APNs admin routes, the log, scenarios and
/// Simulator forwarding.
/// Serialized: each test holds three servers, and suites that count the process's server
/// threads run in parallel with this one.
@Suite(.serialized) struct ServeAPNsTests {
    static let token = "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"
    static let payload = #"{"aps":{"alert":{"title":"On the way","body":"Your order is on the way"}},"notificationId":"91","accountId":"a1","route":"orders/8F3K"}"#

    @Test func aTokenPutToTheBackendReceivesAnH2cPush() async throws {
        let serve = try await ServeRun(["--session", "s1=a1", "--apns-topic", "com.example.app"])
        #expect(serve.output.output.prefix(3) == ["backend \(serve.backend)", "admin \(serve.admin)", "apns \(serve.apns)"])
        #expect(try await serve.putDevice(Self.token) == 204)
        let providerToken = try await serve.send("GET", serve.admin + "/apns/provider-token").body
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(providerToken.split(separator: ".").count == 3)

        #expect(try serve.pushWithCurl(Self.token, providerToken: providerToken, payload: Self.payload) == "2 200")
        let deliveries = try await serve.send("GET", serve.admin + "/apns/deliveries?token=\(Self.token)").body
        #expect(deliveries.contains(#"notificationId\":\"91"#), "\(deliveries)")

        let lines = serve.output.output
        #expect(lines.contains { $0.contains("backend PUT   /v1/devices/0a1b2c3d…e8f9 204 account=a1") }, "\(lines)")
        #expect(lines.contains { $0.contains("apns    POST  /3/device/0a1b2c3d…e8f9 200 apns-id=") && $0.hasSuffix("delivered") },
                "\(lines)")
        #expect(!lines.joined().contains("\u{1B}["), "not a terminal: no colour")
        #expect(serve.stop() == 0)
    }

    @Test func aScripted410IsLoggedWithItsReason() async throws {
        let serve = try await ServeRun(["--apns-topic", "com.example.app"])
        #expect(try await serve.putDevice(Self.token, bearer: "anyone") == 204)
        let unregister = try await serve.send("POST", serve.admin + "/apns/unregister",
                                              body: #"{"token":"\#(Self.token)","timestamp":1700000000000}"#)
        #expect(unregister.status == 200)
        let providerToken = try await serve.send("GET", serve.admin + "/apns/provider-token").body
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let answer = try await serve.send("POST", serve.apns + "/3/device/\(Self.token)",
                                          headers: ["authorization": "bearer \(providerToken)", "apns-topic": "com.example.app",
                                                    "apns-push-type": "alert"], body: Self.payload)
        #expect(answer.status == 410)
        #expect(answer.body.contains(#""timestamp":1700000000000"#))
        #expect(serve.output.output.contains { $0.contains("/3/device/0a1b2c3d…e8f9 410 Unregistered") })
        let journal = try await serve.send("GET", serve.admin + "/apns/journal").body
        #expect(journal.contains(#""reason":"Unregistered""#))
        #expect(serve.stop() == 0)
    }

    @Test func aKeyFileSignsTheProviderTokens() async throws {
        let key = APNsSigningKey.generate()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("AuthKey_\(UUID().uuidString).p8")
        try Data(key.pemRepresentation.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let serve = try await ServeRun(["--apns-key", "ABC123DEFG:DEF123GHIJ:\(file.path)", "--apns-any-token"])
        #expect(serve.output.output.contains { $0.contains("key ABC123DEFG team DEF123GHIJ") })
        // A token the sender mints itself with the same .p8 verifies.
        let token = ProviderToken.mint(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", signingKey: key)
        let answer = try await serve.send("POST", serve.apns + "/3/device/\(Self.token)",
                                          headers: ["authorization": "bearer \(token)", "apns-topic": "com.example.app",
                                                    "apns-push-type": "alert"], body: Self.payload)
        #expect(answer.status == 200, "\(answer.body)")
        #expect(serve.stop() == 0)
    }

    @Test func aBadKeyOptionIsAUsageError() {
        let output = ServeCommandTests.Collected()
        let status = ServeCommand.serve(["--apns-key", "ABC:DEF:/nonexistent/key.p8"], output: output,
                                        until: DispatchSemaphore(value: 0))
        #expect(status == 64)
        #expect(output.errorOutput.first?.contains("cannot read '/nonexistent/key.p8'") == true, "\(output.errorOutput)")
    }

    @Test func aScenarioPreloadsItsFaults() async throws {
        let serve = try await ServeRun(["--session", "s1=a1", "--apns-topic", "com.example.app", "--scenario", "duplicate-delivery"])
        #expect(serve.output.output.contains { $0.contains("duplicate-delivery: FakeAPNs: the next accepted push is delivered twice") })
        #expect(try await serve.putDevice(Self.token) == 204)
        let providerToken = try await serve.send("GET", serve.admin + "/apns/provider-token").body
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try serve.pushWithCurl(Self.token, providerToken: providerToken, payload: Self.payload) == "2 200")
        #expect(serve.output.output.contains { $0.contains(" 200 apns-id=") && $0.hasSuffix("delivered twice") })
        #expect(serve.stop() == 0)
    }

    @Test func acceptedPushesAreForwardedToTheSimulator() async throws {
        // A stand-in xcrun on PATH records its arguments and the .apns file it was given.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("xcrun-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let record = folder.appendingPathComponent("record.txt").path
        let script = folder.appendingPathComponent("xcrun")
        try Data("#!/bin/sh\necho \"$*\" >> '\(record)'\ncat \"$5\" >> '\(record)'\n".utf8).write(to: script)
        #expect(chmod(script.path, 0o755) == 0)
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = folder.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")

        let serve = try await ServeRun(["--session", "s1=a1", "--apns-topic", "com.example.app",
                                        "--forward-to-simulator", "com.example.app"], environment: environment)
        #expect(try await serve.putDevice(Self.token) == 204)
        let providerToken = try await serve.send("GET", serve.admin + "/apns/provider-token").body
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try serve.pushWithCurl(Self.token, providerToken: providerToken, payload: Self.payload) == "2 200")
        let forwarded = try await serve.waitForLine { $0.contains("xcrun simctl push booted com.example.app push-1.apns") }
        #expect(forwarded != nil, "\(serve.output.output)")
        #expect(serve.stop() == 0)

        let recorded = String(decoding: FileManager.default.contents(atPath: record) ?? Data(), as: UTF8.self)
        #expect(recorded.hasPrefix("simctl push booted com.example.app /"), "\(recorded)")
        #expect(recorded.contains("push-1.apns\n" + Self.payload), "\(recorded)")
    }

    @Test(arguments: [
        ("auto", [:], true, true),
        ("auto", ["NO_COLOR": "1"], true, false),
        ("auto", [:], false, false),
        ("auto", ["TERM": "dumb"], true, false),
        ("always", ["NO_COLOR": "1"], false, true),
        ("never", [:], true, false),
    ] as [(String, [String: String], Bool, Bool)])
    func colourFollowsTheTerminalAndNoColor(choice: String, environment: [String: String], terminal: Bool, expected: Bool) {
        #expect(ServeLog.wantsColour(choice, environment: environment, isTerminal: terminal) == expected)
    }

    @Test func colouredLinesPaintTheStatus() async throws {
        let serve = try await ServeRun(["--color", "always", "--apns-any-token"])
        #expect(try await serve.putDevice(Self.token, bearer: "anyone") == 204)
        #expect(serve.output.output.contains { $0.contains("\u{1B}[32m204\u{1B}[0m") }, "\(serve.output.output)")
        #expect(serve.stop() == 0)
    }
}

extension ServeAPNsTests {
    @Test func theScenario410sUnregistersATokenAfterItsFirstPush() async throws {
        let serve = try await ServeRun(["--session", "s1=a1", "--apns-topic", "com.example.app", "--scenario", "410s"])
        #expect(try await serve.putDevice(Self.token) == 204)
        let providerToken = try await serve.send("GET", serve.admin + "/apns/provider-token").body
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try serve.pushWithCurl(Self.token, providerToken: providerToken, payload: Self.payload) == "2 200")
        #expect(try serve.pushWithCurl(Self.token, providerToken: providerToken, payload: Self.payload) == "2 410")
        #expect(serve.output.output.contains { $0.contains("410s: 0a1b2c3d…e8f9 unregistered") })
        // Registering again (the app reinstalled) makes the token deliverable again.
        #expect(try await serve.putDevice(Self.token) == 204)
        #expect(try serve.pushWithCurl(Self.token, providerToken: providerToken, payload: Self.payload) == "2 200")
        #expect(serve.stop() == 0)
    }
}
