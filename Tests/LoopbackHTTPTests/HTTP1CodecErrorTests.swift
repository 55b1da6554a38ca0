import Testing
@testable import LoopbackHTTP

/// Every refusal: the exact status line and reason, then `.close`, then nothing more.
@Suite struct HTTP1CodecErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: String
        var statusLine: String
        var reason: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "header without colon", bytes: "GET / HTTP/1.1\r\nHost: h\r\nNoColonHere\r\n\r\n",
             statusLine: "400 Bad Request", reason: "header line 2 has no colon"),
        Case(name: "space before colon", bytes: "GET / HTTP/1.1\r\nHost : h\r\n\r\n",
             statusLine: "400 Bad Request", reason: "header line 1 has whitespace before the colon"),
        Case(name: "obs-fold", bytes: "GET / HTTP/1.1\r\nHost: h\r\nX: a\r\n b\r\n\r\n",
             statusLine: "400 Bad Request", reason: "header line 3 starts with whitespace (obs-fold is not accepted)"),
        Case(name: "NUL in value", bytes: "GET / HTTP/1.1\r\nHost: h\u{0}\r\n\r\n",
             statusLine: "400 Bad Request", reason: "header line 1 has a control character in its value"),
        Case(name: "bad name", bytes: "GET / HTTP/1.1\r\nHo(st: h\r\n\r\n",
             statusLine: "400 Bad Request", reason: "header line 1 has a name that is not a token"),
        Case(name: "bare LF", bytes: "GET / HTTP/1.1\nHost: h\n\n",
             statusLine: "400 Bad Request", reason: "a bare LF in the request head; lines end in CRLF"),
        Case(name: "garbage", bytes: "\u{16}\u{3}\u{1}\u{2}\u{0}\u{1}\u{0}\u{1}\u{fc}\u{3}\u{3}\r\n\r\n",
             statusLine: "400 Bad Request", reason: "the request line must be METHOD SP TARGET SP HTTP/1.1"),
        Case(name: "two spaces", bytes: "GET  / HTTP/1.1\r\nHost: h\r\n\r\n",
             statusLine: "400 Bad Request", reason: "the request line must be METHOD SP TARGET SP HTTP/1.1"),
        Case(name: "target not origin-form", bytes: "GET x HTTP/1.1\r\nHost: h\r\n\r\n",
             statusLine: "400 Bad Request", reason: "the request target must start with / (origin-form)"),
        Case(name: "missing host", bytes: "GET / HTTP/1.1\r\n\r\n",
             statusLine: "400 Bad Request", reason: "HTTP/1.1 requests need a Host header"),
        Case(name: "two hosts", bytes: "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
             statusLine: "400 Bad Request", reason: "more than one Host header"),
        Case(name: "length and chunked", bytes: "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
             statusLine: "400 Bad Request", reason: "both Content-Length and Transfer-Encoding are present"),
        Case(name: "bad length", bytes: "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n",
             statusLine: "400 Bad Request", reason: "Content-Length \"-1\" is not a decimal number"),
        Case(name: "huge length", bytes: "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999999\r\n\r\n",
             statusLine: "400 Bad Request", reason: "Content-Length \"99999999999999999999999\" is not a decimal number"),
        Case(name: "conflicting lengths", bytes: "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n",
             statusLine: "400 Bad Request", reason: "conflicting Content-Length values"),
        Case(name: "bad chunk size", bytes: "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
             statusLine: "400 Bad Request", reason: "a chunk size is not hexadecimal"),
        Case(name: "overflowing chunk size", bytes: "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n",
             statusLine: "400 Bad Request", reason: "a chunk size has too many digits"),
        Case(name: "chunk without CRLF", bytes: "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nabc",
             statusLine: "400 Bad Request", reason: "chunk data is not followed by CRLF"),
        Case(name: "gzip coding", bytes: "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
             statusLine: "501 Not Implemented", reason: "transfer coding gzip, chunked is not supported; only chunked is"),
        Case(name: "HTTP/2.0 text", bytes: "GET / HTTP/2.0\r\nHost: h\r\n\r\n",
             statusLine: "505 HTTP Version Not Supported", reason: "HTTP/2.0 is not supported; use HTTP/1.1"),
        Case(name: "HTTP/3.0 text", bytes: "GET / HTTP/3.0\r\nHost: h\r\n\r\n",
             statusLine: "505 HTTP Version Not Supported", reason: "HTTP/3.0 is not supported; use HTTP/1.1"),
        Case(name: "HTTP/0.9 version token", bytes: "GET / HTTP/0.9\r\nHost: h\r\n\r\n",
             statusLine: "505 HTTP Version Not Supported", reason: "HTTP/0.9 is not supported; use HTTP/1.1"),
        Case(name: "request line without a version", bytes: "GET /\r\nHost: h\r\n\r\n",
             statusLine: "400 Bad Request", reason: "the request line must be METHOD SP TARGET SP HTTP/1.1"),
        Case(name: "expect other", bytes: "PUT / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nExpect: 200-ok\r\n\r\n",
             statusLine: "417 Expectation Failed", reason: "unsupported expectation \"200-ok\"; only 100-continue is understood"),
    ]

    @Test(arguments: cases)
    func refusedRequestGetsItsStatusAndCloses(_ testCase: Case) {
        var driver = CodecDriver(maxBodyBytes: 16)
        let actions = driver.receive(testCase.bytes)
        #expect(actions == [errorWire(testCase.statusLine, testCase.reason), .close])
        #expect(driver.receive("GET / HTTP/1.1\r\nHost: h\r\n\r\n") == [], "nothing is parsed after an error")
    }

    /// Request lines whose version token is not `HTTP/<digit>.<digit>`: not HTTP/1.x at all,
    /// so the connection closes with no response (h2spec 3.5/2 sends the first one).
    static let notHTTPLines = [
        "INVALID CONNECTION PREFACE\r\n\r\n",
        "GET / FTP/1.1\r\nHost: h\r\n\r\n",
        "GET / http/1.1\r\nHost: h\r\n\r\n",
        "GET / HTTP/1.10\r\nHost: h\r\n\r\n",
        "GET / HTTP/1\r\nHost: h\r\n\r\n",
        "GET / HTTP/x.1\r\nHost: h\r\n\r\n",
        "GET / HTTP/1,1\r\nHost: h\r\n\r\n",
    ]

    @Test(arguments: notHTTPLines)
    func versionThatIsNotHTTPClosesWithoutAResponse(_ bytes: String) {
        var driver = CodecDriver()
        #expect(driver.receive(bytes) == [.close])
        #expect(driver.receive("GET / HTTP/1.1\r\nHost: h\r\n\r\n") == [], "nothing is parsed after the close")
    }

    @Test func notHTTPStaysUnansweredEvenWhenItArrivesInPieces() {
        var driver = CodecDriver()
        #expect(driver.receive("INVALID CONNECTION ") == [])
        #expect(driver.receive("PREFACE\r\n") == [])
        #expect(driver.receive("\r\n") == [.close])
    }

        @Test func unsupportedMethodGets405WithAllow() {
        var driver = CodecDriver()
        let actions = driver.receive("BREW /pot HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(actions == [
            errorWire("405 Method Not Allowed", "method BREW is not supported; use one of GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS",
                      extraHeaders: "allow: GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS\r\n"),
            .close,
        ])
    }

    /// Found by Fuzz/run.sh HTTP1Parser: an oversized head with a bare LF past the limit
    /// was a 400 when it arrived in one read and a 431 when it arrived in pieces.
    @Test(arguments: [1, 7, 4096])
    func anOversizedHeadIs431HoweverItArrives(_ pieceSize: Int) {
        var driver = CodecDriver(maxHeaderBytes: 1024)
        let head = Array("GET / HTTP/1.1\r\nX-Long: \(String(repeating: "a", count: 1100))\nHost: h\r\n\r\n".utf8)
        var actions: [ConnectionAction] = []
        var offset = 0
        while offset < head.count {
            let end = min(head.count, offset + pieceSize)
            actions += driver.receive(Array(head[offset..<end]))
            offset = end
        }
        #expect(actions == [errorWire("431 Request Header Fields Too Large", "request header block exceeds 1024 bytes"), .close])
    }

    /// Found by Fuzz/run-all.sh in CI: a trailer section whose bare LF lies past the header
    /// limit got 400 when it arrived whole and 431 when it arrived in pieces.
    @Test(arguments: [1, 7, 64, 4096])
    func anOversizedTrailerSectionIs431HoweverItArrives(_ pieceSize: Int) {
        var driver = CodecDriver(maxHeaderBytes: 512)
        let request = Array(("POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n"
            + "X-Trailer: x\r\nX-Long: " + String(repeating: "a", count: 600) + "\nmore\r\n\r\n").utf8)
        var actions: [ConnectionAction] = []
        var offset = 0
        while offset < request.count {
            let end = min(request.count, offset + pieceSize)
            actions += driver.receive(Array(request[offset..<end]))
            offset = end
        }
        #expect(actions == [errorWire("431 Request Header Fields Too Large", "request header block exceeds 512 bytes"), .close])
    }

    @Test func headerBlockOverTheLimitGets431EvenBeforeItEnds() {
        var driver = CodecDriver(maxHeaderBytes: 1024)
        let actions = driver.receive("GET / HTTP/1.1\r\nHost: h\r\nX-Big: " + String(repeating: "a", count: 1100))
        #expect(actions == [errorWire("431 Request Header Fields Too Large", "request header block exceeds 1024 bytes"), .close])
    }

    @Test func headerBlockJustUnderTheLimitIsAccepted() {
        var driver = CodecDriver(maxHeaderBytes: 1024)
        let prefix = "GET / HTTP/1.1\r\nHost: h\r\nX-Big: "
        let filler = String(repeating: "a", count: 1024 - prefix.utf8.count - 4)
        let actions = driver.receive(prefix + filler + "\r\n\r\n")
        guard case .dispatch(let request, _)? = actions.first else {
            Issue.record("expected a dispatch, got \(actions)")
            return
        }
        #expect(request.headers["x-big"] == filler)
    }

    @Test func everyPrefixOfAValidRequestWaitsForMore() {
        let whole = Array("POST /p HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n".utf8)
        for length in 0..<whole.count {
            var driver = CodecDriver()
            #expect(driver.receive(Array(whole[0..<length])) == [], "prefix of \(length) bytes")
        }
    }

    @Test func pipelinedFloodWhileAwaitingClosesAfterTheResponse() {
        var driver = CodecDriver(maxHeaderBytes: 1024, maxBodyBytes: 1024)
        _ = driver.receive("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(driver.receive([UInt8](repeating: 65, count: 70_000)) == [])
        #expect(driver.respond(HTTPResponse(status: .ok), stream: 1)
            == [write("HTTP/1.1 200 OK\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"), .close])
    }
}
