import FakeAPNs
import Foundation
@testable import LoopbackHTTP
@testable import PushCrypto
import Testing
import PushTestSupport

/// `APNsClientCertificate.issue`: what the certificate says (Apple's UID, topics and
/// environment markers, dates), that the fake's TLS trusts it, and that bad requests throw.
@Suite struct APNsClientCertificateTests {
    /// The leaf as the TLS layer reads it, with its trust under `tls`'s CA at `now`.
    static func presented(_ certificate: APNsClientCertificate, trustedBy tls: LoopbackTLS, at now: Date = Date()) throws -> TLSClientCertificate {
        let leaf = try X509Certificate(der: certificate.certificateDER)
        let authentication = try TLSClientAuthentication(trustedAuthorities: [tls.authority.certificateDER], clock: { now })
        return TLSClientCertificate(certificate: leaf, presentedChain: [certificate.certificateDER],
                                    trust: authentication.evaluate(leaf, intermediates: []))
    }

    @Test(arguments: APNsClientCertificate.Environment.allCases)
    func carriesApplesFields(environment: APNsClientCertificate.Environment) throws {
        let tls = try LoopbackTLS.generated()
        let certificate = try APNsClientCertificate.issue(topic: "com.example.app", environment: environment, signedBy: tls, validDays: 30)
        let presented = try Self.presented(certificate, trustedBy: tls)
        #expect(presented.trust == .trusted)
        #expect(presented.subjectUserID == "com.example.app")
        #expect(presented.subjectCommonName == "Apple Push Services: com.example.app")
        #expect(presented.appleTopics == ["com.example.app", "com.example.app.voip", "com.example.app.complication"])
        #expect(certificate.topics == presented.appleTopics)
        #expect(presented.appleEnvironment?.rawValue == environment.rawValue)
        let marker = try #require(presented.appleEnvironment)
        #expect(Set(marker.markerOIDs).isSubset(of: Set(presented.certificate.extensions.map(\.oid))))
        let days = certificate.notAfter.timeIntervalSince(presented.certificate.notBefore) / 86_400
        #expect(days > 30.9 && days < 31.1, "one day back-dated, 30 ahead")
        #expect(certificate.certificatePEM.hasPrefix("-----BEGIN CERTIFICATE-----"))
        // The key PEM is the certificate's key: reading it back gives the certificate's public key.
        let keyDocument = try #require(try PEMDocument.parseAll(certificate.privateKeyPEM).first)
        let fields = try ECPrivateKeyDER(pkcs8: keyDocument.der)
        let pair = try #require(P256KeyPair(privateKey: Array(fields.scalar)))
        #expect(presented.certificate.publicKey == .p256(pair.publicPoint))
        #expect(certificate.pkcs12.first == 0x30 && certificate.pkcs12.count > 500)
    }

    /// Another CA's server does not trust it; an old issue time gives an expired one.
    @Test func trustAndDates() throws {
        let tls = try LoopbackTLS.generated(), other = try LoopbackTLS.generated()
        let certificate = try APNsClientCertificate.issue(topic: "com.example.app", signedBy: tls)
        #expect(try Self.presented(certificate, trustedBy: other).trust == .untrustedIssuer)
        let old = try APNsClientCertificate.issue(topic: "com.example.app", signedBy: tls, validDays: 10, now: Date() - 40 * 86_400)
        #expect(try Self.presented(old, trustedBy: tls).trust == .expired)
    }

    /// The CA directory form uses (or creates) the CA `serve --tls --tls-ca-dir` keeps there.
    @Test func caDirectoryIsServesCA() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apns-cert-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let certificate = try APNsClientCertificate.issue(topic: "com.example.app", caDirectory: folder)
        let serve = try LoopbackTLS.reusing(caDirectory: folder)
        #expect(try Self.presented(certificate, trustedBy: serve).trust == .trusted)
    }

    @Test(arguments: ["", "com/example", "com..example", ".com.example", "com.example.", "com example", "ünï.code",
                      String(repeating: "a", count: 156)])
    func badTopicsThrow(topic: String) {
        #expect(throws: APNsClientCertificateError.invalidTopic) {
            try APNsClientCertificate.issue(topic: topic, signedBy: try LoopbackTLS.generated())
        }
    }

    @Test(arguments: [0, -1, APNsClientCertificate.maximumValidDays + 1])
    func badValidityThrows(days: Int) {
        #expect(throws: APNsClientCertificateError.unusableValue) {
            try APNsClientCertificate.issue(topic: "com.example.app", signedBy: try LoopbackTLS.generated(), validDays: days)
        }
    }
}

/// openssl reads the push certificates FakeAPNs' CA issues: Apple's subject and extensions,
/// and a chain that verifies for client authentication. Skipped without openssl.
@Suite(.enabled(if: OpenSSLTool.path != nil, "openssl is not installed (apt-get install -y openssl)"))
struct APNsClientCertificateOpenSSLTests {
    @Test func opensslReadsAnApplePushCertificate() throws {
        let scratch = try ScratchFolder()
        let authority = TestCertificateAuthority.generate()
        let leaf = authority.issueApplePushCertificate(topic: "com.example.app", environment: .both)
        try scratch.write("push.der", leaf.certificateDER)
        try scratch.write("ca.der", authority.certificateDER)
        let text = try OpenSSLTool.run(["x509", "-inform", "DER", "-in", scratch.path("push.der"), "-noout", "-text", "-nameopt", "RFC2253"])
        #expect(text.contains("UID=com.example.app"), "\(text)")
        for oid in ["1.2.840.113635.100.6.3.6", "1.2.840.113635.100.6.3.1", "1.2.840.113635.100.6.3.2"] {
            #expect(text.contains(oid), "\(oid) in \(text)")
        }
        try OpenSSLTool.run(["x509", "-inform", "DER", "-in", scratch.path("ca.der"), "-out", scratch.path("ca.pem")])
        try OpenSSLTool.run(["x509", "-inform", "DER", "-in", scratch.path("push.der"), "-out", scratch.path("push.pem")])
        let verify = try OpenSSLTool.run(["verify", "-CAfile", scratch.path("ca.pem"), "-purpose", "sslclient", scratch.path("push.pem")])
        #expect(verify.contains("OK"), "\(verify)")
    }
}
