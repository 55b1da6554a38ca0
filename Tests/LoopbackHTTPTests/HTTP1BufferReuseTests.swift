import Testing
@testable import LoopbackHTTP

/// A keep-alive connection reuses what its earlier requests leave: the emptied body and field
/// buffers (``HTTP1Codec/recycle(_:)``, as the server loop calls it after the handler) and the
/// previous target and `Host` Strings. None of it may show in the next request.
@Suite struct HTTP1BufferReuseTests {
    /// Receives one request, answers it 204 and gives its buffers back, as the loop does.
    private func exchange(_ driver: inout CodecDriver, _ text: String, stream: UInt32) -> HTTPRequest? {
        guard case .dispatch(var request, let dispatched)? = driver.receive(text).first, dispatched == stream else { return nil }
        let answered = request
        driver.codec.recycle(&request)
        _ = driver.respond(HTTPResponse(status: .noContent), stream: stream)
        return answered
    }

    @Test func aRecycledBodyHoldsOnlyTheNextRequestsBytes() {
        var driver = CodecDriver()
        let first = exchange(&driver, "PUT /a HTTP/1.1\r\nHost: h\r\nContent-Length: 6\r\n\r\nabcdef", stream: 1)
        #expect(first?.body == Array("abcdef".utf8))
        #expect(driver.codec.spareBody.isEmpty && driver.codec.spareBody.capacity >= 6)
        let second = exchange(&driver, "PUT /a HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nxy", stream: 2)
        #expect(second?.body == Array("xy".utf8))
        let chunked = exchange(&driver, "PUT /a HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nxyz\r\n0\r\n\r\n", stream: 3)
        #expect(chunked?.body == Array("xyz".utf8))
        let bodiless = exchange(&driver, "GET /a HTTP/1.1\r\nHost: h\r\n\r\n", stream: 4)
        #expect(bodiless?.body == [])
    }

    @Test func recycledFieldsHoldOnlyTheNextRequestsFields() {
        var driver = CodecDriver()
        let first = exchange(&driver, "GET /a HTTP/1.1\r\nHost: h\r\nX-One: 1\r\nX-Two: 2\r\n\r\n", stream: 1)
        #expect(first?.headers == ["Host": "h", "X-One": "1", "X-Two": "2"])
        let second = exchange(&driver, "GET /a HTTP/1.1\r\nHost: h\r\n\r\n", stream: 2)
        #expect(second?.headers == ["Host": "h"])
        #expect(second?.headers["x-one"] == nil)
    }

    @Test func aRepeatedTargetAndHostAreSharedAndADifferentOneOfTheSameLengthIsNot() {
        var driver = CodecDriver()
        let first = exchange(&driver, "GET /v1/aa HTTP/1.1\r\nHost: one:1\r\n\r\n", stream: 1)
        #expect(first?.path == "/v1/aa" && first?.authority == "one:1")
        let same = exchange(&driver, "GET /v1/aa HTTP/1.1\r\nHost: one:1\r\n\r\n", stream: 2)
        #expect(same?.path == "/v1/aa" && same?.authority == "one:1")
        let other = exchange(&driver, "GET /v1/ab HTTP/1.1\r\nHost: two:2\r\n\r\n", stream: 3)
        #expect(other?.path == "/v1/ab")
        #expect(other?.authority == "two:2")
        let longer = exchange(&driver, "GET /v1/abc HTTP/1.1\r\nHost: two:22\r\n\r\n", stream: 4)
        #expect(longer?.path == "/v1/abc" && longer?.authority == "two:22")
        // Longer than a word: differing in the first word, then in the second.
        _ = exchange(&driver, "GET /v1/devices/0123456789 HTTP/1.1\r\nHost: two:22\r\n\r\n", stream: 5)
        let firstWord = exchange(&driver, "GET /v2/devices/0123456789 HTTP/1.1\r\nHost: two:22\r\n\r\n", stream: 6)
        #expect(firstWord?.path == "/v2/devices/0123456789")
        let secondWord = exchange(&driver, "GET /v2/devicez/0123456789 HTTP/1.1\r\nHost: two:22\r\n\r\n", stream: 7)
        #expect(secondWord?.path == "/v2/devicez/0123456789")
    }

    @Test func aBodyTheHandlerKeptIsNotOverwritten() {
        var driver = CodecDriver()
        let kept = exchange(&driver, "PUT /a HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\n\r\nkeep", stream: 1)
        _ = exchange(&driver, "PUT /a HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\n\r\nlost", stream: 2)
        #expect(kept?.body == Array("keep".utf8))
        #expect(kept?.headers == ["Host": "h", "Content-Length": "4"])
    }
}
