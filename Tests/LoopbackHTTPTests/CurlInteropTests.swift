import Foundation
import Testing
import PushTestSupport

/// curl as a real peer (installed by scripts/install-peers.sh; `apt-get install curl`).
/// Skipped with a note when curl is absent.
@Suite struct CurlInteropTests {
    static let curl: String? = ExternalPeer.find("curl")

    /// Runs curl with `arguments`, feeding `input` on stdin. Returns (exit status, stdout, stderr).
    static func run(_ arguments: [String], input: [UInt8] = []) throws -> (Int32, String, String) {
        guard let curl else { return (-1, "", "curl not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: curl)
        process.arguments = ["--silent", "--show-error", "--max-time", "10"] + arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input))
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    @Test(.enabled(if: curl != nil, "curl is not installed"))
    func chunkedUploadFromStdin() async throws {
        try await withServer(handler: echoHandler) { server in
            let body = [UInt8](repeating: 0x62, count: 100_000)
            let (status, out, err) = try Self.run(
                ["-X", "POST", "-H", "Transfer-Encoding: chunked", "--data-binary", "@-", url(server, "/chunked").absoluteString],
                input: body)
            #expect(status == 0, "\(err)")
            #expect(out == "POST /chunked 100000")
        }
    }

    @Test(.enabled(if: curl != nil, "curl is not installed"))
    func expectContinueAndKeepAliveReuse() async throws {
        try await withServer(handler: echoHandler) { server in
            let (status, out, err) = try Self.run(
                ["-v", "-H", "Expect: 100-continue", "-X", "PUT", "--data-binary", "abc", url(server, "/one").absoluteString,
                 "--next", "-X", "PUT", "--data-binary", "defg", url(server, "/two").absoluteString])
            #expect(status == 0, "\(err)")
            #expect(err.contains("< HTTP/1.1 100 Continue"))
            #expect(out == "PUT /one 3PUT /two 4")
            #expect(server.acceptedConnectionCount == 1, "curl reused the kept-alive connection")
        }
    }

    @Test(.enabled(if: curl != nil, "curl is not installed"))
    func headAndErrorStatuses() async throws {
        try await withServer({ $0.maxBodyBytes = 10 }, handler: echoHandler) { server in
            let (_, head, _) = try Self.run(["--head", url(server, "/h").absoluteString])
            #expect(head == "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 9\r\n\r\n", "HEAD: the length of \"HEAD /h 0\", no body")
            let (_, tooLarge, _) = try Self.run(
                ["-o", "/dev/null", "-w", "%{http_code}", "--data-binary", "@-", url(server, "/big").absoluteString],
                input: [UInt8](repeating: 0x61, count: 11))
            #expect(tooLarge == "413")
            let (_, method, _) = try Self.run(["-o", "/dev/null", "-w", "%{http_code}", "-X", "BREW", url(server, "/").absoluteString])
            #expect(method == "405")
        }
    }
}
