@testable import PushCore
import Foundation
import Testing
@testable import LoopbackHTTP
import PushTestSupport

/// One connection pipelining thousands of tiny requests (one 64 KiB read holds ~2,000) does
/// not hold the loop: past `maxDispatchesPerTurn` its requests wait for the next turn, and a
/// neighbour whose request arrived meanwhile is answered first. Ordering, not wall time: the
/// handler records the order it ran in.
@Suite struct DispatchFairnessTests {
    static let pipelined = 2000

    @Test func aNeighbourIsAnsweredWithinTwoTurnsOfAPipeliner() async throws {
        let order = Locked<[String]>([])
        let neighbour = Locked<RawClient?>(nil)
        let cap = HTTPServerConfiguration().maxDispatchesPerTurn
        try await withServer(handler: { request in
            order.withLock { $0.append(request.path) }
            if request.path == "/p/0" {
                // The neighbour's request arrives while the pipelined batch is being dispatched.
                try? neighbour.snapshot?.send("GET /n HTTP/1.1\r\nHost: h\r\n\r\n")
            }
            return HTTPResponse(status: .ok)
        }) { server in
            try await offThread {
                let first = try RawClient(port: server.port, timeoutSeconds: 20)
                neighbour.withLock { $0 = first }
                let pipeliner = try RawClient(port: server.port, timeoutSeconds: 20)
                try pipeliner.send((0..<Self.pipelined).map { "GET /p/\($0) HTTP/1.1\r\nHost: h\r\n\r\n" }.joined())
                _ = try first.read { occurrences(of: "HTTP/1.1 200", in: $0) == 1 }
                _ = try pipeliner.read { occurrences(of: "HTTP/1.1 200", in: $0) == Self.pipelined }
            }
        }
        let ran = order.snapshot
        #expect(ran.count == Self.pipelined + 1)
        let before = try #require(ran.firstIndex(of: "/n"))
        // Without the cap the whole first read (~2,000 requests) ran before the neighbour.
        #expect(before <= 2 * cap, "\(before) pipelined requests ran before the neighbour's")
        #expect(ran.filter { $0 != "/n" } == (0..<Self.pipelined).map { "/p/\($0)" }, "the pipeliner's stay in order")
    }
}
