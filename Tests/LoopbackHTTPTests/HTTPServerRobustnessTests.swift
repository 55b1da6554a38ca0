@testable import PushCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import LoopbackHTTP
import PushTestSupport

/// Bad input never crashes the host and never wedges the server.
@Suite struct HTTPServerRobustnessTests {
    @Test(arguments: ["content-length", "chunked"])
    func tenMegabyteBodyGets413WithoutBeingReadWhole(_ framing: String) async throws {
        let calls = Locked(0)
        try await withServer(handler: { request in
            calls.withLock { $0 += 1 }
            return echoHandler(request)
        }) { server in
            let client = try RawClient(port: server.port)
            let size = 10 * 1024 * 1024
            let head = framing == "chunked"
                ? "PUT /big HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
                : "PUT /big HTTP/1.1\r\nHost: h\r\nContent-Length: \(size)\r\n\r\n"
            try client.send(head)
            // Send the body from another thread; the server may stop reading and close,
            // so send errors are expected and ignored.
            let sender = Thread {
                let piece = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024)
                let chunk = Array("10000\r\n".utf8) + piece + Array("\r\n".utf8)
                for _ in 0..<(size / piece.count) {
                    do { try client.send(framing == "chunked" ? chunk : piece) } catch { return }
                }
            }
            sender.start()
            let reply = try client.read { $0.text.contains("\r\n\r\n") && $0.text.hasSuffix("\n") }
            #expect(statusCode(reply) == 413)
            #expect(reply.text.contains("request body exceeds 1048576 bytes"))
            #expect(calls.snapshot == 0)
            let next = try RawClient(port: server.port)
            try next.send("GET /ok HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
            #expect(try next.readToEnd().text.hasSuffix("GET /ok 0"))
        }
    }

    @Test func halfARequestThenCloseLeavesNothingOpen() async throws {
        try await withServer(handler: echoHandler) { server in
            do {
                let client = try RawClient(port: server.port)
                try client.send("POST /half HTTP/1.1\r\nHost: h\r\nContent-Length: 100\r\n\r\nonly part")
                #expect(eventually { server.openConnectionCount == 1 })
            }
            #expect(eventually { server.openConnectionCount == 0 })
        }
    }

    @Test func thousandConnectionsOpenedAndDroppedThenTheServerStillAnswers() async throws {
        try await withServer(handler: echoHandler) { server in
            var clients: [RawClient] = []
            for index in 0..<1_000 {
                let client = try RawClient(port: server.port)
                switch index % 4 {
                case 0: try client.send("GET / HTTP/1.1\r\nHo")        // half a head
                case 1: try client.send("\u{0}\u{1}garbage")          // garbage
                case 2: try client.send("PUT / HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nab")  // half a body
                default: break                                          // nothing at all
                }
                clients.append(client)
            }
            #expect(eventually { server.acceptedConnectionCount == 1_000 })
            clients.removeAll()
            #expect(eventually { server.openConnectionCount == 0 })
            let client = try RawClient(port: server.port)
            try client.send("GET /alive HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
            #expect(try client.readToEnd().text.hasSuffix("GET /alive 0"))
        }
    }

    @Test func slowRequestGets408AndIdleConnectionIsClosed() async throws {
        try await withServer({ $0.requestTimeout = 0.2; $0.idleTimeout = 0.3 }, handler: echoHandler) { server in
            let slow = try RawClient(port: server.port)
            try slow.send("GET / HTTP/1.1\r\nHost: h\r\n")
            let reply = try slow.readToEnd()
            #expect(statusCode(reply) == 408)

            let idle = try RawClient(port: server.port)
            try idle.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
            _ = try idle.read { $0.text.hasSuffix("GET / 0") }
            #expect(try idle.readToEnd() == [], "closed by the idle timeout after the response")
        }
    }

    /// h2spec 3.5/2 on the shared HTTP/1.1 + HTTP/2 port: not an HTTP/2 preface, and not
    /// HTTP/1.x either, so the server closes without writing a byte.
    @Test func invalidConnectionPrefaceIsClosedWithoutAResponse() async throws {
        let calls = Locked(0)
        try await withServer(handler: { request in
            calls.withLock { $0 += 1 }
            return echoHandler(request)
        }) { server in
            let client = try RawClient(port: server.port)
            try client.send("INVALID CONNECTION PREFACE\r\n\r\n")
            #expect(try client.readToEnd() == [])
            #expect(calls.snapshot == 0)
        }
    }

    @Test func aClientThatNeverReadsCannotMakeTheServerBufferWithoutBound() async throws {
        let calls = Locked(0)
        let megabyte = [UInt8](repeating: 0x61, count: 1024 * 1024)
        try await withServer({ $0.maxPendingOutputBytes = 2 * 1024 * 1024 }, handler: { _ in
            calls.withLock { $0 += 1 }
            return HTTPResponse(status: .ok, body: megabyte)
        }) { server in
            let client = try RawClient(port: server.port, timeoutSeconds: 20)
            let requests = 64
            try client.send(String(repeating: "GET / HTTP/1.1\r\nHost: h\r\n\r\n", count: requests))
            #expect(eventually { calls.snapshot >= 3 })
            // Not reading: the server holds the remaining requests back.
            #expect(!eventually(timeout: 0.3) { calls.snapshot >= requests })
            #expect(calls.snapshot < 32)
            // Reading: every response arrives, in full.
            let expected = requests * (megabyte.count + "HTTP/1.1 200 OK\r\ncontent-length: 1048576\r\n\r\n".utf8.count)
            let all = try client.read(atLeast: expected)
            #expect(all.count == expected)
            #expect(calls.snapshot == requests)
        }
    }
}
