@testable import PushCore
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
        for _ in 0..<250 {
            var bytes = Array(Self.seeds[Int(random.next() % UInt64(Self.seeds.count))].utf8)
            HTTP1CodecFuzzTests.mutate(&bytes, upTo: 4, using: Self.interesting, copying: 12, random: &random)
            expectSameAnswer(bytes)
        }
    }

    // MARK: - The common walk against the general parser

    /// Heads the one-walk parser (`parseCommon`) reads itself: every branch of its word-at-a-
    /// time scans (names of letters, digits and `-` and others, values of 1 to 40 bytes, tabs,
    /// trailing whitespace, obs-text, empty values), and framing it leaves to `interpretFields`.
    static let commonSeeds: [String] = [
        "PUT /v1/devices/00fa11ceabababababababababababababababababababababababababababab HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/json\r\nAuthorization: Bearer bench\r\nContent-Length: 200\r\n\r\n",
        "GET / HTTP/1.0\r\n\r\n",
        "GET /a?b=c&d=%20 HTTP/1.1\r\nhost:h\r\nX-Long-Header-Name-With-Digits-0123456789: v\r\n\r\n",
        "POST /p HTTP/1.1\r\nHost: h \t \r\nX_under.score~^`|!#$%&'*+: a\tb  c\t\r\nEmpty:\r\nBlank: \t \r\n\r\n",
        "DELETE /x HTTP/1.1\r\nHost: h\r\nUser-Agent: caf\u{e9} \u{2603} / obs-text in a value that is long\r\nA:1\r\n\r\n",
        "PATCH /x HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 3\r\nConnection: close\r\n\r\n",
        "OPTIONS /x HTTP/1.0\r\nConnection: keep-alive\r\nExpect: 100-continue\r\nContent-Length: 0012\r\n\r\n",
        "HEAD /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n",
        "PUT /x HTTP/1.1\r\nHost: a\r\nHost: b\r\nContent-Length: 1001\r\n\r\n",
        "GET /x HTTP/1.1\r\nAccept: */*\r\n\r\n",
    ]

    /// Bytes at the edges of the word-at-a-time tests: CR and 0x10–0x19 become `-` and digits
    /// with 0x20 set; `@ [ \\ ] ^ _ `` ` `` { | } ~ DEL` sit beside the letters; high bytes whose
    /// low 7 bits are a letter, digit, `-` or control byte.
    static let edgeBytes: [UInt8] = [
        0x00, 0x01, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x10, 0x19, 0x1A, 0x1F, 0x20, 0x21, 0x22, 0x2C, 0x2D, 0x2F,
        0x30, 0x39, 0x3A, 0x3B, 0x40, 0x41, 0x5A, 0x5B, 0x5C, 0x5D, 0x5E, 0x5F, 0x60, 0x61, 0x7A, 0x7B,
        0x7C, 0x7E, 0x7F, 0x80, 0x8D, 0x9F, 0xA0, 0xAD, 0xB0, 0xC1, 0xC3, 0xE1, 0xFA, 0xFF,
    ]

    @Test func theCommonWalkReadsOrdinaryHeads() {
        // Without this the comparisons below could pass with a walk that always gives up.
        for seed in Self.commonSeeds + [Self.seeds[0], Self.seeds[1], Self.seeds[2]] {
            let (common, general) = HTTP1RequestHead.parseEach(Array(seed.utf8)[...], maxBodyBytes: 1_000)
            #expect(common != nil, "\(seed.debugDescription)")
            expectSame(common, general, Array(seed.utf8))
            #expect(expectPrefixAgrees(Array(seed.utf8)), "the walk over a prefix gave up on \(seed.debugDescription)")
        }
    }

    @Test(arguments: 0..<8)
    func mutatedHeadsGetTheGeneralAnswer(_ round: Int) {
        var random = SplitMix64(seed: UInt64(round) &* 15_485_863 &+ 11)
        let seeds = Self.commonSeeds + Self.seeds
        for _ in 0..<400 {
            var bytes = Array(seeds[Int(random.next() % UInt64(seeds.count))].utf8)
            switch random.next() % 4 {
            case 0:
                // one to three edits: replaced, inserted or deleted bytes, or a copied run
                HTTP1CodecFuzzTests.mutate(&bytes, upTo: 3, using: Self.edgeBytes, copying: 16, random: &random)
            case 1:
                // one byte replaced in a name, a value or the request line
                let position = Int(random.next() % UInt64(bytes.count))
                bytes[position] = Self.edgeBytes[Int(random.next() % UInt64(Self.edgeBytes.count))]
            case 2:
                // odd whitespace: spaces and tabs inserted anywhere (around colons, at line ends)
                for _ in 0..<(1 + random.next() % 3) {
                    let position = Int(random.next() % UInt64(bytes.count))
                    bytes.insert(random.next() % 2 == 0 ? 0x20 : 0x09, at: position)
                }
            default:
                // a very long run (names, values, targets up to a few KiB) of one byte
                let position = Int(random.next() % UInt64(bytes.count))
                let byte = random.next() % 3 == 0 ? Self.edgeBytes[Int(random.next() % UInt64(Self.edgeBytes.count))] : UInt8(ascii: "a")
                bytes.insert(contentsOf: repeatElement(byte, count: 1 + Int(random.next() % 4_000)), at: position)
            }
            let (common, general) = HTTP1RequestHead.parseEach(bytes[...], maxBodyBytes: 1_000)
            expectSame(common, general, bytes)
            expectSameAnswer(bytes)
            expectPrefixAgrees(bytes)
        }
    }

    @Test(arguments: 0..<4)
    func randomHeadsGetTheGeneralAnswer(_ round: Int) {
        // A request line and fields drawn from edge bytes and pieces of valid heads.
        var random = SplitMix64(seed: UInt64(round) &* 7_919 &+ 5)
        let pieces: [[UInt8]] = ["GET ", "PUT ", "/", "/v1/x", " HTTP/1.1\r\n", " HTTP/1.0\r\n", "Host", ": ", ":",
                                 "h", "Content-Length", "12", "\t", " ", "\r\n", "\r\n\r\n", "X-Y-Z_1", "value"].map { Array($0.utf8) }
        for _ in 0..<500 {
            var bytes: [UInt8] = []
            for _ in 0..<(2 + random.next() % 24) {
                if random.next() % 3 == 0 {
                    bytes.append(Self.edgeBytes[Int(random.next() % UInt64(Self.edgeBytes.count))])
                } else {
                    bytes += pieces[Int(random.next() % UInt64(pieces.count))]
                }
            }
            let (common, general) = HTTP1RequestHead.parseEach(bytes[...], maxBodyBytes: 1_000)
            expectSame(common, general, bytes)
            expectPrefixAgrees(bytes)
        }
    }

    /// The walk over what has arrived of a connection's input (``HTTP1RequestHead/parseCommonPrefix(_:maxBodyBytes:reusing:)``:
    /// a head, then a body and more) answers, when it answers, as the whole-head parse of the
    /// bytes up to the first empty line, and puts the head's end just past it, where the
    /// codec's search for the end puts it. Returns whether it answered.
    @discardableResult
    private func expectPrefixAgrees(_ head: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let input = head + Array("body\r\n\r\nGET / HTTP/1.1\r\n".utf8)
        var reusable = HTTP1RequestHead.Reusable()
        let prefix: Result<(head: HTTP1RequestHead, end: Int), HTTP1RequestError>? = input.withUnsafeBufferPointer { all in
            do throws(HTTP1RequestError) {
                return try HTTP1RequestHead.parseCommonPrefix(all, maxBodyBytes: 1_000, reusing: &reusable).map { .success($0) }
            } catch {
                return .failure(error)
            }
        }
        guard let prefix else { return false }
        let text = String(decoding: head, as: UTF8.self).debugDescription
        guard let end = (4...input.count).first(where: { input[($0 - 4)..<$0] == [0x0D, 0x0A, 0x0D, 0x0A] }) else {
            Issue.record("the walk over a prefix answered without an empty line in \(text)", sourceLocation: sourceLocation)
            return true
        }
        let whole = Result { () throws(HTTP1RequestError) in try HTTP1RequestHead.parse(input[..<end], maxBodyBytes: 1_000) }
        switch (prefix, whole) {
        case (.success(let a), .success(let b)):
            #expect(a.end == end, "\(text)", sourceLocation: sourceLocation)
            #expect(a.head == b, "\(text)", sourceLocation: sourceLocation)
            #expect(a.head.headers.map { [$0.name, $0.value] } == b.headers.map { [$0.name, $0.value] }, "\(text)", sourceLocation: sourceLocation)
        case (.failure(let a), .failure(let b)):
            #expect(a == b, "\(text)", sourceLocation: sourceLocation)
        default:
            Issue.record("the walk over a prefix disagrees on \(text): \(prefix), whole head \(whole)", sourceLocation: sourceLocation)
        }
        return true
    }

    /// When the common walk answers, it answers exactly as the general parser: the same
    /// request line, framing, connection handling and fields byte for byte, or the same error.
    private func expectSame(_ common: Result<HTTP1RequestHead, HTTP1RequestError>?, _ general: Result<HTTP1RequestHead, HTTP1RequestError>,
                            _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        guard let common else { return }
        let text = String(decoding: bytes, as: UTF8.self).debugDescription
        switch (common, general) {
        case (.success(let a), .success(let b)):
            #expect(a == b, "\(text)", sourceLocation: sourceLocation)
            #expect(a.headers.map { [$0.name, $0.value] } == b.headers.map { [$0.name, $0.value] }, "\(text)", sourceLocation: sourceLocation)
        case (.failure(let a), .failure(let b)):
            #expect(a == b, "\(text)", sourceLocation: sourceLocation)
        default:
            Issue.record("the common walk disagrees on \(text): common \(common), general \(general)", sourceLocation: sourceLocation)
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
