@testable import PushCore
import Testing
@testable import LoopbackHTTP

/// Mutated and random input never traps the codec, and every outcome is well-formed:
/// a dispatch, a write followed by close, or a wait for more bytes.
@Suite struct HTTP1CodecFuzzTests {
    static let seeds: [[UInt8]] = [
        Array("GET /a?b=c HTTP/1.1\r\nHost: h\r\nAccept: */*\r\n\r\n".utf8),
        Array("PUT /v1/devices/ab HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\nhello".utf8),
        Array("POST /p HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n0\r\nT: 1\r\n\r\n".utf8),
        Array("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /2 HTTP/1.1\r\nHost: h\r\n\r\n".utf8),
    ]

    static let interesting: [UInt8] = Array("\r\n :;0123456789abcdefABCDEF\u{0}\u{7f}\t/HTTP-".utf8) + [0x80, 0xff]

    /// Applies 1 to `maxEdits` random edits: a byte replaced by, or inserted from,
    /// `interesting`; a byte removed; or up to `copying` bytes repeated in place.
    static func mutate(_ bytes: inout [UInt8], upTo maxEdits: Int, using interesting: [UInt8], copying: Int,
                       random: inout SplitMix64) {
        for _ in 0..<(1 + Int(random.next() % UInt64(maxEdits))) {
            guard !bytes.isEmpty else { break }
            let position = Int(random.next() % UInt64(bytes.count))
            let replacement = interesting[Int(random.next() % UInt64(interesting.count))]
            switch random.next() % 4 {
            case 0: bytes[position] = replacement
            case 1: bytes.insert(replacement, at: position)
            case 2: bytes.remove(at: position)
            default: bytes.insert(contentsOf: bytes[position...].prefix(copying), at: position)
            }
        }
    }

    @Test(arguments: 0..<8)
    func mutatedRequestsNeverTrap(_ round: Int) {
        var random = SplitMix64(seed: UInt64(round) &* 7919 &+ 1)
        for _ in 0..<400 {
            var bytes = Self.seeds[Int(random.next() % UInt64(Self.seeds.count))]
            Self.mutate(&bytes, upTo: 6, using: Self.interesting, copying: 8, random: &random)
            var driver = CodecDriver(maxHeaderBytes: 256, maxBodyBytes: 64)
            var offset = 0
            var all: [ConnectionAction] = []
            while offset < bytes.count {
                let size = 1 + Int(random.next() % 16)
                let end = min(bytes.count, offset + size)
                let actions = driver.receive(Array(bytes[offset..<end]))
                all += actions
                offset = end
                for action in actions {
                    if case .dispatch(_, let stream) = action {
                        all += driver.respond(HTTPResponse(status: .ok), stream: stream)
                    }
                }
            }
            if let closeIndex = all.firstIndex(of: .close) {
                #expect(closeIndex == all.count - 1, "nothing follows a close")
            }
            for action in all {
                if case .write(let wire) = action {
                    #expect(wire.starts(with: Array("HTTP/1.1 ".utf8)))
                }
            }
        }
    }

    @Test func randomBytesGetA400OrWait() {
        var random = SplitMix64(seed: 42)
        for _ in 0..<500 {
            let bytes = (0..<Int(random.next() % 300)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            var driver = CodecDriver(maxHeaderBytes: 256)
            let actions = driver.receive(bytes)
            #expect(actions.isEmpty || actions.last == .close)
            #expect(!actions.contains { if case .dispatch = $0 { return true } else { return false } })
        }
    }

    @Test func absoluteFormAndAsteriskTargets() {
        var absolute = CodecDriver()
        #expect(absolute.receive("GET http://example.com:8080/x?y=1 HTTP/1.1\r\nHost: other\r\n\r\n") == [
            .dispatch(HTTPRequest(method: "GET", path: "/x?y=1", authority: "example.com:8080",
                                  headers: ["Host": "other"], connectionID: 7), stream: 1),
        ])
        var asterisk = CodecDriver()
        #expect(asterisk.receive("OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n") == [
            .dispatch(HTTPRequest(method: "OPTIONS", path: "*", authority: "h", headers: ["Host": "h"], connectionID: 7), stream: 1),
        ])
    }
}
