/// Serialises HTTP/1.1 responses: status line, the handler's fields, then the framing
/// fields the server owns (`content-length`, `connection`), then the body.
///
/// The server owns framing: a handler's own `Content-Length`, `Transfer-Encoding` and
/// `Connection` fields are dropped, and CR, LF and NUL in a handler's values become
/// spaces, so a fake echoing client input cannot split a response.
package enum HTTP1ResponseWriter {
    /// The interim response sent before reading a body announced with `Expect: 100-continue`.
    package static let continueResponse: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// The wire bytes of `response`.
    ///
    /// - Parameters:
    ///   - headRequest: the request was HEAD: headers (with the GET's length) but no body.
    ///   - minorVersion: the request's HTTP minor version; a kept-alive HTTP/1.0 connection
    ///     gets `connection: keep-alive`.
    ///   - closing: the connection closes after this response: adds `connection: close`.
    package static func serialize(_ response: HTTPResponse, headRequest: Bool, minorVersion: Int, closing: Bool) -> [UInt8] {
        var out: [UInt8] = []
        serialize(response, headRequest: headRequest, minorVersion: minorVersion, closing: closing, into: &out)
        return out
    }

    /// Appends the wire bytes of `response` to `out` (a buffer reused from one response to
    /// the next); see ``serialize(_:headRequest:minorVersion:closing:)``.
    package static func serialize(_ response: HTTPResponse, headRequest: Bool, minorVersion: Int, closing: Bool, into out: inout [UInt8]) {
        if response.status.code == 204, minorVersion == 1, !closing, response.headers.isEmpty,
           response.status.reasonPhrase == HTTPStatus.noContent.reasonPhrase {
            // The most common answer of a fake (an accepted registration, report or push
            // record): its whole head is fixed.
            out.append(contentsOf: noContentHead)
            return
        }
        let status = finalStatus(response.status)
        let bodyAllowed = status.code != 204 && status.code != 304
        out.reserveCapacity(out.count + 96 + response.body.count + response.headers.count * 48)
        appendHead(status, response.headers, contentLength: bodyAllowed ? response.body.count : nil,
                   closing: closing, minorVersion: minorVersion, to: &out)
        if bodyAllowed && !headRequest {
            out.append(contentsOf: response.body)
        }
    }

    /// The head of a streamed response (``ResponseDisposition/stream(_:)``): its status and
    /// fields, `transfer-encoding: chunked` when `chunked` (HTTP/1.1; an HTTP/1.0 client
    /// reads to the close), and `connection: close`. The body follows as the producer offers it.
    package static func serializeStreamHead(_ response: HTTPResponse, chunked: Bool, into out: inout [UInt8]) {
        appendHead(finalStatus(response.status), response.headers, contentLength: nil, chunked: chunked,
                   closing: true, minorVersion: 1, to: &out)
    }

    /// One chunk of a chunked body: its size in hex, CRLF, the bytes, CRLF.
    package static func appendChunk(_ bytes: [UInt8], to out: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        out.append(contentsOf: Array(String(bytes.count, radix: 16).utf8))
        out.append(contentsOf: crlf)
        out.append(contentsOf: bytes)
        out.append(contentsOf: crlf)
    }

    /// The last chunk of a chunked body, with no trailers.
    package static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)

    /// An interim or nonsense code as a final answer would leave the client waiting: 500.
    @inline(__always)
    private static func finalStatus(_ status: HTTPStatus) -> HTTPStatus {
        status.code < 200 || status.code > 999 ? .internalServerError : status
    }

    /// The response for a refused request: its status, a one-line plain-text reason, and
    /// `connection: close` (the framing can no longer be trusted).
    package static func errorResponse(_ error: HTTP1RequestError) -> [UInt8] {
        var headers: HTTPFields = ["content-type": "text/plain; charset=utf-8"]
        if error.status == .methodNotAllowed {
            headers.append(name: "allow", value: HTTP1Codec.allowedMethodsList)
        }
        let response = HTTPResponse(status: error.status, headers: headers, body: Array((error.detail + "\n").utf8))
        return serialize(response, headRequest: false, minorVersion: 1, closing: true)
    }

    private static let crlf: [UInt8] = [ASCII.cr, ASCII.lf]

    /// A 204 to a kept-alive HTTP/1.1 request with no fields, as ``appendHead(_:_:contentLength:chunked:closing:minorVersion:to:)`` writes it.
    static let noContentHead: [UInt8] = Array("HTTP/1.1 204 No Content\r\n\r\n".utf8)

    /// `content-length`, `transfer-encoding` or `connection`, in any ASCII case: the server's own.
    static func isFramingField(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        switch name.count {
        case 10: return equalsLowercase(name, "connection")
        case 14: return equalsLowercase(name, "content-length")
        case 17: return equalsLowercase(name, "transfer-encoding")
        default: return false
        }
    }
}
