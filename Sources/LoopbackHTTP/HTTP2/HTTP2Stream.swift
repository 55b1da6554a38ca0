/// One client-initiated stream's state on the server side (RFC 9113 §5.1).
///
/// Only streams that are open or half-closed are stored; a closed stream is removed.
struct HTTP2Stream: Sendable {
    enum State: Sendable, Equatable {
        /// `open`: request headers arrived, body still arriving.
        case receiving
        /// `half-closed (remote)`: the request is complete and with the handler.
        case awaitingResponse
        /// `half-closed (remote)`: response HEADERS sent, DATA queued behind flow control.
        case sending
    }

    var state: State = .receiving
    var method = ""
    var path = ""
    var authority: String?
    var headers = HTTPFields()
    var body: [UInt8] = []
    /// The request's `content-length`, checked against the DATA received (§8.1.1).
    var contentLength: Int?
    /// How much more DATA we may send (the peer's window for this stream).
    var sendWindow: Int
    /// How much more DATA the peer may send before we credit it.
    var receiveWindow: Int
    /// DATA octets received and buffered but not yet credited with WINDOW_UPDATE.
    var uncreditedBytes = 0
    /// DATA octets (padding included) buffered in `body` and not yet credited to the
    /// connection window: credited once the body reaches the handler or is dropped.
    var heldConnectionCredit = 0
    /// When the queued response last made progress (queued, or DATA sent), in monotonic
    /// nanoseconds: a stream stalled on a window that never opens is reset after the
    /// request timeout (the send deadline).
    var lastSendProgress: UInt64 = 0
    /// Response body not yet sent, from `pendingOffset`.
    var pendingData: [UInt8] = []
    var pendingOffset = 0
    /// The body went over `maxBodyBytes` while the client was still sending: its DATA is
    /// credited and dropped until END_STREAM, also after the answer (RFC 9113 §8.1 allows a
    /// complete response before the complete request). Clients such as curl 7.88 and httpx
    /// lose the answer when the stream is reset instead.
    var discardingBody = false
    /// The answer is written; the stream stays only to drop the rest of the upload.
    var answered = false
    /// DATA octets dropped so far; past ``HTTP2Connection/maxDiscardedBodyBytes`` the
    /// stream is reset (CANCEL), so an endless upload costs nothing but that reset.
    var discardedBytes = 0

    init(sendWindow: Int, receiveWindow: Int) {
        self.sendWindow = sendWindow
        self.receiveWindow = receiveWindow
    }
}
