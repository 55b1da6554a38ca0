/// What a connection's protocol state machine asks the I/O shell to do.
///
/// Protocol parsing is a struct state machine: bytes in, actions out. The
/// server's socket loop performs the actions; codecs never touch a socket, so they are
/// tested with bytes alone.
package enum ConnectionAction: Sendable, Equatable {
    /// Send these bytes to the peer, in order after any earlier writes.
    case write([UInt8])
    /// A complete request: run the handler, then call `respond` or `abandon` with `stream`.
    /// `stream` is the HTTP/2 stream id, or a per-connection sequence number for HTTP/1.1.
    case dispatch(HTTPRequest, stream: UInt32)
    /// Close gracefully once every pending write is flushed.
    case close
    /// Abort the connection now (TCP reset), dropping pending writes.
    case reset
}

/// How busy a connection is, so the shell can apply the right timeout.
package enum ConnectionActivity: Sendable, Equatable {
    /// Nothing in flight: the idle timeout applies.
    case idle
    /// Part of a request (headers or body) has arrived: the slow-request timeout applies.
    case readingRequest
    /// Requests are with the handler or responses are queued: no read timeout applies.
    case awaitingResponse
}

/// One protocol (HTTP/1.1 or HTTP/2) spoken on one connection.
///
/// The shell calls `start` once, then `receive` for every chunk read, `respond` or
/// `abandon` once per dispatched stream (possibly later, after a delay fault), and
/// `peerClosed` when the peer half-closes. Every method appends the actions to perform.
package protocol ConnectionCodec {
    /// The connection is established (for HTTP/2: the preface was recognised; the server's
    /// SETTINGS frame goes out here).
    mutating func start(into actions: inout [ConnectionAction])
    /// Bytes arrived from the peer.
    mutating func receive(_ bytes: UnsafeRawBufferPointer, into actions: inout [ConnectionAction])
    /// The handler's answer for a dispatched stream. `response.disposition` has already
    /// been applied by the shell (a delay elapsed); the codec writes the response.
    mutating func respond(_ response: HTTPResponse, stream: UInt32, into actions: inout [ConnectionAction])
    /// The handler's answer is not written: `disposition` is `.reset`, `.loseResponse`
    /// or `.goAway`; `.hang` is never passed (the shell simply never answers).
    mutating func abandon(stream: UInt32, disposition: ResponseDisposition, into actions: inout [ConnectionAction])
    /// The peer closed its side (read returned 0).
    mutating func peerClosed(into actions: inout [ConnectionAction])
    /// The server is stopping: finish in-flight responses, refuse new requests
    /// (HTTP/2: GOAWAY with NO_ERROR), then close.
    mutating func shutdown(into actions: inout [ConnectionAction])
    /// What the connection is doing now, for timeouts.
    var activity: ConnectionActivity { get }
}
