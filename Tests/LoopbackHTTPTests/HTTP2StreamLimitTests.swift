import Testing
@testable import LoopbackHTTP

/// A connection that starts with a smaller stream limit until the handler lifts it, a peer
/// over a limit it acknowledged, and the GOAWAY a handler ends a connection with
/// (``HTTP2Configuration/startingMaxConcurrentStreams``, RFC 9113 §5.1.2, §6.5.3, §6.8).
@Suite struct HTTP2StreamLimitTests {
    static let violation = Array("over the limit".utf8)

    static func configuration(startingAt limit: Int? = 1, violation: [UInt8]? = violation) -> HTTPServerConfiguration {
        var configuration = HTTPServerConfiguration()
        configuration.http2.maxConcurrentStreams = 100
        configuration.http2.startingMaxConcurrentStreams = limit
        configuration.http2.streamLimitViolationDebugData = violation
        return configuration
    }

    @Test func theFirstSettingsSaysOneAndALaterOneRaisesItAfterTheLiftingAnswer() {
        var peer = HTTP2TestPeer(configuration: Self.configuration())
        #expect(peer.started.streamLimits == [1])
        _ = peer.send([peer.headers(1, HTTP2TestPeer.requestFields(), endStream: true)])
        // An answer that does not lift the limit leaves it at 1.
        #expect(peer.respond(HTTPResponse(status: .forbidden), stream: 1).streamLimits.isEmpty)
        _ = peer.send([peer.headers(3, HTTP2TestPeer.requestFields(), endStream: true)])
        var lifting = HTTPResponse(status: .ok)
        lifting.liftsStreamLimit = true
        let output = peer.respond(lifting, stream: 3)
        #expect(peer.responseFields(output, stream: 3)[":status"] == "200")
        #expect(output.streamLimits == [100])
        // After the 200: the SETTINGS frame follows the response's HEADERS.
        let headersAt = output.frames.firstIndex { $0.stream == 3 } ?? .max
        let settingsAt = output.frames.firstIndex { if case .settings(false, _) = $0.payload { return true } else { return false } } ?? -1
        #expect(headersAt < settingsAt)
        // Lifted once: a second lifting answer announces nothing.
        _ = peer.send([peer.headers(5, HTTP2TestPeer.requestFields(), endStream: true)])
        #expect(peer.respond(lifting, stream: 5).streamLimits.isEmpty)
        #expect(peer.connection.announcedStreamLimit == 100)
    }

    @Test func aCertifiedClientAndADefaultServerStartAtTheFullLimit() {
        #expect(HTTP2TestPeer(configuration: Self.configuration(), clientCertified: true).started.streamLimits == [100])
        #expect(HTTP2TestPeer(configuration: Self.configuration(startingAt: nil)).started.streamLimits == [100])
    }

    /// Streams sent with the preface, before the peer could read the limit, are served.
    @Test func streamsSentBeforeTheAcknowledgementAreServed() {
        var peer = HTTP2TestPeer(configuration: Self.configuration(), acknowledges: false)
        let output = peer.send([1, 3, 5, 7].map { peer.headers($0, HTTP2TestPeer.requestFields(), endStream: true) })
        #expect(output.dispatches.map(\.1) == [1, 3, 5, 7])
        #expect(output.goAway == nil && output.resets().isEmpty)
    }

    /// Over an acknowledged limit: GOAWAY REFUSED_STREAM naming the last stream accepted,
    /// which is still answered; the stream over the limit is not dispatched.
    @Test func aStreamOverAnAcknowledgedLimitGetsGoAwayRefusedStream() {
        var peer = HTTP2TestPeer(configuration: Self.configuration())
        let output = peer.send([peer.headers(1, HTTP2TestPeer.requestFields(), endStream: true),
                                peer.headers(3, HTTP2TestPeer.requestFields(), endStream: false),
                                HTTP2Frame(stream: 3, payload: .data(Array("{}".utf8), endStream: true, padding: nil))])
        #expect(output.dispatches.map(\.1) == [1])
        #expect(output.resets().isEmpty, "the refused stream's DATA is dropped quietly")
        #expect(output.goAway?.lastStream == 1)
        #expect(output.goAway?.code == .refusedStream)
        #expect(output.goAway?.debug == Self.violation)
        #expect(peer.connection.goAwaysSent.count == 1)
        let answer = peer.respond(HTTPResponse(status: .ok), stream: 1)
        #expect(peer.responseFields(answer, stream: 1)[":status"] == "200")
        #expect(answer.closed)
    }

    @Test func withoutViolationDebugDataTheExtraStreamAloneIsRefused() {
        var peer = HTTP2TestPeer(configuration: Self.configuration(violation: nil))
        let output = peer.send([1, 3].map { peer.headers($0, HTTP2TestPeer.requestFields(), endStream: true) })
        #expect(output.dispatches.map(\.1) == [1])
        #expect(output.resets() == [3: .refusedStream])
        #expect(output.goAway == nil)
    }

    /// A handler's GOAWAY at stream 5 with 1, 3, 7 and 9 in flight: it names 3; 1 and 3 are
    /// still answered, 5, 7 and 9 never are, and the connection closes once 1 and 3 are.
    @Test func aHandlersGoAwayLeavesItsStreamAndLaterOnesUnanswered() {
        var peer = HTTP2TestPeer()
        _ = peer.send([1, 3, 5, 7, 9].map { peer.headers($0, HTTP2TestPeer.requestFields(), endStream: true) })
        let goAway = peer.abandon(5, .goAway(debugData: Array(#"{"reason":"Shutdown"}"#.utf8)))
        #expect(goAway.goAway?.lastStream == 3)
        #expect(!goAway.closed)
        #expect(peer.respond(HTTPResponse(status: .ok), stream: 7).frames.isEmpty)
        #expect(peer.abandon(9, .goAway(debugData: [])).frames.isEmpty, "one GOAWAY per connection")
        #expect(peer.responseFields(peer.respond(HTTPResponse(status: .ok), stream: 1), stream: 1)[":status"] == "200")
        let last = peer.respond(HTTPResponse(status: .ok), stream: 3)
        #expect(peer.responseFields(last, stream: 3)[":status"] == "200")
        #expect(last.closed)
    }

    /// A later stream already answered is never claimed unprocessed: GOAWAY names it, and the
    /// handler's stream below it is reset REFUSED_STREAM (not processed, RFC 9113 §8.7).
    @Test func aGoAwayNeverNamesAnAnsweredStreamUnprocessed() {
        var peer = HTTP2TestPeer()
        _ = peer.send([1, 3, 5].map { peer.headers($0, HTTP2TestPeer.requestFields(), endStream: true) })
        _ = peer.respond(HTTPResponse(status: .ok), stream: 5)
        let output = peer.abandon(1, .goAway(debugData: []))
        #expect(output.goAway?.lastStream == 5)
        #expect(output.resets() == [1: .refusedStream])
        #expect(peer.responseFields(peer.respond(HTTPResponse(status: .ok), stream: 3), stream: 3)[":status"] == "200")
    }
}
