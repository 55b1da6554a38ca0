import Testing
@testable import LoopbackHTTP

/// A response head is composed in temporary memory, on the stack for a usual head and on the
/// heap for one with a field too large for it: the same bytes either way (framing fields
/// dropped, values sanitised, the server's framing fields last).
@Suite struct HTTP1ResponseHeadTests {
    private func wire(_ response: HTTPResponse, minorVersion: Int = 1, closing: Bool = false) -> String {
        String(decoding: HTTP1ResponseWriter.serialize(response, headRequest: false, minorVersion: minorVersion, closing: closing), as: UTF8.self)
    }

    private func expected(_ statusLine: String, _ fields: [(String, String)], length: Int?, connection: String?, body: String) -> String {
        var text = "HTTP/1.1 \(statusLine)\r\n"
        for (name, value) in fields { text += "\(name): \(value)\r\n" }
        if let length { text += "content-length: \(length)\r\n" }
        if let connection { text += "connection: \(connection)\r\n" }
        return text + "\r\n" + body
    }

    @Test(arguments: [10, 3_000])
    func aHeadOnTheStackOrPieceByPieceHasTheSameBytes(_ valueLength: Int) {
        let long = String(repeating: "v", count: valueLength)
        let response = HTTPResponse(
            status: HTTPStatus(code: 299, reasonPhrase: "Odd\r\nReason"),
            headers: ["x-long": long, "Transfer-Encoding": "chunked", "x-split": "a\r\nb\u{0}c", "bad name": "x", "": "y"],
            body: Array("body".utf8))
        let fields = [("x-long", long), ("x-split", "a  b c")]
        #expect(wire(response) == expected("299 Odd  Reason", fields, length: 4, connection: nil, body: "body"))
        #expect(wire(response, closing: true) == expected("299 Odd  Reason", fields, length: 4, connection: "close", body: "body"))
        #expect(wire(response, minorVersion: 0) == expected("299 Odd  Reason", fields, length: 4, connection: "keep-alive", body: "body"))
    }

    @Test func noContentAndNotModifiedHaveNoLengthAndNoBody() {
        #expect(wire(HTTPResponse(status: .noContent, body: Array("x".utf8))) == "HTTP/1.1 204 No Content\r\n\r\n")
        #expect(wire(HTTPResponse(status: HTTPStatus(code: 304, reasonPhrase: "Not Modified"))) == "HTTP/1.1 304 Not Modified\r\n\r\n")
    }

    /// The fixed head a plain 204 takes is the one the general path composes, and a 204 that
    /// differs in any way (reason, fields, closing, HTTP/1.0) still goes the general way.
    @Test func aPlainNoContentTakesTheGeneralPathsBytes() {
        var general: [UInt8] = []
        HTTP1ResponseWriter.appendHead(.noContent, [:], contentLength: nil, closing: false, minorVersion: 1, to: &general)
        #expect(HTTP1ResponseWriter.noContentHead == general)
        #expect(wire(HTTPResponse(status: .noContent)) == String(decoding: general, as: UTF8.self))
        #expect(wire(HTTPResponse(status: HTTPStatus(code: 204, reasonPhrase: "Done"))) == "HTTP/1.1 204 Done\r\n\r\n")
        #expect(wire(HTTPResponse(status: .noContent, headers: ["x-a": "1"])) == "HTTP/1.1 204 No Content\r\nx-a: 1\r\n\r\n")
        #expect(wire(HTTPResponse(status: .noContent), closing: true) == "HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n")
        #expect(wire(HTTPResponse(status: .noContent), minorVersion: 0) == "HTTP/1.1 204 No Content\r\nconnection: keep-alive\r\n\r\n")
    }

    @Test(arguments: [0, 7, 10, 99, 100, 12_345])
    func theLengthIsWrittenInDecimal(_ length: Int) {
        let body = [UInt8](repeating: 0x61, count: length)
        #expect(wire(HTTPResponse(status: .ok, body: body)) == "HTTP/1.1 200 OK\r\ncontent-length: \(length)\r\n\r\n" + String(decoding: body, as: UTF8.self))
    }
}
