// libFuzzer target for the TLS server state machine (record layer, handshake reassembly,
// ClientHello parsing, HelloRetryRequest, alerts): arbitrary bytes in arbitrary chunkings
// (FuzzInput) must give writes, an alert and a close, never a trap or a sanitizer report;
// nothing follows a close. The same bytes delivered in one piece must give the same
// transcript: how TCP splits the stream never changes what the server does. The ClientHello
// parser also reads the payload directly as a message body. Built by
// Fuzz/run.sh TLSServer SECONDS.

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
