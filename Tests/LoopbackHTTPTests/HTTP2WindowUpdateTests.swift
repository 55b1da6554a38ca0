import Testing
@testable import LoopbackHTTP

/// WINDOW_UPDATE adds credit to what a window still holds (RFC 9113 §6.9.1): each test sends an
/// increment while the window has credit left, then checks the response uses the sum.
@Suite struct HTTP2WindowUpdateTests {
    /// Stream window 10, +5 before the response: 15 bytes go out, not 5.
    @Test func streamIncrementIsAddedToTheCreditLeft() {
        var peer = HTTP2TestPeer(settings: [.init(HTTP2Frame.Setting.initialWindowSize, 10)])
        _ = peer.send([peer.headers(1, HTTP2TestPeer.requestFields(), endStream: true)])
        _ = peer.send([HTTP2Frame(stream: 1, payload: .windowUpdate(increment: 5))])
        let body = (0..<40).map { UInt8($0) }
        var output = peer.respond(HTTPResponse(status: .ok, body: body), stream: 1)
        #expect(output.data(on: 1) == Array(body.prefix(15)))
        // Two increments in one read add up too: +3 and +4 send the next 7 bytes.
        output = peer.send([HTTP2Frame(stream: 1, payload: .windowUpdate(increment: 3)),
                            HTTP2Frame(stream: 1, payload: .windowUpdate(increment: 4))])
        #expect(output.data(on: 1) == Array(body[15..<22]))
        #expect(!output.ended(1))
    }

    /// A stream that sent part of its window keeps the rest: window 10, 4 bytes sent, +5 gives
    /// the next response room for 11 bytes.
    @Test func streamCreditLeftAfterAResponseCarriesOver() {
        var peer = HTTP2TestPeer(settings: [.init(HTTP2Frame.Setting.initialWindowSize, 10)])
        _ = peer.send([peer.headers(1, HTTP2TestPeer.requestFields(), endStream: true)])
        let body = (0..<30).map { UInt8($0) }
        var output = peer.respond(HTTPResponse(status: .ok, body: body), stream: 1)
        #expect(output.data(on: 1).count == 10)
        output = peer.send([HTTP2Frame(stream: 1, payload: .windowUpdate(increment: 25))])
        #expect(output.data(on: 1) == Array(body[10...]))
        #expect(output.ended(1))
    }

    /// Connection window 65,535, +1,000 before the response: 66,535 bytes go out, not 1,000.
    @Test func connectionIncrementIsAddedToTheCreditLeft() {
        var peer = HTTP2TestPeer(settings: [.init(HTTP2Frame.Setting.initialWindowSize, 1 << 20)])
        _ = peer.send([peer.headers(1, HTTP2TestPeer.requestFields(), endStream: true)])
        _ = peer.send([HTTP2Frame(stream: 0, payload: .windowUpdate(increment: 1_000))])
        let body = [UInt8](repeating: 0x61, count: 70_000)
        var output = peer.respond(HTTPResponse(status: .ok, body: body), stream: 1)
        #expect(output.data(on: 1).count == 66_535)
        output = peer.send([HTTP2Frame(stream: 0, payload: .windowUpdate(increment: 2_000)),
                            HTTP2Frame(stream: 0, payload: .windowUpdate(increment: 1_465))])
        #expect(output.data(on: 1).count == 3_465)
        #expect(output.ended(1))
    }
}
