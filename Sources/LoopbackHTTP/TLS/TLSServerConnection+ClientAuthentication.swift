import Foundation
import PushCrypto

extension TLSServerConnection {
    /// The signature schemes a client certificate may prove itself with, offered in the
    /// CertificateRequest: ECDSA P-256 and RSA-PSS (Apple's push certificates are RSA 2048).
    static let clientSignatureSchemes = [TLSProtocol.ecdsaSecp256r1SHA256, TLSProtocol.rsaPSSRSAESHA256]

    /// CertificateRequest (RFC 8446 §4.3.2): an empty context, signature_algorithms, and
    /// certificate_authorities naming the trusted CAs so a client holding several
    /// certificates can pick.
    static func certificateRequest(_ policy: TLSClientAuthentication) -> [UInt8] {
        TLSByteWriter.handshakeMessage(.certificateRequest) { body in
            body.append(UInt8(0))  // certificate_request_context: empty
            body.appendVector(lengthBytes: 2) { extensions in
                appendExtension(TLSExtensionType.signatureAlgorithms, to: &extensions) { algorithms in
                    algorithms.appendVector(lengthBytes: 2) { list in
                        for scheme in clientSignatureSchemes { list.append(scheme) }
                    }
                }
                let names = policy.trustedAuthorities.map(\.subjectName).filter { !$0.isEmpty && $0.count <= 0xffff }
                if !names.isEmpty {
                    appendExtension(TLSExtensionType.certificateAuthorities, to: &extensions) { authorities in
                        authorities.appendVector(lengthBytes: 2) { list in
                            for name in names { list.appendVector(lengthBytes: 2) { $0.append(name) } }
                        }
                    }
                }
            }
        }
    }

    /// The client's Certificate (RFC 8446 §4.4.2). An empty list is accepted — the client
    /// goes on without one, as APNs lets a token sender do; a leaf that is not a P-256 or
    /// RSA certificate is refused with bad_certificate / unsupported_certificate.
    mutating func receiveClientCertificate(_ message: [UInt8], clientHandshakeSecret: [UInt8]) throws(TLSAlert) {
        var reader = TLSByteReader(message[4...])
        let context = try reader.readVector(lengthBytes: 1, allowed: 0...255)
        guard context.isEmpty else { throw TLSAlert(.illegalParameter, "a client Certificate with a request context the server did not send") }
        var list = try reader.readNested(lengthBytes: 3, allowed: 0...TLSProtocol.maxHandshakeMessage)
        try reader.expectEnd("Certificate")
        var certificates: [[UInt8]] = []
        while !list.isEmpty {
            let data = try list.readVector(lengthBytes: 3, allowed: 1...TLSProtocol.maxHandshakeMessage)
            _ = try list.readVector(lengthBytes: 2, allowed: 0...0xffff)  // per-certificate extensions: ignored
            if certificates.count < TLSClientAuthentication.maximumChainLength { certificates.append(Array(data)) }
        }
        transcript.update(message)
        guard !certificates.isEmpty, let policy = identity.clientAuthentication else {
            finishClientFlight(clientHandshakeSecret: clientHandshakeSecret)
            return
        }
        let checked: (leaf: X509Certificate, trust: TLSClientCertificate.Trust)
        do {
            checked = try policy.check(certificates)
        } catch {
            let unsupported = error == .invalidRSAKey || error == .unsupportedAlgorithm || error == .unsupportedCurve
            throw TLSAlert(unsupported ? .unsupportedCertificate : .badCertificate, "the client's certificate: \(error.message)")
        }
        let leaf = checked.leaf
        clientCertificate = TLSClientCertificate(certificate: leaf, presentedChain: Array(certificates.dropFirst()), trust: checked.trust)
        state = .awaitingClientCertificateVerify(clientHandshakeSecret: clientHandshakeSecret, key: leaf.publicKey)
    }

    /// The client's CertificateVerify (RFC 8446 §4.4.3): a signature over 64 spaces, the
    /// client context string, 0 and the transcript hash, by the certificate's key. A scheme
    /// that does not fit the key is illegal_parameter; a signature that does not verify,
    /// decrypt_error.
    mutating func receiveClientCertificateVerify(_ message: [UInt8], clientHandshakeSecret: [UInt8],
                                                 key: CertificatePublicKey) throws(TLSAlert) {
        var reader = TLSByteReader(message[4...])
        let scheme = try reader.readUInt16()
        let signature = Array(try reader.readVector(lengthBytes: 2, allowed: 1...0xffff))
        try reader.expectEnd("CertificateVerify")
        var signedContent = [UInt8](repeating: 0x20, count: 64)
        signedContent += Array("TLS 1.3, client CertificateVerify".utf8) + [0]
        signedContent += transcript.currentHash
        let verified: Bool
        switch (key, scheme) {
        case (.p256(let point), TLSProtocol.ecdsaSecp256r1SHA256):
            guard let (r, s) = ECDSASignatureDER.read(signature[...]) else {
                throw TLSAlert(.decodeError, "the client's ECDSA signature is not a DER ECDSA-Sig-Value")
            }
            verified = ECDSA.verify(r: r, s: s, digest: SHA256.hash(signedContent), publicKey: point)
        case (.rsa(let rsa), TLSProtocol.rsaPSSRSAESHA256):
            verified = rsa.verifyPSSSHA256(signature: signature, message: signedContent)
        default:
            throw TLSAlert(.illegalParameter, "signature scheme 0x\(String(scheme, radix: 16)) does not fit the client certificate's key (offered: ecdsa_secp256r1_sha256, rsa_pss_rsae_sha256)")
        }
        guard verified else {
            clientCertificate = nil
            throw TLSAlert(.decryptError, "the client's CertificateVerify does not verify under its certificate's key")
        }
        transcript.update(message)
        finishClientFlight(clientHandshakeSecret: clientHandshakeSecret)
    }

    /// What the client's Finished must carry, over the transcript through its last message.
    private mutating func finishClientFlight(clientHandshakeSecret: [UInt8]) {
        expectedClientFinished = TLSKeySchedule.finishedVerifyData(trafficSecret: clientHandshakeSecret,
                                                                   transcriptHash: transcript.currentHash)
        transcript = SHA256.Hasher()  // no resumption: nothing hashes past here
        state = .awaitingFinished
    }
}
