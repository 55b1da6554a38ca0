/// HTTP over TLS on one connection: owns the ``TLSServerConnection`` and the HTTP codec
/// inside it.
///
/// Incoming bytes are decrypted and the plaintext fed to the inner codec — HTTP/2 when ALPN
/// chose `h2`, HTTP/1.1 for `http/1.1`, sniffed from the first bytes as on a plain port when
/// the client sent no ALPN. The inner codec's writes of one call are sealed together, so a
/// turn's output becomes as few records as possible; its requests carry the SNI host name;
/// its close becomes close_notify, then close.
package struct TLSConnectionCodec {
    var tls: TLSServerConnection
    /// nil until the handshake completes.
    var inner: AnyConnectionCodec?
    let configuration: HTTPServerConfiguration
    let connectionID: UInt64
    /// Reused between calls: the inner codec's actions, TLS events, decrypted bytes, and
    /// plaintext waiting to be sealed.
    var innerActions: [ConnectionAction] = []
    var events: [TLSEvent] = []
    var plaintext: [UInt8] = []
    var unsealed: [UInt8] = []
    var sentCloseNotify = false

    package init(configuration: HTTPServerConfiguration, identity: TLSServerIdentity, connectionID: UInt64) {
        self.configuration = configuration
        self.connectionID = connectionID
        let protocols = configuration.http2.enabled ? ["h2", "http/1.1"] : ["http/1.1"]
        tls = TLSServerConnection(identity: identity, applicationProtocols: protocols)
    }

    package var activity: ConnectionActivity {
        guard let inner else {
            return tls.state == .awaitingClientHello && !tls.hasPartialInput ? .idle : .readingRequest
        }
        let innerActivity = inner.activity
        return innerActivity == .idle && tls.hasPartialInput ? .readingRequest : innerActivity
    }

    /// The inner codec for the protocol ALPN chose.
    private func makeInnerCodec() -> AnyConnectionCodec {
        switch tls.applicationProtocol {
        case "h2": return .http2(CodecBox(HTTP2Connection(configuration: configuration, connectionID: connectionID)))
        case "http/1.1": return .http1(CodecBox(HTTP1Codec(configuration: configuration, connectionID: connectionID)))
        default: return .sniffing(CodecBox(ProtocolSniffer(configuration: configuration, connectionID: connectionID)))
        }
    }

    package mutating func receive(_ bytes: UnsafeRawBufferPointer, into actions: inout [ConnectionAction]) {
        var close = false
        var peerClosed = false
        tls.receive(bytes, into: &events, plaintext: &plaintext)
        for event in events {
            switch event {
            case .write(let record): actions.append(.write(record))
            case .handshakeCompleted:
                var codec = makeInnerCodec()
                codec.start(into: &innerActions)
                inner = codec
            case .peerClosed: peerClosed = true
            case .close: close = true
            }
        }
        events.removeAll(keepingCapacity: true)
        if !plaintext.isEmpty {
            var received = plaintext
            plaintext = []
            withInner(into: &actions) { inner, innerActions in
                received.withUnsafeBytes { inner.receive($0, into: &innerActions) }
            }
            received.removeAll(keepingCapacity: received.capacity <= 64 * 1024)
            plaintext = received
        }
        if peerClosed {
            if inner == nil { close = true }
            withInner(into: &actions) { inner, innerActions in inner.peerClosed(into: &innerActions) }
        }
        if close { actions.append(.close) }
    }

    package mutating func respond(_ response: HTTPResponse, stream: UInt32, into actions: inout [ConnectionAction]) {
        withInner(into: &actions) { inner, innerActions in inner.respond(response, stream: stream, into: &innerActions) }
    }

    package mutating func deliver(_ response: HTTPResponse, stream: UInt32, into actions: inout [ConnectionAction]) {
        withInner(into: &actions) { inner, innerActions in inner.deliver(response, stream: stream, into: &innerActions) }
    }

    package mutating func abandon(stream: UInt32, disposition: ResponseDisposition, into actions: inout [ConnectionAction]) {
        withInner(into: &actions) { inner, innerActions in inner.abandon(stream: stream, disposition: disposition, into: &innerActions) }
    }

    package mutating func peerClosed(into actions: inout [ConnectionAction]) {
        guard inner != nil else { return actions.append(.close) }
        withInner(into: &actions) { inner, innerActions in inner.peerClosed(into: &innerActions) }
    }

    package mutating func shutdown(into actions: inout [ConnectionAction]) {
        guard inner != nil else { return actions.append(.close) }
        withInner(into: &actions) { inner, innerActions in inner.shutdown(into: &innerActions) }
    }

    package mutating func timedOut(into actions: inout [ConnectionAction]) {
        guard inner != nil else { return actions.append(.close) }
        withInner(into: &actions) { inner, innerActions in inner.timedOut(into: &innerActions) }
    }

    /// HTTP/2 inside TLS: resets the streams whose response made no progress since `cutoff`
    /// (the send deadline, see ``AnyConnectionCodec/resetStalledSends(madeNoProgressSince:into:)``).
    package mutating func resetStalledSends(madeNoProgressSince cutoff: UInt64, into actions: inout [ConnectionAction]) {
        withInner(into: &actions) { inner, innerActions in
            inner.resetStalledSends(madeNoProgressSince: cutoff, into: &innerActions)
        }
    }

    /// Runs `body` on the inner codec (if the handshake is done), then turns its actions
    /// into `actions`: writes sealed into records, requests tagged with the SNI name, a
    /// close preceded by close_notify.
    private mutating func withInner(into actions: inout [ConnectionAction],
                                    _ body: (inout AnyConnectionCodec, inout [ConnectionAction]) -> Void) {
        guard var codec = inner else { return }
        inner = nil  // keep the codec's buffers uniquely referenced while it runs
        body(&codec, &innerActions)
        inner = codec
        for action in innerActions {
            switch action {
            case .write(let bytes):
                unsealed.append(contentsOf: bytes)
            case .dispatch(var request, let stream):
                sealUnsealed(into: &actions)
                request.tlsServerName = tls.serverName
                request.tlsClientCertificate = tls.clientCertificate
                actions.append(.dispatch(request, stream: stream))
            case .close:
                sealUnsealed(into: &actions)
                if !sentCloseNotify {
                    sentCloseNotify = true
                    actions.append(.write(tls.closeNotify()))
                }
                actions.append(.close)
            case .reset:
                unsealed.removeAll(keepingCapacity: true)
                actions.append(.reset)
            }
        }
        innerActions.removeAll(keepingCapacity: true)
        sealUnsealed(into: &actions)
    }

    private mutating func sealUnsealed(into actions: inout [ConnectionAction]) {
        guard !unsealed.isEmpty else { return }
        var records: [UInt8] = []
        records.reserveCapacity(unsealed.count + (unsealed.count / TLSProtocol.maxPlaintext + 1) * 22)
        tls.sealApplicationData(unsealed[...], into: &records)
        unsealed.removeAll(keepingCapacity: unsealed.capacity <= 256 * 1024)
        actions.append(.write(records))
    }
}
