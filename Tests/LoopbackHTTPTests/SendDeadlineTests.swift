import Foundation
import Testing
@testable import LoopbackHTTP
import PushTestSupport

/// The send deadline (issue 13 vector 4): before, a response waiting for a window that
/// never opened had no timer at all (200 connections × 100 such streams held 661 MB
/// indefinitely), and output a client never read was held for the idle timeout (60 s).
@Suite struct SendDeadlineTests {
    /// Reads frames from `client` until `done` says so (or EOF / the read timeout).
    static func readFrames(_ client: RawClient, until done: ([HTTP2Frame]) -> Bool) -> [HTTP2Frame] {
        var decoder = HTTP2FrameDecoder(maximumFrameSize: 1 << 24)
        var frames: [HTTP2Frame] = []
        while !done(frames) {
            guard let chunk = try? client.readSome(), !chunk.isEmpty else { break }
            decoder.append(chunk)
            while let frame = try? decoder.nextFrame() { frames.append(frame) }
        }
        return frames
    }

    static let bigResponse: HTTPHandler = { _ in HTTPResponse(status: .ok, body: [UInt8](repeating: 0x62, count: 100_000)) }

    /// A stream whose response cannot flow (SETTINGS_INITIAL_WINDOW_SIZE 0) is reset with
    /// CANCEL after the request timeout; the connection stays usable. (Without the send
    /// deadline no RST_STREAM ever comes and the read times out.)
    @Test(arguments: [EventPoller.Backend.epoll, .poll])
    func aStreamStalledOnAZeroWindowIsResetAfterTheRequestTimeout(_ backend: EventPoller.Backend) async throws {
        guard EventPoller.Backend.available.contains(backend) else { return }
        try await withServer({ $0.requestTimeout = 0.3; $0.idleTimeout = 30; $0.poller = backend }, handler: Self.bigResponse) { server in
            let frames = try await offThread { () throws -> [HTTP2Frame] in
                let client = try RawClient(port: server.port, timeoutSeconds: 10)
                var encoder = HPACKEncoder()
                var block: [UInt8] = []
                encoder.encode([(":method", "GET"), (":scheme", "http"), (":path", "/stalled"), (":authority", "h")], into: &block)
                try client.send(HTTP2Frame.clientPreface
                    + HTTP2Frame(stream: 0, payload: .settings(ack: false, [.init(HTTP2Frame.Setting.initialWindowSize, 0)])).bytes
                    + HTTP2Frame(stream: 1, payload: .headers(block: block, endStream: true, endHeaders: true, priority: nil, padding: nil)).bytes)
                let stalled = Self.readFrames(client) { frames in
                    frames.contains { if case .rstStream = $0.payload { return true } else { return false } }
                }
                // Still open: a PING is answered.
                try client.send(HTTP2Frame(stream: 0, payload: .ping(ack: false, opaque: 42)).bytes)
                return stalled + Self.readFrames(client) { frames in
                    frames.contains { if case .ping(true, _) = $0.payload { return true } else { return false } }
                }
            }
            #expect(frames.contains { $0.stream == 1 && $0.payload == .rstStream(.cancel) })
            #expect(frames.contains { if case .ping(true, 42) = $0.payload { return true } else { return false } })
            #expect(!frames.contains { if case .goAway = $0.payload { return true } else { return false } })
        }
    }

    /// HTTP/1.1: a client that never reads a large response is closed once its output
    /// makes no progress for the request timeout, long before the idle timeout (30 s).
    @Test func anHTTP1ResponseNobodyReadsEndsTheConnectionAfterTheRequestTimeout() async throws {
        let body = [UInt8](repeating: 0x63, count: 16 * 1024 * 1024)
        try await withServer({ $0.requestTimeout = 0.3; $0.idleTimeout = 30 }, handler: { _ in HTTPResponse(status: .ok, body: body) }) { server in
            let client = try RawClient(port: server.port, timeoutSeconds: 10)
            try client.send("GET /huge HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(await offThread { eventually { server.openConnectionCount == 1 } })
            #expect(await offThread { eventually(timeout: 10) { server.openConnectionCount == 0 } })
            withExtendedLifetime(client) {}
        }
    }
}
