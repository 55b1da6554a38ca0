import Foundation
import Testing
@testable import LoopbackHTTP
import PushTestSupport

/// The idle timeout measures idleness (issue 13): a connection that keeps sending requests
/// is never closed by it, however long it lives; one that sends nothing is. The timeout is
/// configured to 0.3 s and the clients stay busy for 1.5 s (five idle periods), so the
/// tests need no 60 s wait. Before the fix every connection was closed one idle period
/// after it was accepted, busy or not.
@Suite(.serialized) struct IdleTimeoutTests {
    static let idle = 0.3
    /// Requests 50 ms apart for 1.5 s.
    static let requests = 30
    static let pace: TimeInterval = 0.05

    static func configure(_ configuration: inout HTTPServerConfiguration) {
        configuration.idleTimeout = idle
        configuration.requestTimeout = idle
    }

    /// Runs `exchange` (send request `index`, wait for its answer) `requests` times at the
    /// client's pace; the count of answers before the first that did not come.
    static func answeredAtPace(_ exchange: (Int) throws -> Bool) rethrows -> Int {
        for index in 0..<requests {
            guard try exchange(index) else { return index }
            Thread.sleep(forTimeInterval: pace)  // the client's pace, not a wait
        }
        return requests
    }

    @Test func aBusyHTTP1KeepAliveConnectionOutlivesManyIdlePeriods() async throws {
        try await withServer(Self.configure, handler: echoHandler) { server in
            let answered = try await offThread { () throws -> Int in
                let client = try RawClient(port: server.port)
                return try Self.answeredAtPace { index in
                    try client.send("GET /busy\(index) HTTP/1.1\r\nHost: h\r\n\r\n")
                    let expected = "GET /busy\(index) 0"
                    return try client.read { $0.text.hasSuffix(expected) }.text.hasSuffix(expected)  // else EOF: closed while busy
                }
            }
            #expect(answered == Self.requests, "the connection was closed while busy")
        }
    }

    @Test func aBusyHTTP2ConnectionOutlivesManyIdlePeriods() async throws {
        try await withServer(Self.configure, handler: echoHandler) { server in
            let answered = try await offThread { () throws -> Int in
                let client = try RawClient(port: server.port)
                var peer = HTTP2TestPeer()  // its HPACK encoder stays in step with the server's decoder
                try client.send(HTTP2Frame.clientPreface + HTTP2Frame(stream: 0, payload: .settings(ack: false, [])).bytes)
                var frames = HTTP2FrameDecoder(maximumFrameSize: 1 << 24)
                return try Self.answeredAtPace { index in
                    let stream = UInt32(2 * index + 1)
                    try client.send(peer.headers(stream, HTTP2TestPeer.requestFields(method: "GET", path: "/busy\(index)"), endStream: true).bytes)
                    return try Self.awaitEnd(of: stream, from: client, frames: &frames)
                }
            }
            #expect(answered == Self.requests, "GOAWAY or close while busy")
        }
    }

    /// Overlapping uploads keep an h2 connection reading a request at every moment; each
    /// request takes 100 ms (HEADERS, then its DATA two requests later), well within the
    /// 0.3 s request timeout, so the timeout restarts as each completes and the connection
    /// is never cut.
    @Test func overlappingHTTP2UploadsAreNotCutByTheRequestTimeout() async throws {
        try await withServer(Self.configure, handler: echoHandler) { server in
            let answered = try await offThread { () throws -> Int in
                let client = try RawClient(port: server.port)
                var peer = HTTP2TestPeer()
                try client.send(HTTP2Frame.clientPreface + HTTP2Frame(stream: 0, payload: .settings(ack: false, [])).bytes)
                var frames = HTTP2FrameDecoder(maximumFrameSize: 1 << 24)
                return try Self.answeredAtPace { index in
                    var bytes = peer.headers(UInt32(2 * index + 1), HTTP2TestPeer.requestFields(path: "/upload\(index)"), endStream: false).bytes
                    guard index >= 2 else {
                        try client.send(bytes)
                        return true
                    }
                    let finishing = UInt32(2 * index - 3)
                    bytes += HTTP2Frame(stream: finishing, payload: .data([1, 2, 3], endStream: true, padding: nil)).bytes
                    try client.send(bytes)
                    return try Self.awaitEnd(of: finishing, from: client, frames: &frames)
                }
            }
            #expect(answered == Self.requests, "GOAWAY or close while uploads were arriving")
        }
    }

    /// Reads frames until `stream`'s response ends (true) or GOAWAY / EOF (false).
    static func awaitEnd(of stream: UInt32, from client: RawClient, frames: inout HTTP2FrameDecoder) throws -> Bool {
        while true {
            while let frame = try frames.nextFrame() {
                if case .goAway = frame.payload { return false }
                if frame.stream == stream, case .data(_, true, _) = frame.payload { return true }
            }
            let chunk = try client.readSome()
            if chunk.isEmpty { return false }
            frames.append(chunk)
        }
    }

    /// The converse: with nothing in flight and no traffic, the connection is closed.
    @Test func anIdleConnectionIsClosedAfterTheIdleTimeout() async throws {
        try await withServer(Self.configure, handler: echoHandler) { server in
            let (reply, rest) = try await offThread { () throws -> ([UInt8], [UInt8]) in
                let client = try RawClient(port: server.port)
                try client.send("GET /once HTTP/1.1\r\nHost: h\r\n\r\n")
                let reply = try client.read { $0.text.hasSuffix("GET /once 0") }
                return (reply, try client.readToEnd())  // EOF within RawClient's 5 s timeout
            }
            #expect(reply.text.hasSuffix("GET /once 0"))
            #expect(rest.isEmpty)
            #expect(await offThread { eventually { server.openConnectionCount == 0 } })
        }
    }
}
