/// A GOAWAY a connection sent: what a test or a fake's judge reads afterwards.
package struct HTTP2GoAwayRecord: Sendable, Hashable {
    /// The last-stream-id named: streams above it were not processed.
    package var lastStream: UInt32
    package var code: HTTP2ErrorCode
    package var debugData: [UInt8]
}

/// Tells a fake what its connections announced and sent that no request carries: stream
/// limits (``HTTP2Configuration/startingMaxConcurrentStreams``) and GOAWAY frames. Called on
/// the server's event loop, so it must not block. Equal only to itself.
package final class HTTP2ConnectionObserver: Sendable, Hashable {
    let streamLimitAnnounced: @Sendable (_ connectionID: UInt64, _ limit: Int) -> Void
    let goAwaySent: @Sendable (_ connectionID: UInt64, _ record: HTTP2GoAwayRecord) -> Void

    package init(streamLimitAnnounced: @escaping @Sendable (_ connectionID: UInt64, _ limit: Int) -> Void,
                 goAwaySent: @escaping @Sendable (_ connectionID: UInt64, _ record: HTTP2GoAwayRecord) -> Void) {
        self.streamLimitAnnounced = streamLimitAnnounced
        self.goAwaySent = goAwaySent
    }

    package static func == (lhs: HTTP2ConnectionObserver, rhs: HTTP2ConnectionObserver) -> Bool { lhs === rhs }
    package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// The stream limit a connection announces and enforces, and the GOAWAY frames that end one
/// (RFC 9113 §5.1.2, §6.5.3, §6.8).
extension HTTP2Connection {
    static func startingStreamLimit(_ configuration: HTTP2Configuration, clientCertified: Bool) -> Int {
        guard let starting = configuration.startingMaxConcurrentStreams,
              !(clientCertified && configuration.certifiedClientsStartAtFullLimit) else {
            return configuration.maxConcurrentStreams
        }
        return min(max(1, starting), configuration.maxConcurrentStreams)
    }

    /// The limit a new stream is held to. Until the peer acknowledged our first SETTINGS it
    /// may act on the default (unlimited, RFC 9113 §6.5.2) for what it already sent (§6.5.3):
    /// the full limit applies then, the announced one after.
    var enforcedStreamLimit: Int {
        settingsAcknowledged ? announcedStreamLimit : configuration.maxConcurrentStreams
    }

    /// The handler lifted the starting limit: a SETTINGS frame announces the full one, in
    /// force at once (a raise needs no acknowledgement to be honoured).
    mutating func liftStreamLimit() {
        guard announcedStreamLimit < configuration.maxConcurrentStreams, phase != .draining, phase != .closed else { return }
        announcedStreamLimit = configuration.maxConcurrentStreams
        write(HTTP2Frame(stream: 0, payload: .settings(ack: false, [
            .init(HTTP2Frame.Setting.maxConcurrentStreams, UInt32(clamping: announcedStreamLimit)),
        ])))
        noteStreamLimit()
    }

    func noteStreamLimit() {
        configuration.observer?.streamLimitAnnounced(connectionID, announcedStreamLimit)
    }

    /// A stream opened past the enforced limit. Once the peer acknowledged the limit and the
    /// configuration says so: GOAWAY REFUSED_STREAM naming `lastAccepted` (those streams are
    /// answered; this one is not processed), else RST_STREAM REFUSED_STREAM for it alone.
    mutating func refuseOverLimit(_ stream: UInt32, lastAccepted: UInt32) -> PendingHeaderBlock.Purpose {
        if let debugData = configuration.streamLimitViolationDebugData, settingsAcknowledged {
            sendGoAway(lastStream: lastAccepted, code: .refusedStream, debugData: debugData)
            drainLastStream = lastAccepted
            phase = .draining
            rememberReset(stream)  // its DATA is dropped quietly: the GOAWAY said it
            return .discard(nil)
        }
        return .discard(HTTP2ProtocolError(.refusedStream, stream: stream, "SETTINGS_MAX_CONCURRENT_STREAMS reached"))
    }

    /// The handler ends the connection at `stream` (``ResponseDisposition/goAway(debugData:)``):
    /// GOAWAY NO_ERROR naming the stream before it (or a later one already answered, so that
    /// no answered stream is claimed unprocessed). Streams in flight at or below that id are
    /// still answered; `stream` and those above are forgotten unanswered, for the client to
    /// resend on a new connection. After a GOAWAY, a stream at or below its id that the
    /// handler ends so is reset REFUSED_STREAM (not processed, RFC 9113 §8.7).
    mutating func goAway(before stream: UInt32, debugData: [UInt8]) {
        guard phase != .draining else {
            if streams[stream] != nil { resetStream(stream, .refusedStream) }
            return
        }
        let last = max(stream > 2 ? stream - 2 : 0, highestAnswered)
        sendGoAway(lastStream: last, code: .noError, debugData: debugData)
        if last >= stream, streams[stream] != nil { resetStream(stream, .refusedStream) }
        for id in Array(streams.keys) where id > last {
            closeStream(id)
            rememberReset(id)
        }
        drainLastStream = last
        phase = .draining
    }

    mutating func sendGoAway(lastStream: UInt32, code: HTTP2ErrorCode, debugData: [UInt8]) {
        write(HTTP2Frame(stream: 0, payload: .goAway(lastStream: lastStream, code: code, debugData: debugData)))
        let record = HTTP2GoAwayRecord(lastStream: lastStream, code: code, debugData: debugData)
        goAwaysSent.append(record)
        configuration.observer?.goAwaySent(connectionID, record)
    }
}
