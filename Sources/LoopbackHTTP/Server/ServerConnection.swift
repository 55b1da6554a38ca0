/// One accepted connection as the loop thread sees it: socket, codec, output buffer and
/// timeout bookkeeping. Owned and touched only by its server's loop thread.
final class ServerConnection {
    let fd: Int32
    let id: UInt64
    var codec: AnyConnectionCodec
    /// Bytes waiting to be written start at `outputStart`.
    var output: [UInt8] = []
    var outputStart = 0
    /// What the poller currently watches for.
    var interest: PollInterest = .none
    /// The peer closed its side (read returned 0).
    var readEOF = false
    /// Reading paused because too much output is unwritten (backpressure).
    var readPaused = false
    /// Actions held back while the peer is not reading our output (backpressure).
    var deferredActions: [ConnectionAction] = []
    /// The codec asked to close: close once `output` is flushed.
    var closeWhenFlushed = false
    /// Our side is shut down; reading and discarding until the peer closes or time runs out.
    var lingering = false
    var discardedWhileLingering = 0
    /// When the current timeout (idle, request, linger) expires; nil while a response is awaited.
    var deadline: UInt64?
    /// The earliest check already queued in the timer heap for this connection.
    var scheduledCheck: UInt64?
    /// The activity when the deadline was last set, so a deadline only restarts on a change.
    var lastActivity: ConnectionActivity = .idle
    /// Bytes were read or written since the deadline was last set: the idle timeout restarts.
    var movedBytes = false
    /// A request was completed (dispatched) since the deadline was last set: the request
    /// timeout of a connection that is still reading others (HTTP/2 multiplexing) restarts.
    var completedRequest = false
    /// Requests the handler answered with `.hang`, and delayed responses not yet sent.
    var hungStreams = 0
    /// The loop turn in which it was accepted.
    var acceptedInTurn: UInt64 = 0
    /// The loop turn of its last byte read or written: under connection pressure the
    /// connection idle the longest is closed first.
    var lastTrafficTurn: UInt64 = 0
    var pendingDelays = 0
    /// When unwritten output last made progress (became pending, or a write took some):
    /// output stuck for the request timeout ends the connection (the send deadline).
    var lastWriteProgress: UInt64 = 0
    /// The send deadline in force: unwritten output, or an HTTP/2 response stalled on
    /// flow control, that makes no progress until then.
    var sendDeadline: UInt64?
    /// HTTP/1.1 body octets charged to the server's ``RequestBodyBudget``.
    var chargedBodyBytes = 0

    init(fd: Int32, id: UInt64, configuration: HTTPServerConfiguration) {
        self.fd = fd
        self.id = id
        codec = AnyConnectionCodec(configuration: configuration, connectionID: id)
    }

    var pendingOutput: Int { output.count - outputStart }

    func enqueue(_ bytes: [UInt8]) {
        if outputStart == output.count {
            lastWriteProgress = TimerQueue<Never>.now
            output = bytes
            outputStart = 0
        } else {
            output.append(contentsOf: bytes)
        }
    }
}
