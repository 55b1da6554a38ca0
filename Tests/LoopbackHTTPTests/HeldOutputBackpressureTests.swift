@testable import PushCore
import Foundation
import Testing
@testable import LoopbackHTTP
import PushTestSupport

/// Responses held behind HTTP/2 flow control count as unwritten output (issue 13 vector 4,
/// the `GET /journal` amplification: 20 tiny requests on zero-window streams held 423 MB).
/// Past `maxPendingOutputBytes` no further handler runs on the connection: new requests are
/// refused with RST_STREAM REFUSED_STREAM (issue 27; RFC 9113 §8.7, the client may retry
/// them) rather than queued, frames still go out, and once the peer opens its windows the
/// held answer arrives and a retried request is served. (Counting only the socket's
/// unwritten output runs all five handlers at once; queueing them held them all.)
@Suite struct HeldOutputBackpressureTests {
    static func ping(_ opaque: UInt64) -> [UInt8] { HTTP2Frame(stream: 0, payload: .ping(ack: false, opaque: opaque)).bytes }

    static func acknowledges(_ opaque: UInt64) -> ([HTTP2Frame]) -> Bool {
        { frames in frames.contains { if case .ping(true, opaque) = $0.payload { return true } else { return false } } }
    }

    @Test func newRequestsOnAStalledConnectionAreRefusedNotQueued() async throws {
        let calls = Locked(0)
        let body = [UInt8](repeating: 0x64, count: 2 * 1024 * 1024)
        try await withServer({ $0.maxPendingOutputBytes = 1024 * 1024; $0.requestTimeout = 30 }, handler: { _ in
            calls.withLock { $0 += 1 }
            return HTTPResponse(status: .ok, body: body)
        }) { server in
            let (whileStalled, refused, frames) = try await offThread { () throws -> (Int, [UInt32: HTTP2ErrorCode], [HTTP2Frame]) in
                let client = try RawClient(port: server.port, timeoutSeconds: 20)
                var encoder = HPACKEncoder()
                func request(_ stream: UInt32) -> [UInt8] {
                    var block: [UInt8] = []
                    encoder.encode([(":method", "GET"), (":scheme", "http"), (":path", "/big"), (":authority", "h")], into: &block)
                    return HTTP2Frame(stream: stream, payload: .headers(block: block, endStream: true, endHeaders: true, priority: nil, padding: nil)).bytes
                }
                var bytes = HTTP2Frame.clientPreface
                    + HTTP2Frame(stream: 0, payload: .settings(ack: false, [.init(HTTP2Frame.Setting.initialWindowSize, 0)])).bytes
                for stream in stride(from: UInt32(1), through: 9, by: 2) { bytes += request(stream) }
                // A PING after the requests: its ACK means all five were read and handled;
                // a second PING's ACK comes after whatever that turn wrote.
                try client.send(bytes + Self.ping(7))
                var early = SendDeadlineTests.readFrames(client, until: Self.acknowledges(7))
                try client.send(Self.ping(8))
                early += SendDeadlineTests.readFrames(client, until: Self.acknowledges(8))
                let whileStalled = calls.snapshot
                // Open every window: the held answer arrives in full; a retry is served.
                try client.send(HTTP2Frame(stream: 0, payload: .settings(ack: false, [.init(HTTP2Frame.Setting.initialWindowSize, 1 << 30)])).bytes
                    + HTTP2Frame(stream: 0, payload: .windowUpdate(increment: 1 << 30)).bytes)
                var frames = SendDeadlineTests.readFrames(client) { HeldOutputBudgetTests.ends($0, 1) }
                try client.send(request(11))
                frames += SendDeadlineTests.readFrames(client) { HeldOutputBudgetTests.ends($0, 11) }
                return (whileStalled, HeldOutputBudgetTests.resets(early), frames)
            }
            #expect(whileStalled == 1)
            #expect(refused == [3: .refusedStream, 5: .refusedStream, 7: .refusedStream, 9: .refusedStream])
            #expect(HeldOutputBudgetTests.dataBytes(frames) == [1: body.count, 11: body.count])
            #expect(HeldOutputBudgetTests.resets(frames).isEmpty)
            #expect(calls.snapshot == 2)
        }
    }
}
