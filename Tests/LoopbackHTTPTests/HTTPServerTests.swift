@testable import PushCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import LoopbackHTTP
import PushTestSupport

@Suite struct HTTPServerTests {
    @Test func urlSessionGetAndPutWithBody() async throws {
        let received = Locked<[HTTPRequest]>([])
        try await withServer(handler: { request in
            received.withLock { $0.append(request) }
            return echoHandler(request)
        }) { server in
            let session = makeSession()
            let (getData, getResponse) = try await session.data(from: url(server, "/v1/things?x=1"))
            #expect((getResponse as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: getData, as: UTF8.self) == "GET /v1/things?x=1 0")

            var put = URLRequest(url: url(server, "/v1/devices/abcd"))
            put.httpMethod = "PUT"
            put.setValue("application/json", forHTTPHeaderField: "Content-Type")
            put.httpBody = Data(#"{"platform":"ios"}"#.utf8)
            let (putData, putResponse) = try await session.data(for: put)
            #expect((putResponse as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: putData, as: UTF8.self) == "PUT /v1/devices/abcd 18")
            let last = received.snapshot.last
            #expect(last?.body == Array(#"{"platform":"ios"}"#.utf8))
            #expect(last?.headers["content-type"] == "application/json")
            #expect(last?.authority == "127.0.0.1:\(server.port)")
            session.invalidateAndCancel()
        }
    }

    @Test func keepAliveReusesOneConnection() async throws {
        try await withServer(handler: { request in
            HTTPResponse(status: .ok, body: Array("conn \(request.connectionID)".utf8))
        }) { server in
            let client = try RawClient(port: server.port)
            var replies: [String] = []
            for _ in 0..<3 {
                try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
                let reply = try client.read { $0.text.hasSuffix("conn 1") }
                replies.append(reply.text)
            }
            #expect(replies == Array(repeating: "HTTP/1.1 200 OK\r\ncontent-length: 6\r\n\r\nconn 1", count: 3))
            #expect(server.acceptedConnectionCount == 1)
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await withServer(handler: echoHandler) { server in
            let client = try RawClient(port: server.port)
            try client.send("GET /a HTTP/1.1\r\nHost: h\r\n\r\nPOST /b HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nxyzGET /c HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
            let reply = try client.readToEnd()
            #expect(reply.text == "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 8\r\n\r\nGET /a 0"
                + "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 9\r\n\r\nPOST /b 3"
                + "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 8\r\nconnection: close\r\n\r\nGET /c 0")
        }
    }

    @Test func chunkedUploadIsReassembled() async throws {
        let bodies = Locked<[[UInt8]]>([])
        try await withServer(handler: { request in
            bodies.withLock { $0.append(request.body) }
            return HTTPResponse(status: .noContent)
        }) { server in
            let client = try RawClient(port: server.port)
            try client.send("PUT /up HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nabcd\r\n")
            try client.send("3;ext=1\r\nefg\r\n0\r\nTrailer-A: 1\r\n\r\n")
            let reply = try client.read { $0.text.hasSuffix("\r\n\r\n") }
            #expect(reply.text == "HTTP/1.1 204 No Content\r\n\r\n")
            #expect(bodies.snapshot == [Array("abcdefg".utf8)])
        }
    }

    @Test func expectContinueIsAnsweredBeforeTheBodyIsSent() async throws {
        try await withServer(handler: echoHandler) { server in
            let client = try RawClient(port: server.port)
            try client.send("PUT /e HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
            let interim = try client.read { $0.text.hasSuffix("\r\n\r\n") }
            #expect(interim.text == "HTTP/1.1 100 Continue\r\n\r\n")
            try client.send("body")
            let reply = try client.read { $0.text.hasSuffix("PUT /e 4") }
            #expect(reply.text == "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 8\r\n\r\nPUT /e 4")
        }
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        var name: String
        var request: String
        var status: Int
        var testDescription: String { name }
    }

    @Test(arguments: [
        Refusal(name: "431 header block", request: "GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "a", count: 17_000) + "\r\n\r\n", status: 431),
        Refusal(name: "413 body", request: "PUT / HTTP/1.1\r\nHost: h\r\nContent-Length: 2000000\r\n\r\n", status: 413),
        Refusal(name: "400 no colon", request: "GET / HTTP/1.1\r\nHost: h\r\nBroken header\r\n\r\n", status: 400),
        Refusal(name: "405 method", request: "TRACE / HTTP/1.1\r\nHost: h\r\n\r\n", status: 405),
        // One token, not METHOD SP TARGET SP VERSION: a 400. (Three tokens whose last is not
        // HTTP/<digit>.<digit> close without a response; see HTTPServerRobustnessTests.)
        Refusal(name: "400 garbage", request: "\u{1}\u{2}\u{3}garbage\u{7f}\r\n\r\n", status: 400),
    ])
    func refusalThenCleanClose(_ refusal: Refusal) async throws {
        let calls = Locked(0)
        try await withServer(handler: { request in
            calls.withLock { $0 += 1 }
            return echoHandler(request)
        }) { server in
            let client = try RawClient(port: server.port)
            try client.send(refusal.request)
            let reply = try client.readToEnd()  // ends in EOF: the server closed cleanly
            #expect(statusCode(reply) == refusal.status)
            #expect(reply.text.contains("\r\nconnection: close\r\n"))
            #expect(calls.snapshot == 0)
            // The server is unharmed.
            let next = try RawClient(port: server.port)
            try next.send("GET /after HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
            #expect(try next.readToEnd().text.hasSuffix("GET /after 0"))
        }
    }

    @Test func http2PrefaceIsRefusedWithGoAwayWhenHTTP2IsDisabled() async throws {
        try await withServer({ $0.http2.enabled = false }, handler: echoHandler) { server in
            let client = try RawClient(port: server.port)
            try client.send(ProtocolSniffer.http2Preface)
            let reply = try client.readToEnd()
            #expect(reply == [0, 0, 0, 4, 0, 0, 0, 0, 0] + [0, 0, 8, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0d])
        }
    }

    @Test func requestStartingLikeThePrefaceButDifferingIsHTTP1() {
        #expect(ProtocolSniffer.verdict(for: Array("PRI".utf8)) == nil)
        #expect(ProtocolSniffer.verdict(for: Array("PRX".utf8)) == .http1)
        #expect(ProtocolSniffer.verdict(for: Array("GET".utf8)) == .http1)
        #expect(ProtocolSniffer.verdict(for: ProtocolSniffer.http2Preface) == .http2)
    }
}
