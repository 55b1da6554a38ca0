import Contracts
import LoopbackHTTP

/// What FakeAPNs did on one connection that no journal entry shows: how it authenticated,
/// the stream limits it announced, the GOAWAY frames it sent. A judge reads these to tell a
/// sender that honours APNs' connection rules from one that does not.
public struct APNsConnectionRecord: Sendable, Hashable {
    /// How the connection's requests authenticated.
    public enum Authentication: String, Sendable, Hashable {
        /// No TLS client certificate (h2c included): provider tokens.
        case token
        /// A TLS client certificate.
        case certificate
    }

    /// A GOAWAY frame FakeAPNs sent on the connection.
    public struct GoAway: Sendable, Hashable {
        /// Streams above it were not processed: a correct sender resends them on a new connection.
        public var lastStreamID: UInt32
        /// The HTTP/2 error code: 0 NO_ERROR, 7 REFUSED_STREAM.
        public var errorCode: UInt32
        /// The debug data as text, e.g. `{"reason":"Shutdown"}`.
        public var debugData: String
    }

    /// The connection, as in ``APNsJournalEntry/connectionID``.
    public var connectionID: UInt64
    /// How its first request authenticated; nil before one was handled (or for HTTP/1.1).
    public var authentication: Authentication?
    /// Each `SETTINGS_MAX_CONCURRENT_STREAMS` announced, in order: `[1, 1000]` for a token
    /// connection whose limit was raised, `[1000]` for a certificate connection.
    public var streamLimits: [Int] = []
    /// The GOAWAY frames sent, in order.
    public var goAways: [GoAway] = []
}

/// What each connection's HTTP/2 layer did (``FakeAPNs/connections``), at most 10,000, newest
/// kept. Part of ``FakeAPNsState``, behind the fake's one lock.
struct ConnectionRecords {
    private(set) var records: [UInt64: APNsConnectionRecord] = [:]

    mutating func update(_ id: UInt64, _ change: (inout APNsConnectionRecord) -> Void) {
        if records[id] == nil && records.count >= 10_000, let oldest = records.keys.min() {
            records[oldest] = nil
        }
        change(&records[id, default: APNsConnectionRecord(connectionID: id)])
    }

    /// Notes how a request on an HTTP/2 connection authenticated (its first request decides).
    mutating func noteAuthentication(_ request: HTTPRequest) {
        guard request.version == .http2, records[request.connectionID]?.authentication == nil else { return }
        update(request.connectionID) {
            $0.authentication = request.tlsClientCertificate == nil ? .token : .certificate
        }
    }

    mutating func removeAll() { records.removeAll() }
}

extension FakeAPNs {
    /// Every HTTP/2 connection FakeAPNs kept a record of (at most 10,000, newest kept), by
    /// connection id.
    public var connections: [APNsConnectionRecord] {
        state.withLock { s in s.connectionRecords.records.values.sorted { $0.connectionID < $1.connectionID } }
    }

    /// The HTTP/2 settings that make the push port behave as APNs on the connection.
    func configureConnections(_ http2: inout HTTP2Configuration, _ configuration: FakeAPNs.Configuration) {
        http2.startingMaxConcurrentStreams = configuration.oneStreamUntilTokenVerified ? 1 : nil
        http2.certifiedClientsStartAtFullLimit = true
        // What APNs sends (pushy issue 356: error code 7, this text as debug data).
        http2.streamLimitViolationDebugData = Array(Self.streamLimitViolation.utf8)
        http2.drainingDebugData = APNsReason(.shutdown).body()
        http2.idleDebugData = APNsReason(.idleTimeout).body()
        http2.observer = HTTP2ConnectionObserver(
            streamLimitAnnounced: { [weak self] id, limit in
                self?.updateRecord(id) { $0.streamLimits.append(limit) }
            },
            goAwaySent: { [weak self] id, record in
                let goAway = APNsConnectionRecord.GoAway(lastStreamID: record.lastStream, errorCode: record.code.rawValue,
                                                         debugData: String(decoding: record.debugData, as: UTF8.self))
                self?.updateRecord(id) { $0.goAways.append(goAway) }
            })
    }

    /// The debug data of APNs' GOAWAY for a client over its stream limit.
    static let streamLimitViolation = "Maximum active streams violated for this endpoint."

    func updateRecord(_ id: UInt64, _ change: (inout APNsConnectionRecord) -> Void) {
        state.withLock { $0.connectionRecords.update(id, change) }
    }

    /// A request on a stream above the one its connection was ended at: APNs never processed
    /// it. Journaled as such, not delivered; the transport leaves it unanswered.
    static func unprocessedAfterGoAway(_ request: HTTPRequest, entry: inout APNsJournalEntry,
                                       authentication: ProviderAuthenticationState) -> HTTPResponse? {
        guard let stream = request.streamID, let endedAt = authentication.connections[request.connectionID]?.goneAwayAt, stream > endedAt else { return nil }
        entry.detail = "not processed: stream \(stream) is above the last-stream-id of the GOAWAY this connection sent at stream \(endedAt); left unanswered, not delivered — a correct sender resends it on a new connection"
        return HTTPResponse(status: .serviceUnavailable, disposition: .goAway(debugData: []))
    }

    /// The answer ends the connection at its stream: later streams are not processed.
    static func noteGoAway(_ response: HTTPResponse, _ request: HTTPRequest, in authentication: inout ProviderAuthenticationState) {
        guard case .goAway = response.disposition, let stream = request.streamID else { return }
        var connection = authentication.connection(request.connectionID)
        if connection.goneAwayAt == nil { connection.goneAwayAt = stream }
        authentication.store(connection, for: request.connectionID)
    }
}
