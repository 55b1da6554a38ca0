@testable import PushCrypto
import Contracts
import FakeAPNs
import Foundation
import Testing

/// Cross-checks with a real peer: keys and signatures go both ways between this package
/// and the `openssl` command line tool. Skipped when `openssl` is not on PATH (the embedded
/// OpenSSL fixtures in ProviderKeyEncodingTests still run).
@Suite(.enabled(if: OpenSSL.path != nil, "openssl is not installed (apt-get install -y openssl)"))
struct ProviderTokenOpenSSLTests {
    @Test func readsAKeyOpenSSLGeneratesAndVerifiesItsSignature() throws {
        let directory = try OpenSSL.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyFile = directory.appendingPathComponent("AuthKey_TEST000001.p8")
        let messageFile = directory.appendingPathComponent("message")
        let signatureFile = directory.appendingPathComponent("signature.der")
        let publicFile = directory.appendingPathComponent("public.pem")
        let message = Array("eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJ0ZWFtIn0".utf8)
        try Data(message).write(to: messageFile)

        try OpenSSL.run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", keyFile.path])
        try OpenSSL.run(["pkey", "-in", keyFile.path, "-pubout", "-out", publicFile.path])
        try OpenSSL.run(["dgst", "-sha256", "-sign", keyFile.path, "-out", signatureFile.path, messageFile.path])

        let key = try APNsSigningKey(pemRepresentation: String(contentsOf: keyFile, encoding: .utf8))
        let publicKey = try APNsPublicKey(pemRepresentation: String(contentsOf: publicFile, encoding: .utf8))
        #expect(key.publicKey == publicKey, "we derive the public key OpenSSL wrote")
        let der = try [UInt8](Data(contentsOf: signatureFile))
        let raw = try ECDSASignatureDER.rawSignature(fromDER: der)
        #expect(publicKey.isValidSignature(raw, for: message))
        #expect(!publicKey.isValidSignature(raw, for: message + [0x2e]))
    }

    @Test func openSSLReadsOurKeyAndVerifiesOurToken() throws {
        let directory = try OpenSSL.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = APNsSigningKey.generate()
        let keyFile = directory.appendingPathComponent("AuthKey_TEST000002.p8")
        let publicFile = directory.appendingPathComponent("public.pem")
        let inputFile = directory.appendingPathComponent("signing-input")
        let signatureFile = directory.appendingPathComponent("signature.der")
        try key.pemRepresentation.write(to: keyFile, atomically: true, encoding: .utf8)

        // OpenSSL derives from our .p8 the same SPKI we write.
        let derivedPublic = try OpenSSL.run(["pkey", "-in", keyFile.path, "-pubout"])
        #expect(derivedPublic == key.publicKey.pemRepresentation)
        try key.publicKey.pemRepresentation.write(to: publicFile, atomically: true, encoding: .utf8)

        let token = ProviderToken.mint(keyID: "TEST000002", teamID: "TEAM000002", signingKey: key)
        let decoded = try ProviderToken.decode(token).get()
        try Data(decoded.signingInput).write(to: inputFile)
        let der = try #require(ECDSASignatureDER.derSignature(fromRaw: decoded.signature))
        try Data(der).write(to: signatureFile)
        let verdict = try OpenSSL.run(["dgst", "-sha256", "-verify", publicFile.path, "-signature", signatureFile.path, inputFile.path])
        #expect(verdict.contains("Verified OK"))

        // And OpenSSL rejects the same signature over a changed input.
        try Data(decoded.signingInput + [0x41]).write(to: inputFile)
        #expect(throws: OpenSSL.Failure.self) {
            try OpenSSL.run(["dgst", "-sha256", "-verify", publicFile.path, "-signature", signatureFile.path, inputFile.path])
        }
    }
}

/// Runs the `openssl` tool for the peer tests.
enum OpenSSL {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static let path: String? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { "\($0)/openssl" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("crypto-peer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs openssl with `arguments`; returns standard output, throws on a non-zero exit.
    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        guard let path else { throw Failure(description: "openssl not found") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "openssl \(arguments.joined(separator: " ")) exited \(process.terminationStatus): "
                + String(decoding: errorData + data, as: UTF8.self))
        }
        return String(decoding: data, as: UTF8.self)
    }
}
