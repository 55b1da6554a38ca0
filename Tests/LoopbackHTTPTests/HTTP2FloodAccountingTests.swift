import Testing
@testable import LoopbackHTTP

/// Flood accounting (issue 13, vector 7): WINDOW_UPDATE frames that release no DATA count
/// as control frames, a flood of invalid requests ends the connection, and empty header
/// blocks and empty header names are connection errors.
@Suite struct HTTP2FloodAccountingTests {
    /// 1,000,000 WINDOW_UPDATEs on a closed stream were all processed before; now they
    /// end the connection once the control-frame budget is spent.
    @Test func aWindowUpdateFloodEndsInEnhanceYourCalm() {
        var configuration = HTTPServerConfiguration()
        configuration.http2.maxControlFramesBetweenRequests = 100
        var peer = HTTP2TestPeer(configuration: configuration)
        let request = peer.send([peer.headers(1, HTTP2TestPeer.requestFields(method: "GET"), endStream: true)])
        #expect(request.dispatches.count == 1)
        #expect(peer.respond(HTTPResponse(status: .ok), stream: 1).ended(1))
        let update = HTTP2Frame(stream: 1, payload: .windowUpdate(increment: 1)).bytes
        let output = peer.send(Array([[UInt8]](repeating: update, count: 1_000).joined()))
        #expect(output.goAway?.code == .enhanceYourCalm)
        #expect(output.closed)
    }

    /// WINDOW_UPDATEs that let response DATA out are progress, not a flood: a client with a
    /// one-octet window reads a 500-octet body one WINDOW_UPDATE at a time.
    @Test func windowUpdatesThatReleaseDataAreNotCounted() {
        var configuration = HTTPServerConfiguration()
        configuration.http2.maxControlFramesBetweenRequests = 100
        var peer = HTTP2TestPeer(configuration: configuration, settings: [.init(HTTP2Frame.Setting.initialWindowSize, 1)])
        _ = peer.send([peer.headers(1, HTTP2TestPeer.requestFields(method: "GET"), endStream: true)])
        var body = peer.respond(HTTPResponse(status: .ok, body: Array(repeating: 0x61, count: 500)), stream: 1).data(on: 1)
        while body.count < 500 && !peer.closed {
            body += peer.send([HTTP2Frame(stream: 1, payload: .windowUpdate(increment: 1))]).data(on: 1)
        }
        #expect(body.count == 500)
        #expect(!peer.closed)
    }

    /// 100,000 malformed requests (an uppercase header name, RST_STREAM PROTOCOL_ERROR
    /// each) end the connection within the reset budget; none reaches the handler.
    @Test func aFloodOfInvalidRequestsEndsTheConnection() {
        var peer = HTTP2TestPeer()
        var stream: UInt32 = 1
        var sent = 0
        var dispatched = 0
        var code: HTTP2ErrorCode?
        while sent < 100_000 && !peer.closed {
            var bytes: [UInt8] = []
            for _ in 0..<100 {
                bytes += peer.headers(stream, HTTP2TestPeer.requestFields(method: "GET", extra: [("X-Upper", "1")]), endStream: true).bytes
                stream += 2
            }
            sent += 100
            let output = peer.send(bytes)
            dispatched += output.dispatches.count
            code = output.goAway?.code ?? code
        }
        #expect(code == .enhanceYourCalm)
        #expect(sent <= 2_000)
        #expect(dispatched == 0)
    }

    @Test(arguments: [false, true])
    func anEmptyHeaderBlockIsAConnectionError(withContinuation: Bool) {
        var peer = HTTP2TestPeer()
        var frames = [HTTP2Frame(stream: 1, payload: .headers(block: [], endStream: true, endHeaders: !withContinuation, priority: nil, padding: nil))]
        if withContinuation { frames.append(HTTP2Frame(stream: 1, payload: .continuation(block: [], endHeaders: true))) }
        let output = peer.send(frames)
        #expect(output.goAway?.code == .protocolError)
        #expect(output.closed)
        #expect(output.dispatches.isEmpty)
    }

    @Test func anEmptyHeaderNameIsAConnectionError() {
        var peer = HTTP2TestPeer()
        let output = peer.send([peer.headers(1, HTTP2TestPeer.requestFields(method: "GET", extra: [("", "x")]), endStream: true)])
        #expect(output.goAway?.code == .protocolError)
        #expect(output.closed)
        #expect(output.dispatches.isEmpty)
    }
}
