import Testing
@testable import LoopbackHTTP

/// Malformed input gets the error RFC 9113 names: RST_STREAM for stream errors, GOAWAY
/// (and close) for connection errors. Nothing here may trap.
@Suite struct HTTP2MalformedInputTests {
    enum Expected: Sendable, CustomStringConvertible {
        case goAway(HTTP2ErrorCode)
        case reset(UInt32, HTTP2ErrorCode)
        case ignored
        var description: String {
            switch self {
            case .goAway(let code): return "GOAWAY \(code)"
            case .reset(let stream, let code): return "RST_STREAM \(stream) \(code)"
            case .ignored: return "ignored"
            }
        }
    }

    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var expected: Expected
        var initialWindowSize = 65_535
        var frames: @Sendable (inout HTTP2TestPeer) -> [UInt8]
        var description: String { name }
    }

    static func raw(_ frames: [HTTP2Frame]) -> [UInt8] { frames.flatMap(\.bytes) }
    static let get = HTTP2TestPeer.requestFields(method: "GET")

    static let cases: [Case] = [
        Case(name: "unknown frame type", expected: .ignored) { _ in
            raw([HTTP2Frame(stream: 1, payload: .unknown(type: 0x42, flags: 0xff, payload: [1, 2, 3]))])
        },
        Case(name: "frame larger than SETTINGS_MAX_FRAME_SIZE", expected: .goAway(.frameSizeError)) { _ in
            raw([HTTP2Frame(stream: 1, payload: .data([UInt8](repeating: 0, count: 16_385), endStream: false, padding: nil))])
        },
        Case(name: "PING with bad length", expected: .goAway(.frameSizeError)) { _ in [0, 0, 6, 6, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6] },
        Case(name: "HPACK index out of range", expected: .goAway(.compressionError)) { _ in
            raw([HTTP2Frame(stream: 1, payload: .headers(block: [0x82, 0xff, 0x40], endStream: true, endHeaders: true, priority: nil, padding: nil))])
        },
        Case(name: "HPACK bad Huffman padding", expected: .goAway(.compressionError)) { _ in
            raw([HTTP2Frame(stream: 1, payload: .headers(block: [0x82, 0x44, 0x81, 0x00], endStream: true, endHeaders: true, priority: nil, padding: nil))])
        },
        Case(name: "DATA on idle stream", expected: .goAway(.protocolError)) { _ in
            raw([HTTP2Frame(stream: 1, payload: .data([1], endStream: true, padding: nil))])
        },
        Case(name: "even stream id", expected: .goAway(.protocolError)) { peer in raw([peer.headers(2, get, endStream: true)]) },
        Case(name: "decreasing stream id", expected: .goAway(.streamClosed)) { peer in
            raw([peer.headers(5, get, endStream: true), peer.headers(3, get, endStream: true)])
        },
        Case(name: "PUSH_PROMISE from a client", expected: .goAway(.protocolError)) { _ in
            raw([HTTP2Frame(stream: 1, payload: .pushPromise(promisedStream: 2, block: [0x82], endHeaders: true, padding: nil))])
        },
        Case(name: "CONTINUATION without HEADERS", expected: .goAway(.protocolError)) { _ in
            raw([HTTP2Frame(stream: 1, payload: .continuation(block: [0x82], endHeaders: true))])
        },
        Case(name: "other frame between HEADERS and CONTINUATION", expected: .goAway(.protocolError)) { peer in
            let block = peer.block(get)
            return raw([HTTP2Frame(stream: 1, payload: .headers(block: block, endStream: true, endHeaders: false, priority: nil, padding: nil)),
                        HTTP2Frame(stream: 0, payload: .ping(ack: false, opaque: 0))])
        },
        Case(name: "header block that never ends", expected: .goAway(.enhanceYourCalm)) { peer in
            var frames = [HTTP2Frame(stream: 1, payload: .headers(block: peer.block(get), endStream: true, endHeaders: false, priority: nil, padding: nil))]
            for _ in 0..<100 { frames.append(HTTP2Frame(stream: 1, payload: .continuation(block: [UInt8](repeating: 0x40, count: 1000), endHeaders: false))) }
            return raw(frames)
        },
        Case(name: "connection window overflow", expected: .goAway(.flowControlError)) { _ in
            raw([HTTP2Frame(stream: 0, payload: .windowUpdate(increment: 0x7fff_ffff))])
        },
        Case(name: "stream window overflow", expected: .reset(1, .flowControlError)) { peer in
            raw([peer.headers(1, get, endStream: true), HTTP2Frame(stream: 1, payload: .windowUpdate(increment: 0x7fff_ffff))])
        },
        Case(name: "WINDOW_UPDATE of 0 on a stream", expected: .reset(1, .protocolError)) { peer in
            raw([peer.headers(1, get, endStream: true), HTTP2Frame(stream: 1, payload: .windowUpdate(increment: 0))])
        },
        Case(name: "SETTINGS_INITIAL_WINDOW_SIZE above 2^31-1", expected: .goAway(.flowControlError)) { _ in
            raw([HTTP2Frame(stream: 0, payload: .settings(ack: false, [.init(HTTP2Frame.Setting.initialWindowSize, 0x8000_0000)]))])
        },
        Case(name: "SETTINGS_MAX_FRAME_SIZE too small", expected: .goAway(.protocolError)) { _ in
            raw([HTTP2Frame(stream: 0, payload: .settings(ack: false, [.init(HTTP2Frame.Setting.maxFrameSize, 100)]))])
        },
        Case(name: "DATA beyond the stream window", expected: .reset(1, .flowControlError), initialWindowSize: 1000) { peer in
            raw([peer.headers(1, get, endStream: false),
                 HTTP2Frame(stream: 1, payload: .data([UInt8](repeating: 0, count: 1001), endStream: false, padding: nil))])
        },
        Case(name: "uppercase header name", expected: .reset(1, .protocolError)) { peer in
            raw([peer.headers(1, get + [("X-Upper", "1")], endStream: true)])
        },
        Case(name: "pseudo-header after a regular header", expected: .reset(1, .protocolError)) { peer in
            raw([peer.headers(1, [(":method", "GET"), (":scheme", "http"), ("accept", "*/*"), (":path", "/")], endStream: true)])
        },
        Case(name: "missing :path", expected: .reset(1, .protocolError)) { peer in
            raw([peer.headers(1, [(":method", "GET"), (":scheme", "http")], endStream: true)])
        },
        Case(name: "unknown pseudo-header", expected: .reset(1, .protocolError)) { peer in
            raw([peer.headers(1, get + [(":status", "200")], endStream: true)])
        },
        Case(name: "connection-specific header", expected: .reset(1, .protocolError)) { peer in
            raw([peer.headers(1, get + [("connection", "keep-alive")], endStream: true)])
        },
        Case(name: "te other than trailers", expected: .reset(1, .protocolError)) { peer in
            raw([peer.headers(1, get + [("te", "gzip")], endStream: true)])
        },
        Case(name: "content-length does not match DATA", expected: .reset(1, .protocolError)) { peer in
            raw([peer.headers(1, get + [("content-length", "5")], endStream: false),
                 HTTP2Frame(stream: 1, payload: .data([1, 2], endStream: true, padding: nil))])
        },
        Case(name: "DATA after END_STREAM", expected: .reset(1, .streamClosed)) { peer in
            raw([peer.headers(1, get, endStream: true), HTTP2Frame(stream: 1, payload: .data([1], endStream: true, padding: nil))])
        },
        Case(name: "HEADERS depending on itself", expected: .reset(1, .protocolError)) { peer in
            raw([HTTP2Frame(stream: 1, payload: .headers(block: peer.block(get), endStream: true, endHeaders: true,
                                                         priority: .init(exclusive: false, dependency: 1, weight: 16), padding: nil))])
        },
        Case(name: "RST_STREAM on idle stream", expected: .goAway(.protocolError)) { _ in
            raw([HTTP2Frame(stream: 3, payload: .rstStream(.cancel))])
        },
    ]

    @Test(arguments: cases)
    func malformedInput(_ testCase: Case) {
        var configuration = HTTPServerConfiguration()
        configuration.http2.initialWindowSize = testCase.initialWindowSize
        var peer = HTTP2TestPeer(configuration: configuration)
        let bytes = testCase.frames(&peer)
        let output = peer.send(bytes)
        switch testCase.expected {
        case .goAway(let code):
            #expect(output.goAway?.code == code, "\(output.frames)")
            #expect(output.closed)
        case .reset(let stream, let code):
            #expect(output.resets()[stream] == code, "\(output.frames)")
            #expect(output.goAway == nil)
        case .ignored:
            #expect(output.frames.isEmpty && !output.closed)
        }
        // After a stream error the connection still serves requests.
        if case .goAway = testCase.expected { return }
        let next = peer.send([peer.headers(101, Self.get, endStream: true)])
        #expect(next.dispatches.count == 1)
    }

    @Test func badPrefaceIsAConnectionError() {
        var connection = HTTP2Connection()
        var actions: [ConnectionAction] = []
        connection.start(into: &actions)
        actions = []
        Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8).withUnsafeBytes { connection.receive($0, into: &actions) }
        #expect(actions.last == .close)
    }

    @Test func byteAtATimeDeliveryWorks() {
        var peer = HTTP2TestPeer()
        let bytes = Self.raw([peer.headers(1, Self.get, endStream: false),
                              HTTP2Frame(stream: 1, payload: .data([1, 2, 3], endStream: true, padding: 1))])
        var dispatched: [HTTPRequest] = []
        for byte in bytes { dispatched += peer.send([byte]).dispatches.map(\.0) }
        #expect(dispatched.map(\.body) == [[1, 2, 3]])
    }
}
