import Foundation
import Testing
@testable import LoopbackHTTP
import PushTestSupport

/// The request head limit is 8 KiB, nginx's `large_client_header_buffers` (issue 27; it was
/// 16 KiB, and an APNs JWT is ~200 bytes): HTTP/1.1 answers a larger head 431 and closes;
/// HTTP/2 advertises it as SETTINGS_MAX_HEADER_LIST_SIZE and answers a larger header list
/// 431 on its stream, the connection and its HPACK state intact.
@Suite struct HeaderBlockLimitTests {
    static let limit = HTTPServerConfiguration().maxHeaderBytes

    /// Answers with the length of the request's `x-a` field.
    static let echoLength: HTTPHandler = { request in
        HTTPResponse(status: .ok, body: Array("x-a \(request.headers["x-a"]?.utf8.count ?? -1)".utf8))
    }

    @Test func theDefaultIsEightKibibytesAsNginx() {
        #expect(Self.limit == 8 * 1024)
        #expect(HTTP2Connection(configuration: HTTPServerConfiguration()).maxHeaderListSize == 8 * 1024)
    }

    @Test func http1HeadOverTheLimitIs431AndCloses() async throws {
        try await withServer(handler: Self.echoLength) { server in
            let (over, under) = try await offThread { () throws -> ([UInt8], [UInt8]) in
                let client = try RawClient(port: server.port, timeoutSeconds: 10)
                try client.send("GET / HTTP/1.1\r\nHost: h\r\nx-a: \(String(repeating: "a", count: 9000))\r\n\r\n")
                let over = try client.readToEnd()  // ends: the server closed after its answer
                let second = try RawClient(port: server.port, timeoutSeconds: 10)
                try second.send("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\nx-a: \(String(repeating: "a", count: 7000))\r\n\r\n")
                return (over, try second.readToEnd())
            }
            #expect(over.text.hasPrefix("HTTP/1.1 431 "), "\(over.text.prefix(40))")
            #expect(under.text.hasPrefix("HTTP/1.1 200 ") && under.text.hasSuffix("x-a 7000"))
        }
    }

    /// With both limits at 8 KiB a target over the limit makes a request line that alone
    /// does not fit the head: 414, as nginx, not 431, however the bytes arrive.
    @Test(arguments: [1, 100, 100_000])
    func http1RequestLineOverTheLimitIs414HoweverItArrives(_ pieceSize: Int) {
        var driver = CodecDriver(maxHeaderBytes: Self.limit)
        let head = Array("GET /\(String(repeating: "p", count: 9000)) HTTP/1.1\r\nHost: h\r\n\r\n".utf8)
        #expect(driver.receive(head, inPiecesOf: pieceSize) == [errorWire("414 URI Too Long", "request line exceeds \(Self.limit) bytes"), .close])
    }

    static func isEnd(_ frame: HTTP2Frame, on stream: UInt32) -> Bool {
        guard frame.stream == stream, case .data(_, true, _) = frame.payload else { return false }
        return true
    }

    /// Stream 1 (complete) and stream 3 (still sending a body) carry ~9 KB of fields, each
    /// added to the dynamic table; stream 5 names the last of them by its table index. Both
    /// big ones get 431 (stream 3 then RST_STREAM NO_ERROR), stream 5 is served with the
    /// field intact: the refused blocks were still decoded into the table.
    @Test func http2AdvertisesTheLimitAndAnswers431OnTheStreamKeepingHPACKInStep() async throws {
        try await withServer(handler: Self.echoLength) { server in
            let frames = try await offThread { () throws -> [HTTP2Frame] in
                let client = try RawClient(port: server.port, timeoutSeconds: 10)
                var encoder = HPACKEncoder(indexing: .incrementalIndexing, huffman: false)
                func headers(_ stream: UInt32, _ extra: [(name: String, value: String)], endStream: Bool) -> [UInt8] {
                    var block: [UInt8] = []
                    let fields: [(name: String, value: String)] = [(":method", "GET"), (":scheme", "http"), (":path", "/"), (":authority", "h")]
                    encoder.encode(fields + extra, into: &block)
                    return HTTP2Frame(stream: stream, payload: .headers(block: block, endStream: endStream, endHeaders: true, priority: nil, padding: nil)).bytes
                }
                let big: [(name: String, value: String)] = ["x-b", "x-c", "x-a"].map { ($0, String(repeating: "v", count: 3000)) }
                var bytes = HTTP2Frame.clientPreface + HTTP2Frame(stream: 0, payload: .settings(ack: false, [])).bytes
                bytes += headers(1, big, endStream: true)
                bytes += headers(3, big, endStream: false)
                let indexed = headers(5, [("x-a", String(repeating: "v", count: 3000))], endStream: true)
                #expect(indexed.count < 100, "stream 5 names x-a by its index")
                try client.send(bytes + indexed)
                return SendDeadlineTests.readFrames(client) { frames in frames.contains { Self.isEnd($0, on: 5) } }
            }
            let advertised = frames.compactMap { frame -> UInt32? in
                guard case .settings(false, let settings) = frame.payload else { return nil }
                return settings.first { $0.identifier == HTTP2Frame.Setting.maxHeaderListSize }?.value
            }
            #expect(advertised == [UInt32(8 * 1024)])
            var decoder = HPACKDecoder()
            var status: [UInt32: String] = [:]
            var resets: [UInt32: HTTP2ErrorCode] = [:]
            var body5: [UInt8] = []
            for frame in frames {
                switch frame.payload {
                case .headers(let block, _, _, _, _):
                    status[frame.stream] = (try? decoder.decode(block))?.first { $0.name == ":status" }?.value
                case .rstStream(let code): resets[frame.stream] = code
                case .data(let data, _, _) where frame.stream == 5: body5 += data
                case .goAway: Issue.record("GOAWAY: the connection must stay")
                default: break
                }
            }
            #expect(status == [1: "431", 3: "431", 5: "200"])
            #expect(resets == [3: .noError])
            #expect(body5.text == "x-a 3000")
        }
    }
}
