import Contracts
import LoopbackHTTP
import Foundation
import PushTestSupport
import Testing
@testable import FakeAPNs

enum AioapnsPeer {
    static let isAvailable = H2PeerSender.python != nil && ExternalPeer.pythonHas("aioapns, jwt")
}

/// A real APNs client library — Python's `aioapns`, pointed at FakeAPNs over h2c by
/// overriding its protocol class's host and port and its pool's TLS context — sends 500
/// concurrent notifications with tokens it mints itself (PyJWT, ES256) from a `.p8`-style
/// PEM key. Skipped when `aioapns` is not installed (`scripts/install-peers.sh`).
@Suite(.enabled(if: AioapnsPeer.isAvailable, "python3 with aioapns is not installed"))
struct AioapnsInteropTests {
    static let keyID = "AIOKEY0001"
    static let teamID = "AIOTEAM001"
    static let topic = "com.example.app"

    struct Report: Decodable {
        var statuses: [String: Int]
        var reasons: [String: Int]
    }

    /// Runs the aioapns sender: `count` alert pushes, round-robin over `tokens`; over TLS
    /// trusting only `caFile` (through `SSL_CERT_FILE`) when one is given.
    static func send(count: Int, tokens: [String], signingKey: APNsSigningKey, port: UInt16, caFile: String? = nil) throws -> Report {
        let python = try #require(H2PeerSender.python)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aioapns-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyFile = directory.appendingPathComponent("AuthKey_\(keyID).p8")
        try Data(signingKey.pemRepresentation.utf8).write(to: keyFile)
        let script = directory.appendingPathComponent("send.py")
        try Data(source.utf8).write(to: script)
        let arguments = [script.path, String(port), keyFile.path, keyID, teamID, topic, String(count)] + tokens
        let output = if let caFile {
            try H2PeerSender.run("/usr/bin/env", ["SSL_CERT_FILE=\(caFile)", "SSL_CERT_DIR=/nonexistent", "FAKE_APNS_TLS=1", python] + arguments, input: Data())
        } else {
            try H2PeerSender.run(python, arguments, input: Data())
        }
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("{") }) else {
            throw H2PeerSender.PeerFailure(output: output)
        }
        return try JSONDecoder().decode(Report.self, from: Data(line.utf8))
    }

    static func tokens(_ count: Int) -> [String] {
        (0..<count).map { i in String(format: "%064x", i + 1) }
    }

    @Test func fiveHundredConcurrentNotificationsAreAcceptedAndJournaled() async throws {
        let apns = try await FakeAPNs.start()
        let key = APNsSigningKey.generate()
        apns.registerSigningKey(key.publicKey, keyID: Self.keyID, teamID: Self.teamID)
        let tokens = Self.tokens(50)
        for token in tokens { apns.register(token: token, topic: Self.topic) }

        let report = try Self.send(count: 500, tokens: tokens, signingKey: key, port: apns.port)
        await apns.stop()

        #expect(report.statuses == ["200": 500])
        let journal = apns.journal
        #expect(journal.count == 500)
        #expect(journal.allSatisfy { $0.status == 200 && $0.protocolVersion == .http2 })
        #expect(tokens.allSatisfy { apns.deliveredNotifications(for: $0).count == 10 })
    }

    /// Over TLS aioapns needs no patch but its host and port: its own default SSL context
    /// trusts the fake's CA through SSL_CERT_FILE, and ALPN picks h2.
    @Test func twoHundredNotificationsOverTLSWithOnlyHostAndPortChanged() async throws {
        var configuration = FakeAPNs.Configuration()
        let tls = try LoopbackTLS.generated()
        defer { tls.removeTemporaryFiles() }
        configuration.tls = tls
        let apns = try await FakeAPNs.start(configuration: configuration)
        #expect(apns.baseURL.absoluteString.hasPrefix("https://127.0.0.1:"))
        let key = APNsSigningKey.generate()
        apns.registerSigningKey(key.publicKey, keyID: Self.keyID, teamID: Self.teamID)
        let tokens = Self.tokens(20)
        for token in tokens { apns.register(token: token, topic: Self.topic) }

        let report = try Self.send(count: 200, tokens: tokens, signingKey: key, port: apns.port, caFile: tls.caCertificatePath)
        await apns.stop()

        #expect(report.statuses == ["200": 200])
        #expect(apns.journal.count == 200)
        #expect(apns.journal.allSatisfy { $0.status == 200 && $0.protocolVersion == .http2 })
    }

    @Test func aTamperedKeyIsInvalidProviderToken() async throws {
        let apns = try await FakeAPNs.start()
        apns.registerSigningKey(APNsSigningKey.generate().publicKey, keyID: Self.keyID, teamID: Self.teamID)
        let tokens = Self.tokens(1)
        apns.register(token: tokens[0], topic: Self.topic)

        let report = try Self.send(count: 5, tokens: tokens, signingKey: APNsSigningKey.generate(), port: apns.port)
        await apns.stop()

        #expect(report.statuses == ["403": 5])
        #expect(report.reasons == ["InvalidProviderToken": 5])
        #expect(apns.deliveredNotifications(for: tokens[0]).isEmpty)
    }

    /// The sender. aioapns keeps its server's host and port as class attributes of the
    /// protocol class and the TLS context on the pool, so a subclass and `ssl_context = None`
    /// point it at the fake over cleartext HTTP/2; with FAKE_APNS_TLS=1 only the subclass
    /// (host and port) remains.
    static let source = #"""
    import asyncio, collections, json, os, sys
    from aioapns import APNs, NotificationRequest, PushType
    from aioapns.connection import APNsDevelopmentClientProtocol

    port, key_path, key_id, team_id, topic, count = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6])
    tokens = sys.argv[7:]

    tls = os.environ.get("FAKE_APNS_TLS") == "1"

    class FakeAPNsProtocol(APNsDevelopmentClientProtocol):
        APNS_SERVER = "localhost" if tls else "127.0.0.1"
        APNS_PORT = int(port)

    async def main():
        with open(key_path) as f:
            key = f.read()
        client = APNs(key=key, key_id=key_id, team_id=team_id, topic=topic, use_sandbox=True)
        client.pool.protocol_class = FakeAPNsProtocol
        if not tls:
            client.pool.ssl_context = None
        async def err(request, result):
            pass
        client.err_func = err
        requests = [NotificationRequest(device_token=tokens[i % len(tokens)],
                                        message={"aps": {"alert": {"title": "On the way", "body": "n%d" % i}},
                                                 "notificationId": str(i)},
                                        push_type=PushType.ALERT, priority=10)
                    for i in range(count)]
        results = await asyncio.wait_for(asyncio.gather(*(client.send_notification(r) for r in requests)), 60)
        statuses = collections.Counter(str(r.status) for r in results)
        reasons = collections.Counter(r.description for r in results if r.description)
        print(json.dumps({"statuses": statuses, "reasons": reasons}))
        client.pool.close()

    asyncio.run(main())
    """#
}
