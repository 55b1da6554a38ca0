import Testing
@testable import LoopbackHTTP

/// The loop reads a connection's codec several times per request (activity, buffered body,
/// queued output): each codec lives in a ``CodecBox``, so a read copies one reference, not
/// a codec (HTTP/2's state is hundreds of bytes and was copied whole, with a retain per field).
@Suite struct AnyConnectionCodecTests {
    @Test func theCodecIsOneReference() {
        #expect(MemoryLayout<AnyConnectionCodec>.size <= MemoryLayout<Int>.size + 1)
    }

    @Test func aSniffedConnectionBecomesHTTP1AndAnswersThroughTheSameValue() {
        var codec = AnyConnectionCodec(configuration: HTTPServerConfiguration(), connectionID: 3)
        var actions: [ConnectionAction] = []
        Array("GET /x HTTP/1.1\r\nHost: h\r\n\r\n".utf8).withUnsafeBytes { codec.receive($0, into: &actions) }
        guard case .dispatch(let request, let stream) = actions.first else {
            Issue.record("no dispatch: \(actions)")
            return
        }
        #expect(request.path == "/x" && request.headers["host"] == "h")
        #expect(codec.activity == .awaitingResponse)
        let reader = codec  // a copy shares the codec: the loop may read through either
        actions = []
        codec.deliver(HTTPResponse(status: .noContent), stream: stream, into: &actions)
        #expect(actions == [.write(Array("HTTP/1.1 204 No Content\r\n\r\n".utf8))])
        #expect(reader.activity == .idle)
    }
}
