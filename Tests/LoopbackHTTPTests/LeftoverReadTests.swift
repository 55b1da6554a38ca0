import Dispatch
import Testing
@testable import LoopbackHTTP
import PushTestSupport

/// Bytes left in a socket after the loop's one read of a turn (64 KiB) are read in the next
/// turns although no new byte arrives: on Linux the connections are registered edge-triggered
/// (`EPOLLET`), and such a poller reports a socket when bytes come, not while they wait.
@Suite struct LeftoverReadTests {
    @Test func aRequestLongerThanOneReadIsReadWhenAllOfItCameAtOnce() async throws {
        let entered = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let bodyBytes = 96 * 1024  // more than one read, less than a fresh loopback socket holds unread
        try await withServer(handler: { request in
            if request.path == "/hold" {
                // Holds the loop until the long request is all in the server's socket.
                entered.signal()
                _ = gate.wait(timeout: .now() + 20)
            }
            return echoHandler(request)
        }) { server in
            let (held, reply) = try await offThread { () throws -> (Bool, [UInt8]) in
                let holder = try RawClient(port: server.port, timeoutSeconds: 20)
                try holder.send("GET /hold HTTP/1.1\r\nHost: h\r\n\r\n")
                let held = entered.wait(timeout: .now() + 20) == .success
                // Sent whole while the loop is held: nothing more arrives once it reads.
                let client = try RawClient(port: server.port, timeoutSeconds: 10)
                try client.send(Array("POST /long HTTP/1.1\r\nHost: h\r\nContent-Length: \(bodyBytes)\r\n\r\n".utf8)
                                + [UInt8](repeating: 0x61, count: bodyBytes))
                gate.signal()
                // The echoed line, or any other answer (the request timeout's 408 without the fix).
                let reply = try client.read { occurrences(of: "POST /long \(bodyBytes)", in: $0) == 1 || (statusCode($0) ?? 200) != 200 }
                _ = try holder.read { occurrences(of: "HTTP/1.1 200", in: $0) == 1 }
                return (held, reply)
            }
            #expect(held)
            #expect(statusCode(reply) == 200)
            #expect(occurrences(of: "POST /long \(bodyBytes)", in: reply) == 1)
        }
    }

    /// A request and the client's end (FIN) in the socket before the loop reads: the read
    /// stops at the end with the request's bytes, and only a second read returns 0. The poller
    /// reported the end with the bytes, once, so the loop reads again by itself and closes
    /// after its answer (without that, the connection stayed open until the idle timeout).
    @Test func theClientsEndBehindARequestIsSeen() async throws {
        let entered = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        try await withServer({ $0.idleTimeout = 60 }, handler: { request in
            if request.path == "/hold" {
                entered.signal()
                _ = gate.wait(timeout: .now() + 20)
            }
            return echoHandler(request)
        }) { server in
            let (held, reply) = try await offThread { () throws -> (Bool, [UInt8]?) in
                let holder = try RawClient(port: server.port, timeoutSeconds: 20)
                try holder.send("GET /hold HTTP/1.1\r\nHost: h\r\n\r\n")
                let held = entered.wait(timeout: .now() + 20) == .success
                let client = try RawClient(port: server.port, timeoutSeconds: 5)
                try client.send("GET /last HTTP/1.1\r\nHost: h\r\n\r\n")
                client.shutdownWrite()
                gate.signal()
                _ = try holder.read { occurrences(of: "HTTP/1.1 200", in: $0) == 1 }
                // To the end of the stream: the answer, then the server's close (a read that
                // times out after 5 s throws, and the test fails).
                return (held, try? client.readToEnd())
            }
            #expect(held)
            #expect(reply.map { occurrences(of: "GET /last 0", in: $0) } == 1)
        }
    }
}
