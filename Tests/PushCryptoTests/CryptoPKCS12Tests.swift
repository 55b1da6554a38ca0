import Foundation
@testable import PushCrypto
import Testing
import PushTestSupport

/// PKCS#12 files read back by real readers: `openssl pkcs12` (structure, algorithms, MAC,
/// the certificate and key) and Python `cryptography`'s `load_key_and_certificates`. Go's
/// loaders in Debian (golang.org/x/crypto/pkcs12, sslmate's 2021 snapshot) read neither
/// PBES2 nor a SHA-256 MAC, so Go is not a peer here.
@Suite struct CryptoPKCS12Tests {
    /// A PFX of a fresh push certificate, its certificate and key PEM, in a temporary folder.
    struct Fixture {
        var folder: URL
        var p12: URL
        var certificatePEM: String
        var keyPEM: String

        init(password: String) throws {
            let ca = TestCertificateAuthority.generate()
            let (der, key) = ca.issueClientCertificate(commonName: "Sender: com.example.app", userID: "com.example.app")
            let pkcs8 = ECPrivateKeyDER.pkcs8(scalar: key.privateKey, publicKeyX963: key.publicKeyX963)
            let archive = try #require(PKCS12.archive(certificateDER: der, privateKeyInfo: pkcs8,
                                                      friendlyName: "Sender: com.example.app", password: password))
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("p12-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            p12 = folder.appendingPathComponent("com.example.app.p12")
            try Data(archive).write(to: p12)
            certificatePEM = PEMDocument(label: "CERTIFICATE", der: der).text
            keyPEM = PEMDocument(label: "PRIVATE KEY", der: pkcs8).text
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    static let passwords = ["secret", "", "pässwörd 😀"]

    /// `openssl pkcs12 -info -nodes` names OpenSSL 3's default algorithms, checks the MAC,
    /// and prints our certificate, key, localKeyID and friendlyName.
    @Test(arguments: passwords)
    func opensslReadsIt(password: String) throws {
        guard let openssl = ExternalPeer.find("openssl") else {
            print("skipped: openssl is not installed (scripts/install-peers.sh)")
            return
        }
        let fixture = try Fixture(password: password)
        defer { fixture.remove() }
        let info = try ExternalPeer.run(openssl, ["pkcs12", "-info", "-nodes", "-in", fixture.p12.path, "-passin", "pass:\(password)"], timeout: 30)
        #expect(info.status == 0, "\(info.output)")
        #expect(info.output.contains("MAC: sha256, Iteration 2048"))
        #expect(info.output.contains("PKCS7 Encrypted data: PBES2, PBKDF2, AES-256-CBC, Iteration 2048, PRF hmacWithSHA256"))
        #expect(info.output.contains("Shrouded Keybag: PBES2, PBKDF2, AES-256-CBC, Iteration 2048, PRF hmacWithSHA256"))
        #expect(info.output.contains("friendlyName: Sender: com.example.app"))
        #expect(info.output.contains("localKeyID:"))
        #expect(info.output.contains(fixture.certificatePEM), "the certificate comes back byte for byte")
        #expect(info.output.contains(fixture.keyPEM), "the key comes back byte for byte")
        let macOnly = try ExternalPeer.run(openssl, ["pkcs12", "-noout", "-in", fixture.p12.path, "-passin", "pass:\(password)"], timeout: 30)
        #expect(macOnly.status == 0, "\(macOnly.output)")
        let wrong = try ExternalPeer.run(openssl, ["pkcs12", "-noout", "-in", fixture.p12.path, "-passin", "pass:\(password)x"], timeout: 30)
        #expect(wrong.status != 0, "a wrong password must fail the MAC check")
    }

    /// Python `cryptography` loads key and certificate with the password (and refuses a
    /// wrong one); the key is the certificate's.
    @Test(arguments: passwords)
    func pythonCryptographyReadsIt(password: String) throws {
        guard let python = ExternalPeer.find("python3"), ExternalPeer.pythonHas("cryptography") else {
            print("skipped: python3 with cryptography is not installed (scripts/install-peers.sh)")
            return
        }
        let fixture = try Fixture(password: password)
        defer { fixture.remove() }
        let script = """
            import sys
            from cryptography.hazmat.primitives.serialization import pkcs12, Encoding, PublicFormat
            data = open(sys.argv[1], 'rb').read()
            password = sys.argv[2].encode()
            key, certificate, extra = pkcs12.load_key_and_certificates(data, password)
            same = key.public_key().public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo) == \
                certificate.public_key().public_bytes(Encoding.DER, PublicFormat.SubjectPublicKeyInfo)
            print('subject', certificate.subject.rfc4514_string(), 'same-key', same, 'extra', len(extra))
            try:
                pkcs12.load_key_and_certificates(data, password + b'x')
                print('wrong password accepted')
            except ValueError:
                print('wrong password refused')
            """
        let result = try ExternalPeer.run(python, ["-c", script, fixture.p12.path, password], timeout: 60)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("subject CN=Sender: com.example.app,UID=com.example.app same-key True extra 0"),
                "\(result.output)")
        #expect(result.output.contains("wrong password refused"), "\(result.output)")
    }

    /// Iteration counts out of range give nil rather than a file nobody can open in time.
    @Test func iterationLimits() {
        #expect(PKCS12.archive(certificateDER: [0x30, 0x00], privateKeyInfo: [0x30, 0x00], friendlyName: nil, password: "",
                               iterations: 0) == nil)
        #expect(PKCS12.archive(certificateDER: [0x30, 0x00], privateKeyInfo: [0x30, 0x00], friendlyName: nil, password: "",
                               iterations: PKCS12.maximumIterations + 1) == nil)
    }
}
