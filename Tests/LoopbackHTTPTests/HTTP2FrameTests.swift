import Testing
@testable import LoopbackHTTP

@Suite struct HTTP2FrameTests {
    static let samples: [HTTP2Frame] = [
        HTTP2Frame(stream: 1, payload: .data([1, 2, 3], endStream: true, padding: nil)),
        HTTP2Frame(stream: 3, payload: .data([9], endStream: false, padding: 4)),
        HTTP2Frame(stream: 5, payload: .headers(block: [0x82, 0x86], endStream: false, endHeaders: true,
                                                priority: .init(exclusive: true, dependency: 3, weight: 15), padding: 2)),
        HTTP2Frame(stream: 5, payload: .headers(block: [0x82], endStream: true, endHeaders: false, priority: nil, padding: nil)),
        HTTP2Frame(stream: 7, payload: .priority(.init(exclusive: false, dependency: 1, weight: 200))),
        HTTP2Frame(stream: 7, payload: .rstStream(.cancel)),
        HTTP2Frame(stream: 0, payload: .settings(ack: false, [.init(3, 100), .init(4, 65_535), .init(0x99, 7)])),
        HTTP2Frame(stream: 0, payload: .settings(ack: true, [])),
        HTTP2Frame(stream: 1, payload: .pushPromise(promisedStream: 2, block: [0x82], endHeaders: true, padding: nil)),
        HTTP2Frame(stream: 0, payload: .ping(ack: true, opaque: 0x0102_0304_0506_0708)),
        HTTP2Frame(stream: 0, payload: .goAway(lastStream: 9, code: .enhanceYourCalm, debugData: Array(#"{"reason":"Shutdown"}"#.utf8))),
        HTTP2Frame(stream: 0, payload: .windowUpdate(increment: 1000)),
        HTTP2Frame(stream: 1, payload: .continuation(block: [0x84], endHeaders: true)),
        HTTP2Frame(stream: 1, payload: .unknown(type: 0xfa, flags: 0x3, payload: [1, 2])),
    ]

    @Test(arguments: samples)
    func roundTrips(_ frame: HTTP2Frame) throws {
        var decoder = HTTP2FrameDecoder()
        let bytes = frame.bytes
        // Split delivery: the decoder waits for the whole frame.
        decoder.append(Array(bytes.prefix(5)))
        #expect(try decoder.nextFrame() == nil)
        decoder.append(Array(bytes.dropFirst(5)))
        #expect(try decoder.nextFrame() == frame)
        #expect(decoder.bufferedCount == 0)
    }

    @Test func wireFormOfPing() {
        let bytes = HTTP2Frame(stream: 0, payload: .ping(ack: false, opaque: 1)).bytes
        #expect(bytes == [0, 0, 8, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])
    }

    static let malformed: [(String, [UInt8], HTTP2ProtocolError)] = [
        ("oversized frame", [0, 0x40, 0x01, 0, 0, 0, 0, 0, 1], HTTP2ProtocolError(.frameSizeError, "")),
        ("PING of 7 octets", [0, 0, 7, 6, 0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 7), HTTP2ProtocolError(.frameSizeError, "")),
        ("PING on stream 1", [0, 0, 8, 6, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 8), HTTP2ProtocolError(.protocolError, "")),
        ("SETTINGS of 5 octets", [0, 0, 5, 4, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0], HTTP2ProtocolError(.frameSizeError, "")),
        ("SETTINGS ACK with payload", [0, 0, 6, 4, 1, 0, 0, 0, 0, 0, 3, 0, 0, 0, 1], HTTP2ProtocolError(.frameSizeError, "")),
        ("DATA on stream 0", [0, 0, 1, 0, 0, 0, 0, 0, 0, 7], HTTP2ProtocolError(.protocolError, "")),
        ("DATA padding too long", [0, 0, 2, 0, 8, 0, 0, 0, 1, 5, 0], HTTP2ProtocolError(.protocolError, "")),
        ("RST_STREAM of 3 octets", [0, 0, 3, 3, 0, 0, 0, 0, 1, 0, 0, 0], HTTP2ProtocolError(.frameSizeError, "")),
        ("PRIORITY of 4 octets", [0, 0, 4, 2, 0, 0, 0, 0, 1, 0, 0, 0, 0], HTTP2ProtocolError(.frameSizeError, stream: 1, "")),
        ("WINDOW_UPDATE of 3 octets", [0, 0, 3, 8, 0, 0, 0, 0, 0, 0, 0, 1], HTTP2ProtocolError(.frameSizeError, "")),
        ("GOAWAY of 4 octets", [0, 0, 4, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0], HTTP2ProtocolError(.frameSizeError, "")),
    ]

    @Test func rejectsMalformedFrames() {
        for (name, bytes, expected) in Self.malformed {
            var decoder = HTTP2FrameDecoder()
            decoder.append(bytes)
            do {
                _ = try decoder.nextFrame()
                Issue.record("\(name): accepted")
            } catch {
                #expect(error.code == expected.code, "\(name): \(error)")
                #expect(error.stream == expected.stream, "\(name)")
            }
        }
    }
}
