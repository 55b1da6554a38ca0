/// TLS as a stage between a connection's socket and its HTTP codec.
///
/// Socket bytes go in through ``receive(_:codec:into:)``: records are opened, handshake
/// answers and alerts become writes, and the application plaintext is fed to the HTTP codec
/// behind the stage — HTTP/2 when ALPN chose `h2`, HTTP/1.1 for `http/1.1`, sniffed from the
/// first bytes as on a plain port when the client sent no ALPN. Whatever the codec asks for,
/// on any path, passes back through ``protect(_:from:)``: its writes are held and sealed
/// together when the loop writes the connection's output (``sealHeldOutput(into:)``), so the
/// responses to one read's requests share records (as few as the 2^14-byte limit allows)
/// instead of taking one each; its requests carry the SNI host name and the client
/// certificate, its close becomes close_notify (after what was held), then close.
package struct TLSStage {
    var tls: TLSServerConnection
    /// The handshake completed: the codec behind the stage was chosen and started.
    var handshakeCompleted = false
    var sentCloseNotify = false
    /// Reused between calls: TLS events, decrypted bytes, the codec's actions being
    /// protected, and plaintext waiting to be sealed (the codec's writes since the last
    /// flush, counted in the connection's pending output).
    var events: [TLSEvent] = []
    var plaintext: [UInt8] = []
    var codecActions: [ConnectionAction] = []
    var unsealed: [UInt8] = []

    /// Bytes the codec wrote that wait to be sealed.
    var heldBytes: Int { unsealed.count }

    /// A stage presenting `identity`, offering `h2` through ALPN when `offersHTTP2`.
    package init(identity: TLSServerIdentity, offersHTTP2: Bool) {
        tls = TLSServerConnection(identity: identity, applicationProtocols: offersHTTP2 ? ["h2", "http/1.1"] : ["http/1.1"])
    }

    /// The connection's activity, given that of the codec behind the stage: idle before a
    /// ClientHello byte, reading a request while a handshake or a record is unfinished.
    package func activity(behind codecActivity: ConnectionActivity) -> ConnectionActivity {
        guard handshakeCompleted else {
            return tls.state == .awaitingClientHello && !tls.hasPartialInput ? .idle : .readingRequest
        }
        return codecActivity == .idle && tls.hasPartialInput ? .readingRequest : codecActivity
    }

    /// Bytes arrived from the socket. Handshake records and alerts are appended to `actions`
    /// as writes; once the handshake completes, `codec` (a sniffer until then) becomes the
    /// protocol ALPN chose and receives the plaintext; its actions are protected. An alert
    /// ends with `.close`; the peer's close_notify is the codec's `peerClosed`.
    package mutating func receive(_ bytes: UnsafeRawBufferPointer, codec: inout AnyConnectionCodec,
                                  into actions: inout [ConnectionAction]) {
        var close = false
        var peerClosed = false
        var completed = false
        // What the codec wrote before is sealed first: its records precede whatever this
        // input makes the TLS layer send (a KeyUpdate answer, an alert).
        sealUnsealed(into: &actions)
        tls.receive(bytes, into: &events, plaintext: &plaintext)
        for event in events {
            switch event {
            case .write(let record): actions.append(.write(record))
            case .handshakeCompleted: completed = true
            case .peerClosed: peerClosed = true
            case .close: close = true
            }
        }
        events.removeAll(keepingCapacity: true)
        // The codec's writes are sealed after every record above: the order of the records
        // is the order of the write cipher's sequence numbers.
        let start = actions.count
        if completed {
            // What the chosen codec writes on starting (HTTP/2's SETTINGS) is held until it
            // next acts, normally on the client's first bytes, and sealed with that output.
            handshakeCompleted = true
            codec.choose(applicationProtocol: tls.applicationProtocol, clientCertified: tls.clientCertificate != nil, into: &codecActions)
        }
        var codecActed = false
        if !plaintext.isEmpty {
            codecActed = true
            plaintext.withUnsafeBytes { codec.receive($0, into: &actions) }
            plaintext.removeAll(keepingCapacity: plaintext.capacity <= 64 * 1024)
        }
        if peerClosed {
            if handshakeCompleted {
                codecActed = true
                codec.peerClosed(into: &actions)
            } else {
                close = true
            }
        }
        if codecActed { protect(&actions, from: start) }
        if close {
            sealUnsealed(into: &actions)  // what the codec answered still goes out before the close
            actions.append(.close)
        }
    }

    /// Rewrites the codec's actions from `start` on, behind any it held from starting:
    /// writes held to be sealed at the next flush (before the handshake completes nothing is
    /// sealed or sent), requests tagged with the SNI name and the client certificate, a close
    /// preceded by what was held and close_notify, a reset dropping what was not sealed.
    package mutating func protect(_ actions: inout [ConnectionAction], from start: Int) {
        guard start < actions.count || !codecActions.isEmpty else { return }
        if codecActions.isEmpty && !actions[start...].contains(where: Self.endsConnection) {
            protectInPlace(&actions, from: start)
            return
        }
        codecActions.append(contentsOf: actions[start...])
        actions.removeSubrange(start...)
        for action in codecActions {
            switch action {
            case .write(let bytes):
                // After close_notify nothing more is sent (the loop drops writes after a close).
                if !sentCloseNotify { unsealed.append(contentsOf: bytes) }
            case .dispatch(var request, let stream):
                request.tlsServerName = tls.serverName
                request.tlsClientCertificate = tls.clientCertificate
                actions.append(.dispatch(request, stream: stream))
            case .close:
                sealUnsealed(into: &actions)
                if handshakeCompleted && !sentCloseNotify {
                    sentCloseNotify = true
                    actions.append(.write(tls.closeNotify()))
                }
                actions.append(.close)
            case .reset:
                unsealed.removeAll(keepingCapacity: true)
                actions.append(.reset)
            }
        }
        codecActions.removeAll(keepingCapacity: true)
    }

    /// `protect` for the usual list, writes and requests only: the writes are taken out and
    /// held, the requests tagged where they lie (moved, not copied: no retain and release of
    /// each request's fields, as the general path's copies into `codecActions` and back cost).
    private mutating func protectInPlace(_ actions: inout [ConnectionAction], from start: Int) {
        var kept = start
        for index in start..<actions.count {
            var action = ConnectionAction.close
            swap(&action, &actions[index])
            switch consume action {
            case .write(let bytes):
                if !sentCloseNotify { unsealed.append(contentsOf: bytes) }
            case .dispatch(var request, let stream):
                request.tlsServerName = tls.serverName
                request.tlsClientCertificate = tls.clientCertificate
                actions[kept] = .dispatch(request, stream: stream)
                kept += 1
            case let other:
                actions[kept] = other  // not reached: `protect` sends closes and resets the general way
                kept += 1
            }
        }
        actions.removeSubrange(kept...)
    }

    private static func endsConnection(_ action: ConnectionAction) -> Bool {
        switch action {
        case .close, .reset: true
        case .write, .dispatch: false
        }
    }

    /// Seals what the codec wrote since the last flush, appending the records to `output`
    /// (the connection's output buffer: no other copy).
    mutating func sealHeldOutput(into output: inout [UInt8]) {
        guard !unsealed.isEmpty else { return }
        tls.sealApplicationData(unsealed[...], into: &output)
        unsealed.removeAll(keepingCapacity: unsealed.capacity <= 256 * 1024)
    }

    private mutating func sealUnsealed(into actions: inout [ConnectionAction]) {
        guard !unsealed.isEmpty else { return }
        var records: [UInt8] = []
        records.reserveCapacity(unsealed.count + (unsealed.count / TLSProtocol.maxPlaintext + 1) * 22)
        tls.sealApplicationData(unsealed[...], into: &records)
        unsealed.removeAll(keepingCapacity: unsealed.capacity <= 256 * 1024)
        if !records.isEmpty { actions.append(.write(records)) }
    }
}
