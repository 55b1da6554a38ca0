@testable import FakeSupport
import Contracts
import Foundation
import PushTestSupport
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
        guard H2PeerSender.python != nil, let module = modules[sender] else { return false }
        return ExternalPeer.pythonHas("\(module), jwt")
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
        var configure: @Sendable (inout FakeAPNs.Configuration) -> Void = { _ in }
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

    /// Runs `sender` once per case, each against its own in-process FakeAPNs with a
    /// registered key, in one Python process (one process per sender keeps the load low:
    /// the scenario suites running beside this one measure wall time).
    static func run(_ sender: String) async throws -> [(Case, Outcome, FakeAPNs)] {
        let key = APNsSigningKey.generate()
        var fakes: [FakeAPNs] = []
        for testCase in cases {
            var configuration = FakeAPNs.Configuration()
            configuration.clock = PushClock(stoppedAt: start)
            testCase.configure(&configuration)
            let apns = try await FakeAPNs.start(configuration: configuration)
            apns.registerSigningKey(testCase.wrongKey ? APNsSigningKey.generate().publicKey : key.publicKey,
                                    keyID: keyID, teamID: teamID)
            apns.register(token: token, topic: topic)
            testCase.prepare(apns)
            fakes.append(apns)
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("senders-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyFile = directory.appendingPathComponent("AuthKey_\(keyID).p8")
        try Data(key.pemRepresentation.utf8).write(to: keyFile)
        let script = directory.appendingPathComponent("send.py")
        try Data(source.utf8).write(to: script)
        let runs: [[String: Any]] = zip(cases, fakes).map { ["port": Int($1.port), "topic": $0.topic, "size": $0.bodySize] }
        let python = try #require(H2PeerSender.python)
        let output = try await H2PeerSender.run(python, [script.path, sender, keyFile.path, keyID, teamID, token],
                                          input: try JSONSerialization.data(withJSONObject: runs))
        for apns in fakes { await apns.stop() }
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("[") }) else {
            throw H2PeerSender.PeerFailure(output: output)
        }
        let outcomes = try JSONDecoder().decode([Outcome].self, from: Data(line.utf8))
        return zip(zip(cases, outcomes), fakes).map { ($0.0, $0.1, $1) }
    }

    static func check(_ sender: String) async throws {
        let results = try await run(sender)
        #expect(results.count == cases.count)
        for (testCase, outcome, apns) in results {
            print("sender \(sender) | \(testCase.name) | \(outcome)")
            #expect(outcome.error == nil, "\(testCase.name): \(outcome)")
            if let reason = testCase.reason {
                #expect(outcome.reason == reason, "\(testCase.name): \(outcome)")
                #expect(outcome.status == nil || outcome.status == APNsErrorReason(rawValue: reason)?.status, "\(testCase.name): \(outcome)")
            } else {
                #expect(outcome.status == 200, "\(testCase.name): \(outcome)")
                #expect(apns.deliveredNotifications(for: token).count == 1)
            }
            if testCase.reason == "Unregistered" {
                #expect(outcome.timestamp == PushClock(stoppedAt: start).nowMilliseconds(), "\(testCase.name): \(outcome)")
            }
            // pyapns-client retries a 429 and an expired token on its own: one request or more.
            #expect(!apns.journal.isEmpty, "\(testCase.name)")
            #expect(apns.journal.allSatisfy { $0.protocolVersion == .http2 })
        }
    }

    /// The sender script: each library patched only in where it connects.
    static let source = #"""
# Runs one real APNs sender library once against FakeAPNs over h2c. Each library is changed
# only in where it connects (host, port, cleartext HTTP/2); it mints its own tokens.
import asyncio, json, sys
sender, key_path, key_id, team_id, token = sys.argv[1:6]
results = []
for run in json.load(sys.stdin):
  port, topic, size = run["port"], run["topic"], run["size"]
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
  results.append(result)
print(json.dumps(results))
"""#
}

/// One test per sender, so each is skipped on its own when not installed; each runs the
/// seven cases in one Python process.
@Suite(.serialized) struct RealSenderTests {
    @Test(.enabled(if: RealSenders.isInstalled("aioapns"), "aioapns is not installed (scripts/install-peers.sh)"))
    func aioapns() async throws { try await RealSenders.check("aioapns") }

    @Test(.enabled(if: RealSenders.isInstalled("apns2-up"), "apns2-up is not installed (scripts/install-peers.sh)"))
    func apns2Up() async throws { try await RealSenders.check("apns2-up") }

    @Test(.enabled(if: RealSenders.isInstalled("kalyke-apns"), "kalyke-apns is not installed (scripts/install-peers.sh)"))
    func kalykeAPNs() async throws { try await RealSenders.check("kalyke-apns") }

    @Test(.enabled(if: RealSenders.isInstalled("pyapns-client"), "pyapns-client is not installed (scripts/install-peers.sh)"))
    func pyapnsClient() async throws { try await RealSenders.check("pyapns-client") }
}
