@testable import PushCore
import Foundation
import Testing
@testable import LoopbackHTTP

/// Responses held behind HTTP/2 flow control count as unwritten output (issue 13 vector 4,
/// the `GET /journal` amplification: 20 tiny requests on zero-window streams held 423 MB).
/// Past `maxPendingOutputBytes` no further handler runs on the connection; frames still go
/// out, so once the peer opens its windows everything is answered. (Counting only the
/// socket's unwritten output runs all five handlers at once.)
@Suite struct HeldOutputBackpressureTests {
    @Test func noHandlerRunsWhileAnotherAnswerWaitsForWindow() async throws {
        let calls = Locked(0)
        let body = [UInt8](repeating: 0x64, count: 2 * 1024 * 1024)
        try await withServer({ $0.maxPendingOutputBytes = 1024 * 1024; $0.requestTimeout = 30 }, handler: { _ in
            calls.withLock { $0 += 1 }
            return HTTPResponse(status: .ok, body: body)
        }) { server in
            let (whileStalled, answered) = try await offThread { () throws -> (Int, Int) in
                let client = try RawClient(port: server.port, timeoutSeconds: 20)
                var encoder = HPACKEncoder()
                var bytes = HTTP2Frame.clientPreface
                    + HTTP2Frame(stream: 0, payload: .settings(ack: false, [.init(HTTP2Frame.Setting.initialWindowSize, 0)])).bytes
                for stream in stride(from: UInt32(1), through: 9, by: 2) {
                    var block: [UInt8] = []
                    encoder.encode([(":method", "GET"), (":scheme", "http"), (":path", "/big"), (":authority", "h")], into: &block)
                    bytes += HTTP2Frame(stream: stream, payload: .headers(block: block, endStream: true, endHeaders: true, priority: nil, padding: nil)).bytes
                }
                // A PING after the requests: its ACK means all five were read.
                try client.send(bytes + HTTP2Frame(stream: 0, payload: .ping(ack: false, opaque: 7)).bytes)
                _ = SendDeadlineTests.readFrames(client) { frames in
                    frames.contains { if case .ping(true, 7) = $0.payload { return true } else { return false } }
                }
                let whileStalled = calls.snapshot
                // Open every window: all five answers arrive in full.
                try client.send(HTTP2Frame(stream: 0, payload: .settings(ack: false, [.init(HTTP2Frame.Setting.initialWindowSize, 1 << 30)])).bytes
                    + HTTP2Frame(stream: 0, payload: .windowUpdate(increment: 1 << 30)).bytes)
                let frames = SendDeadlineTests.readFrames(client) { frames in
                    frames.filter { if case .data(_, true, _) = $0.payload { return true } else { return false } }.count == 5
                }
                return (whileStalled, frames.filter { if case .data(_, true, _) = $0.payload { return true } else { return false } }.count)
            }
            #expect(whileStalled == 1)
            #expect(answered == 5)
            #expect(calls.snapshot == 5)
        }
    }
}
