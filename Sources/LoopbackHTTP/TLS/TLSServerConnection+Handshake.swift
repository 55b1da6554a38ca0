import PushCrypto
extension TLSServerConnection {
    /// Answers a ClientHello: a HelloRetryRequest when no key share is usable, else the
    /// whole server flight (ServerHello, then EncryptedExtensions, Certificate,
    /// CertificateVerify and Finished under the handshake keys).
    mutating func receiveClientHello(_ message: [UInt8], events: inout [TLSEvent]) throws(TLSAlert) {
        let hello = try TLSClientHello(body: message[4...])
        guard hello.supportedVersions.contains(TLSProtocol.version13) else {
            throw TLSAlert(.protocolVersion, "the client does not offer TLS 1.3; this server speaks nothing else")
        }
        guard hello.cipherSuites.contains(TLSProtocol.aes128GCMSHA256) else {
            throw TLSAlert(.handshakeFailure, "the client does not offer TLS_AES_128_GCM_SHA256")
        }
        guard let signatureAlgorithms = hello.signatureAlgorithms, let groups = hello.supportedGroups,
              let shares = hello.keyShares else {
            throw TLSAlert(.missingExtension, "a TLS 1.3 ClientHello without signature_algorithms, supported_groups or key_share")
        }
        guard signatureAlgorithms.contains(TLSProtocol.ecdsaSecp256r1SHA256) else {
            throw TLSAlert(.handshakeFailure, "the client does not accept ecdsa_secp256r1_sha256 signatures")
        }
        var selectedProtocol: String?
        if let offered = hello.applicationProtocols {
            guard let chosen = applicationProtocols.first(where: offered.contains) else {
                throw TLSAlert(.noApplicationProtocol, "the client offers ALPN \(offered), the server \(applicationProtocols)")
            }
            selectedProtocol = chosen
        }
        let share = shares.lazy.compactMap { share in
            TLSNamedGroup(rawValue: share.group).map { (group: $0, key: share.key) }
        }.first
        if case .awaitingRetriedClientHello(let requested) = state {
            guard shares.count == 1, let share, share.group == requested else {
                throw TLSAlert(.illegalParameter, "the retried ClientHello does not carry exactly one key share for \(requested)")
            }
        }
        transcript.update(message)
        guard let share else {
            guard state == .awaitingClientHello,
                  let group = groups.lazy.compactMap(TLSNamedGroup.init(rawValue:)).first else {
                throw TLSAlert(.handshakeFailure, "no common key-exchange group (the server has x25519 and secp256r1)")
            }
            sendHelloRetryRequest(group: group, sessionID: hello.legacySessionID, events: &events)
            return
        }
        serverName = hello.serverName
        applicationProtocol = selectedProtocol
        negotiatedGroup = share.group
        try sendServerFlight(share: share, sessionID: hello.legacySessionID, events: &events)
    }

    private mutating func sendHelloRetryRequest(group: TLSNamedGroup, sessionID: [UInt8], events: inout [TLSEvent]) {
        // The transcript restarts from a message_hash of ClientHello1 (RFC 8446 §4.4.1).
        let firstHelloHash = transcript.finalize()
        transcript = SHA256.Hasher()
        transcript.update([TLSHandshakeType.messageHash.rawValue, 0, 0, UInt8(TLSKeySchedule.hashLength)] + firstHelloHash)
        let retry = Self.serverHello(random: TLSProtocol.helloRetryRequestRandom, sessionID: sessionID) { extensions in
            Self.appendExtension(TLSExtensionType.supportedVersions, to: &extensions) { $0.append(TLSProtocol.version13) }
            Self.appendExtension(TLSExtensionType.keyShare, to: &extensions) { $0.append(group.rawValue) }
        }
        transcript.update(retry)
        var output = Self.plaintextRecord(.handshake, retry)
        appendChangeCipherSpec(to: &output)
        events.append(.write(output))
        state = .awaitingRetriedClientHello(group)
    }

    private mutating func sendServerFlight(share: (group: TLSNamedGroup, key: [UInt8]), sessionID: [UInt8], events: inout [TLSEvent]) throws(TLSAlert) {
        let (publicKey, sharedSecret) = try keyExchange(share)
        let serverHello = Self.serverHello(random: randomBytes(32), sessionID: sessionID) { extensions in
            Self.appendExtension(TLSExtensionType.keyShare, to: &extensions) { keyShare in
                keyShare.append(share.group.rawValue)
                keyShare.appendVector(lengthBytes: 2) { $0.append(publicKey) }
            }
            Self.appendExtension(TLSExtensionType.supportedVersions, to: &extensions) { $0.append(TLSProtocol.version13) }
        }
        transcript.update(serverHello)
        let secrets = TLSKeySchedule.Secrets(sharedSecret: sharedSecret, helloHash: transcript.currentHash)
        guard var handshakeWriter = TLSRecordCipher(trafficSecret: secrets.serverHandshake, handshake: true),
              let handshakeReader = TLSRecordCipher(trafficSecret: secrets.clientHandshake, handshake: true) else {
            throw TLSAlert(.internalError, "AES-128-GCM refused a derived key")
        }
        var output = Self.plaintextRecord(.handshake, serverHello)
        appendChangeCipherSpec(to: &output)

        var flight = TLSByteWriter.handshakeMessage(.encryptedExtensions) { body in
            body.appendVector(lengthBytes: 2) { extensions in
                if let applicationProtocol {
                    Self.appendExtension(TLSExtensionType.applicationLayerProtocolNegotiation, to: &extensions) { alpn in
                        alpn.appendVector(lengthBytes: 2) { list in
                            list.appendVector(lengthBytes: 1) { $0.append(Array(applicationProtocol.utf8)) }
                        }
                    }
                }
                if serverName != nil {
                    Self.appendExtension(TLSExtensionType.serverName, to: &extensions) { _ in }
                }
            }
        }
        if let clientAuthentication = identity.clientAuthentication {
            flight += Self.certificateRequest(clientAuthentication)
        }
        flight += TLSByteWriter.handshakeMessage(.certificate) { body in
            body.append(UInt8(0))  // certificate_request_context: empty
            body.appendVector(lengthBytes: 3) { list in
                for certificate in identity.certificateChain {
                    list.appendVector(lengthBytes: 3) { $0.append(certificate) }
                    list.append(UInt16(0))  // no per-certificate extensions
                }
            }
        }
        transcript.update(flight)
        // CertificateVerify signs 64 spaces, the context string, 0, and the transcript hash.
        var signedContent = [UInt8](repeating: 0x20, count: 64)
        signedContent += Array("TLS 1.3, server CertificateVerify".utf8) + [0]
        signedContent += transcript.currentHash
        let signature = identity.privateKey.signatureDER(for: signedContent)
        let certificateVerify = TLSByteWriter.handshakeMessage(.certificateVerify) { body in
            body.append(TLSProtocol.ecdsaSecp256r1SHA256)
            body.appendVector(lengthBytes: 2) { $0.append(signature) }
        }
        transcript.update(certificateVerify)
        let verifyData = TLSKeySchedule.finishedVerifyData(trafficSecret: secrets.serverHandshake, transcriptHash: transcript.currentHash)
        let finished = TLSByteWriter.handshakeMessage(.finished) { $0.append(verifyData) }
        transcript.update(finished)
        flight += certificateVerify + finished
        handshakeWriter.seal(flight[...], type: .handshake, into: &output)
        events.append(.write(output))

        let serverFinishedHash = transcript.currentHash
        let application = secrets.applicationSecrets(serverFinishedHash: serverFinishedHash)
        guard let applicationWriter = TLSRecordCipher(trafficSecret: application.server),
              let applicationReader = TLSRecordCipher(trafficSecret: application.client) else {
            throw TLSAlert(.internalError, "AES-128-GCM refused a derived key")
        }
        readCipher = handshakeReader
        writeCipher = applicationWriter
        pendingReadCipher = applicationReader
        if identity.clientAuthentication != nil {
            // The client's Certificate and CertificateVerify join the transcript first.
            state = .awaitingClientCertificate(clientHandshakeSecret: secrets.clientHandshake)
            return
        }
        expectedClientFinished = TLSKeySchedule.finishedVerifyData(trafficSecret: secrets.clientHandshake, transcriptHash: serverFinishedHash)
        transcript = SHA256.Hasher()  // no resumption: nothing hashes past here
        state = .awaitingFinished
    }

    /// The server's public key share and the shared secret for the client's share.
    private func keyExchange(_ share: (group: TLSNamedGroup, key: [UInt8])) throws(TLSAlert) -> (publicKey: [UInt8], sharedSecret: [UInt8]) {
        switch share.group {
        case .x25519:
            guard share.key.count == 32 else { throw TLSAlert(.illegalParameter, "an x25519 key share of \(share.key.count) bytes") }
            let privateKey = randomBytes(32)
            guard let shared = X25519.sharedSecret(privateKey: privateKey, peerPublicKey: share.key) else {
                throw TLSAlert(.illegalParameter, "the x25519 key share gives an all-zero secret")
            }
            return (X25519.publicKey(privateKey: privateKey), shared)
        case .secp256r1:
            guard share.key.count == 65, share.key.first == 4 else {
                throw TLSAlert(.illegalParameter, "a secp256r1 key share that is not an uncompressed point")
            }
            let keyPair = P256KeyPair(privateKey: randomBytes(32)) ?? P256KeyPair.generate()
            guard let shared = keyPair.sharedSecret(peerPublicKeyX963: share.key) else {
                throw TLSAlert(.illegalParameter, "the secp256r1 key share is not a point on the curve")
            }
            return (keyPair.publicKeyX963, shared)
        }
    }

    private mutating func appendChangeCipherSpec(to output: inout [UInt8]) {
        guard !sentChangeCipherSpec else { return }
        sentChangeCipherSpec = true
        output += Self.plaintextRecord(.changeCipherSpec, [1])
    }

    /// A ServerHello (or HelloRetryRequest) for TLS_AES_128_GCM_SHA256.
    static func serverHello(random: [UInt8], sessionID: [UInt8], extensions: (inout TLSByteWriter) -> Void) -> [UInt8] {
        TLSByteWriter.handshakeMessage(.serverHello) { body in
            body.append(TLSProtocol.legacyVersion)
            body.append(random)
            body.appendVector(lengthBytes: 1) { $0.append(sessionID) }
            body.append(TLSProtocol.aes128GCMSHA256)
            body.append(UInt8(0))  // legacy_compression_method
            body.appendVector(lengthBytes: 2, extensions)
        }
    }

    static func appendExtension(_ type: UInt16, to writer: inout TLSByteWriter, _ data: (inout TLSByteWriter) -> Void) {
        writer.append(type)
        writer.appendVector(lengthBytes: 2, data)
    }
}

extension SHA256.Hasher {
    /// The hash of what was fed so far, leaving the hasher to go on.
    var currentHash: [UInt8] {
        let copy = self
        return copy.finalize()
    }
}
