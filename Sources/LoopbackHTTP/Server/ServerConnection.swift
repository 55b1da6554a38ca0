/// One accepted connection as the loop thread sees it: socket, TLS stage, codec, output
/// buffer and timeout bookkeeping. Owned and touched only by its server's loop thread.
///
/// Bytes flow socket → `tls` (when the server has an identity) → `codec`, and back: every
/// call that gives the codec a chance to act goes through this type's methods (or, reading,
/// through ``TLSStage/receive(_:codec:into:)``), which pass the codec's actions through the
/// TLS stage. On a plain port `tls` is nil and that is one check per call.
///
/// Its state is read and written many times per request, and only ever from the loop thread,
/// in calls that never overlap an access to the same property: the stored properties opt out
/// of the runtime's dynamic exclusivity checks (`@exclusivity(unchecked)`), which cost
/// more per request than the HTTP/1.1 parser.
final class ServerConnection {
    let fd: Int32
    let id: UInt64
    /// The HTTP protocol: plaintext in, actions out.
    @exclusivity(unchecked) var codec: AnyConnectionCodec
    /// TLS between the socket and `codec`; nil on a plain port.
    @exclusivity(unchecked) var tls: TLSStage?
    /// `tls != nil`, fixed at creation: tested on every request without touching `tls`.
    let isTLS: Bool
    /// Bytes waiting to be written start at `outputStart`.
    @exclusivity(unchecked) var output: [UInt8] = []
    @exclusivity(unchecked) var outputStart = 0
    /// What the poller currently watches for.
    @exclusivity(unchecked) var interest: PollInterest = .none
    /// Reading paused because too much output is unwritten (backpressure).
    @exclusivity(unchecked) var readPaused = false
    /// The loop turn of the last read, and whether that read left something an edge-triggered
    /// poller does not report again (it filled the loop's read buffer, or stopped at a
    /// reported end): the connection is then listed in ``ServerLoop/unreadLeft``.
    @exclusivity(unchecked) var lastReadTurn: UInt64 = 0
    @exclusivity(unchecked) var hasUnreadBytes = false
    /// The poller reported the peer's end, a hang-up or an error (``PollEvent/endReported``):
    /// reads go on until one returns 0 or fails, since no later report comes.
    @exclusivity(unchecked) var endReported = false
    /// Actions held back while the peer is not reading our output (backpressure).
    @exclusivity(unchecked) var deferredActions: [ConnectionAction] = []
    /// Open, closing once its output is flushed, or lingering until the peer closes.
    @exclusivity(unchecked) var lifecycle: Lifecycle = .open(peerClosed: false)
    /// When the current timeout (idle, request, linger) expires; nil while a response is awaited.
    @exclusivity(unchecked) var deadline: UInt64?
    /// The earliest check already queued in the timer heap for this connection.
    @exclusivity(unchecked) var scheduledCheck: UInt64?
    /// The activity when the deadline was last set, so a deadline only restarts on a change.
    @exclusivity(unchecked) var lastActivity: ConnectionActivity = .idle
    /// Bytes were read or written since the deadline was last set: the idle timeout restarts.
    @exclusivity(unchecked) var movedBytes = false
    /// A request was completed (dispatched) since the deadline was last set: the request
    /// timeout of a connection that is still reading others (HTTP/2 multiplexing) restarts.
    @exclusivity(unchecked) var completedRequest = false
    /// Requests the handler answered with `.hang`, and delayed responses not yet sent.
    @exclusivity(unchecked) var hungStreams = 0
    /// The loop turn in which it was accepted.
    @exclusivity(unchecked) var acceptedInTurn: UInt64 = 0
    /// The loop turn of the last dispatch and how many requests were dispatched in it
    /// (``HTTPServerConfiguration/maxDispatchesPerTurn``).
    @exclusivity(unchecked) var dispatchTurn: UInt64 = 0
    @exclusivity(unchecked) var dispatchesInTurn = 0
    /// Requests wait in `deferredActions` for the next turn (queued in the loop's list).
    @exclusivity(unchecked) var awaitingNextTurn = false
    /// The loop turn of its last byte read or written: under connection pressure the
    /// connection idle the longest is closed first.
    @exclusivity(unchecked) var lastTrafficTurn: UInt64 = 0
    @exclusivity(unchecked) var pendingDelays = 0
    /// When unwritten output last made progress (became pending, or a write took some):
    /// output stuck for the request timeout ends the connection (the send deadline).
    @exclusivity(unchecked) var lastWriteProgress: UInt64 = 0
    /// The send deadline in force: unwritten output, or an HTTP/2 response stalled on
    /// flow control, that makes no progress until then.
    @exclusivity(unchecked) var sendDeadline: UInt64?
    /// HTTP/1.1 body octets charged to the server's ``RequestBodyBudget``.
    @exclusivity(unchecked) var chargedBodyBytes = 0
    /// Held output charged to the server's ``HeldOutputBudget``.
    @exclusivity(unchecked) var chargedOutputBytes = 0
    /// HTTP/2: the budget reset a stream of it when the peer had opened window this many
    /// times; new requests are refused until it opens window again. nil: not marked.
    @exclusivity(unchecked) var budgetStalledAtGrants: Int?
    /// HTTP/1.1: the body being streamed (``ResponseDisposition/stream(_:)``); nil otherwise.
    @exclusivity(unchecked) var responseStream: StreamedBody?

    init(fd: Int32, id: UInt64, configuration: HTTPServerConfiguration) {
        self.fd = fd
        self.id = id
        codec = AnyConnectionCodec(configuration: configuration, connectionID: id)
        if let identity = configuration.tls {
            tls = TLSStage(identity: identity, offersHTTP2: configuration.http2.enabled)
        }
        isTLS = tls != nil
    }

    /// Where a connection is in its life. Once closing, nothing more is dispatched or
    /// written but what is already in `output`, and input is read only to be dropped
    /// (`discarded` counts it, against a bound).
    enum Lifecycle: Equatable {
        /// Reading requests and writing responses. `peerClosed`: the peer closed its side
        /// (read returned 0); responses still owed are written.
        case open(peerClosed: Bool)
        /// The codec asked to close: close once `output` is flushed.
        case closing(peerClosed: Bool, discarded: Int)
        /// Our side is shut down (output flushed); reading and discarding until the peer
        /// closes or the linger time runs out.
        case lingering(discarded: Int)
    }

    /// The peer closed its side (read returned 0).
    var readEOF: Bool {
        switch lifecycle {
        case .open(let peerClosed), .closing(let peerClosed, _): peerClosed
        case .lingering: false
        }
    }
    /// The codec asked to close (the connection is closing or lingering).
    var closeWhenFlushed: Bool {
        if case .open = lifecycle { return false }
        return true
    }
    /// Our side is shut down; the connection waits for the peer to close.
    var lingering: Bool {
        if case .lingering = lifecycle { return true }
        return false
    }

    /// Bytes to write: the output not yet written and, on a TLS connection, the codec's
    /// writes its stage holds until the next flush seals them (``sealHeldOutput()``).
    var pendingOutput: Int { output.count - outputStart + (isTLS ? tls?.heldBytes ?? 0 : 0) }

    /// Seals what the TLS stage holds onto the end of the output (the loop calls it before
    /// writing): all the codec wrote since the last flush, in as few records as fit.
    func sealHeldOutput() {
        guard isTLS, let held = tls?.heldBytes, held > 0 else { return }
        if outputStart == output.count {
            lastWriteProgress = TimerQueue<Never>.now
            output.removeAll(keepingCapacity: true)
            outputStart = 0
        }
        tls?.sealHeldOutput(into: &output)
    }

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
