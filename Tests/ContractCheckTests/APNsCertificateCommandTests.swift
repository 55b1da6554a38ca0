@testable import ContractCheckCLI
import Foundation
import Testing

/// `contract-check apns-certificate`: the three files, signed by the CA in --tls-ca-dir
/// (checked with `openssl verify`), the .p12 readable with the password, and usage errors.
/// The .p12 format itself is checked against openssl and Python in CryptoPKCS12Tests.
@Suite struct APNsCertificateCommandTests {
    static func temporaryFolder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apns-certificate-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    static let openssl = ["/usr/bin/openssl", "/usr/local/bin/openssl"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test func writesThreeFilesSignedByTheCADirectory() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = runTool(["apns-certificate", "--topic", "com.example.app", "--environment", "production", "--out", "certs",
                              "--tls-ca-dir", "ca", "--password", "secret", "--days", "30"], in: folder)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.outputLines.first?.hasPrefix("wrote certs/com.example.app.cert.pem (Apple Push Services: com.example.app, production, valid until ") == true,
                "\(result.output)")
        #expect(result.output.contains("signed by ca/ca.pem; 'contract-check serve --tls --tls-ca-dir ca' trusts it"))
        let files = FileManager.default
        for name in ["com.example.app.cert.pem", "com.example.app.key.pem", "com.example.app.p12"] {
            #expect(files.fileExists(atPath: "\(folder)/certs/\(name)"), "\(name)")
        }
        #expect(files.fileExists(atPath: "\(folder)/ca/ca.pem") && files.fileExists(atPath: "\(folder)/ca/ca-key.pem"))
        let keyMode = try files.attributesOfItem(atPath: "\(folder)/certs/com.example.app.key.pem")[.posixPermissions] as? Int
        #expect(keyMode == 0o600)
        guard Self.openssl != nil else {
            print("skipped the openssl checks: openssl is not installed (scripts/install-peers.sh)")
            return
        }
        let certificate = "\(folder)/certs/com.example.app.cert.pem"
        let verify = try ServeRun.tool("openssl", ["verify", "-CAfile", "\(folder)/ca/ca.pem", certificate])
        #expect(verify.contains(": OK"), "\(verify)")
        let text = try ServeRun.tool("openssl", ["x509", "-noout", "-text", "-in", certificate])
        #expect(text.contains("UID = com.example.app"), "\(text)")
        #expect(text.contains("1.2.840.113635.100.6.3.2") && !text.contains("1.2.840.113635.100.6.3.1:"))
        let p12 = try ServeRun.tool("openssl", ["pkcs12", "-info", "-nodes", "-in", "\(folder)/certs/com.example.app.p12", "-passin", "pass:secret"])
        #expect(p12.contains("-----BEGIN PRIVATE KEY-----") && p12.contains("-----BEGIN CERTIFICATE-----"), "\(p12)")
        let certificateKey = try ServeRun.tool("openssl", ["x509", "-noout", "-pubkey", "-in", certificate])
        let keyFileKey = try ServeRun.tool("openssl", ["pkey", "-pubout", "-in", "\(folder)/certs/com.example.app.key.pem"])
        #expect(certificateKey.contains("BEGIN PUBLIC KEY") && certificateKey == keyFileKey, "the key file holds the certificate's key")

        // A second certificate from the same folder is signed by the same, kept CA.
        let again = runTool(["apns-certificate", "--topic", "com.example.other", "--out", "certs", "--tls-ca-dir", "ca"], in: folder)
        #expect(again.status == 0, "\(again.error)")
        let verifyAgain = try ServeRun.tool("openssl", ["verify", "-CAfile", "\(folder)/ca/ca.pem", "\(folder)/certs/com.example.other.cert.pem"])
        #expect(verifyAgain.contains(": OK"), "\(verifyAgain)")
    }

    /// Without --out and --tls-ca-dir, everything goes in the current folder.
    @Test func defaultsToTheCurrentFolder() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = runTool(["apns-certificate", "--topic", "com.example.app"], in: folder)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("(password: empty)"))
        for name in ["ca.pem", "ca-key.pem", "com.example.app.cert.pem", "com.example.app.key.pem", "com.example.app.p12"] {
            #expect(FileManager.default.fileExists(atPath: "\(folder)/\(name)"), "\(name)")
        }
    }

    @Test(arguments: [
        (["apns-certificate"], "--topic"),
        (["apns-certificate", "--topic", "com/example"], "not a bundle id"),
        (["apns-certificate", "--topic", "com.example.app", "--days", "0"], "--days"),
        (["apns-certificate", "--topic", "com.example.app", "--days", "3651"], "--days"),
        (["apns-certificate", "--topic", "com.example.app", "--environment", "sandbox"], "--environment"),
        (["apns-certificate", "--topic", "com.example.app", "extra"], "extra"),
        (["apns-certificate", "--topic", "com.example.app", "--out", ""], "--out"),
    ])
    func usageErrorsExit64(arguments: [String], mentions: String) throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = runTool(arguments, in: folder)
        #expect(result.status == 64)
        #expect(result.error.contains(mentions), "\(result.error)")
        #expect(result.error.contains("Usage: contract-check apns-certificate --topic BUNDLE_ID"))
        #expect((try? FileManager.default.contentsOfDirectory(atPath: folder)) == [], "nothing is written")
    }

    @Test func helpAndToolList() {
        let help = runTool(["apns-certificate", "--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("USAGE: contract-check apns-certificate --topic BUNDLE_ID"))
        #expect(help.output.contains("--tls-ca-dir DIR"))
        let tool = runTool(["--help"])
        #expect(tool.output.contains("apns-certificate"))
    }
}
