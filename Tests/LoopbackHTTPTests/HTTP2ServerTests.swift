import Testing
@testable import LoopbackHTTP

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
}
