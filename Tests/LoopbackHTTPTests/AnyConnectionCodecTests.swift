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

/// Behind TLS the protocol comes from ALPN: the sniffer a connection starts with is replaced
/// when the handshake completes. Catches a `choose` that ignores ALPN (an `h2` client would
/// get no SETTINGS until its preface) or that replaces a codec already chosen.
@Suite struct ApplicationProtocolChoiceTests {
    @Test func h2StartsHTTP2AndSendsItsSettings() {
        var codec = AnyConnectionCodec(configuration: HTTPServerConfiguration(), connectionID: 1)
        var actions: [ConnectionAction] = []
        codec.choose(applicationProtocol: "h2", into: &actions)
        guard case .http2 = codec, case .write(let bytes)? = actions.first else {
            Issue.record("not HTTP/2 with SETTINGS: \(codec), \(actions)")
            return
        }
        #expect(bytes.count >= 9 && bytes[3] == 0x4)  // a SETTINGS frame
    }

    @Test func http11StartsHTTP1AndNoALPNKeepsSniffing() {
        var actions: [ConnectionAction] = []
        var http1 = AnyConnectionCodec(configuration: HTTPServerConfiguration(), connectionID: 1)
        http1.choose(applicationProtocol: "http/1.1", into: &actions)
        #expect({ if case .http1 = http1 { true } else { false } }())
        var sniffing = AnyConnectionCodec(configuration: HTTPServerConfiguration(), connectionID: 2)
        sniffing.choose(applicationProtocol: nil, into: &actions)
        #expect({ if case .sniffing = sniffing { true } else { false } }())
        http1.choose(applicationProtocol: "h2", into: &actions)
        #expect({ if case .http1 = http1 { true } else { false } }())
        #expect(actions.isEmpty)
    }
}
