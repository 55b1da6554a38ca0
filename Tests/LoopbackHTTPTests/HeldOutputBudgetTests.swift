import Foundation
import Testing
@testable import LoopbackHTTP
import PushTestSupport

/// Output held for peers that do not read is bounded across connections (issue 27: 200
/// HTTP/2 connections × 100 zero-window streams held ~300 MB): past a shared
/// ``HeldOutputBudget`` the HTTP/2 streams stalled the longest are reset, and only output that
/// cannot be reset (HTTP/1.1) closes its connection; the others keep going.
@Suite struct HeldOutputBudgetTests {
    @Test func theBudgetCountsAndReportsExcess() {
        let budget = HeldOutputBudget(limit: 100)
        #expect(budget.adjust(by: 60) == false)
        #expect(budget.adjust(by: 60) == true && budget.isExceeded)
        #expect(budget.adjust(by: -60) == false)
        #expect(budget.heldBytes == 60 && budget.peakBytes == 120)
        #expect(HeldOutputBudget.shared.limit == 64 * 1024 * 1024)
    }

    /// A zero-window HTTP/2 client with `streams` GET requests (streams 1, 3, …) whose
    /// answers are held; returns once the server read them (its PING is acknowledged).
    static func stalledClient(port: UInt16, streams: Int = 1) throws -> RawClient {
        let client = try RawClient(port: port, timeoutSeconds: 20)
        var encoder = HPACKEncoder()
        var bytes = HTTP2Frame.clientPreface
            + HTTP2Frame(stream: 0, payload: .settings(ack: false, [.init(HTTP2Frame.Setting.initialWindowSize, 0)])).bytes
        for index in 0..<streams {
            var block: [UInt8] = []
            encoder.encode([(":method", "GET"), (":scheme", "http"), (":path", "/big"), (":authority", "h")], into: &block)
            bytes += HTTP2Frame(stream: UInt32(1 + 2 * index), payload: .headers(block: block, endStream: true, endHeaders: true, priority: nil, padding: nil)).bytes
        }
        try client.send(bytes + HTTP2Frame(stream: 0, payload: .ping(ack: false, opaque: 7)).bytes)
        _ = SendDeadlineTests.readFrames(client) { frames in
            frames.contains { if case .ping(true, 7) = $0.payload { return true } else { return false } }
        }
        return client
    }

    /// Opens every window of a zero-window client.
    static func openWindows(_ client: RawClient) throws {
        try client.send(HTTP2Frame(stream: 0, payload: .settings(ack: false, [.init(HTTP2Frame.Setting.initialWindowSize, 1 << 30)])).bytes
            + HTTP2Frame(stream: 0, payload: .windowUpdate(increment: 1 << 30)).bytes)
    }

    /// DATA octets per stream in `frames`.
    static func dataBytes(_ frames: [HTTP2Frame]) -> [UInt32: Int] {
        var result: [UInt32: Int] = [:]
        for frame in frames {
            if case .data(let data, _, _) = frame.payload { result[frame.stream, default: 0] += data.count }
        }
        return result
    }

    static func resets(_ frames: [HTTP2Frame]) -> [UInt32: HTTP2ErrorCode] {
        var result: [UInt32: HTTP2ErrorCode] = [:]
        for frame in frames {
            if case .rstStream(let code) = frame.payload { result[frame.stream] = code }
        }
        return result
    }

    static func ends(_ frames: [HTTP2Frame], _ stream: UInt32) -> Bool {
        frames.contains { frame in
            guard frame.stream == stream, case .data(_, true, _) = frame.payload else { return false }
            return true
        }
    }

    /// Past the budget the stream whose answer waited for window the longest is reset
    /// (RST_STREAM CANCEL), only as many as needed, and no connection is closed: the first
    /// client (two 400 KB answers held) loses its stream 1 when the second client's answer
    /// passes 1 MiB; its stream 3 and the second client's stream are answered in full once
    /// they open their windows. Marked stalled, the first connection refuses a new request
    /// (REFUSED_STREAM) until it opens a window, then serves one.
    @Test func pastTheBudgetTheOldestStalledStreamIsResetAndItsConnectionStays() async throws {
        let budget = HeldOutputBudget(limit: 1024 * 1024)
        let body = [UInt8](repeating: 0x62, count: 400 * 1024)
        try await withServer({ $0.heldOutputBudget = budget; $0.maxPendingOutputBytes = 64 << 20; $0.requestTimeout = 30 },
                             handler: { _ in HTTPResponse(status: .ok, body: body) }) { server in
            try await offThread {
                let first = try Self.stalledClient(port: server.port, streams: 2)
                #expect(eventually { budget.heldBytes >= 800 * 1024 })
                let second = try Self.stalledClient(port: server.port)
                let reset = SendDeadlineTests.readFrames(first) { !Self.resets($0).isEmpty }
                #expect(Self.resets(reset) == [1: .cancel])
                #expect(budget.streamResets == 1 && budget.connectionsClosed == 0)
                #expect(server.openConnectionCount == 2)
                #expect(eventually { budget.heldBytes <= 1024 * 1024 })  // charged just after the RST is written
                var encoder = HPACKEncoder()
                func request(_ stream: UInt32) -> [UInt8] {
                    var block: [UInt8] = []
                    encoder.encode([(":method", "GET"), (":scheme", "http"), (":path", "/again"), (":authority", "h")], into: &block)
                    return HTTP2Frame(stream: stream, payload: .headers(block: block, endStream: true, endHeaders: true, priority: nil, padding: nil)).bytes
                }
                // Marked stalled: a new request is refused until the client opens a window.
                try first.send(request(5) + HTTP2Frame(stream: 0, payload: .ping(ack: false, opaque: 9)).bytes)
                let refused = SendDeadlineTests.readFrames(first) { frames in
                    frames.contains { if case .ping(true, 9) = $0.payload { return true } else { return false } }
                }
                #expect(Self.resets(refused) == [5: .refusedStream])
                try Self.openWindows(first)
                var frames = SendDeadlineTests.readFrames(first) { Self.ends($0, 3) }
                try first.send(request(7))
                frames += SendDeadlineTests.readFrames(first) { Self.ends($0, 7) }
                #expect(Self.dataBytes(frames) == [3: body.count, 7: body.count])
                try Self.openWindows(second)
                let secondFrames = SendDeadlineTests.readFrames(second) { Self.ends($0, 1) }
                #expect(Self.dataBytes(secondFrames) == [1: body.count])
            }
        }
        #expect(eventually { budget.heldBytes == 0 }, "every charge is given back")
    }

    /// HTTP/1.1 output cannot be reset without closing: past the budget the connection whose
    /// output stalled the longest is closed (TCP reset), the other still gets its answer.
    /// (24 MiB answers: more than the socket buffers take from a client that reads nothing.)
    @Test func pastTheBudgetAnHTTP1ConnectionThatDoesNotReadIsClosed() async throws {
        let budget = HeldOutputBudget(limit: 28 * 1024 * 1024)
        let body = [UInt8](repeating: 0x62, count: 24 * 1024 * 1024)
        try await withServer({ $0.heldOutputBudget = budget; $0.maxPendingOutputBytes = 64 << 20; $0.requestTimeout = 60; $0.idleTimeout = 60 },
                             handler: { _ in HTTPResponse(status: .ok, body: body) }) { server in
            try await offThread {
                let first = try RawClient(port: server.port, timeoutSeconds: 30)
                try first.send("GET /big HTTP/1.1\r\nHost: h\r\n\r\n")
                #expect(eventually { budget.heldBytes >= 16 * 1024 * 1024 })
                let second = try RawClient(port: server.port, timeoutSeconds: 30)
                try second.send("GET /big HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
                #expect(eventually { budget.connectionsClosed == 1 })
                #expect(budget.streamResets == 0)
                #expect(eventually { server.openConnectionCount == 1 })
                let answer = try second.readToEnd()
                #expect(answer.count > body.count && Array(answer.prefix(13)).text == "HTTP/1.1 200 ")
                withExtendedLifetime(first) {}
            }
        }
        #expect(eventually { budget.heldBytes == 0 }, "every charge is given back")
    }
}
