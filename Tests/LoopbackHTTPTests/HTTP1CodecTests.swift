import Testing
@testable import LoopbackHTTP

/// Drives an ``HTTP1Codec`` with bytes and records what it asks the shell to do.
struct CodecDriver {
    var codec: HTTP1Codec

    init(maxHeaderBytes: Int = 16 * 1024, maxBodyBytes: Int = 1024 * 1024) {
        var configuration = HTTPServerConfiguration()
        configuration.maxHeaderBytes = maxHeaderBytes
        configuration.maxBodyBytes = maxBodyBytes
        codec = HTTP1Codec(configuration: configuration, connectionID: 7)
    }

    mutating func receive(_ text: String) -> [ConnectionAction] { receive(Array(text.utf8)) }

    mutating func receive(_ bytes: [UInt8]) -> [ConnectionAction] {
        var actions: [ConnectionAction] = []
        bytes.withUnsafeBytes { codec.receive($0, into: &actions) }
        return actions
    }

    /// `bytes` delivered in reads of `pieceSize` octets; every action, in order.
    mutating func receive(_ bytes: [UInt8], inPiecesOf pieceSize: Int) -> [ConnectionAction] {
        var actions: [ConnectionAction] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + pieceSize)
            actions += receive(Array(bytes[offset..<end]))
            offset = end
        }
        return actions
    }

    mutating func respond(_ response: HTTPResponse, stream: UInt32) -> [ConnectionAction] {
        var actions: [ConnectionAction] = []
        codec.respond(response, stream: stream, into: &actions)
        return actions
    }
}

func write(_ text: String) -> ConnectionAction { .write(Array(text.utf8)) }

/// The exact bytes of an error response: status line, plain-text reason, connection: close.
func errorWire(_ statusLine: String, _ reason: String, extraHeaders: String = "") -> ConnectionAction {
    let body = reason + "\n"
    return write("HTTP/1.1 \(statusLine)\r\ncontent-type: text/plain; charset=utf-8\r\n\(extraHeaders)"
        + "content-length: \(body.utf8.count)\r\nconnection: close\r\n\r\n\(body)")
}

func request(_ method: String, _ path: String, headers: HTTPFields, body: String = "") -> HTTPRequest {
    HTTPRequest(method: method, path: path, authority: headers["host"], headers: headers, body: Array(body.utf8), connectionID: 7)
}

@Suite struct HTTP1CodecTests {
    @Test func getIsDispatchedAndAnsweredWithContentLength() {
        var driver = CodecDriver()
        let actions = driver.receive("GET /v1/x?y=1 HTTP/1.1\r\nHost: example\r\nAccept: */*\r\n\r\n")
        #expect(actions == [.dispatch(request("GET", "/v1/x?y=1", headers: ["Host": "example", "Accept": "*/*"]), stream: 1)])
        #expect(driver.codec.activity == .awaitingResponse)
        let reply = driver.respond(HTTPResponse(status: .ok, headers: ["content-type": "text/plain"], body: Array("hi".utf8)), stream: 1)
        #expect(reply == [write("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 2\r\n\r\nhi")])
        #expect(driver.codec.activity == .idle)
    }

    @Test func bytesArrivingOneAtATimeGiveTheSameRequest() {
        var driver = CodecDriver()
        var actions: [ConnectionAction] = []
        for byte in "PUT /d HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello".utf8 {
            actions += driver.receive([byte])
        }
        #expect(actions == [.dispatch(request("PUT", "/d", headers: ["Host": "h", "Content-Length": "5"], body: "hello"), stream: 1)])
    }

    /// Found by Fuzz/run.sh HTTP1Parser: a stray CRLF before a request (RFC 9112 §2.2)
    /// split across two reads, "\r" then "\nGET …", made the request a 400.
    @Test(arguments: [["\r", "\nGET /s HTTP/1.1\r\nHost: h\r\n\r\n"],
                      ["\r\n\r", "\nGET /s HTTP/1.1\r\nHost: h\r\n\r\n"],
                      ["\r", "\n", "\r", "\nGET /s HTTP/1.1\r\nHost: h\r\n\r\n"]])
    func aStrayCRLFSplitAcrossReadsIsStillSkipped(_ pieces: [String]) {
        var driver = CodecDriver()
        var actions: [ConnectionAction] = []
        for piece in pieces { actions += driver.receive(piece) }
        #expect(actions == [.dispatch(request("GET", "/s", headers: ["Host": "h"]), stream: 1)])
    }

    @Test func pipelinedRequestsAreDispatchedOneAtATimeInOrder() {
        var driver = CodecDriver()
        let first = driver.receive("GET /1 HTTP/1.1\r\nHost: h\r\n\r\nGET /2 HTTP/1.1\r\nHost: h\r\n\r\nGET /3 HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(first == [.dispatch(request("GET", "/1", headers: ["Host": "h"]), stream: 1)])
        let second = driver.respond(HTTPResponse(status: .noContent), stream: 1)
        #expect(second == [write("HTTP/1.1 204 No Content\r\n\r\n"), .dispatch(request("GET", "/2", headers: ["Host": "h"]), stream: 2)])
        let third = driver.respond(HTTPResponse(status: .ok), stream: 2)
        #expect(third == [write("HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n"), .dispatch(request("GET", "/3", headers: ["Host": "h"]), stream: 3)])
    }

    /// The server's path: a response is appended to the connection's output buffer (kept
    /// from one response to the next), ahead of what its call appends to the actions.
    @Test func aResponseWrittenIntoTheOutputBufferIsAppendedBeforeTheNextDispatch() {
        var driver = CodecDriver()
        _ = driver.receive("GET /1 HTTP/1.1\r\nHost: h\r\n\r\nGET /2 HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        var output = Array("earlier ".utf8)
        var actions: [ConnectionAction] = []
        driver.codec.respond(HTTPResponse(status: .noContent), stream: 1, forceClose: false, writingTo: &output, into: &actions)
        #expect(String(decoding: output, as: UTF8.self) == "earlier HTTP/1.1 204 No Content\r\n\r\n")
        #expect(actions == [.dispatch(request("GET", "/2", headers: ["Host": "h", "Connection": "close"]), stream: 2)])
        actions = []
        driver.codec.respond(HTTPResponse(status: .ok, body: [0x41]), stream: 2, forceClose: false, writingTo: &output, into: &actions)
        #expect(String(decoding: output, as: UTF8.self)
            == "earlier HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 1\r\nconnection: close\r\n\r\nA")
        #expect(actions == [.close])
    }

    @Test func aResponseForAnotherStreamIsIgnored() {
        var driver = CodecDriver()
        _ = driver.receive("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(driver.respond(HTTPResponse(status: .ok), stream: 9) == [])
        #expect(driver.codec.activity == .awaitingResponse)
    }

    @Test func connectionCloseClosesAfterTheResponse() {
        var driver = CodecDriver()
        _ = driver.receive("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        let reply = driver.respond(HTTPResponse(status: .ok), stream: 1)
        #expect(reply == [write("HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"), .close])
    }

    @Test func http10ClosesUnlessKeepAliveIsAsked() {
        var plain = CodecDriver()
        _ = plain.receive("GET / HTTP/1.0\r\n\r\n")
        #expect(plain.respond(HTTPResponse(status: .ok), stream: 1)
            == [write("HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"), .close])

        var keepAlive = CodecDriver()
        _ = keepAlive.receive("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n")
        #expect(keepAlive.respond(HTTPResponse(status: .ok), stream: 1)
            == [write("HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: keep-alive\r\n\r\n")])
    }

    @Test func headGetsTheLengthButNoBody() {
        var driver = CodecDriver()
        _ = driver.receive("HEAD / HTTP/1.1\r\nHost: h\r\n\r\n")
        let reply = driver.respond(HTTPResponse(status: .ok, body: Array("12345".utf8)), stream: 1)
        #expect(reply == [write("HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\n")])
    }

    @Test func handlerFramingHeadersAreReplacedAndValuesCannotSplitTheResponse() {
        var driver = CodecDriver()
        _ = driver.receive("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        let response = HTTPResponse(
            status: .ok,
            headers: ["Content-Length": "999", "Connection": "upgrade", "x-echo": "a\r\nset-cookie: evil", "bad name": "x"],
            body: Array("ok".utf8))
        #expect(driver.respond(response, stream: 1) == [write("HTTP/1.1 200 OK\r\nx-echo: a  set-cookie: evil\r\ncontent-length: 2\r\n\r\nok")])
    }

    @Test func chunkedBodyWithExtensionsAndTrailersIsReassembled() {
        var driver = CodecDriver()
        let actions = driver.receive(
            "POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;name=value\r\nhello\r\n1A\r\n abcdefghijklmnopqrstuvwxy\r\n0\r\nX-Checksum: 1\r\n\r\n")
        #expect(actions == [.dispatch(
            request("POST", "/c", headers: ["Host": "h", "Transfer-Encoding": "chunked"], body: "hello abcdefghijklmnopqrstuvwxy"),
            stream: 1)])
    }

    @Test func expectContinueGetsAnInterimResponseBeforeTheBody() {
        var driver = CodecDriver()
        let head = driver.receive("PUT /e HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n")
        #expect(head == [write("HTTP/1.1 100 Continue\r\n\r\n")])
        #expect(driver.codec.activity == .readingRequest)
        let body = driver.receive("abc")
        #expect(body == [.dispatch(
            request("PUT", "/e", headers: ["Host": "h", "Content-Length": "3", "Expect": "100-continue"], body: "abc"), stream: 1)])
    }

    @Test func expectContinueWithATooLargeBodyIsDispatchedOverTheLimitWithNoContinue() {
        var driver = CodecDriver(maxBodyBytes: 10)
        let actions = driver.receive("PUT /e HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\nExpect: 100-continue\r\n\r\n")
        var expected = request("PUT", "/e", headers: ["Host": "h", "Content-Length": "11", "Expect": "100-continue"])
        expected.bodyLimitExceeded = true
        #expect(actions == [.dispatch(expected, stream: 1)])
    }

    @Test func aPeerHalfCloseWhileAwaitingStillGetsTheResponseThenCloses() {
        var driver = CodecDriver()
        _ = driver.receive("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        var closed: [ConnectionAction] = []
        driver.codec.peerClosed(into: &closed)
        #expect(closed == [])
        #expect(driver.respond(HTTPResponse(status: .noContent), stream: 1) == [write("HTTP/1.1 204 No Content\r\n\r\n"), .close])
    }

    @Test func halfARequestThenPeerCloseJustCloses() {
        var driver = CodecDriver()
        _ = driver.receive("GET / HTTP/1.1\r\nHo")
        #expect(driver.codec.activity == .readingRequest)
        var actions: [ConnectionAction] = []
        driver.codec.peerClosed(into: &actions)
        #expect(actions == [.close])
    }

    @Test func timeoutOnAPartialRequestAnswers408() {
        var driver = CodecDriver()
        _ = driver.receive("GET / HTTP/1.1\r\n")
        var actions: [ConnectionAction] = []
        driver.codec.requestTimedOut(into: &actions)
        #expect(actions == [errorWire("408 Request Timeout", "the request did not arrive in time"), .close])
    }

    @Test func abandonResetsOrClosesWithoutWriting() {
        var reset = CodecDriver()
        _ = reset.receive("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        var actions: [ConnectionAction] = []
        reset.codec.abandon(stream: 1, disposition: .reset, into: &actions)
        #expect(actions == [.reset])

        var lost = CodecDriver()
        _ = lost.receive("GET / HTTP/1.1\r\nHost: h\r\n\r\nGET /next HTTP/1.1\r\nHost: h\r\n\r\n")
        actions = []
        lost.codec.abandon(stream: 1, disposition: .loseResponse, into: &actions)
        #expect(actions == [.close])
    }

    @Test func shutdownClosesAnIdleConnectionAndClosesAfterAnInFlightResponse() {
        var idle = CodecDriver()
        var actions: [ConnectionAction] = []
        idle.codec.shutdown(into: &actions)
        #expect(actions == [.close])

        var busy = CodecDriver()
        _ = busy.receive("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        actions = []
        busy.codec.shutdown(into: &actions)
        #expect(actions == [])
        #expect(busy.respond(HTTPResponse(status: .ok), stream: 1)
            == [write("HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"), .close])
    }
}
