/// What a handler answers: a response, and how the transport should deliver it.
///
/// `disposition` is how a fake scripts a bad day at the transport level without
/// knowing sockets: the handler has already applied the request's effect, and the
/// transport then delays, withholds or destroys the answer.
package struct HTTPResponse: Sendable, Hashable {
    package var status: HTTPStatus
    package var headers: HTTPFields
    package var body: [UInt8]
    package var disposition: ResponseDisposition
    /// HTTP/2: raise the connection's starting SETTINGS_MAX_CONCURRENT_STREAMS
    /// (``HTTP2Configuration/startingMaxConcurrentStreams``) to its full limit once this
    /// response is written (or abandoned); ignored elsewhere.
    package var liftsStreamLimit = false

    package init(
        status: HTTPStatus,
        headers: HTTPFields = HTTPFields(),
        body: [UInt8] = [],
        disposition: ResponseDisposition = .send
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.disposition = disposition
    }
}

/// How the transport delivers a handler's response.
package enum ResponseDisposition: Sendable, Hashable {
    /// Write the response now.
    case send
    /// Write the response after this many milliseconds (the connection stays usable meanwhile
    /// for HTTP/2; for HTTP/1.1 later pipelined requests wait, as they must).
    case delay(milliseconds: Int)
    /// Accept and never answer: the client sees a timeout. The request (or HTTP/2 stream)
    /// stays open until the client gives up or the server stops.
    case hang
    /// Abort: a TCP reset for HTTP/1.1, `RST_STREAM` (CANCEL) for the stream on HTTP/2.
    case reset
    /// The effect was applied but the answer is lost: the connection closes (HTTP/1.1)
    /// or the stream is reset (HTTP/2) without a response being written.
    case loseResponse
    /// HTTP/2: send `GOAWAY` now with this debug payload (e.g. APNs' `{"reason":"Shutdown"}`)
    /// after writing nothing for this stream. HTTP/1.1: the response is written with
    /// `Connection: close` and the connection closes.
    case goAway(debugData: [UInt8])
    /// HTTP/1.1: write the status and headers now, then the body as the producer offers it
    /// to `stream` (chunked, then the connection closes; see ``ResponseStream``). The
    /// response's own `body` is ignored. HTTP/2: refused with 505 naming HTTP/1.1.
    case stream(ResponseStream)
}

/// A fake's logic: one request in, one response out. Runs on the server's event loop,
/// so it must not block; waiting belongs in `ResponseDisposition.delay`.
package typealias HTTPHandler = @Sendable (HTTPRequest) -> HTTPResponse

extension HTTPResponse {
    /// The server's own answer to a body over `maxBodyBytes` when the handler does not take
    /// such requests: 413, plain text.
    static func bodyLimitExceeded(_ limit: Int) -> HTTPResponse {
        HTTPResponse(status: .contentTooLarge, headers: ["content-type": "text/plain; charset=utf-8"],
                     body: Array("request body exceeds \(limit) bytes\n".utf8))
    }
}
