import Foundation
import Testing
@testable import LoopbackHTTP

/// Output held for peers that do not read is bounded across connections (issue 27: 200
/// HTTP/2 connections × 100 zero-window streams held ~300 MB): past a shared
/// ``HeldOutputBudget`` the connection stalled the longest is closed, the others keep going.
@Suite struct HeldOutputBudgetTests {
    @Test func theBudgetCountsAndReportsExcess() {
        let budget = HeldOutputBudget(limit: 100)
        #expect(budget.adjust(by: 60) == false)
        #expect(budget.adjust(by: 60) == true && budget.isExceeded)
        #expect(budget.adjust(by: -60) == false)
        #expect(budget.heldBytes == 60 && budget.peakBytes == 120)
        #expect(HeldOutputBudget.shared.limit == 64 * 1024 * 1024)
    }

    /// A zero-window HTTP/2 client whose 600 KB answer is held; returns once the server read
    /// the request (its PING is acknowledged).
    static func stalledClient(port: UInt16) throws -> RawClient {
        let client = try RawClient(port: port, timeoutSeconds: 20)
        var encoder = HPACKEncoder()
        var block: [UInt8] = []
        encoder.encode([(":method", "GET"), (":scheme", "http"), (":path", "/big"), (":authority", "h")], into: &block)
        try client.send(HTTP2Frame.clientPreface
            + HTTP2Frame(stream: 0, payload: .settings(ack: false, [.init(HTTP2Frame.Setting.initialWindowSize, 0)])).bytes
            + HTTP2Frame(stream: 1, payload: .headers(block: block, endStream: true, endHeaders: true, priority: nil, padding: nil)).bytes
            + HTTP2Frame(stream: 0, payload: .ping(ack: false, opaque: 7)).bytes)
        _ = SendDeadlineTests.readFrames(client) { frames in
            frames.contains { if case .ping(true, 7) = $0.payload { return true } else { return false } }
        }
        return client
    }

    @Test func pastTheBudgetTheLongestStalledConnectionIsClosedAndTheOtherServed() async throws {
        let budget = HeldOutputBudget(limit: 1024 * 1024)
        let body = [UInt8](repeating: 0x62, count: 600 * 1024)
        try await withServer({ $0.heldOutputBudget = budget; $0.maxPendingOutputBytes = 64 << 20; $0.requestTimeout = 30 },
                             handler: { _ in HTTPResponse(status: .ok, body: body) }) { server in
            try await offThread {
                let first = try Self.stalledClient(port: server.port)
                #expect(eventually { budget.heldBytes >= 600 * 1024 })
                let second = try Self.stalledClient(port: server.port)
                #expect(eventually { budget.connectionsClosed == 1 })
                #expect(eventually { server.openConnectionCount == 1 })
                #expect(budget.heldBytes < 1024 * 1024)
                // The first is gone; the second, still open, gets its whole answer once it
                // opens its windows.
                #expect((try? first.readToEnd()).map { $0.count < 9 } ?? true)
                try second.send(HTTP2Frame(stream: 0, payload: .settings(ack: false, [.init(HTTP2Frame.Setting.initialWindowSize, 1 << 30)])).bytes
                    + HTTP2Frame(stream: 0, payload: .windowUpdate(increment: 1 << 30)).bytes)
                let frames = SendDeadlineTests.readFrames(second) { frames in
                    frames.contains { if case .data(_, true, _) = $0.payload { return true } else { return false } }
                }
                let received = frames.reduce(0) { total, frame in
                    if case .data(let data, _, _) = frame.payload { return total + data.count }
                    return total
                }
                #expect(received == body.count)
            }
        }
        #expect(eventually { budget.heldBytes == 0 }, "every charge is given back")
    }
}
