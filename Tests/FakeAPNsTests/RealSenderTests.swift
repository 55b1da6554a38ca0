import Contracts
import LoopbackHTTP
import Foundation
import Testing
@testable import FakeAPNs

/// Real APNs senders from PyPI — aioapns, apns2-up, kalyke-apns, pyapns-client — each
/// changed only in where it connects (127.0.0.1, the fake's port, HTTP/2 cleartext), sign
/// their own provider tokens with a `.p8` key the fake verifies, and must see each case
/// exactly as they would see APNs answer it. A sender that is not installed is skipped
/// (`scripts/install-peers.sh` installs them all).
enum RealSenders {
    /// Python module of each sender.
    static let modules = ["aioapns": "aioapns", "apns2-up": "apns2", "kalyke-apns": "kalyke", "pyapns-client": "pyapns_client"]

    static func isInstalled(_ sender: String) -> Bool {
        guard let python = H2PeerSender.python, let module = modules[sender] else { return false }
        let probe = try? H2PeerSender.run(python, ["-c", "import \(module), jwt; print('ok')"], input: Data())
        return probe?.contains("ok") == true
    }

    static let keyID = "SNDKEY0001"
    static let teamID = "SNDTEAM001"
    static let topic = "com.example.app"
    static let token = String(repeating: "5e", count: 32)

    /// What the sender reported: the status (aioapns, pyapns-client report it), Apple's
    /// reason (from the library's result or exception class), the 410's timestamp.
    struct Outcome: Decodable, CustomStringConvertible {
        var status: Int?
        var reason: String?
        var timestamp: Int64?
        var error: String?
        var description: String { [status.map(String.init), reason, timestamp.map { "timestamp \($0)" }, error].compactMap { $0 }.joined(separator: " ") }
    }

    /// One case: how the fake is set up, the payload's body size, what the sender must see.
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var bodySize = 10
        var topic = RealSenders.topic
        var configure: @Sendable (inout FakeAPNsConfiguration) -> Void = { _ in }
        var prepare: @Sendable (FakeAPNs) -> Void = { _ in }
        var wrongKey = false
        var reason: String?
        var description: String { name }
    }

    /// The fake's clock stands at `start`; "expired token" moves it two hours past the
    /// sender's own clock.
    static let start = Date()

    static let cases: [Case] = [
        Case(name: "200"),
        Case(name: "410 with timestamp", prepare: { $0.addFault(.next(1, .reason(.unregistered))) }, reason: "Unregistered"),
        Case(name: "413", bodySize: 4200, reason: "PayloadTooLarge"),
        Case(name: "bad topic", topic: "com.example app", reason: "BadTopic"),
        Case(name: "wrong key", wrongKey: true, reason: "InvalidProviderToken"),
        Case(name: "expired token", configure: { $0.clock = PushClock(stoppedAt: start.addingTimeInterval(7200)) }, reason: "ExpiredProviderToken"),
        Case(name: "429", configure: { $0.throttle = ThrottlePolicy(limit: 0, windowSeconds: 60) }, reason: "TooManyRequests"),
    ]

    /// Runs `sender` once for `testCase` against an in-process FakeAPNs with a registered key.
    static func run(_ sender: String, _ testCase: Case) async throws -> (Outcome, FakeAPNs) {
        var configuration = FakeAPNsConfiguration()
        configuration.clock = PushClock(stoppedAt: start)
        testCase.configure(&configuration)
        let apns = try await FakeAPNs.start(configuration: configuration)
        let key = APNsSigningKey.generate()
        apns.registerSigningKey(testCase.wrongKey ? APNsSigningKey.generate().publicKey : key.publicKey,
                                keyID: keyID, teamID: teamID)
        apns.register(token: token, topic: topic)
        testCase.prepare(apns)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("senders-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyFile = directory.appendingPathComponent("AuthKey_\(keyID).p8")
        try Data(key.pemRepresentation.utf8).write(to: keyFile)
        let script = directory.appendingPathComponent("send.py")
        try Data(source.utf8).write(to: script)
        let python = try #require(H2PeerSender.python)
        let output = try H2PeerSender.run(python, [script.path, sender, String(apns.port), keyFile.path, keyID, teamID,
                                                   testCase.topic, token, String(testCase.bodySize)], input: Data())
        await apns.stop()
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("{") }) else {
            throw H2PeerSender.PeerFailure(output: output)
        }
        return (try JSONDecoder().decode(Outcome.self, from: Data(line.utf8)), apns)
    }

    static func check(_ sender: String, _ testCase: Case) async throws {
        let (outcome, apns) = try await run(sender, testCase)
        print("sender \(sender) | \(testCase.name) | \(outcome)")
        #expect(outcome.error == nil, "\(outcome)")
        if let reason = testCase.reason {
            #expect(outcome.reason == reason, "\(outcome)")
            #expect(outcome.status == nil || outcome.status == APNsErrorReason(rawValue: reason)?.status, "\(outcome)")
        } else {
            #expect(outcome.status == 200, "\(outcome)")
            #expect(apns.deliveredNotifications(for: token).count == 1)
        }
        if testCase.reason == "Unregistered" {
            #expect(outcome.timestamp == PushClock(stoppedAt: start).nowMilliseconds(), "\(outcome)")
        }
        // pyapns-client retries a 429 and an expired token on its own: one request or more.
        #expect(!apns.journal.isEmpty)
        #expect(apns.journal.allSatisfy { $0.protocolVersion == .http2 })
    }

    /// The sender script: each library patched only in where it connects.
    static let source = #"""
# Runs one real APNs sender library once against FakeAPNs over h2c. Each library is changed
# only in where it connects (host, port, cleartext HTTP/2); it mints its own tokens.
import asyncio, json, sys
sender, port, key_path, key_id, team_id, topic, token, size = sys.argv[1:9]
port, size = int(port), int(size)
alert = {"title": "On the way", "body": "x" * size}
result = {"status": None, "reason": None, "timestamp": None, "error": None}

def failed(e):
    name = type(e).__name__
    result["reason"] = name[:-len("Exception")] if name.endswith("Exception") else name
    result["status"] = getattr(e, "status_code", None)
    result["timestamp"] = getattr(e, "timestamp", None)

try:
    if sender == "aioapns":
        from aioapns import APNs, NotificationRequest, PushType
        from aioapns.connection import APNsDevelopmentClientProtocol
        class Fake(APNsDevelopmentClientProtocol):
            APNS_SERVER = "127.0.0.1"
            APNS_PORT = port
        async def main():
            client = APNs(key=open(key_path).read(), key_id=key_id, team_id=team_id, topic=topic, use_sandbox=True)
            client.pool.protocol_class = Fake   # where it connects
            client.pool.ssl_context = None      # cleartext
            r = await asyncio.wait_for(client.send_notification(NotificationRequest(
                device_token=token, message={"aps": {"alert": alert}}, push_type=PushType.ALERT)), 20)
            result.update(status=int(r.status), reason=r.description, timestamp=r.timestamp)
            client.pool.close()
        asyncio.run(main())
    elif sender == "apns2-up":
        import apns2.credentials
        from apns2.client import APNsClient
        from apns2.payload import Payload
        from hyper import HTTP20Connection
        # where it connects: cleartext HTTP/2 to the fake instead of TLS to Apple
        apns2.credentials.TokenCredentials.create_connection = \
            lambda self, server, p, proto, proxy_host=None, proxy_port=None: HTTP20Connection("127.0.0.1", port, secure=False, force_proto="h2")
        client = APNsClient(apns2.credentials.TokenCredentials(key_path, key_id, team_id), use_sandbox=True)
        try:
            client.send_notification(token, Payload(alert=alert), topic)
            result["status"] = 200
        except Exception as e:
            failed(e)
    elif sender == "kalyke-apns":
        from httpx2 import AsyncClient
        from kalyke import ApnsClient, ApnsConfig, Payload, PayloadAlert
        from kalyke.clients.apns import ApnsClient as Base
        class Fake(Base):
            @property
            def _base_url(self):                     # where it connects
                return "http://127.0.0.1:%d" % port
            def _init_client(self, apns_config):     # same headers, h2c instead of TLS
                client = Base._init_client(self, apns_config)
                return AsyncClient(headers=client.headers, http1=False, http2=True)
        client = Fake(use_sandbox=True, team_id=team_id, auth_key_id=key_id, auth_key_filepath=key_path)
        try:
            asyncio.run(client.send_message(device_token=token,
                payload=Payload(alert=PayloadAlert(title=alert["title"], body=alert["body"])),
                apns_config=ApnsConfig(topic=topic)))
            result["status"] = 200
        except Exception as e:
            failed(e)
            result["timestamp"] = (getattr(e, "error", None) or {}).get("timestamp") if isinstance(getattr(e, "error", None), dict) else None
    elif sender == "pyapns-client":
        import httpx
        from pyapns_client import APNSClient, IOSPayload, IOSPayloadAlert, IOSNotification
        class Fake(APNSClient):
            @property
            def _client(self):                       # where it connects: h2c to the fake
                if self._client_storage is None:
                    self._client_storage = httpx.Client(auth=self._authenticate_request, http1=False, http2=True,
                                                        timeout=10.0, base_url="http://127.0.0.1:%d" % port)
                return self._client_storage
        client = Fake(mode=APNSClient.MODE_DEV, root_cert_path=None, auth_key_path=key_path, auth_key_id=key_id, team_id=team_id)
        try:
            # pyapns-client cuts an alert body to 2048 bytes itself; a large payload has to be custom data.
            payload = IOSPayload(alert=IOSPayloadAlert(title=alert["title"], body="x"), custom={"pad": alert["body"]})
            client.push(notification=IOSNotification(payload=payload, topic=topic), device_token=token)
            result["status"] = 200
        except Exception as e:
            failed(e)
        client.close()
    else:
        result["error"] = "unknown sender " + sender
except Exception as e:
    result["error"] = "%s: %s" % (type(e).__name__, e)
if isinstance(result["timestamp"], str) and result["timestamp"].isdigit():
    result["timestamp"] = int(result["timestamp"])
print(json.dumps(result))
"""#
}

@Suite(.serialized) struct RealSenderTests {
    @Test(.enabled(if: RealSenders.isInstalled("aioapns"), "aioapns is not installed (scripts/install-peers.sh)"),
          arguments: RealSenders.cases)
    func aioapns(_ testCase: RealSenders.Case) async throws { try await RealSenders.check("aioapns", testCase) }

    @Test(.enabled(if: RealSenders.isInstalled("apns2-up"), "apns2-up is not installed (scripts/install-peers.sh)"),
          arguments: RealSenders.cases)
    func apns2Up(_ testCase: RealSenders.Case) async throws { try await RealSenders.check("apns2-up", testCase) }

    @Test(.enabled(if: RealSenders.isInstalled("kalyke-apns"), "kalyke-apns is not installed (scripts/install-peers.sh)"),
          arguments: RealSenders.cases)
    func kalykeAPNs(_ testCase: RealSenders.Case) async throws { try await RealSenders.check("kalyke-apns", testCase) }

    @Test(.enabled(if: RealSenders.isInstalled("pyapns-client"), "pyapns-client is not installed (scripts/install-peers.sh)"),
          arguments: RealSenders.cases)
    func pyapnsClient(_ testCase: RealSenders.Case) async throws { try await RealSenders.check("pyapns-client", testCase) }
}
