import Testing
@testable import LoopbackHTTP
import PushTestSupport

/// HTTP/2 through the real server over loopback sockets: the sniffer picks the protocol,
/// and one abusive connection does not stall another.
@Suite struct HTTP2ServerTests {
    static func startServer() throws -> HTTPServer {
        let big = [UInt8](repeating: 0x62, count: 64 * 1024)
        return try HTTPServer.start { request in
            request.path == "/big" ? HTTPResponse(status: .ok, body: big) : HTTPResponse(status: .ok, body: Array("small".utf8))
        }
    }

    static func clientHello(windowBoost: Bool) -> [UInt8] {
        var bytes = HTTP2Frame.clientPreface
        let settings: [HTTP2Frame.Setting] = windowBoost ? [.init(HTTP2Frame.Setting.initialWindowSize, 0x7fff_ffff)] : []
        bytes += HTTP2Frame(stream: 0, payload: .settings(ack: false, settings)).bytes
        if windowBoost { bytes += HTTP2Frame(stream: 0, payload: .windowUpdate(increment: 0x7fff_0000)).bytes }
        return bytes
    }

    static func get(_ stream: UInt32, _ path: String, encoder: inout HPACKEncoder) -> [UInt8] {
        var block: [UInt8] = []
        encoder.encode([(":method", "GET"), (":scheme", "http"), (":path", path), (":authority", "localhost")], into: &block)
        return HTTP2Frame(stream: stream, payload: .headers(block: block, endStream: true, endHeaders: true, priority: nil, padding: nil)).bytes
    }

    /// Reads frames until stream 1 ends; returns its DATA.
    static func readResponse(_ client: RawClient) throws -> [UInt8] {
        var decoder = HTTP2FrameDecoder(maximumFrameSize: 1 << 24)
        var body: [UInt8] = []
        while true {
            decoder.append(try client.readSome())
            while let frame = try decoder.nextFrame() {
                guard frame.stream == 1 else { continue }
                switch frame.payload {
                case .headers(_, let end, _, _, _) where end: return body
                case .data(let data, let end, _):
                    body += data
                    if end { return body }
                default: break
                }
            }
        }
    }

    @Test func priorKnowledgeRequestOverASocket() throws {
        let server = try Self.startServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        var encoder = HPACKEncoder()
        try client.send(Self.clientHello(windowBoost: false) + Self.get(1, "/small", encoder: &encoder))
        #expect(try Self.readResponse(client) == Array("small".utf8))
    }

    @Test func clientThatNeverReadsDoesNotStallOthers() throws {
        let server = try Self.startServer()
        defer { server.stop() }
        // 1000 requests for 64 KiB each (64 MiB) with unlimited windows, and never a read.
        let hog = try RawClient(port: server.port)
        var hogEncoder = HPACKEncoder()
        var requests = Self.clientHello(windowBoost: true)
        for index in 0..<1000 { requests += Self.get(UInt32(2 * index + 1), "/big", encoder: &hogEncoder) }
        try hog.send(requests)
        // Another connection is still served.
        let polite = try RawClient(port: server.port)
        var encoder = HPACKEncoder()
        try polite.send(Self.clientHello(windowBoost: false) + Self.get(1, "/small", encoder: &encoder))
        #expect(try Self.readResponse(polite) == Array("small".utf8))
    }

    /// Reads frames until `done` says the collected frames suffice.
    static func readFrames(_ client: RawClient, until done: ([HTTP2Frame]) -> Bool) throws -> [HTTP2Frame] {
        var decoder = HTTP2FrameDecoder(maximumFrameSize: 1 << 24)
        var frames: [HTTP2Frame] = []
        while !done(frames) {
            decoder.append(try client.readSome())
            while let frame = try decoder.nextFrame() { frames.append(frame) }
        }
        return frames
    }

    static func endsStream(_ frame: HTTP2Frame) -> Bool {
        switch frame.payload {
        case .headers(_, let end, _, _, _), .data(_, let end, _): return end
        case .rstStream: return true
        default: return false
        }
    }

    @Test func faultDispositionsApplyPerStream() throws {
        let server = try HTTPServer.start { request in
            switch request.path {
            case "/slow": return HTTPResponse(status: .ok, body: Array("slow".utf8), disposition: .delay(milliseconds: 200))
            case "/reset": return HTTPResponse(status: .ok, disposition: .reset)
            case "/lost": return HTTPResponse(status: .ok, disposition: .loseResponse)
            case "/goaway": return HTTPResponse(status: .ok, disposition: .goAway(debugData: Array(#"{"reason":"Shutdown"}"#.utf8)))
            default: return HTTPResponse(status: .ok, body: Array("fast".utf8))
            }
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        var encoder = HPACKEncoder()
        var bytes = Self.clientHello(windowBoost: false)
        for (stream, path) in [(1, "/slow"), (3, "/fast"), (5, "/reset"), (7, "/lost")] as [(UInt32, String)] {
            bytes += Self.get(stream, path, encoder: &encoder)
        }
        try client.send(bytes)
        let frames = try Self.readFrames(client) { frames in
            Set(frames.filter(Self.endsStream).map(\.stream)).isSuperset(of: [1, 3, 5, 7])
        }
        let endOrder = frames.filter(Self.endsStream).map(\.stream)
        // The delayed stream 1 does not hold back stream 3.
        #expect(endOrder.firstIndex(of: 3) ?? 99 < endOrder.firstIndex(of: 1) ?? -1)
        #expect(frames.contains(HTTP2Frame(stream: 5, payload: .rstStream(.cancel))))
        #expect(frames.contains(HTTP2Frame(stream: 7, payload: .rstStream(.internalError))))
        try client.send(Self.get(9, "/goaway", encoder: &encoder))
        let rest = try Self.readFrames(client) { frames in
            frames.contains { if case .goAway = $0.payload { return true } else { return false } }
        }
        #expect(rest.last == HTTP2Frame(stream: 0, payload: .goAway(lastStream: 7, code: .noError, debugData: Array(#"{"reason":"Shutdown"}"#.utf8))))
        #expect(try client.readToEnd().isEmpty)
    }
}
