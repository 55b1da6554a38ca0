import Testing
@testable import LoopbackHTTP

/// A body over `maxBodyBytes` reaches the handler marked, without being buffered, and the
/// connection closes after the answer.
@Suite struct HTTP1BodyLimitTests {
    static let answer = HTTPResponse(status: .contentTooLarge, headers: ["content-type": "application/json"],
                                     body: Array(#"{"reason":"PayloadTooLarge"}"#.utf8))

    static func overLimit(_ headers: HTTPFields) -> HTTPRequest {
        var expected = request("POST", "/3/device/ab", headers: headers)
        expected.bodyLimitExceeded = true
        return expected
    }

    @Test func aDeclaredLengthOverTheLimitIsDispatchedAtOnceAndTheRestDiscarded() {
        var driver = CodecDriver(maxBodyBytes: 16)
        let actions = driver.receive("POST /3/device/ab HTTP/1.1\r\nHost: h\r\nContent-Length: 17\r\n\r\n0123456789")
        #expect(actions == [.dispatch(Self.overLimit(["Host": "h", "Content-Length": "17"]), stream: 1)])
        #expect(driver.receive("0123456GET / HTTP/1.1\r\nHost: h\r\n\r\n") == [], "later bytes are dropped, not parsed")
        let answer = driver.respond(Self.answer, stream: 1)
        #expect(answer == [write("HTTP/1.1 413 Content Too Large\r\ncontent-type: application/json\r\ncontent-length: 28\r\nconnection: close\r\n\r\n{\"reason\":\"PayloadTooLarge\"}"), .close])
    }

    @Test func chunksOverTheLimitAreDispatchedWhenTheLimitIsCrossed() {
        var driver = CodecDriver(maxBodyBytes: 16)
        let actions = driver.receive("POST /3/device/ab HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n9\r\n")
        #expect(actions == [.dispatch(Self.overLimit(["Host": "h", "Transfer-Encoding": "chunked"]), stream: 1)])
        #expect(driver.receive("123456789\r\n0\r\n\r\n") == [])
        #expect(driver.respond(Self.answer, stream: 1).last == .close)
    }

    @Test func theSameBytesGiveTheSameActionsHoweverTheyArrive() {
        let bytes = Array("POST /3/device/ab HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n9\r\n123456789\r\n".utf8)
        var whole = CodecDriver(maxBodyBytes: 16)
        let expected = whole.receive(bytes)
        var split = CodecDriver(maxBodyBytes: 16)
        var actions: [ConnectionAction] = []
        for byte in bytes { actions += split.receive([byte]) }
        #expect(actions == expected)
    }

    @Test func aBodyExactlyAtTheLimitIsRead() {
        var driver = CodecDriver(maxBodyBytes: 16)
        let actions = driver.receive("POST /3/device/ab HTTP/1.1\r\nHost: h\r\nContent-Length: 16\r\n\r\n0123456789abcdef")
        #expect(actions == [.dispatch(request("POST", "/3/device/ab", headers: ["Host": "h", "Content-Length": "16"], body: "0123456789abcdef"), stream: 1)])
    }
}
