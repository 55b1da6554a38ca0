import Foundation
import Testing
@testable import ContractCheckCLI
import FakeAPNs
import PushScenarios
import Contracts
import PushTestSupport

/// `contract-check serve` as the local-development tool: the repository's development key and
/// provider tokens for curl, pushes over h2c to tokens the app PUT, a scripted 410, the log,
/// scenarios and Simulator forwarding.
///
/// Serialized: each test holds three servers, and suites that count the process's server
/// threads run in parallel with this one.
@Suite(.serialized) struct ServeDevelopmentTests {
    static let token = "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"
    static let payload = #"{"aps":{"alert":{"title":"On the way","body":"Your order is on the way"}},"notificationId":"91","accountId":"a1","route":"orders/8F3K"}"#
    /// The committed development key (Fixtures/dev).
    static let developmentKey = "DEVKEY0001:DEVTEAM001:" + URL(fileURLWithPath: packageRoot).appendingPathComponent("Fixtures/dev/AuthKey_DEVKEY0001.p8").path

    static func providerToken(_ serve: ServeRun) async throws -> String {
        try await serve.send("GET", serve.admin + "/apns/provider-token").body.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func aTokenPutToTheBackendReceivesAnH2cPushSignedWithTheDevelopmentKey() async throws {
        let serve = try await ServeRun(["--session", "s1=a1", "--apns-topic", "com.example.app", "--apns-key", Self.developmentKey])
        #expect(serve.output.output.prefix(3) == ["backend \(serve.backend)", "apns \(serve.apns)", "admin \(serve.admin)"])
        #expect(serve.output.output.contains { $0.contains("provider tokens for key DEVKEY0001: curl -s \(serve.admin)/apns/provider-token") })
        #expect(try await serve.putDevice(Self.token) == 204)
        let providerToken = try await Self.providerToken(serve)
        #expect(providerToken.split(separator: ".").count == 3)

        #expect(try await serve.pushWithCurl(Self.token, providerToken: providerToken, payload: Self.payload) == "2 200")
        // A token signed with another key is refused: the checks are on.
        let stranger = ProviderToken.mint(keyID: "DEVKEY0001", teamID: "DEVTEAM001", signingKey: .generate())
        #expect(try await serve.pushWithCurl(Self.token, providerToken: stranger, payload: Self.payload) == "2 403")
        let deliveries = try await serve.send("GET", serve.admin + "/apns/deliveries?token=\(Self.token)").body
        #expect(deliveries.contains(#"notificationId\":\"91"#), "\(deliveries)")

        let lines = serve.output.output
        #expect(lines.contains { $0.contains(" backend PUT /v1/devices/0a1b2c3d…e8f9 204 account=a1") }, "\(lines)")
        #expect(lines.contains { $0.contains(" apns POST /3/device/0a1b2c3d…e8f9 200 delivery=delivered") }, "\(lines)")
        #expect(lines.contains { $0.contains(" apns POST /3/device/0a1b2c3d…e8f9 403 InvalidProviderToken") }, "\(lines)")
        #expect(!lines.joined().contains("\u{1B}["), "not a terminal: no colour")
        #expect(serve.stop() == 0)
    }

    @Test func aProviderTokenWithoutAPrivateKeyIsAProblemNamingTheOption() async throws {
        let serve = try await ServeRun(["--apns-topic", "com.example.app"])
        let answer = try await serve.send("GET", serve.admin + "/apns/provider-token")
        #expect(answer.status == 404)
        #expect(answer.body.contains(#"--apns-key KEYID:TEAMID:PATH"#), "\(answer.body)")
        #expect(answer.body.contains(".p8 private key"), "\(answer.body)")
        #expect(serve.stop() == 0)
    }

    /// One serve plays both environments: the app's declared environment decides the
    /// device's, the host a push addresses decides the push's.
    @Test func aProductionRegistrationIsPushedThroughTheProductionHostOnly() async throws {
        let serve = try await ServeRun(["--session", "s1=a1", "--apns-topic", "com.example.app"])
        #expect(try await serve.putDevice(Self.token, environment: "production") == 204)
        #expect(try await serve.pushWithCurl(Self.token, providerToken: "unchecked", payload: Self.payload, host: "api.push.apple.com") == "2 200")
        #expect(try await serve.pushWithCurl(Self.token, providerToken: "unchecked", payload: Self.payload) == "2 400")
        #expect(try await serve.pushWithCurl(Self.token, providerToken: "unchecked", payload: Self.payload, host: "api.sandbox.push.apple.com") == "2 400")
        let journal = try await serve.send("GET", serve.admin + "/apns/journal").body
        #expect(journal.contains("the token is registered for production; this request is for development (the fake's default environment)"), "\(journal)")
        #expect(journal.contains("the token is registered for production; this request is for development (addressed to api.sandbox.push.apple.com"), "\(journal)")
        #expect(serve.stop() == 0)
    }

    @Test func theDefaultEnvironmentIsProductionWhenAsked() async throws {
        let serve = try await ServeRun(["--session", "s1=a1", "--apns-topic", "com.example.app", "--apns-environment", "production"])
        #expect(try await serve.putDevice(Self.token, environment: "production") == 204)
        #expect(try await serve.pushWithCurl(Self.token, providerToken: "unchecked", payload: Self.payload) == "2 200")
        #expect(serve.stop() == 0)
    }

    @Test func aScripted410IsLoggedWithItsReason() async throws {
        let serve = try await ServeRun(["--apns-topic", "com.example.app"])
        #expect(serve.output.output.contains { $0.contains("provider tokens are not checked (no --apns-key)") })
        #expect(try await serve.putDevice(Self.token, bearer: "anyone") == 204)
        let unregister = try await serve.send("POST", serve.admin + "/apns/tokens/unregister",
                                              body: #"{"token":"\#(Self.token)","at":1700000000000}"#)
        #expect(unregister.status == 204, "\(unregister.body)")
        let answer = try await serve.send("POST", serve.apns + "/3/device/\(Self.token)",
                                          headers: ["apns-topic": "com.example.app", "apns-push-type": "alert"], body: Self.payload)
        #expect(answer.status == 410)
        #expect(answer.body.contains(#""timestamp":1700000000000"#))
        #expect(serve.output.output.contains { $0.contains(" apns POST /3/device/0a1b2c3d…e8f9 410 Unregistered") })
        #expect(serve.stop() == 0)
    }

    @Test func aScenarioPreloadsItsFaults() async throws {
        let serve = try await ServeRun(["--session", "s1=a1", "--apns-topic", "com.example.app", "--scenario", "duplicate-delivery"])
        // The URL lines first (scripts read them), then what the scenario preloaded.
        let lines = serve.output.output
        #expect(lines.prefix(3) == ["backend \(serve.backend)", "apns \(serve.apns)", "admin \(serve.admin)"], "\(lines)")
        #expect(lines.dropFirst(3).contains { $0.contains("duplicate-delivery: FakeAPNs: the next accepted push is delivered twice") }, "\(lines)")
        #expect(try await serve.putDevice(Self.token) == 204)
        #expect(try await serve.pushWithCurl(Self.token, providerToken: "unchecked", payload: Self.payload) == "2 200")
        let deliveries = try await serve.send("GET", serve.admin + "/apns/deliveries?token=\(Self.token)").body
        #expect(deliveries.contains(#""isDuplicate" : true"#), "delivered twice: \(deliveries)")
        let opened = try await serve.send("GET", serve.admin + "/faults").body
        #expect(opened.contains(#""kind" : "loseResponse""#), "\(opened)")
        #expect(serve.stop() == 0)
    }

    @Test func theScenarioOrderTrackerGivesTheDeviceAPushToStartToken() async throws {
        let serve = try await ServeRun(["--session", "s1=a1", "--apns-topic", "com.example.app", "--scenario", "order-tracker"])
        let pushToStart = PushScenario.pushToStartToken
        #expect(serve.output.output.contains { $0.contains("order-tracker: FakeAPNs: device 0a1b2c…d7e8f9 has push-to-start token \(pushToStart)") },
                "\(serve.output.output)")
        let start = #"{"aps":{"timestamp":1700000000,"event":"start","content-state":{"stage":"confirmed"},"#
            + #""attributes-type":"OrderTrackerAttributes","attributes":{"orderId":"8F3K"},"#
            + #""alert":{"title":"Order 8F3K","body":"We are on it"}}}"#
        let answer = try await ServeRun.curl(["-s", "-o", "/dev/null", "-w", "%{http_code}", "--http2-prior-knowledge",
                                        "-H", "authorization: bearer unchecked", "-H", "apns-topic: com.example.app.push-type.liveactivity",
                                        "-H", "apns-push-type: liveactivity", "-d", start, serve.apns + "/3/device/\(pushToStart)"])
        #expect(answer == "200")
        let activities = try await serve.send("GET", serve.admin + "/apns/live-activities").body
        #expect(activities.contains(#""orderId" : "8F3K""#), "the start push started the tracker: \(activities)")
        #expect(serve.stop() == 0)
    }

    @Test func theScenarioThrottlingThrottlesBothFakes() async throws {
        let serve = try await ServeRun(["--session", "s1=a1", "--apns-topic", "com.example.app", "--scenario", "throttling"])
        #expect(try await serve.putDevice(Self.token) == 429)
        #expect(try await serve.putDevice(Self.token) == 204)
        var answers: [String] = []
        for _ in 0..<3 { answers.append(try await serve.pushWithCurl(Self.token, providerToken: "unchecked", payload: Self.payload)) }
        #expect(answers == ["2 200", "2 200", "2 429"])
        #expect(serve.output.output.contains { $0.contains(" apns POST /3/device/0a1b2c3d…e8f9 429 TooManyRequests") })
        #expect(serve.stop() == 0)
    }

    @Test func theScenario410sUnregistersATokenAfterItsFirstPush() async throws {
        let serve = try await ServeRun(["--session", "s1=a1", "--apns-topic", "com.example.app", "--scenario", "410s"])
        #expect(try await serve.putDevice(Self.token) == 204)
        #expect(try await serve.pushWithCurl(Self.token, providerToken: "unchecked", payload: Self.payload) == "2 200")
        #expect(try await serve.pushWithCurl(Self.token, providerToken: "unchecked", payload: Self.payload) == "2 410")
        #expect(serve.output.output.contains { $0.contains("410s: 0a1b2c3d…e8f9 unregistered") })
        // Registering again (the app reinstalled) makes the token deliverable again.
        #expect(try await serve.putDevice(Self.token) == 204)
        #expect(try await serve.pushWithCurl(Self.token, providerToken: "unchecked", payload: Self.payload) == "2 200")
        #expect(serve.stop() == 0)
    }

    @Test func deliveredPushesAreForwardedToTheSimulator() async throws {
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
        #expect(try await serve.pushWithCurl(Self.token, providerToken: "unchecked", payload: Self.payload) == "2 200")
        let forwarded = try await serve.waitForLine { $0.contains("xcrun simctl push booted com.example.app push-1.apns") }
        #expect(forwarded != nil, "\(serve.output.output)")
        #expect(serve.stop() == 0)

        let recorded = String(decoding: FileManager.default.contents(atPath: record) ?? Data(), as: UTF8.self)
        #expect(recorded.hasPrefix("simctl push booted com.example.app /"), "\(recorded)")
        // Pushed to the Simulator, the files are removed on exit.
        let pushedFile = recorded.split(separator: "\n").first.map { String($0.dropFirst("simctl push booted com.example.app ".count)) } ?? ""
        #expect(!pushedFile.isEmpty && !FileManager.default.fileExists(atPath: pushedFile), "\(pushedFile)")
        // The file xcrun got is the payload plus "Simulator Target Bundle": our own apns-file contract passes it.
        let file = try #require(recorded.split(separator: "\n", maxSplits: 1).last.map(String.init))
        #expect(file == String(Self.payload.dropLast()) + #","Simulator Target Bundle":"com.example.app"}"#, "\(file)")
        let apnsFile = try #require(ContractSet.v1.contract(named: "apns-file"))
        #expect(apnsFile.validate(bytes: Array(file.utf8)).isEmpty, "\(apnsFile.validate(bytes: Array(file.utf8)))")
    }

    @Test func withoutXcrunForwardingSaysSoOnceAtStartUp() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = "/nonexistent-path-for-this-test"
        let serve = try await ServeRun(["--session", "s1=a1", "--apns-topic", "com.example.app",
                                        "--forward-to-simulator", "com.example.app"], environment: environment)
        #expect(serve.output.output.contains { $0.contains("sim no xcrun on PATH") }, "\(serve.output.output)")
        #expect(try await serve.putDevice(Self.token) == 204)
        #expect(try await serve.pushWithCurl(Self.token, providerToken: "unchecked", payload: Self.payload) == "2 200")
        #expect(try await serve.pushWithCurl(Self.token, providerToken: "unchecked", payload: Self.payload) == "2 200")
        let second = try await serve.waitForLine { $0.contains("wrote push-2.apns") }
        #expect(second != nil, "\(serve.output.output)")
        #expect(serve.stop() == 0)
        let lines = serve.output.output
        #expect(lines.filter { $0.contains("xcrun") && !$0.contains("wrote push-") }.count == 1, "said once: \(lines)")
        #expect(!lines.contains { $0.contains("exit 127") || $0.contains("cannot run") }, "\(lines)")
        // Without xcrun the files are all there is of the pushes: they stay after serve exits,
        // in the folder the start-up note names (they used to be deleted on exit).
        let note = try #require(lines.first { $0.contains("written as .apns files in ") })
        let folder = try #require(note.components(separatedBy: "written as .apns files in ").last?.components(separatedBy: " ").first)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(note.contains("(kept after serve exits)"), "\(note)")
        #expect(FileManager.default.fileExists(atPath: folder + "/push-2.apns"), "\(folder)")
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
        #expect(try await serve.send("PUT", serve.backend + "/v1/devices/abc", headers: ["Authorization": "Bearer anyone"]).status == 400)
        let lines = serve.output.output
        #expect(lines.contains { $0.contains("\u{1B}[36mbackend\u{1B}[0m \u{1B}[32mPUT /v1/devices/0a1b2c3d…e8f9 204") }, "\(lines)")
        #expect(lines.contains { $0.contains("\u{1B}[33mPUT /v1/devices/abc 400") }, "\(lines)")
        #expect(serve.stop() == 0)
    }
}
