// libFuzzer target for the TLS server state machine (record layer, handshake reassembly,
// ClientHello parsing, HelloRetryRequest, alerts): arbitrary bytes in arbitrary chunkings
// (FuzzInput) must give writes, an alert and a close, never a trap or a sanitizer report;
// nothing follows a close. The same bytes delivered in one piece must give the same
// transcript: how TCP splits the stream never changes what the server does. The ClientHello
// parser also reads the payload directly as a message body; the certificate and RSA key
// readers read it as DER; and the payload is also fed as the client's encrypted flight to a
// server asking for a client certificate (Certificate, CertificateVerify, Finished). Built by
// Fuzz/run.sh TLSServer SECONDS.
import Foundation

/// Fixed key and randomness, so a handshake's output depends on the input alone.
let identity = TLSServerIdentity(
    certificateChain: [[0x30, 0x03, 0x02, 0x01, 0x01]],
    privateKey: P256KeyPair(privateKey: [UInt8](repeating: 0, count: 31) + [1]) ?? P256KeyPair.generate())

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTLSServer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let chunked = transcript(of: input.chunks())
    let whole = transcript(of: [input.payload[...]])
    if chunked != whole {
        fuzzFailure("chunking changed the outcome:\n  chunked \(chunked)\n  whole   \(whole)")
    }
    clientFlight(input.chunks())
    if let certificate = try? X509Certificate(der: input.payload), certificate.der != input.payload { fuzzFailure("certificate DER not kept whole") }
    if let key = try? RSAPublicKey(subjectPublicKeyInfo: input.payload[...]),
       key.verifyPSSSHA256(signature: [UInt8](repeating: 0, count: key.modulusByteCount), message: []) {
        fuzzFailure("a zero signature verified")
    }
    if let hello = try? TLSClientHello(body: input.payload[...]) {
        if hello.random.count != 32 || hello.legacySessionID.count > 32 { fuzzFailure("ClientHello fields out of bounds") }
    }
    return 0
}

/// What the connection did with `chunks`, as comparable lines (writes joined).
func transcript(of chunks: [ArraySlice<UInt8>]) -> [String] {
    var connection = TLSServerConnection(identity: identity, applicationProtocols: ["h2", "http/1.1"],
                                         randomBytes: { [UInt8](repeating: 7, count: $0) })
    var events: [TLSEvent] = []
    var plaintext: [UInt8] = []
    for chunk in chunks {
        chunk.withUnsafeBytes { connection.receive($0, into: &events, plaintext: &plaintext) }
        if connection.hasPartialInput && connection.state == .closed { fuzzFailure("input kept after close") }
    }
    var lines: [String] = []
    var written: [UInt8] = []
    var closed = false
    for event in events {
        if closed { fuzzFailure("event \(event) after close") }
        switch event {
        case .write(let bytes):
            if bytes.isEmpty { fuzzFailure("an empty write") }
            written += bytes
        case .handshakeCompleted: fuzzFailure("a handshake completed without a client's Finished")
        case .peerClosed, .close:
            closed = true
            lines.append("write \(written)")
            written = []
            lines.append("\(event)")
        }
    }
    if !written.isEmpty { lines.append("write \(written)") }
    if !plaintext.isEmpty { fuzzFailure("application data before the handshake") }
    lines.append("alert \(connection.sentAlert.map { "\($0.code)" } ?? "-") state \(connection.state)")
    return lines
}

// MARK: - The client's flight under client authentication

/// The same server asking for a client certificate (trusting a test CA, at a fixed time).
let authenticatingIdentity: TLSServerIdentity = {
    var copy = identity
    copy.clientAuthentication = try? TLSClientAuthentication(
        trustedAuthorities: [TestCertificateAuthority.generate().certificateDER], clock: { Date(timeIntervalSince1970: 1_800_000_000) })
    return copy
}()

/// A valid ClientHello record (x25519, TLS_AES_128_GCM_SHA256, ecdsa_secp256r1_sha256), so
/// the fuzzer's bytes start after the server's flight.
let fixedClientHello: [UInt8] = {
    let hello = TLSByteWriter.handshakeMessage(.clientHello) { body in
        body.append(TLSProtocol.legacyVersion)
        body.append([UInt8](repeating: 0x42, count: 32))
        body.append(UInt8(0))  // no legacy session id
        body.appendVector(lengthBytes: 2) { $0.append(TLSProtocol.aes128GCMSHA256) }
        body.append([1, 0])
        body.appendVector(lengthBytes: 2) { extensions in
            TLSServerConnection.appendExtension(TLSExtensionType.supportedVersions, to: &extensions) { data in
                data.appendVector(lengthBytes: 1) { $0.append(TLSProtocol.version13) }
            }
            TLSServerConnection.appendExtension(TLSExtensionType.supportedGroups, to: &extensions) { data in
                data.appendVector(lengthBytes: 2) { $0.append(TLSNamedGroup.x25519.rawValue) }
            }
            TLSServerConnection.appendExtension(TLSExtensionType.signatureAlgorithms, to: &extensions) { data in
                data.appendVector(lengthBytes: 2) { $0.append(TLSProtocol.ecdsaSecp256r1SHA256) }
            }
            TLSServerConnection.appendExtension(TLSExtensionType.keyShare, to: &extensions) { data in
                data.appendVector(lengthBytes: 2) { share in
                    share.append(TLSNamedGroup.x25519.rawValue)
                    share.appendVector(lengthBytes: 2) { $0.append(X25519.publicKey(privateKey: [UInt8](repeating: 5, count: 32))) }
                }
            }
        }
    }
    return TLSServerConnection.plaintextRecord(.handshake, hello)
}()

/// Feeds the fuzzer's chunks as the client's encrypted handshake flight (Certificate,
/// CertificateVerify, Finished — each chunk sealed as one record under the client's
/// handshake key), reaching the certificate and CertificateVerify parsers. Whole and chunked
/// delivery may differ here (a message that changes keys must end its record), so only
/// the invariants are checked.
func clientFlight(_ chunks: [ArraySlice<UInt8>]) {
    var connection = TLSServerConnection(identity: authenticatingIdentity, applicationProtocols: ["h2", "http/1.1"],
                                         randomBytes: { [UInt8](repeating: 7, count: $0) })
    var events: [TLSEvent] = []
    var plaintext: [UInt8] = []
    fixedClientHello.withUnsafeBytes { connection.receive($0, into: &events, plaintext: &plaintext) }
    guard case .awaitingClientCertificate(let secret) = connection.state, var writer = TLSRecordCipher(trafficSecret: secret) else {
        fuzzFailure("a valid ClientHello did not lead to a CertificateRequest: \(connection.state)")
    }
    for chunk in chunks where !chunk.isEmpty {
        var record: [UInt8] = []
        writer.seal(chunk, type: .handshake, into: &record)
        record.withUnsafeBytes { connection.receive($0, into: &events, plaintext: &plaintext) }
        if connection.state == .closed, connection.hasPartialInput { fuzzFailure("input kept after close") }
    }
    if !plaintext.isEmpty { fuzzFailure("application data inside the client's handshake flight") }
    if events.contains(.handshakeCompleted) { fuzzFailure("a handshake completed without the client's Finished key") }
}
