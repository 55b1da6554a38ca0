import LoopbackHTTP
import Foundation
import PushTestSupport
import Testing
@testable import FakeAPNs

/// More real peers with APNs client certificates (issue 25), beside
/// `CertificateInteropTests`: `openssl s_client -cert -key` speaking HTTP/1.1 (the APNs TLS
/// port also offers `http/1.1`), Python's `ssl` + httpx over HTTP/2 (`load_cert_chain`,
/// `verify=` an `SSLContext`), and apns2-up with no credentials at all — each through the
/// five cases Apple documents for a certificate connection: 200, `TopicDisallowed`,
/// `BadCertificateEnvironment`, `BadCertificate` (expired) and `MissingProviderToken` (no
/// certificate, no token). One fake per test, one peer process per case (s_client) or one
/// for all of them (Python: `CertificateInteropTests`' sender script). A missing peer skips
/// its test.
@Suite(.serialized) struct CertificatePeerTests {
    static let openssl = ["/usr/bin/openssl", "/usr/local/bin/openssl"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let token = CertificateInteropTests.token

    static func hasModules(_ modules: String) -> Bool {
        H2PeerSender.python != nil && ExternalPeer.pythonHas(modules)
    }

    /// One case: its name, the certificate and key presented (nil: none), the topic, and
    /// what the fake must answer.
    struct Case {
        var name: String
        var files: (combined: String, cert: String, key: String)?
        var topic: String
        var status: Int
        var reason: String?
    }

    /// The five cases, their certificates written into `setup`'s directory.
    static func cases(_ setup: CertificateInteropTests.Setup) throws -> [Case] {
        let topic = CertificateInteropTests.topic
        let past = Date().addingTimeInterval(-10 * 86_400)...Date().addingTimeInterval(-86_400)
        let good = try setup.write("development"), production = try setup.write("production", environment: .production)
        let expired = try setup.write("expired", validity: past)
        return [
            Case(name: "200", files: good, topic: topic, status: 200),
            Case(name: "TopicDisallowed", files: good, topic: "com.example.other", status: 400, reason: "TopicDisallowed"),
            Case(name: "BadCertificateEnvironment", files: production, topic: topic, status: 403, reason: "BadCertificateEnvironment"),
            Case(name: "BadCertificate (expired)", files: expired, topic: topic, status: 403, reason: "BadCertificate"),
            Case(name: "MissingProviderToken", files: nil, topic: topic, status: 403, reason: "MissingProviderToken"),
        ]
    }

    /// The journal recorded one entry per case, over `version`, each naming the certificate
    /// it came with (none for the case without one).
    static func checkJournal(_ setup: CertificateInteropTests.Setup, _ cases: [Case], version: HTTPProtocolVersion) {
        let journal = setup.apns.journal
        #expect(journal.count == cases.count, "\(journal)")
        for (entry, testCase) in zip(journal, cases) {
            #expect(entry.protocolVersion == version, "\(testCase.name): \(entry)")
            #expect((entry.certificate != nil) == (testCase.files != nil), "\(testCase.name): \(entry)")
        }
    }

    @Test(.enabled(if: openssl != nil, "openssl is not installed"))
    func opensslSClientOverHTTP1() async throws { try await CertificateInteropTests.withSetup { setup in
        let cases = try Self.cases(setup)
        let body = #"{"aps":{"alert":"hi"}}"#
        for testCase in cases {
            let request = "POST /3/device/\(Self.token) HTTP/1.1\r\nHost: 127.0.0.1\r\napns-topic: \(testCase.topic)\r\n"
                + "apns-push-type: alert\r\ncontent-length: \(body.utf8.count)\r\nconnection: close\r\n\r\n\(body)"
            var arguments = ["s_client", "-connect", "127.0.0.1:\(setup.apns.port)", "-CAfile", setup.caFile,
                             "-verify_return_error", "-tls1_3", "-quiet"]
            if let files = testCase.files { arguments += ["-cert", files.cert, "-key", files.key] }
            let output = try H2PeerSender.run(try #require(Self.openssl), arguments, input: Data(request.utf8))
            let status = output.range(of: #"HTTP/1\.1 [0-9]{3}"#, options: .regularExpression).map { String(output[$0].suffix(3)) }
            let reason = output.range(of: #""reason":"[A-Za-z]+""#, options: .regularExpression).map { output[$0].dropFirst(10).dropLast() }
            print("certificate peer openssl s_client | \(testCase.name) | HTTP/1.1 \(status ?? "?") \(reason ?? "")")
            #expect(status == String(testCase.status), "\(testCase.name): \(output)")
            if let reason = testCase.reason {
                #expect(output.contains(#""reason":"\#(reason)""#), "\(testCase.name): \(output)")
            }
        }
        Self.checkJournal(setup, cases, version: .http1_1)
    } }

    @Test(.enabled(if: hasModules("httpx, h2"), "python3 with httpx and h2 is not installed (scripts/install-peers.sh)"))
    func pythonSSLAndHttpxOverHTTP2() async throws { try await CertificateInteropTests.withSetup { setup in
        let cases = try Self.cases(setup)
        let outcomes = try Self.runPython("httpx", setup, cases)
        for (testCase, outcome) in zip(cases, outcomes) {
            print("certificate peer httpx | \(testCase.name) | \(outcome)")
            #expect(outcome.error == nil && outcome.status == testCase.status && outcome.reason == testCase.reason, "\(testCase.name): \(outcome)")
        }
        Self.checkJournal(setup, cases, version: .http2)
    } }

    /// apns2-up's `CertificateCredentials` without a certificate file: a TLS connection with
    /// neither certificate nor token. (aioapns and kalyke refuse to be built without a
    /// certificate or a signing key, and pyapns-client always signs a token, so they cannot
    /// send this case.)
    @Test(.enabled(if: RealSenders.isInstalled("apns2-up"), "apns2-up is not installed (scripts/install-peers.sh)"))
    func apns2UpWithoutCredentials() async throws { try await CertificateInteropTests.withSetup { setup in
        let cases = try Self.cases(setup).filter { $0.files == nil }
        let outcomes = try Self.runPython("apns2-up", setup, cases)
        print("certificate peer apns2-up | \(cases.first?.name ?? "") | \(outcomes.first.map(String.init(describing:)) ?? "")")
        #expect(outcomes.count == 1 && outcomes.first?.reason == "MissingProviderToken" && outcomes.first?.error == nil, "\(outcomes)")
        Self.checkJournal(setup, cases, version: .http2)
    } }

    /// Runs `sender` over `cases` in one Python process (`CertificateInteropTests`' sender
    /// script; no certificate file: none presented); what it reported, per case.
    static func runPython(_ sender: String, _ setup: CertificateInteropTests.Setup, _ cases: [Case]) throws -> [RealSenders.Outcome] {
        let (outcomes, output) = try CertificateInteropTests.send(sender, setup, cases.map { ["file": $0.files?.combined ?? "", "topic": $0.topic] })
        #expect(outcomes.count == cases.count, "\(output)")
        return outcomes
    }
}
