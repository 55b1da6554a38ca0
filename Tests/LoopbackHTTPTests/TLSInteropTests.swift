@testable import PushCrypto
import Foundation
import Testing
@testable import LoopbackHTTP
import PushTestSupport

/// The TLS server against clients nobody here wrote (scripts/install-peers.sh installs them):
/// openssl s_client, curl, Python's ssl module, h2load. Each trusts only the test CA; each
/// is skipped with a note when missing.
@Suite struct TLSInteropTests {
    static let openssl = ExternalPeer.find("openssl")
    static let curl = ExternalPeer.find("curl")
    static let python = ExternalPeer.find("python3")
    static let h2load = ExternalPeer.find("h2load")

    /// A TLS server whose handler answers with what the request carried: protocol, SNI, path.
    static func withTLSServer(_ body: (HTTPServer) throws -> Void) throws {
        var configuration = HTTPServerConfiguration()
        configuration.tls = TLSTestSupport.identity
        let server = try HTTPServer.start(configuration: configuration) { request in
            HTTPResponse(status: .ok, headers: ["content-type": "text/plain"],
                         body: Array("\(request.version.rawValue) sni=\(request.tlsServerName ?? "-") \(request.path) \(request.body.count)\n".utf8))
        }
        defer { server.stop() }
        try body(server)
    }

    static func sClient(_ server: HTTPServer, _ arguments: [String]) throws -> ExternalPeer.Result {
        guard let openssl else { return ExternalPeer.Result(status: -1, output: "", timedOut: false) }
        return try ExternalPeer.run(openssl, ["s_client", "-connect", "127.0.0.1:\(server.port)", "-CAfile", TLSTestSupport.caFile] + arguments, timeout: 30)
    }

    @Test(.enabled(if: openssl != nil, "openssl is not installed"),
          arguments: [("X25519", "X25519"), ("P-256", "prime256v1"), ("X448:P-256", "prime256v1")])
    func opensslHandshakeWithEachGroup(groups: String, expectedKey: String) throws {
        // "X448:P-256": OpenSSL sends an X448 share only, so the server asks again for P-256
        // with a HelloRetryRequest.
        try Self.withTLSServer { server in
            let result = try Self.sClient(server, ["-tls1_3", "-groups", groups, "-alpn", "h2", "-servername", "localhost", "-verify_return_error"])
            #expect(!result.timedOut)
            #expect(result.output.contains("Verify return code: 0 (ok)"), "\(result.output)")
            #expect(result.output.contains("ALPN protocol: h2"), "\(result.output)")
            #expect(result.output.contains("TLSv1.3"), "\(result.output)")
            #expect(result.output.contains("TLS_AES_128_GCM_SHA256"), "\(result.output)")
            #expect(result.output.contains(expectedKey), "\(result.output)")
        }
    }

    @Test(.enabled(if: openssl != nil, "openssl is not installed"))
    func opensslTLS12IsRefusedWithAnAlert() throws {
        try Self.withTLSServer { server in
            let result = try Self.sClient(server, ["-tls1_2"])
            #expect(!result.timedOut, "a TLS 1.2 client gets an answer, not a hang")
            #expect(result.status != 0)
            #expect(result.output.contains("alert protocol version"), "\(result.output)")
        }
    }

    @Test(.enabled(if: curl != nil, "curl is not installed"), arguments: [("--http2", "HTTP/2"), ("--http1.1", "HTTP/1.1")])
    func curlTrustingOnlyTheCA(flag: String, version: String) throws {
        try Self.withTLSServer { server in
            guard let curl = Self.curl else { return }
            let url = "https://localhost:\(server.port)/hello?x=1"
            let result = try ExternalPeer.run(curl, ["-sS", "--max-time", "20", flag, "--cacert", TLSTestSupport.caFile,
                                                     "--resolve", "localhost:\(server.port):127.0.0.1",
                                                     url, "--data-binary", "abc", url], timeout: 30)
            #expect(result.status == 0, "\(result.output)")
            // Two POSTs (curl applies --data-binary to both URLs), one connection.
            #expect(result.output == "\(version) sni=localhost /hello?x=1 3\n\(version) sni=localhost /hello?x=1 3\n")
            #expect(server.acceptedConnectionCount == 1)
        }
    }

    @Test(.enabled(if: python != nil, "python3 is not installed"))
    func pythonSSLWithOnlySSLCertFile() throws {
        try Self.withTLSServer { server in
            let script = """
                import ssl, urllib.request
                context = ssl.create_default_context()
                print(urllib.request.urlopen("https://localhost:\(server.port)/py", context=context).read().decode(), end="")
                """
            let result = try ExternalPeer.run("/usr/bin/env", ["SSL_CERT_FILE=\(TLSTestSupport.caFile)", "SSL_CERT_DIR=/nonexistent",
                                                              Self.python ?? "python3", "-c", script], timeout: 60)
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output == "HTTP/1.1 sni=localhost /py 0\n")
        }
    }

    @Test(.enabled(if: python != nil && ExternalPeer.pythonHas("httpx") && ExternalPeer.pythonHas("h2"), "python3 with httpx[http2] is not installed"))
    func httpxOverHTTP2() throws {
        try Self.withTLSServer { server in
            // The client exactly as tls.md shows it, with deprecations as errors (the page
            // once showed verify=CA, a path, which httpx 0.28 deprecates).
            let client = try Self.httpxClientShownInTLSDocs()
            let script = """
                import ssl
                import httpx
                CA = "\(TLSTestSupport.caFile)"
                with \(client) as client:
                    for index in range(20):
                        response = client.post("https://localhost:\(server.port)/x", content=b"p" * index)
                        print(response.http_version, response.text, end="")
                """
            let result = try ExternalPeer.run(Self.python ?? "python3", ["-W", "error::DeprecationWarning", "-c", script], timeout: 60)
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.hasPrefix("HTTP/2 HTTP/2 sni=localhost /x 0\nHTTP/2 HTTP/2 sni=localhost /x 1\n"), "\(result.output)")
            #expect(result.output.components(separatedBy: "\n").count == 21)
        }
    }

    @Test(.enabled(if: h2load != nil, "h2load is not installed"))
    func h2loadOverTLS() throws {
        try Self.withTLSServer { server in
            guard let h2load = Self.h2load else { return }
            let result = try ExternalPeer.run(h2load, ["-n", "2000", "-c", "4", "-m", "16",
                                                      "https://127.0.0.1:\(server.port)/load"], timeout: 120)
            #expect(result.output.contains("2000 succeeded"), "\(result.output)")
            #expect(result.output.contains("TLS Protocol: TLSv1.3"), "\(result.output)")
            #expect(result.output.contains("Application protocol: h2"), "\(result.output)")
        }
    }

    @Test func plainHTTPToATLSPortGetsAnAlertAndClose() throws {
        try Self.withTLSServer { server in
            let client = try RawClient(port: server.port, timeoutSeconds: 10)
            try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            let reply = try client.readToEnd()
            #expect(reply == [21, 3, 3, 0, 2, 2, 10])
        }
    }

    /// The httpx client expression in tls.md's table of senders (`httpx.Client(…)`).
    static func httpxClientShownInTLSDocs() throws -> String {
        let root = URL(fileURLWithPath: packageRoot)
        let page = try String(contentsOf: root.appendingPathComponent("Docs/readme/tls.md"), encoding: .utf8)
        let row = try #require(page.split(separator: "\n").first { $0.hasPrefix("| httpx |") })
        let cells = row.components(separatedBy: "`")
        return try #require(cells.first { $0.hasPrefix("httpx.Client(") })
    }
}
