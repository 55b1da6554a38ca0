@testable import PushCrypto
import Foundation
import Testing
import PushTestSupport

/// The test CA's certificates: structure and signatures checked with our own DER reader
/// and ECDSA verifier, then by openssl (`x509 -text` parses them, `verify` accepts the
/// chain, the host names and addresses), and a CA reloaded from its PEM files.
@Suite struct TLSCryptoCertificateTests {
    static let dnsNames = TestCertificateAuthority.defaultDNSNames + ["api.example.com", "api.example.net"]
    static let ipAddresses = TestCertificateAuthority.defaultIPAddresses

    /// Splits Certificate ::= SEQUENCE { tbs, algorithm, BIT STRING signature } and checks
    /// the signature over the TBS bytes with `signer`'s public key.
    static func signatureVerifies(_ certificate: [UInt8], signer: P256KeyPair) throws -> Bool {
        var outer = DERReader(certificate)
        var parts = DERReader(try outer.read(DERTag.sequence, "Certificate"))
        try outer.expectEnd("Certificate")
        let tbs = DERWriter.element(DERTag.sequence, Array(try parts.read(DERTag.sequence, "tbs")))
        _ = try parts.read(DERTag.sequence, "algorithm")
        var signature = DERReader(Array(try parts.readBitStringBytes("signature")))
        var integers = DERReader(try signature.read(DERTag.sequence, "Ecdsa-Sig-Value"))
        let r = U256(bigEndian: try integers.read(DERTag.integer, "r").drop { $0 == 0 }) ?? .zero
        let s = U256(bigEndian: try integers.read(DERTag.integer, "s").drop { $0 == 0 }) ?? .zero
        try parts.expectEnd("Certificate")
        return ECDSA.verify(r: r, s: s, digest: SHA256.hash(tbs), publicKey: signer.publicPoint)
    }

    @Test func certificatesAreSignedByTheCA() throws {
        let ca = TestCertificateAuthority.generate()
        let leaf = ca.issueServerCertificate(dnsNames: Self.dnsNames, ipAddresses: Self.ipAddresses)
        #expect(try Self.signatureVerifies(ca.certificateDER, signer: ca.key))
        #expect(try Self.signatureVerifies(leaf.certificateDER, signer: ca.key))
        #expect(!(try Self.signatureVerifies(leaf.certificateDER, signer: leaf.key)))
        // The leaf carries its own key's point, and the CA's carries the CA's.
        #expect(leaf.certificateDER.firstRange(of: leaf.key.publicKeyX963) != nil)
        #expect(ca.certificateDER.firstRange(of: ca.key.publicKeyX963) != nil)
    }

    @Test func timesAreUTCTimeUntil2049ThenGeneralizedTime() {
        #expect(DERWriter.time(Date(timeIntervalSince1970: 0)) == [0x17, 13] + Array("700101000000Z".utf8))
        #expect(DERWriter.time(Date(timeIntervalSince1970: 951_782_400)) == [0x17, 13] + Array("000229000000Z".utf8))
        #expect(DERWriter.time(Date(timeIntervalSince1970: 2_524_607_999)) == [0x17, 13] + Array("491231235959Z".utf8))
        #expect(DERWriter.time(Date(timeIntervalSince1970: 2_524_608_000)) == [0x18, 15] + Array("20500101000000Z".utf8))
    }

    @Test func namedBitsDropTrailingZeros() {
        #expect(DERWriter.namedBits([5, 6]) == [0x03, 0x02, 0x01, 0x06])  // keyCertSign, cRLSign
        #expect(DERWriter.namedBits([0]) == [0x03, 0x02, 0x07, 0x80])  // digitalSignature
    }

    @Test func reloadedCAKeepsItsIdentity() throws {
        let ca = TestCertificateAuthority.generate(commonName: "Reload CA")
        let reloaded = try TestCertificateAuthority(keyPEM: ca.keyPEM, certificatePEM: ca.certificatePEM)
        #expect(reloaded.certificateDER == ca.certificateDER)
        #expect(reloaded.key.publicKeyX963 == ca.key.publicKeyX963)
        #expect(reloaded.keyPEM == ca.keyPEM)
        let leaf = reloaded.issueServerCertificate(dnsNames: ["localhost"], ipAddresses: [])
        #expect(try Self.signatureVerifies(leaf.certificateDER, signer: ca.key))
    }

    @Test func mismatchedOrBrokenFilesAreRefused() {
        let ca = TestCertificateAuthority.generate()
        let other = TestCertificateAuthority.generate()
        #expect(throws: CryptoEncodingError.keyMismatch) {
            try TestCertificateAuthority(keyPEM: other.keyPEM, certificatePEM: ca.certificatePEM)
        }
        #expect(throws: CryptoEncodingError.notPEM) { try TestCertificateAuthority(keyPEM: ca.keyPEM, certificatePEM: ca.keyPEM) }
        #expect(throws: CryptoEncodingError.notPEM) { try TestCertificateAuthority(keyPEM: "", certificatePEM: ca.certificatePEM) }
        let truncated = PEMDocument(label: "CERTIFICATE", der: Array(ca.certificateDER.prefix(100))).text
        #expect(throws: CryptoEncodingError.malformedDER) { try TestCertificateAuthority(keyPEM: ca.keyPEM, certificatePEM: truncated) }
    }
}

/// openssl reads and verifies what the CA writes. Skipped when openssl is not on PATH.
@Suite(.enabled(if: ExternalPeer.find("openssl") != nil, "openssl is not installed (apt-get install -y openssl)"))
struct TLSCryptoCertificateOpenSSLTests {
    static func openssl(_ arguments: [String]) throws -> ExternalPeer.Result {
        try ExternalPeer.run(ExternalPeer.find("openssl") ?? "openssl", arguments, timeout: 60)
    }

    /// Writes ca.pem and leaf.pem for a fresh CA (or `ca`) into a new directory.
    static func files(_ ca: TestCertificateAuthority) throws -> (directory: URL, ca: String, leaf: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-certificates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let leaf = ca.issueServerCertificate(dnsNames: TLSCryptoCertificateTests.dnsNames, ipAddresses: TLSCryptoCertificateTests.ipAddresses)
        let caPath = directory.appendingPathComponent("ca.pem").path
        let leafPath = directory.appendingPathComponent("leaf.pem").path
        try ca.certificatePEM.write(toFile: caPath, atomically: true, encoding: .utf8)
        try PEMDocument(label: "CERTIFICATE", der: leaf.certificateDER).text.write(toFile: leafPath, atomically: true, encoding: .utf8)
        return (directory, caPath, leafPath)
    }

    @Test func opensslParsesBothCertificates() throws {
        let (directory, ca, leaf) = try Self.files(TestCertificateAuthority.generate())
        defer { try? FileManager.default.removeItem(at: directory) }
        let caText = try Self.openssl(["x509", "-noout", "-text", "-in", ca])
        #expect(caText.status == 0, "\(caText.output)")
        for expected in ["Version: 3", "ecdsa-with-SHA256", "CN = PushContracts Test CA", "CA:TRUE", "Certificate Sign, CRL Sign",
                         "X509v3 Subject Key Identifier", "NIST CURVE: P-256"] {
            #expect(caText.output.contains(expected), "\(expected) in \(caText.output)")
        }
        let leafText = try Self.openssl(["x509", "-noout", "-text", "-in", leaf])
        #expect(leafText.status == 0, "\(leafText.output)")
        for expected in ["CA:FALSE", "Digital Signature", "TLS Web Server Authentication", "DNS:localhost",
                         "DNS:api.example.com", "DNS:api.example.net", "IP Address:127.0.0.1",
                         "IP Address:0:0:0:0:0:0:0:1", "X509v3 Authority Key Identifier", "Issuer: CN = PushContracts Test CA"] {
            #expect(leafText.output.contains(expected), "\(expected) in \(leafText.output)")
        }
    }

    @Test func opensslVerifiesTheChainNamesAndAddresses() throws {
        let (directory, ca, leaf) = try Self.files(TestCertificateAuthority.generate())
        defer { try? FileManager.default.removeItem(at: directory) }
        for check in [[], ["-verify_hostname", "api.example.net"], ["-verify_hostname", "localhost"],
                      ["-verify_ip", "127.0.0.1"], ["-verify_ip", "::1"], ["-purpose", "sslserver"]] {
            let result = try Self.openssl(["verify", "-CAfile", ca] + check + [leaf])
            #expect(result.status == 0 && result.output.contains("\(leaf): OK"), "\(check): \(result.output)")
        }
        // The checks bite: a name or address the certificate does not list is refused.
        for check in [["-verify_hostname", "example.com"], ["-verify_ip", "10.0.0.1"]] {
            let result = try Self.openssl(["verify", "-CAfile", ca] + check + [leaf])
            #expect(result.status != 0, "\(check): \(result.output)")
        }
    }

    /// A CA written out and read back (PKCS#8 as we write it, and SEC1 as `openssl ec` writes
    /// it) issues leaves that verify against the original ca.pem.
    @Test func reloadedCAIssuesLeavesThatVerify() throws {
        let original = TestCertificateAuthority.generate()
        let (directory, ca, _) = try Self.files(original)
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyPath = directory.appendingPathComponent("ca.key").path
        try original.keyPEM.write(toFile: keyPath, atomically: true, encoding: .utf8)
        let sec1 = try Self.openssl(["ec", "-in", keyPath])
        #expect(sec1.output.contains("-----BEGIN EC PRIVATE KEY-----"), "\(sec1.output)")
        for (index, keyPEM) in [original.keyPEM, sec1.output].enumerated() {
            let reloaded = try TestCertificateAuthority(keyPEM: keyPEM, certificatePEM: original.certificatePEM)
            #expect(reloaded.certificateDER == original.certificateDER)
            let leafPath = directory.appendingPathComponent("reloaded-\(index).pem").path
            let leaf = reloaded.issueServerCertificate(dnsNames: ["api.example.com"], ipAddresses: [])
            try PEMDocument(label: "CERTIFICATE", der: leaf.certificateDER).text.write(toFile: leafPath, atomically: true, encoding: .utf8)
            let result = try Self.openssl(["verify", "-CAfile", ca, "-verify_hostname", "api.example.com", leafPath])
            #expect(result.status == 0 && result.output.contains("OK"), "\(result.output)")
        }
    }
}
