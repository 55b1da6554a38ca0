import Foundation
import Testing
@testable import LoopbackHTTP

/// Connection slots under pressure (issue 13, vector 5): with every slot taken by
/// connections that send nothing, a new client is served at once because the connection
/// idle the longest is closed, instead of waiting in the backlog for an idle timeout
/// (60 s by default). A connection with a request in flight is never the one closed.
@Suite(.serialized) struct ConnectionSlotTests {
    @Test func aNewClientIsServedWhenEverySlotHoldsAnIdleConnection() async throws {
        let slowArrived = Locked(false)
        let handler: HTTPHandler = { request in
            guard request.path == "/slow" else { return echoHandler(request) }
            slowArrived.withLock { $0 = true }
            return HTTPResponse(status: .ok, body: Array("slow".utf8), disposition: .delay(milliseconds: 60_000))  // in flight for the whole test
        }
        try await withServer({ $0.maxConnections = 20; $0.idleTimeout = 60 }, handler: handler) { server in
            // The connection with the oldest traffic is busy: its request is in flight (the
            // answer is delayed past the test), read before the idle connections were opened.
            let busy = try RawClient(port: server.port, timeoutSeconds: 1)
            try busy.send("GET /slow HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(await offThread { eventually { slowArrived.snapshot } })
            let idle = try (0..<19).map { _ in try RawClient(port: server.port) }
            #expect(await offThread { eventually { server.openConnectionCount == 20 } })

            let reply = try await offThread { () throws -> [UInt8] in
                let fresh = try RawClient(port: server.port)
                try fresh.send("GET /fresh HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
                return try fresh.readToEnd()  // RawClient gives up after 5 s
            }
            #expect(reply.text.hasSuffix("GET /fresh 0"))
            // Still open: a read times out (a closed connection would read EOF).
            let busyRead = await offThread { () -> [UInt8]? in try? busy.readSome() }
            #expect(busyRead == nil, "the busy connection was closed")
            // The one closed to make room was the idle connection opened first.
            let first = try await offThread { [first = idle[0]] in try first.readSome() }
            #expect(first.isEmpty)
            #expect(server.openConnectionCount <= 20)
        }
    }
}
