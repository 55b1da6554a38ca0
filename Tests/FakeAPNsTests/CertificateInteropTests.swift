@testable import PushCrypto
import LoopbackHTTP
import Foundation
import Testing
@testable import FakeAPNs
import PushTestSupport

/// Real senders with APNs client certificates over TLS (issue 25): curl `--cert/--key` and
/// the Python APNs libraries that support certificates (aioapns' `client_cert`, apns2-up's
/// `CertificateCredentials`, kalyke's `VoIPCertificateClient`), each changed only in where
/// it connects and which CA it trusts. The fake verifies provider tokens and knows no key:
/// only the certificate can let a push in. A missing peer skips its test.
@Suite(.serialized) struct CertificateInteropTests {
    static let topic = "com.example.app"
    static let token = String(repeating: "9d", count: 32)
    static let curl = ExternalPeer.find("curl")

    /// A fake on TLS asking for client certificates, its CA kept in a directory so the test
    /// can issue from it, and that directory.
    struct Setup: Sendable {
        let apns: FakeAPNs
        let authority: TestCertificateAuthority
        let directory: String
        var caFile: String { "\(directory)/ca.pem" }

        init(anyIssuer: Bool = false) async throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("cert-interop-\(UUID().uuidString)").path
            let tls = try LoopbackTLS.reusing(caDirectory: directory)
            authority = try TestCertificateAuthority(keyPEM: String(contentsOfFile: "\(directory)/ca-key.pem", encoding: .utf8),
                                                     certificatePEM: tls.caCertificatePEM)
            var configuration = FakeAPNs.Configuration()
            configuration.tls = tls
            configuration.clientCertificates = APNsClientCertificates(acceptsAnyIssuer: anyIssuer)
            configuration.acceptAnyDeviceToken = true
            apns = try await FakeAPNs.start(configuration: configuration)
        }

        /// Writes an Apple-style certificate and its key (PEM, and both in one file); returns
        /// the combined file's path (cert then key), the cert's and the key's.
        func write(_ name: String, environment: ApplePushEnvironment = .development, validity: ClosedRange<Date>? = nil,
                   from issuer: TestCertificateAuthority? = nil) throws -> (combined: String, cert: String, key: String) {
            let (der, key) = (issuer ?? authority).issueApplePushCertificate(topic: CertificateInteropTests.topic, environment: environment, validity: validity)
            let certPEM = PEMDocument(label: "CERTIFICATE", der: der).text
            let keyPEM = PEMDocument(label: "PRIVATE KEY", der: ECPrivateKeyDER.pkcs8(scalar: key.privateKey, publicKeyX963: key.publicKeyX963)).text
            let paths = (combined: "\(directory)/\(name).pem", cert: "\(directory)/\(name)-cert.pem", key: "\(directory)/\(name)-key.pem")
            try Data((certPEM + keyPEM).utf8).write(to: URL(fileURLWithPath: paths.combined))
            try Data(certPEM.utf8).write(to: URL(fileURLWithPath: paths.cert))
            try Data(keyPEM.utf8).write(to: URL(fileURLWithPath: paths.key))
            return paths
        }

        /// The four cases every sender runs: name, certificate file, topic, expected reason (nil: 200).
        func cases(voip: Bool) throws -> [(name: String, file: String, topic: String, reason: String?)] {
            let suffix = voip ? ".voip" : ""
            let past = Date().addingTimeInterval(-10 * 86_400)...Date().addingTimeInterval(-86_400)
            return [
                ("200", try write("development").combined, CertificateInteropTests.topic + suffix, nil),
                ("wrong environment", try write("production", environment: .production).combined, CertificateInteropTests.topic + suffix, "BadCertificateEnvironment"),
                ("expired", try write("expired", validity: past).combined, CertificateInteropTests.topic + suffix, "BadCertificate"),
                ("topic not in the certificate", try write("other").combined, "com.example.other" + suffix, "TopicDisallowed"),
            ]
        }

        func finish() async {
            await apns.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// Runs `body` with a started setup, stopped and removed afterwards, also when it throws.
    static func withSetup(anyIssuer: Bool = false, _ body: (Setup) async throws -> Void) async throws {
        let setup = try await Setup(anyIssuer: anyIssuer)
        do {
            try await body(setup)
        } catch {
            await setup.finish()
            throw error
        }
        await setup.finish()
    }

    /// curl's body and status (`BODY STATUS`) for an alert push presenting `cert`/`key`.
    static func curlPush(_ setup: Setup, cert: String?, key: String?, topic: String? = nil) throws -> String {
        var arguments = ["-sS", "--max-time", "20", "--cacert", setup.caFile, "-w", " %{http_code}",
                         "-H", "apns-push-type: alert", "-d", #"{"aps":{"alert":"hi"}}"#]
        if let cert, let key { arguments += ["--cert", cert, "--key", key] }
        if let topic { arguments += ["-H", "apns-topic: \(topic)"] }
        return try H2PeerSender.run(try #require(curl), arguments + ["\(setup.apns.baseURL.absoluteString)/3/device/\(token)"], input: Data())
    }

    @Test(.enabled(if: curl != nil, "curl is not installed"))
    func curlWithACertificate() async throws { try await Self.withSetup { setup in
        let good = try setup.write("good")
        let accepted = try Self.curlPush(setup, cert: good.cert, key: good.key, topic: Self.topic)
        #expect(accepted.hasSuffix(" 200"), "\(accepted)")
        let entry = try #require(setup.apns.journal.last)
        #expect(entry.certificate?.subject == Self.topic && entry.certificate?.environment == "development", "\(entry)")
        #expect(entry.serverName == nil || entry.serverName == "127.0.0.1")
        // Apple's certificates name three topics: without apns-topic, MissingTopic.
        let untitled = try Self.curlPush(setup, cert: good.cert, key: good.key)
        #expect(untitled.contains("MissingTopic") && untitled.hasSuffix(" 400"), "\(untitled)")
        let past = Date().addingTimeInterval(-10 * 86_400)...Date().addingTimeInterval(-86_400)
        let expired = try setup.write("expired", validity: past)
        let refused = try Self.curlPush(setup, cert: expired.cert, key: expired.key, topic: Self.topic)
        #expect(refused.contains("BadCertificate") && refused.hasSuffix(" 403"), "\(refused)")
        let stranger = try setup.write("stranger", from: TestCertificateAuthority.generate(commonName: "Someone else's CA"))
        let untrusted = try Self.curlPush(setup, cert: stranger.cert, key: stranger.key, topic: Self.topic)
        #expect(untrusted.contains("BadCertificate") && untrusted.hasSuffix(" 403"), "\(untrusted)")
        #expect(setup.apns.journal.last?.detail?.contains("not issued by a trusted CA") == true)
        let none = try Self.curlPush(setup, cert: nil, key: nil, topic: Self.topic)
        #expect(none.contains("MissingProviderToken") && none.hasSuffix(" 403"), "\(none)")
    } }

    @Test(.enabled(if: curl != nil, "curl is not installed"))
    func theAnyIssuerModeAcceptsAStrangersCertificate() async throws { try await Self.withSetup(anyIssuer: true) { setup in
        let stranger = try setup.write("stranger", from: TestCertificateAuthority.generate(commonName: "Someone else's CA"))
        let accepted = try Self.curlPush(setup, cert: stranger.cert, key: stranger.key, topic: Self.topic)
        #expect(accepted.hasSuffix(" 200"), "\(accepted)")
    } }

    /// Runs `sender` over `runs` (certificate file — empty: none — and topic) in one Python
    /// process running ``source``; what it reported, per run, and its output.
    static func send(_ sender: String, _ setup: Setup, _ runs: [[String: String]]) throws -> (outcomes: [RealSenders.Outcome], output: String) {
        let script = "\(setup.directory)/send.py"
        try Data(source.utf8).write(to: URL(fileURLWithPath: script))
        let python = try #require(H2PeerSender.python)
        let output = try H2PeerSender.run("/usr/bin/env", ["SSL_CERT_FILE=\(setup.caFile)", "SSL_CERT_DIR=/nonexistent", python, script,
                                                           sender, String(setup.apns.port), setup.caFile, token],
                                          input: try JSONSerialization.data(withJSONObject: runs))
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("[") }) else {
            throw H2PeerSender.PeerFailure(output: output)
        }
        return (try JSONDecoder().decode([RealSenders.Outcome].self, from: Data(line.utf8)), output)
    }

    /// Runs `sender`'s four cases in one Python process; what the library reported, per case.
    static func runSender(_ sender: String) async throws { try await withSetup { setup in
        let cases = try setup.cases(voip: sender == "kalyke-apns")
        let (outcomes, output) = try send(sender, setup, cases.map { ["file": $0.file, "topic": $0.topic] })
        #expect(outcomes.count == cases.count, "\(output)")
        for (testCase, outcome) in zip(cases, outcomes) {
            print("certificate sender \(sender) | \(testCase.name) | \(outcome)")
            #expect(outcome.error == nil, "\(testCase.name): \(outcome)")
            if let reason = testCase.reason {
                #expect(outcome.reason == reason, "\(testCase.name): \(outcome)")
            } else {
                #expect(outcome.status == 200, "\(testCase.name): \(outcome)")
            }
        }
        #expect(setup.apns.journal.allSatisfy { $0.certificate != nil && $0.protocolVersion == .http2 }, "\(setup.apns.journal)")
    } }

    @Test(.enabled(if: RealSenders.isInstalled("aioapns"), "aioapns is not installed (scripts/install-peers.sh)"))
    func aioapns() async throws { try await Self.runSender("aioapns") }

    @Test(.enabled(if: RealSenders.isInstalled("apns2-up"), "apns2-up is not installed (scripts/install-peers.sh)"))
    func apns2Up() async throws { try await Self.runSender("apns2-up") }

    @Test(.enabled(if: RealSenders.isInstalled("kalyke-apns"), "kalyke-apns is not installed (scripts/install-peers.sh)"))
    func kalykeVoIPCertificateClient() async throws { try await Self.runSender("kalyke-apns") }

    /// The sender script: each library configured with a certificate file, changed only in
    /// where it connects (127.0.0.1 and the fake's port) and in trusting the fake's CA; also
    /// Python `ssl` + httpx (`CertificatePeerTests`). An empty file: no certificate.
    static let source = #"""
import asyncio, json, ssl, sys, warnings
warnings.simplefilter("ignore")
sender, port, ca_file, token = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
results = []
for run in json.load(sys.stdin):
  cert, topic = run["file"], run["topic"]
  result = {"status": None, "reason": None, "timestamp": None, "error": None}

  def failed(e):
      name = type(e).__name__
      result["reason"] = name[:-len("Exception")] if name.endswith("Exception") else name
      result["status"] = getattr(e, "status_code", None)

  try:
      if sender == "aioapns":
          from aioapns import APNs, NotificationRequest, PushType
          from aioapns.connection import APNsDevelopmentClientProtocol
          class Fake(APNsDevelopmentClientProtocol):
              APNS_SERVER = "127.0.0.1"                # where it connects
              APNS_PORT = port
          async def main():
              client = APNs(client_cert=cert, topic=topic, use_sandbox=True)  # trusts SSL_CERT_FILE
              client.pool.protocol_class = Fake
              r = await asyncio.wait_for(client.send_notification(NotificationRequest(
                  device_token=token, message={"aps": {"alert": "hi"}}, push_type=PushType.ALERT)), 20)
              result.update(status=int(r.status), reason=r.description)
              client.pool.close()
          asyncio.run(main())
      elif sender == "apns2-up":
          import apns2.credentials
          from apns2.client import APNsClient
          from apns2.payload import Payload
          credentials = apns2.credentials.CertificateCredentials(cert or None)   # no file: neither certificate nor token
          credentials._Credentials__ssl_context.load_verify_locations(ca_file)   # trust the fake's CA
          connect = credentials.create_connection
          credentials.create_connection = lambda server, p, proto, proxy_host=None, proxy_port=None: connect("127.0.0.1", port, proto)
          client = APNsClient(credentials, use_sandbox=True)
          try:
              client.send_notification(token, Payload(alert="hi"), topic)
              result["status"] = 200
          except Exception as e:
              failed(e)
      elif sender == "kalyke-apns":
          from kalyke import VoIPApnsConfig
          from kalyke.clients.voip_certificate import VoIPCertificateClient
          class Fake(VoIPCertificateClient):
              @property
              def _base_url(self):                     # where it connects
                  return "https://127.0.0.1:%d" % port
              def _init_client(self, apns_config):     # its client, also trusting the fake's CA
                  client = VoIPCertificateClient._init_client(self, apns_config)
                  client._transport._pool._ssl_context.load_verify_locations(ca_file)
                  return client
          client = Fake(use_sandbox=True, auth_key_filepath=cert)
          try:
              asyncio.run(client.send_message(device_token=token, payload={"aps": {"alert": "hi"}},
                                               apns_config=VoIPApnsConfig(topic=topic)))
              result["status"] = 200
          except Exception as e:
              failed(e)
      elif sender == "httpx":                          # Python ssl + httpx (CertificatePeerTests)
          import httpx
          context = ssl.create_default_context(cafile=ca_file)
          if cert:
              context.load_cert_chain(cert)            # certificate and key in one file
          with httpx.Client(http2=True, verify=context, timeout=20) as client:
              r = client.post("https://127.0.0.1:%d/3/device/%s" % (port, token), json={"aps": {"alert": "hi"}},
                              headers={"apns-topic": topic, "apns-push-type": "alert"})
          result.update(status=r.status_code, reason=r.json().get("reason") if r.content else None)
          if r.http_version != "HTTP/2":
              result["error"] = "not HTTP/2: " + r.http_version
      else:
          result["error"] = "unknown sender " + sender
  except Exception as e:
      result["error"] = "%s: %s" % (type(e).__name__, e)
  results.append(result)
print(json.dumps(results))
"""#
}
