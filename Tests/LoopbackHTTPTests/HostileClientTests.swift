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

/// Slow and hostile clients (issue 8): a slowloris, a client that never reads, and 2,000
/// simultaneous connections. In each case the server closes the offender within its
/// documented timeout (Docs/readme/hardening.md) and keeps serving everyone else.
/// Timeouts are configured short so the tests finish fast; nothing asserts on timing.
@Suite(.serialized) struct HostileClientTests {
    /// One byte a second: the request timeout runs from the first byte and is not
    /// extended by later bytes, so the server answers 408 and closes long before the
    /// request could be complete, and serves other clients meanwhile.
    @Test func slowlorisGets408AfterTheRequestTimeoutWhileOthersAreServed() async throws {
        try await withServer({ $0.requestTimeout = 1.5; $0.idleTimeout = 30 }, handler: echoHandler) { server in
            let request = Array("GET /slow HTTP/1.1\r\nHost: h\r\nX-Padding: 0123456789\r\n\r\n".utf8)
            let slow = try RawClient(port: server.port, timeoutSeconds: 20)
            let sent = Locked(0)
            let closed = Locked(false)
            Thread {
                for byte in request {
                    if closed.snapshot { return }
                    do { try slow.send([byte]) } catch { return }
                    sent.withLock { $0 += 1 }
                    Thread.sleep(forTimeInterval: 1)  // the hostile client's pace, not a wait
                }
            }.start()
            #expect(await offThread { eventually { sent.snapshot >= 1 } })
            // Others are served while the slowloris dribbles.
            for index in 0..<5 {
                let reply = try await offThread {
                    let other = try RawClient(port: server.port)
                    try other.send("GET /other\(index) HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
                    return try other.readToEnd()
                }
                #expect(reply.text.hasSuffix("GET /other\(index) 0"))
            }
            let reply = try await offThread { try slow.readToEnd() }
            closed.withLock { $0 = true }
            #expect(statusCode(reply) == 408)
            #expect(sent.snapshot < request.count, "closed before the slow request could complete")
            #expect(await offThread { eventually { server.openConnectionCount == 0 } })
        }
    }

    /// The HTTP/2 form: a HEADERS frame dribbled one octet at a time. The request timeout
    /// ends the connection with GOAWAY, then close.
    @Test func http2SlowlorisIsClosedWithGoAwayAfterTheRequestTimeout() async throws {
        try await withServer({ $0.requestTimeout = 1; $0.idleTimeout = 30 }, handler: echoHandler) { server in
            let slow = try RawClient(port: server.port, timeoutSeconds: 20)
            try slow.send(HTTP2Frame.clientPreface + HTTP2Frame(stream: 0, payload: .settings(ack: false, [])).bytes)
            var peer = HTTP2TestPeer()
            let headers = peer.headers(1, HTTP2TestPeer.requestFields(method: "GET"), endStream: true).bytes
            let closed = Locked(false)
            let sent = Locked(0)
            Thread {
                for byte in headers {
                    if closed.snapshot { return }
                    do { try slow.send([byte]) } catch { return }
                    sent.withLock { $0 += 1 }
                    Thread.sleep(forTimeInterval: 0.5)  // the hostile client's pace
                }
            }.start()
            let received = try await offThread { try slow.readToEnd() }
            closed.withLock { $0 = true }
            var decoder = HTTP2FrameDecoder(maximumFrameSize: 1 << 24)
            decoder.append(received)
            var sawGoAway = false
            while let frame = try decoder.nextFrame() {
                if case .goAway = frame.payload { sawGoAway = true }
            }
            #expect(sawGoAway)
            #expect(sent.snapshot < headers.count, "closed before the slow HEADERS could complete")
            let after = try await offThread {
                let other = try RawClient(port: server.port)
                try other.send("GET /after HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
                return try other.readToEnd()
            }
            #expect(after.text.hasSuffix("GET /after 0"))
        }
    }

    /// A client pipelines requests for large responses and never reads. The server stops
    /// reading from it once `maxPendingOutputBytes` are queued (so the handler runs a
    /// bounded number of times and memory stays bounded), keeps serving a fresh client,
    /// and drops the stuck connection when its idle timeout passes with output unread.
    @Test func aClientThatNeverReadsIsBoundedAndDroppedWhileOthersAreServed() async throws {
        let calls = Locked(0)
        let body = [UInt8](repeating: 0x61, count: 512 * 1024)
        try await withServer({ $0.maxPendingOutputBytes = 1024 * 1024; $0.idleTimeout = 1 }, handler: { request in
            calls.withLock { $0 += 1 }
            if request.path == "/big" { return HTTPResponse(status: .ok, body: body) }
            return echoHandler(request)
        }) { server in
            let stuck = try RawClient(port: server.port, timeoutSeconds: 20)
            let requests = 200
            try stuck.send(String(repeating: "GET /big HTTP/1.1\r\nHost: h\r\n\r\n", count: requests))
            #expect(await offThread { eventually { calls.snapshot >= 2 } })
            let fresh = try await offThread {
                let client = try RawClient(port: server.port)
                try client.send("GET /fresh HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
                return try client.readToEnd()
            }
            #expect(fresh.text.hasSuffix("GET /fresh 0"))
            // The stuck connection is destroyed by its timeout although we keep it open.
            #expect(await offThread { eventually(timeout: 20) { server.openConnectionCount == 0 } })
            // Socket buffers hold a few MiB at most: far fewer than 200 answers were made.
            #expect(calls.snapshot < requests / 2)
            withExtendedLifetime(stuck) {}
        }
    }

    /// 2,000 connections open at once, each with a keep-alive request answered; then a
    /// fresh client is still served, and closing them all leaves nothing open.
    @Test func twoThousandSimultaneousConnectionsAreServed() async throws {
        let connections = 2_000
        // Each connection costs a descriptor here and one in the server (same process).
        try raiseDescriptorLimit(to: 2 * connections + 256)
        try await withServer(handler: echoHandler) { server in
            let (answered, open, fresh) = try await offThread {
                var clients: [RawClient] = []
                clients.reserveCapacity(connections)
                for _ in 0..<connections {
                    clients.append(try RawClient(port: server.port, timeoutSeconds: 20))
                }
                let answered = try answeredEchoRequests(from: clients)
                let open = server.openConnectionCount
                let client = try RawClient(port: server.port)
                try client.send("GET /fresh HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
                let fresh = try client.readToEnd()
                return (answered, open, fresh)
            }
            #expect(answered == connections)
            #expect(open == connections)
            #expect(fresh.text.hasSuffix("GET /fresh 0"))
            // The clients are closed now: the server closes its side of every one.
            #expect(await offThread { eventually(timeout: 20) { server.openConnectionCount == 0 } })
        }
    }
}
