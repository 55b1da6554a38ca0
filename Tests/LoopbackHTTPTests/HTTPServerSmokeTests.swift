import Testing
@testable import LoopbackHTTP
import PushTestSupport

@Suite struct HTTPServerSmokeTests {
    @Test func answersARequestOverARawSocket() throws {
        let server = try HTTPServer.start { request in
            HTTPResponse(status: .ok, headers: ["content-type": "text/plain"], body: Array("hello \(request.path)".utf8))
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send("GET /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        let reply = try client.readToEnd()
        #expect(reply.text == "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 8\r\nconnection: close\r\n\r\nhello /x")
    }
}
