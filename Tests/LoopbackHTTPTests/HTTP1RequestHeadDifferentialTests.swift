import Testing
@testable import LoopbackHTTP

/// The byte-level request-head parser gives exactly the answer of the String-based one it
/// replaced (``ReferenceHTTP1RequestHead``): the same fields, framing and connection
/// handling, or the same error with the same status and text, for mutated and edge-case heads.
/// A change to either's checks (an order of errors, a token rule) turns this red.
@Suite struct HTTP1RequestHeadDifferentialTests {
    static let seeds: [String] = [
        "GET /a?b=c HTTP/1.1\r\nHost: h\r\nAccept: */*\r\n\r\n",
        "PUT /v1/devices/ab HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/json\r\nContent-Length: 200\r\nAuthorization: Bearer b\r\n\r\n",
        "POST /p HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n",
        "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
        "GET / HTTP/1.0\r\nConnection: close, keep-alive\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: h\r\nConnection: Keep-Alive , CLOSE\r\n\r\n",
        "PUT /x HTTP/1.1\r\nHost: h\r\nContent-Length: 5, 5\r\nExpect: 100-Continue\r\n\r\n",
        "PUT /x HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
        "PUT /x HTTP/1.1\r\nHost: h\r\nContent-Length: \r\n\r\n",
        "PUT /x HTTP/1.1\r\nHost: h\r\nContent-Length: 0012\r\nExpect: 101-nothing\r\n\r\n",
        "PUT /x HTTP/1.1\r\nHost: h\r\nContent-Length: 9999999999999999999\r\n\r\n",
        "PUT /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\nContent-Length: 3\r\n\r\n",
        "POST /x HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
        "OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n",
        "GET http://example.com:80/p?q HTTP/1.1\r\nHost: other\r\n\r\n",
        "GET HTTPS://h?x HTTP/1.1\r\nHost: h\r\n\r\n",
        "BREW /pot HTTP/1.1\r\nHost: h\r\n\r\n",
        "get / HTTP/1.1\r\nHost: h\r\n\r\n",
        "GET / HTTP/2.0\r\nHost: h\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
        "GET / HTTP/1.1\r\n\r\n",
        "\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: h\r\n X: folded\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: h\r\nX : y\r\n\r\nGET",
        "GET / HTTP/1.1\r\nHost: h\r\nX-\u{7f}: y\r\nY: \u{1}\r\n\r\n",
        "GET  / HTTP/1.1\r\nHost: h\r\n\r\n",
        "GET / HTTP/1.1 \r\nHost: h\r\n\r\n",
    ]

    static let interesting: [UInt8] = Array("\r\n :;,0123456789abcdefABCDEF\u{0}\u{7f}\t/HTTP-*?".utf8) + [0x80, 0xc3, 0xff]

    @Test func seedsAgree() {
        for seed in Self.seeds { expectSameAnswer(Array(seed.utf8)) }
    }

    @Test(arguments: 0..<8)
    func mutatedHeadsAgree(_ round: Int) {
        var random = SplitMix64(seed: UInt64(round) &* 104_729 &+ 3)
        for _ in 0..<1_000 {
            var bytes = Array(Self.seeds[Int(random.next() % UInt64(Self.seeds.count))].utf8)
            HTTP1CodecFuzzTests.mutate(&bytes, upTo: 4, using: Self.interesting, copying: 12, random: &random)
            expectSameAnswer(bytes)
        }
    }

    private func expectSameAnswer(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let slice = bytes[...]
        let new: Result<HTTP1RequestHead, HTTP1RequestError> = Result { () throws(HTTP1RequestError) in
            try HTTP1RequestHead.parse(slice, maxBodyBytes: 1_000)
        }
        let old: Result<ReferenceHTTP1RequestHead, HTTP1RequestError> = Result { () throws(HTTP1RequestError) in
            try ReferenceHTTP1RequestHead.parse(slice, maxBodyBytes: 1_000)
        }
        let text = String(decoding: bytes, as: UTF8.self).debugDescription
        switch (new, old) {
        case (.success(let a), .success(let b)):
            #expect(a.method == b.method && a.target == b.target && a.authority == b.authority, "\(text)", sourceLocation: sourceLocation)
            #expect(a.minorVersion == b.minorVersion && a.keepAlive == b.keepAlive && a.expectsContinue == b.expectsContinue,
                    "\(text)", sourceLocation: sourceLocation)
            #expect("\(a.framing)" == "\(b.framing)", "\(text)", sourceLocation: sourceLocation)
            #expect(a.headers.map { [$0.name, $0.value] } == b.headers.map { [$0.name, $0.value] }, "\(text)", sourceLocation: sourceLocation)
        case (.failure(let a), .failure(let b)):
            #expect(a == b, "\(text)", sourceLocation: sourceLocation)
        default:
            Issue.record("the parsers disagree on \(text): new \(new), reference \(old)", sourceLocation: sourceLocation)
        }
    }
}
