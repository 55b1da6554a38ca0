import PushCrypto
/// What the TLS layer asks its owner to do, in order.
package enum TLSEvent: Sendable, Equatable {
    /// Send these bytes (whole records) to the peer.
    case write([UInt8])
    /// The handshake is complete: application data flows from here on.
    case handshakeCompleted
    /// The peer sent close_notify: it sends nothing more.
    case peerClosed
    /// Close the connection once the writes before this are flushed (after an alert).
    case close
}

/// The server side of one TLS 1.3 connection (RFC 8446) as a state machine: record bytes in,
/// records out and application plaintext out; no sockets, so it is tested with bytes alone.
///
/// TLS_AES_128_GCM_SHA256 only; key exchange on x25519 or secp256r1 (with a HelloRetryRequest
/// when the client's key share is for neither); the server signs with
/// ecdsa_secp256r1_sha256; ALPN and SNI are read. Client certificates only when
/// ``TLSServerIdentity/clientAuthentication`` asks for them. No TLS 1.2, resumption or 0-RTT. Every buffer is bounded: a record's body by 2^14+256 bytes, a handshake
/// message by 64 KiB; anything malformed or unexpected is answered with an alert and
/// ``TLSEvent/close``, never a trap. The same bytes give the same events however they are
/// split between calls.
package struct TLSServerConnection {
    enum State: Equatable {
        case awaitingClientHello
        case awaitingRetriedClientHello(TLSNamedGroup)
        /// Client authentication asked for: the client's Certificate comes first; its
        /// Finished will be keyed by this secret. (Indirect, as the next: the state of a
        /// connection without client authentication stays as small as before.)
        indirect case awaitingClientCertificate(clientHandshakeSecret: [UInt8])
        /// The client sent a certificate: its CertificateVerify must prove this key.
        indirect case awaitingClientCertificateVerify(clientHandshakeSecret: [UInt8], key: CertificatePublicKey)
        case awaitingFinished
        case established
        /// An alert was sent or close_notify received: input is ignored.
        case closed
    }

    let identity: TLSServerIdentity
    /// Protocols offered through ALPN, in the server's order of preference.
    let applicationProtocols: [String]
    let randomBytes: @Sendable (Int) -> [UInt8]
    var state: State = .awaitingClientHello
    /// Received bytes not yet forming a whole record.
    var inbound: [UInt8] = []
    /// Handshake bytes not yet forming a whole message.
    var handshakeBuffer: [UInt8] = []
    var transcript = SHA256.Hasher()
    var readCipher: TLSRecordCipher?
    var writeCipher: TLSRecordCipher?
    /// The client's application cipher, switched to after its Finished.
    var pendingReadCipher: TLSRecordCipher?
    var expectedClientFinished: [UInt8] = []
    var sentChangeCipherSpec = false

    /// The host name the client asked for (SNI), once its ClientHello is read.
    package internal(set) var serverName: String?
    /// The protocol chosen through ALPN (`h2`, `http/1.1`), nil when the client offered none.
    package internal(set) var applicationProtocol: String?
    /// The key-exchange group of the handshake.
    package internal(set) var negotiatedGroup: TLSNamedGroup?
    /// The certificate the client proved it holds, once its CertificateVerify is checked
    /// (nil without client authentication, or when the client sent none).
    package internal(set) var clientCertificate: TLSClientCertificate?
    /// The alert this server sent, if it ended the connection over a problem.
    package internal(set) var sentAlert: TLSAlert?

    /// A connection that will present `identity` and offer `applicationProtocols` (server
    /// preference first). `randomBytes` supplies the server random and ephemeral keys
    /// (tests pass fixed bytes to reproduce RFC 8448).
    package init(identity: TLSServerIdentity, applicationProtocols: [String],
                 randomBytes: @escaping @Sendable (Int) -> [UInt8] = { secureRandomBytes($0) }) {
        self.identity = identity
        self.applicationProtocols = applicationProtocols
        self.randomBytes = randomBytes
    }

    /// Whether the handshake has completed and application data may be sealed.
    package var isEstablished: Bool { state == .established }

    /// Between the server's Finished and the client's: the client's flight may still carry
    /// change_cipher_spec or a plaintext alert.
    var isAwaitingClientFlight: Bool {
        switch state {
        case .awaitingFinished, .awaitingClientCertificate, .awaitingClientCertificateVerify: true
        default: false
        }
    }

    /// Whether bytes of an unfinished record or handshake message are buffered.
    package var hasPartialInput: Bool { !inbound.isEmpty || !handshakeBuffer.isEmpty }

    /// Bytes arrived from the peer. Application data is appended to `plaintext`; it only
    /// ever follows ``TLSEvent/handshakeCompleted``.
    package mutating func receive(_ bytes: UnsafeRawBufferPointer, into events: inout [TLSEvent], plaintext: inout [UInt8]) {
        guard state != .closed else { return }
        inbound.append(contentsOf: bytes)
        var consumed = 0
        do throws(TLSAlert) {
            while state != .closed {
                let available = inbound.count - consumed
                if available < 5 { break }
                // Judge the header as soon as it is here, so a peer speaking something else
                // (plain HTTP to a TLS port) gets an alert at once rather than a wait.
                guard TLSContentType(rawValue: inbound[consumed]) != nil, inbound[consumed + 1] == 3 else {
                    throw TLSAlert(.unexpectedMessage, "bytes that are not a TLS record (type \(inbound[consumed]))")
                }
                let length = Int(inbound[consumed + 3]) << 8 | Int(inbound[consumed + 4])
                guard length <= TLSProtocol.maxCiphertext else {
                    throw TLSAlert(.recordOverflow, "a record announces \(length) bytes, more than 2^14+256")
                }
                if available < 5 + length { break }
                let header = inbound[consumed..<(consumed + 5)]
                let body = inbound[(consumed + 5)..<(consumed + 5 + length)]
                consumed += 5 + length
                try receiveRecord(header: header, body: body, events: &events, plaintext: &plaintext)
            }
        } catch {
            fail(error, events: &events)
            return
        }
        if state == .closed {
            inbound = []
            handshakeBuffer = []
        } else if consumed == inbound.count {
            inbound.removeAll(keepingCapacity: inbound.capacity <= 64 * 1024)
        } else if consumed > 0 {
            inbound.removeSubrange(0..<consumed)
        }
    }

    private mutating func receiveRecord(header: ArraySlice<UInt8>, body: ArraySlice<UInt8>,
                                        events: inout [TLSEvent], plaintext: inout [UInt8]) throws(TLSAlert) {
        let typeByte = header[header.startIndex]
        guard let type = TLSContentType(rawValue: typeByte) else {
            throw TLSAlert(.unexpectedMessage, "record of unknown content type \(typeByte)")
        }
        switch type {
        case .changeCipherSpec:
            // Middlebox compatibility (RFC 8446 §5): one byte 0x01 between the ClientHello
            // and the client's Finished is dropped; anything else is an error.
            let midHandshake = isAwaitingClientFlight || { if case .awaitingRetriedClientHello = state { return true }; return false }()
            guard midHandshake, body.count == 1, body.first == 1 else {
                throw TLSAlert(.unexpectedMessage, "change_cipher_spec outside the handshake")
            }
        case .alert:
            // Before the handshake completes a client may report a problem in plaintext.
            guard readCipher == nil || isAwaitingClientFlight else {
                throw TLSAlert(.unexpectedMessage, "plaintext alert after the handshake")
            }
            receiveAlert(body, events: &events)
        case .handshake:
            guard readCipher == nil else { throw TLSAlert(.unexpectedMessage, "plaintext handshake record after keys changed") }
            guard !body.isEmpty, body.count <= TLSProtocol.maxPlaintext else {
                throw TLSAlert(.decodeError, "handshake record of \(body.count) bytes")
            }
            handshakeBuffer.append(contentsOf: body)
            try receiveHandshakeMessages(events: &events)
        case .applicationData:
            guard var cipher = readCipher else {
                throw TLSAlert(.unexpectedMessage, "application_data record before the handshake keys")
            }
            guard body.count > 16 else { throw TLSAlert(.badRecordMAC, "protected record shorter than its tag") }
            readCipher = nil  // keep the cipher's storage unique while it advances
            let start = plaintext.count
            let innerType = try cipher.open(body, header: header, appendingTo: &plaintext)
            readCipher = cipher
            switch innerType {
            case .handshake:
                let content = plaintext[start...]
                guard !content.isEmpty else { throw TLSAlert(.unexpectedMessage, "empty handshake record") }
                handshakeBuffer.append(contentsOf: content)
                plaintext.removeSubrange(start...)
                try receiveHandshakeMessages(events: &events)
            case .alert:
                let content = Array(plaintext[start...])
                plaintext.removeSubrange(start...)
                receiveAlert(content[...], events: &events)
            case .applicationData:
                guard state == .established else {
                    plaintext.removeSubrange(start...)
                    throw TLSAlert(.unexpectedMessage, "application data before the client's Finished")
                }
            case .changeCipherSpec:
                plaintext.removeSubrange(start...)
                throw TLSAlert(.unexpectedMessage, "protected change_cipher_spec")
            }
        }
    }

    private mutating func receiveAlert(_ body: ArraySlice<UInt8>, events: inout [TLSEvent]) {
        // Whatever the peer's alert, it ends the conversation: close_notify half-closes
        // (responses may still go out), any other alert closes without answering.
        let closeNotify = body.count == 2 && body.last == TLSAlertDescription.closeNotify.rawValue
        state = .closed
        events.append(closeNotify ? .peerClosed : .close)
    }

    private mutating func receiveHandshakeMessages(events: inout [TLSEvent]) throws(TLSAlert) {
        var start = 0
        while state != .closed, handshakeBuffer.count - start >= 4 {
            let length = Int(handshakeBuffer[start + 1]) << 16 | Int(handshakeBuffer[start + 2]) << 8 | Int(handshakeBuffer[start + 3])
            guard length <= TLSProtocol.maxHandshakeMessage else {
                throw TLSAlert(.illegalParameter, "handshake message of \(length) bytes, more than 64 KiB")
            }
            guard handshakeBuffer.count - start >= 4 + length else { break }
            let message = Array(handshakeBuffer[start..<(start + 4 + length)])
            start += 4 + length
            let keysChange = try receiveHandshakeMessage(message, events: &events)
            if keysChange && start != handshakeBuffer.count {
                throw TLSAlert(.unexpectedMessage, "handshake data after a message that changes keys, in the same record")
            }
        }
        handshakeBuffer.removeSubrange(0..<start)
    }

    /// Handles one whole handshake message; true when it changed the read keys.
    private mutating func receiveHandshakeMessage(_ message: [UInt8], events: inout [TLSEvent]) throws(TLSAlert) -> Bool {
        let type = TLSHandshakeType(rawValue: message[0])
        let body = message[4...]
        switch (state, type) {
        case (.awaitingClientHello, .clientHello?), (.awaitingRetriedClientHello, .clientHello?):
            try receiveClientHello(message, events: &events)
            return readCipher != nil
        case (.awaitingClientCertificate(let secret), .certificate?):
            try receiveClientCertificate(message, clientHandshakeSecret: secret)
            return false
        case (.awaitingClientCertificateVerify(let secret, let key), .certificateVerify?):
            try receiveClientCertificateVerify(message, clientHandshakeSecret: secret, key: key)
            return false
        case (.awaitingFinished, .finished?):
            guard constantTimeEqual(Array(body), expectedClientFinished) else {
                throw TLSAlert(.decryptError, "the client's Finished does not match the transcript")
            }
            readCipher = pendingReadCipher
            pendingReadCipher = nil
            expectedClientFinished = []
            state = .established
            events.append(.handshakeCompleted)
            return true
        case (.established, .keyUpdate?):
            guard body.count == 1, let request = body.first, request <= 1 else {
                throw TLSAlert(.illegalParameter, "KeyUpdate request_update must be 0 or 1")
            }
            readCipher = readCipher?.updated()
            if request == 1, var cipher = writeCipher {
                // Answer under the current key, then switch (RFC 8446 §4.6.3).
                let keyUpdate = TLSByteWriter.handshakeMessage(.keyUpdate) { $0.append(UInt8(0)) }
                var output: [UInt8] = []
                cipher.seal(keyUpdate[...], type: .handshake, into: &output)
                writeCipher = cipher.updated()
                events.append(.write(output))
            }
            return true
        default:
            throw TLSAlert(.unexpectedMessage, "handshake message type \(message[0]) in state \(state)")
        }
    }

    // MARK: - Sending

    /// Seals application data into records appended to `output`. Only after
    /// ``TLSEvent/handshakeCompleted``; before, nothing is written.
    package mutating func sealApplicationData(_ bytes: ArraySlice<UInt8>, into output: inout [UInt8]) {
        guard state == .established || state == .closed, !bytes.isEmpty, var cipher = writeCipher else { return }
        writeCipher = nil
        cipher.seal(bytes, type: .applicationData, into: &output)
        writeCipher = cipher
    }

    /// A close_notify alert record, protected once keys exist.
    package mutating func closeNotify() -> [UInt8] {
        alertRecord(TLSAlert(.closeNotify))
    }

    mutating func alertRecord(_ alert: TLSAlert) -> [UInt8] {
        if var cipher = writeCipher {
            var output: [UInt8] = []
            writeCipher = nil
            cipher.seal(alert.body[...], type: .alert, into: &output)
            writeCipher = cipher
            return output
        }
        return Self.plaintextRecord(.alert, alert.body)
    }

    mutating func fail(_ alert: TLSAlert, events: inout [TLSEvent]) {
        sentAlert = alert
        events.append(.write(alertRecord(alert)))
        events.append(.close)
        state = .closed
        inbound = []
        handshakeBuffer = []
    }

    static func plaintextRecord(_ type: TLSContentType, _ body: [UInt8]) -> [UInt8] {
        var record: [UInt8] = [type.rawValue, 0x03, 0x03, UInt8(truncatingIfNeeded: body.count >> 8), UInt8(truncatingIfNeeded: body.count)]
        record.append(contentsOf: body)
        return record
    }

    private func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }
}
