import Foundation
import Testing
@testable import ContractCheckCLI
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 29: curl over `serve --tls --apns-channels-port 0`, trusting only serve's CA: creates,
/// lists, reads and deletes a channel on the channel management listener, and broadcasts on
/// the push port to two activities on two devices subscribed through the admin API. The
/// recipe of Docs/readme/broadcast.md. No PyPI sender supports channels (see that page).
@Suite struct ServeBroadcastTests {
    static let devices = [String(repeating: "5a", count: 32), String(repeating: "6b", count: 32)]

    /// curl's answer with its headers (`-i`), over HTTP/2 and TLS trusting `ca`.
    static func curl(_ ca: String, _ arguments: [String]) throws -> String {
        try ServeRun.curl(["-sS", "--max-time", "20", "--http2", "--cacert", ca, "-i"] + arguments)
    }

    static func header(_ name: String, in answer: String) -> String? {
        for line in answer.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name { return parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }

    @Test(.enabled(if: ServeTLSTests.curl != nil, "curl is not installed"))
    func curlManagesAChannelAndBroadcastsToTwoDevices() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("broadcast-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let serve = try await ServeRun(["--tls", "--tls-ca-dir", directory.path, "--apns-channels-port", "0", "--quiet"])
        defer { _ = serve.stop() }
        let ca = directory.appendingPathComponent("ca.pem").path
        let line = try #require(try await serve.waitForLine { $0.hasPrefix("apns-channels https://127.0.0.1:") })
        let manage = String(line.dropFirst("apns-channels ".count)) + "/1/apps/com.example.app"

        var tokens: [String] = []
        for (index, device) in Self.devices.enumerated() {
            #expect(try await serve.send("POST", serve.admin + "/apns/tokens", body: #"{"token":"\#(device)","topic":"com.example.app"}"#).status == 204)
            let started = try await serve.send("POST", serve.admin + "/apns/live-activities",
                                               body: #"{"device":"\#(device)","attributes":{"orderId":"S\#(index)"},"contentState":{"stage":"confirmed"},"timestamp":1}"#)
            #expect(started.status == 201)
            let activity = try #require(try JSONSerialization.jsonObject(with: Data(started.body.utf8)) as? [String: Any])
            tokens.append(try #require(activity["pushToken"] as? String))
        }

        let created = try Self.curl(ca, ["-X", "POST", "\(manage)/channels", "-d", #"{"message-storage-policy":0,"push-type":"LiveActivity"}"#])
        #expect(created.hasPrefix("HTTP/2 201"), "\(created)")
        #expect(Self.header("apns-request-id", in: created) != nil)
        let channel = try #require(Self.header("apns-channel-id", in: created))
        let listed = try Self.curl(ca, ["\(manage)/all-channels"])
        #expect(listed.hasPrefix("HTTP/2 200") && listed.hasSuffix(#"{"channels":["\#(channel)"]}"#), "\(listed)")
        let read = try Self.curl(ca, ["-H", "apns-channel-id: \(channel)", "\(manage)/channels"])
        #expect(read.hasSuffix(#"{"message-storage-policy":0,"push-type":"LiveActivity"}"#), "\(read)")

        for token in tokens {
            #expect(try await serve.send("POST", serve.admin + "/apns/channels/subscriptions",
                                         body: #"{"channelId":"\#(channel)","pushToken":"\#(token)"}"#).status == 204)
        }
        func broadcast() throws -> String {
            try Self.curl(ca, ["-H", "apns-channel-id: \(channel)", "-H", "apns-push-type: liveactivity",
                               "-d", #"{"aps":{"event":"update","timestamp":2,"content-state":{"stage":"onTheWay"}}}"#,
                               serve.apns + "/4/broadcasts/apps/com.example.app"])
        }
        let sent = try broadcast()
        #expect(sent.hasPrefix("HTTP/2 200") && Self.header("apns-request-id", in: sent) != nil, "\(sent)")
        let listing = try await serve.send("GET", serve.admin + "/apns/live-activities")
        let devices = try #require((try JSONSerialization.jsonObject(with: Data(listing.body.utf8)) as? [String: Any])?["devices"] as? [[String: Any]])
        let stages = devices.flatMap { ($0["activities"] as? [[String: Any]]) ?? [] }
            .compactMap { ($0["contentState"] as? [String: Any])?["stage"] as? String }
        #expect(stages == ["onTheWay", "onTheWay"], "\(listing.body)")

        let deleted = try Self.curl(ca, ["-X", "DELETE", "-H", "apns-channel-id: \(channel)", "\(manage)/channels"])
        #expect(deleted.hasPrefix("HTTP/2 204"), "\(deleted)")
        let after = try broadcast()
        #expect(after.hasPrefix("HTTP/2 404") && after.contains("ChannelNotRegistered"), "\(after)")
    }
}
