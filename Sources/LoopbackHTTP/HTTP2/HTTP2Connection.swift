/// HTTP/2 with prior knowledge (RFC 9113 §3.3) as a byte-in / action-out state machine.
///
/// The shell recognises the client preface, creates the connection and passes every byte
/// it reads, preface included. Requests are read whole (body bounded by
/// `maxBodyBytes`; a bigger one is dispatched at once, marked, and the rest of its DATA
/// credited and dropped) and dispatched with their stream id; the handler's answer comes back
/// through `respond` or `abandon`. Output is never written beyond the peer's flow-control
/// windows: DATA waits in the stream until WINDOW_UPDATE arrives.
///
/// Fault dispositions map to HTTP/2 as follows: `.reset` → RST_STREAM CANCEL, `.loseResponse`
/// → RST_STREAM INTERNAL_ERROR (distinct, so a test can tell them apart), `.goAway(debugData:)`
/// → GOAWAY NO_ERROR with that debug payload naming the last stream opened before this one:
/// streams at or below it are still answered, this one and later ones never are (a client
/// resends them on a new connection); see ``goAway(before:debugData:)``.
///
/// A connection may start with a smaller stream limit until the handler lifts it
/// (``HTTP2Configuration/startingMaxConcurrentStreams``, ``HTTPResponse/liftsStreamLimit``).
package struct HTTP2Connection: ConnectionCodec {
    enum Phase: Sendable, Equatable {
        case awaitingPreface
        case awaitingSettings
        case active
        /// GOAWAY sent: in-flight streams finish, new ones are ignored, then close.
        case draining
        case closed
    }

    /// A header block being received across HEADERS and CONTINUATION frames.
    struct PendingHeaderBlock: Sendable {
        enum Purpose: Sendable {
            case request(endStream: Bool)
            case trailers
            /// Decode only (to keep HPACK in step), then send this stream error if any.
            case discard(HTTP2ProtocolError?)
        }
        var stream: UInt32
        var block: [UInt8]
        var purpose: Purpose
        var frames: Int
    }

    /// The settings in force: the server's ``HTTPServerConfiguration/http2`` with its
    /// connection window raised as ``HTTP2Configuration/connectionWindow(for:)`` says.
    let configuration: HTTP2Configuration
    /// SETTINGS_MAX_HEADER_LIST_SIZE advertised and enforced.
    let maxHeaderListSize: Int
    /// The server's limits shared with HTTP/1.1.
    let maxBodyBytes: Int
    let maxRequestTargetBytes: Int
    let maxRequestsPerConnection: Int
    /// Shared across connections (and servers): body bytes are reserved from it as they are
    /// buffered; when it is spent a stream's body is refused (RST_STREAM REFUSED_STREAM).
    let bodyBudget: RequestBodyBudget
    let connectionID: UInt64
    var phase: Phase = .awaitingPreface
    var frames: HTTP2FrameDecoder
    var decoder: HPACKDecoder
    var encoder = HPACKEncoder()
    var streams: [UInt32: HTTP2Stream] = [:]
    /// Streams with response DATA waiting for window, in the order they started sending.
    var sendQueue: [UInt32] = []
    /// The highest client stream id seen: lower idle ids are implicitly closed (§5.1.1).
    var lastClientStream: UInt32 = 0
    var pendingBlock: PendingHeaderBlock?
    var recentlyReset: Set<UInt32> = []
    var recentlyResetOrder: [UInt32] = []

    // MARK: Peer settings and windows
    var peerMaxFrameSize = 16_384
    var peerInitialWindowSize = 65_535
    var connectionSendWindow = 65_535
    var connectionReceiveWindow = 65_535
    var connectionUncredited = 0
    var settingsAcknowledged = false
    /// SETTINGS_MAX_CONCURRENT_STREAMS as last announced: the starting limit, or the full one.
    package internal(set) var announcedStreamLimit: Int
    /// The highest stream answered so far (a GOAWAY never names a lower one).
    var highestAnswered: UInt32 = 0
    /// The GOAWAY frames this connection sent: last-stream-id, code, debug data.
    package internal(set) var goAwaysSent: [HTTP2GoAwayRecord] = []
    var peerSentGoAway = false
    /// The last stream id named in the GOAWAY we sent while draining; later streams are ignored.
    var drainLastStream: UInt32 = .max
    var controlFrameBudget: Int
    /// Streams ended without a response (Rapid Reset): see ``HTTP2StreamResetBudget``.
    var resetBudget: HTTP2StreamResetBudget
    /// Streams opened for requests, against `maxRequestsPerConnection`.
    var requestsOpened = 0
    /// Request-body octets buffered in `streams`, reserved from `bodyBudget`.
    package internal(set) var bufferedBodyBytes = 0
    /// Times the peer opened send window (WINDOW_UPDATE, a larger SETTINGS_INITIAL_WINDOW_SIZE):
    /// a connection the held-output budget marked stalled is unmarked by the next one.
    package internal(set) var windowGrants = 0

    // MARK: Per-call output
    var output: [UInt8] = []
    var dispatches: [ConnectionAction] = []
    var closeAfterFlush = false
    var resetNow = false

    /// - Parameters:
    ///   - configuration: the server's configuration: its ``HTTPServerConfiguration/http2``
    ///     settings to advertise and enforce, and the request limits shared with HTTP/1.1.
    ///   - connectionID: copied into every `HTTPRequest` from this connection.
    ///   - clientCertified: the TLS client presented a certificate (it may skip the starting
    ///     stream limit, ``HTTP2Configuration/certifiedClientsStartAtFullLimit``).
    package init(configuration server: HTTPServerConfiguration = HTTPServerConfiguration(), connectionID: UInt64 = 0,
                 clientCertified: Bool = false) {
        var configuration = server.http2
        // Not shrunk to the body limit: a client that sends before reading our SETTINGS
        // (httpx does) would see its stream window go negative, and httpcore 1.0.9 then sends
        // empty DATA frames forever. The body limit bounds what a stream buffers; DATA past it
        // is credited and dropped.
        configuration.connectionWindowSize = HTTP2Configuration.connectionWindow(for: server)
        self.configuration = configuration
        maxHeaderListSize = configuration.maxHeaderListSize ?? server.maxHeaderBytes
        maxBodyBytes = server.maxBodyBytes
        maxRequestTargetBytes = server.maxRequestTargetBytes
        maxRequestsPerConnection = server.maxRequestsPerConnection
        bodyBudget = server.requestBodyBudget
        self.connectionID = connectionID
        announcedStreamLimit = Self.startingStreamLimit(configuration, clientCertified: clientCertified)
        frames = HTTP2FrameDecoder(maximumFrameSize: configuration.maxFrameSize)
        decoder = HPACKDecoder(maximumTableSize: configuration.headerTableSize,
                               maximumHeaderListSize: maxHeaderListSize)
        controlFrameBudget = configuration.maxControlFramesBetweenRequests
        resetBudget = HTTP2StreamResetBudget(burst: configuration.streamResetBurst,
                                             refillPerSecond: configuration.streamResetsPerSecond,
                                             now: TimerQueue<Never>.now)
    }

    // MARK: ConnectionCodec

    package mutating func start(into actions: inout [ConnectionAction]) {
        let settings: [HTTP2Frame.Setting] = [
            .init(HTTP2Frame.Setting.maxConcurrentStreams, UInt32(clamping: announcedStreamLimit)),
            .init(HTTP2Frame.Setting.initialWindowSize, UInt32(clamping: configuration.initialWindowSize)),
            .init(HTTP2Frame.Setting.maxFrameSize, UInt32(clamping: configuration.maxFrameSize)),
            .init(HTTP2Frame.Setting.maxHeaderListSize, UInt32(clamping: maxHeaderListSize)),
            .init(HTTP2Frame.Setting.enablePush, 0),
        ]
        write(HTTP2Frame(stream: 0, payload: .settings(ack: false, settings)))
        noteStreamLimit()
        let raise = configuration.connectionWindowSize - 65_535
        if raise > 0 {
            write(HTTP2Frame(stream: 0, payload: .windowUpdate(increment: UInt32(clamping: raise))))
            connectionReceiveWindow += raise
        }
        flush(into: &actions)
    }

    package mutating func receive(_ bytes: UnsafeRawBufferPointer, into actions: inout [ConnectionAction]) {
        guard phase != .closed else { return }
        frames.append(bytes)
        processBuffered()
        finishIfDrained()
        flush(into: &actions)
    }

    package mutating func respond(_ response: HTTPResponse, stream: UInt32, into actions: inout [ConnectionAction]) {
        guard phase != .closed else { return }
        if hasStream(stream) { highestAnswered = max(highestAnswered, stream) }
        writeResponse(response, stream: stream)
        if response.liftsStreamLimit { liftStreamLimit() }
        finishIfDrained()
        flush(into: &actions)
    }

    package mutating func abandon(stream: UInt32, disposition: ResponseDisposition, into actions: inout [ConnectionAction]) {
        guard phase != .closed else { return }
        switch disposition {
        case .reset:
            if streams[stream] != nil { resetStream(stream, .cancel) }
        case .loseResponse:
            // Processed, its answer lost: a later GOAWAY must not call it unprocessed.
            if streams[stream] != nil { highestAnswered = max(highestAnswered, stream) }
            if streams[stream] != nil { resetStream(stream, .internalError) }
        case .goAway(let debugData):
            goAway(before: stream, debugData: debugData)
        case .send, .delay, .hang, .stream:
            break
        }
        finishIfDrained()
        flush(into: &actions)
    }

    package mutating func peerClosed(into actions: inout [ConnectionAction]) {
        guard phase != .closed else { return }
        phase = .closed
        closeAfterFlush = true
        flush(into: &actions)
    }

    package mutating func shutdown(into actions: inout [ConnectionAction]) {
        guard phase != .closed else { return }
        startDraining()
        finishIfDrained()
        flush(into: &actions)
    }

    /// The idle or request timeout fired: drains as ``shutdown(into:)`` does, its GOAWAY
    /// carrying ``HTTP2Configuration/idleDebugData``.
    package mutating func timedOut(into actions: inout [ConnectionAction]) {
        guard phase != .closed else { return }
        startDraining(debugData: configuration.idleDebugData)
        finishIfDrained()
        flush(into: &actions)
    }

    /// GOAWAY NO_ERROR naming the last stream opened: those streams finish, later ones are
    /// ignored (the client retries them on a new connection).
    mutating func startDraining(debugData: [UInt8]? = nil) {
        guard phase != .draining && phase != .closed else { return }
        sendGoAway(lastStream: lastClientStream, code: .noError, debugData: debugData ?? configuration.drainingDebugData)
        drainLastStream = lastClientStream
        phase = .draining
    }

    package var activity: ConnectionActivity {
        if pendingBlock != nil || frames.bufferedCount > 0 { return .readingRequest }
        if streams.values.contains(where: { $0.state == .receiving }) { return .readingRequest }
        return streams.isEmpty ? .idle : .awaitingResponse
    }

    // MARK: Output

    mutating func write(_ frame: HTTP2Frame) {
        // Room first: `output` starts empty after every flush, and grown as a frame is encoded
        // (its header, then its block) it was reallocated two or three times per response.
        reserveOutput(frame.encodedSize)
        frame.encode(into: &output)
    }

    /// Room in `output` for `count` more octets, reserved at once.
    mutating func reserveOutput(_ count: Int) {
        let needed = output.count + count
        if output.capacity < needed { output.reserveCapacity(max(needed, 2 * output.capacity, 256)) }
    }

    /// Emits this call's actions: bytes first, then dispatches, then close or reset.
    mutating func flush(into actions: inout [ConnectionAction]) {
        if resetNow {
            actions.append(.reset)
            output = []
            dispatches = []
            return
        }
        if !output.isEmpty {
            actions.append(.write(output))
            output = []
        }
        if !dispatches.isEmpty {
            // A stream the client reset in the same read is not worth running the handler
            // for (Rapid Reset): its stream is gone, the answer would be dropped.
            for dispatch in dispatches {
                if case .dispatch(_, let stream) = dispatch, !hasStream(stream) { continue }
                actions.append(dispatch)
            }
            dispatches = []
        }
        if closeAfterFlush {
            actions.append(.close)
            closeAfterFlush = false
        }
    }

    /// A connection error (§5.4.1): GOAWAY with the code, then close. Requests completed
    /// before the error are still dispatched: GOAWAY names them as possibly processed, and
    /// whether they arrived in the same read as the error must not matter.
    mutating func connectionError(_ error: HTTP2ProtocolError) {
        sendGoAway(lastStream: lastClientStream, code: error.code, debugData: Array(error.message.utf8))
        phase = .closed
        closeAfterFlush = true
    }

    /// A stream error (§5.4.2) or our own reset: RST_STREAM, forget the stream, remember its id.
    mutating func resetStream(_ stream: UInt32, _ code: HTTP2ErrorCode) {
        write(HTTP2Frame(stream: stream, payload: .rstStream(code)))
        closeStream(stream)
        rememberReset(stream)
    }

    /// One stream ended without a response; GOAWAY ENHANCE_YOUR_CALM once they come too fast.
    mutating func spendResetBudget() throws(HTTP2ProtocolError) {
        guard resetBudget.spend(now: TimerQueue<Never>.now) else {
            throw HTTP2ProtocolError(.enhanceYourCalm, "more than \(configuration.streamResetBurst) streams reset, refused or malformed at over \(configuration.streamResetsPerSecond) per second")
        }
    }

    mutating func rememberReset(_ stream: UInt32) {
        guard recentlyReset.insert(stream).inserted else { return }
        recentlyResetOrder.append(stream)
        if recentlyResetOrder.count > configuration.rememberedResetStreams {
            let drop = recentlyResetOrder.count - configuration.rememberedResetStreams
            for old in recentlyResetOrder.prefix(drop) { recentlyReset.remove(old) }
            recentlyResetOrder.removeFirst(drop)
        }
    }

    /// `body` on `stream`'s state where the table keeps it, or nil when there is none: one
    /// lookup, then the slot in place. (`streams[stream]?.update { … }` went through the
    /// dictionary's optional `_modify`, which copied the whole stream out and back through
    /// generic value witnesses, ~500 instructions a call.)
    @discardableResult
    mutating func withStream<Result>(_ stream: UInt32, _ body: (inout HTTP2Stream) -> Result) -> Result? {
        guard let slot = streams.index(forKey: stream) else { return nil }
        return body(&streams.values[slot])
    }

    /// `body` on the stream in `slot` (from `streams.index(forKey:)`, the table unchanged
    /// since), in place. Also for reads: `streams.values[slot].flag` copied the whole stream.
    mutating func withStream<Result>(at slot: Dictionary<UInt32, HTTP2Stream>.Index, _ body: (inout HTTP2Stream) -> Result) -> Result {
        body(&streams.values[slot])
    }

    mutating func closeStream(_ stream: UInt32) {
        guard let slot = streams.index(forKey: stream) else { return }
        closeStream(at: slot)
    }

    mutating func closeStream(at slot: Dictionary<UInt32, HTTP2Stream>.Index) {
        let (stream, state) = streams.remove(at: slot)
        if state.state == .sending { sendQueue.removeAll { $0 == stream } }
        releaseBody(byteCount: state.body.count, connectionCredit: state.heldConnectionCredit)
    }

    /// Whether `stream` is open, asked without copying its state out of the table.
    func hasStream(_ stream: UInt32) -> Bool { streams.index(forKey: stream) != nil }

    /// A buffered body left the connection (to the handler, or dropped): its bytes go back
    /// to the shared budget and its DATA to the peer's connection window.
    mutating func releaseBody(byteCount: Int, connectionCredit: Int) {
        if byteCount > 0 {
            bufferedBodyBytes -= byteCount
            bodyBudget.release(byteCount)
        }
        if connectionCredit > 0 && phase != .closed { creditConnection(connectionCredit) }
    }

    /// The connection is gone: every body still buffered goes back to the shared budget.
    package mutating func releaseBufferedBodies() {
        bodyBudget.release(bufferedBodyBytes)
        bufferedBodyBytes = 0
        for id in Array(streams.keys) { streams[id]?.body = [] }
    }

    /// Draining (our GOAWAY or the peer's) ends once no stream is left.
    mutating func finishIfDrained() {
        if (phase == .draining || peerSentGoAway) && streams.isEmpty && phase != .closed {
            phase = .closed
            closeAfterFlush = true
        }
    }
}
