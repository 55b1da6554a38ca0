@testable import PushCrypto
import Foundation
import Testing
@testable import LoopbackHTTP
import PushTestSupport

/// Client certificates from peers nobody here wrote: curl `--cert/--key` and openssl
/// `s_client -cert -key` over loopback, with a P-256 certificate from our test CA and an RSA
/// 2048 certificate from an RSA CA openssl makes at run time (so RSA-PSS CertificateVerify
/// and sha256WithRSAEncryption chains are both exercised), and without a certificate.
@Suite(.enabled(if: ExternalPeer.find("openssl") != nil && ExternalPeer.find("curl") != nil,
                "openssl or curl is not installed (apt-get install -y openssl curl)"))
struct TLSClientAuthenticationInteropTests {
    /// Client credentials on disk, and a server trusting both issuers.
    final class Credentials {
        let scratch: ScratchFolder
        let authority = TestCertificateAuthority.generate(commonName: "PushContracts client CA")

        init() throws {
            scratch = try ScratchFolder()
            let leaf = authority.issueClientCertificate(commonName: "P-256 Provider", userID: "com.example.ec")
            try scratch.write("ec.pem", Array(PEMDocument(label: "CERTIFICATE", der: leaf.certificateDER).text.utf8))
            try scratch.write("ec.key", Array(PEMDocument(label: "PRIVATE KEY", der: ECPrivateKeyDER.pkcs8(
                scalar: leaf.key.privateKey, publicKeyX963: leaf.key.publicKeyX963)).text.utf8))
            let path = scratch.path(_:)
            try OpenSSLTool.run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("rsaca.key"),
                                              "-out", path("rsaca.pem"), "-subj", "/CN=RSA Test CA", "-days", "2", "-sha256")
            try OpenSSLTool.run("req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", path("rsa.key"),
                                              "-out", path("rsa.csr"), "-subj", "/UID=com.example.rsa/CN=RSA Provider")
            try OpenSSLTool.run("x509", "-req", "-in", path("rsa.csr"), "-CA", path("rsaca.pem"), "-CAkey", path("rsaca.key"),
                                              "-set_serial", "0x5eed", "-days", "1", "-sha256", "-out", path("rsa.pem"))
        }

        /// A TLS server asking for client certificates, trusting `authority` and the RSA CA;
        /// its handler answers with what the connection's certificate said.
        func withServer(_ body: (HTTPServer) throws -> Void) throws {
            let rsaAuthority = try #require(try PEMDocument.parseAll(String(decoding: try scratch.read("rsaca.pem"), as: UTF8.self)).first)
            var identity = TLSTestSupport.identity
            identity.clientAuthentication = try TLSClientAuthentication(trustedAuthorities: [authority.certificateDER, rsaAuthority.der])
            var configuration = HTTPServerConfiguration()
            configuration.tls = identity
            let server = try HTTPServer.start(configuration: configuration) { request in
                let answer = request.tlsClientCertificate.map { "cert=\($0.trust) uid=\($0.subjectUserID ?? "-") serial=\($0.serialHex)" } ?? "cert=none"
                return HTTPResponse(status: .ok, headers: ["content-type": "text/plain"], body: Array("\(answer)\n".utf8))
            }
            defer { server.stop() }
            try body(server)
        }
    }

    static func curl(_ server: HTTPServer, _ arguments: [String], http: String = "--http2") throws -> ExternalPeer.Result {
        try ExternalPeer.run(ExternalPeer.find("curl") ?? "curl",
                             ["-sS", "--max-time", "20", http, "--cacert", TLSTestSupport.caFile,
                              "--resolve", "localhost:\(server.port):127.0.0.1"] + arguments + ["https://localhost:\(server.port)/who"],
                             timeout: 30)
    }

    @Test func curlWithEachKindOfCertificateAndWithout() throws {
        let credentials = try Credentials()
        let path = credentials.scratch.path(_:)
        try credentials.withServer { server in
            for http in ["--http2", "--http1.1"] {
                let ec = try Self.curl(server, ["--cert", path("ec.pem"), "--key", path("ec.key")], http: http)
                #expect(ec.status == 0 && ec.output.hasPrefix("cert=trusted uid=com.example.ec serial="), "\(http): \(ec.output)")
                let rsa = try Self.curl(server, ["--cert", path("rsa.pem"), "--key", path("rsa.key")], http: http)
                #expect(rsa.status == 0 && rsa.output == "cert=trusted uid=com.example.rsa serial=5eed\n", "\(http): \(rsa.output)")
                let none = try Self.curl(server, [], http: http)
                #expect(none.status == 0 && none.output == "cert=none\n", "\(http): \(none.output)")
            }
        }
    }

    @Test func rsaChainsVerifyWithPKCS1AndTamperedOnesDoNot() throws {
        let credentials = try Credentials()
        func certificate(_ name: String) throws -> X509Certificate {
            let pem = String(decoding: try credentials.scratch.read(name), as: UTF8.self)
            return try X509Certificate(der: try #require(try PEMDocument.parseAll(pem).first).der)
        }
        let leaf = try certificate("rsa.pem")
        let authority = try certificate("rsaca.pem")
        #expect(leaf.signatureAlgorithm == "1.2.840.113549.1.1.11")
        #expect(leaf.isSigned(by: authority))
        #expect(authority.isSigned(by: authority))
        var tamperedSignature = leaf.der
        tamperedSignature[tamperedSignature.count - 1] ^= 1  // the signature is last
        #expect(!(try X509Certificate(der: tamperedSignature)).isSigned(by: authority))
        // The same CA name with another key is not the issuer.
        let path = credentials.scratch.path(_:)
        try OpenSSLTool.run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("impostor.key"),
                                          "-out", path("impostor.pem"), "-subj", "/CN=RSA Test CA", "-days", "2", "-sha256")
        #expect(!leaf.isSigned(by: try certificate("impostor.pem")))
    }

    @Test(arguments: ["ec", "rsa"])
    func opensslSClientWithACertificate(kind: String) throws {
        let credentials = try Credentials()
        let path = credentials.scratch.path(_:)
        try credentials.withServer { server in
            let openssl = ExternalPeer.find("openssl") ?? "openssl"
            let command = "printf 'GET /who HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' | '\(openssl)' s_client -connect 127.0.0.1:\(server.port) "
                + "-CAfile '\(TLSTestSupport.caFile)' -servername localhost -verify_return_error -ign_eof -tls1_3 "
                + "-cert '\(path("\(kind).pem"))' -key '\(path("\(kind).key"))'"
            let result = try ExternalPeer.run("/bin/sh", ["-c", command], timeout: 30)
            #expect(!result.timedOut)
            #expect(result.output.contains("Verify return code: 0 (ok)"), "\(result.output)")
            #expect(result.output.contains("cert=trusted uid=com.example.\(kind) serial="), "\(result.output)")
            // The CertificateRequest as openssl read it: the CAs by name, and the two schemes.
            #expect(result.output.contains("Acceptable client certificate CA names"), "\(result.output)")
            #expect(result.output.contains("Requested Signature Algorithms: ECDSA+SHA256:RSA-PSS+SHA256"), "\(result.output)")
        }
    }
}
