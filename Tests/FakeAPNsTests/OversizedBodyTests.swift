import Contracts
import LoopbackHTTP
import Foundation
import Testing
@testable import FakeAPNs
import PushTestSupport

/// Bodies over the server's limit are answered as APNs answers them, on both transports,
/// and journaled like any other request.
@Suite struct OversizedBodyTests {
    typealias T = APNsTestbed

    @Test func theHandlerAnswersAnUnreadBodyPayloadTooLargeAndJournalsIt() {
        let bed = T()
        var request = T.push(body: [])
        request.bodyLimitExceeded = true
        let response = bed.fake.handle(request)
        #expect(response.status.code == 413)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"reason":"PayloadTooLarge"}"#)
        let entry = bed.fake.journal.last
        #expect(entry?.reason == "PayloadTooLarge")
        #expect(entry?.detail == "the body exceeded the server's 8192-byte limit and was discarded unread")
        #expect(bed.fake.deliveredNotifications(for: T.token).isEmpty)
    }

    @Test func theDefaultLimitIsEightKibibytesAsHardeningDocuments() {
        #expect(FakeAPNs.Configuration().maxBodyBytes == 8 * 1024)
    }

    static let curl: String? = ExternalPeer.find("curl")

    /// curl posts 1.5 MiB over `transport`; returns its output: the body, then the status.
    static func postWithCurl(_ transport: String, port: UInt16) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("oversized-\(UUID().uuidString).json")
        try Data(repeating: UInt8(ascii: " "), count: 3 << 19).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try H2PeerSender.run(curl ?? "curl", [
            "-s", transport, "--max-time", "20", "-X", "POST", "-o", "-", "-w", "\n%{http_code}",
            "-H", "authorization: bearer \(T.providerToken())", "-H", "apns-topic: \(T.topic)",
            "-H", "apns-push-type: alert", "--data-binary", "@\(file.path)",
            "http://127.0.0.1:\(port)/3/device/\(T.token)",
        ], input: Data())
    }

    @Test(.enabled(if: curl != nil, "curl is not installed"),
          arguments: [("--http1.1", HTTPProtocolVersion.http1_1), ("--http2-prior-knowledge", .http2)])
    func anOversizedBodyGetsAPNsAnswerOnBothTransports(_ transport: String, _ version: HTTPProtocolVersion) async throws {
        let bed = try await T.started()
        let output = try Self.postWithCurl(transport, port: bed.fake.port)
        await bed.fake.stop()
        #expect(output == "{\"reason\":\"PayloadTooLarge\"}\n413")
        let entry = try #require(bed.fake.journal.last)
        #expect(bed.fake.journal.count == 1)
        #expect(entry.status == 413)
        #expect(entry.reason == "PayloadTooLarge")
        #expect(entry.protocolVersion == version)
        #expect(entry.detail?.contains("8192-byte limit") == true)
    }
}
