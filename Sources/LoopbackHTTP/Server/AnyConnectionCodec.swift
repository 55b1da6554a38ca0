/// The protocol spoken on one connection, chosen from its first bytes.
///
/// A connection starts `.sniffing`: if its first 24 bytes are the HTTP/2 client preface
/// (h2c with prior knowledge) it becomes HTTP/2, otherwise HTTP/1.1; the decision is made
/// as soon as a byte differs from the preface, so HTTP/1.1 requests are not delayed. Behind
/// a ``TLSStage`` the protocol ALPN chose replaces the sniffer when the handshake completes
/// (``choose(applicationProtocol:into:)``); this type never sees a TLS byte.
///
/// HTTP/2 is ``HTTP2Connection``; ``HTTP2PrefaceRefusal`` remains for servers configured
/// without HTTP/2 (`configuration.http2.enabled == false`).
///
/// Every codec is held in a ``CodecBox``: the enum is one reference, so reading it (the
/// loop asks for `activity` and the buffered bytes several times per request) copies no
/// codec, and a codec is mutated in place. A value of this type is the one handle to its
/// connection's codec; a copy shares it.
package enum AnyConnectionCodec: ConnectionCodec {
    case sniffing(CodecBox<ProtocolSniffer>)
    case http1(CodecBox<HTTP1Codec>)
    case http2(CodecBox<HTTP2Connection>)
    /// HTTP/2 is disabled: answers the preface with GOAWAY HTTP_1_1_REQUIRED.
    case http2Unavailable(CodecBox<HTTP2PrefaceRefusal>)

    package init(configuration: HTTPServerConfiguration, connectionID: UInt64) {
        self = .sniffing(CodecBox(ProtocolSniffer(configuration: configuration, connectionID: connectionID)))
    }

    /// TLS chose the protocol through ALPN: a connection still sniffing becomes HTTP/2
    /// (`h2`) or HTTP/1.1 (`http/1.1`) and starts; without ALPN it goes on sniffing its
    /// first plaintext bytes.
    /// `clientCertified`: the TLS client presented a certificate (HTTP/2 may then skip its
    /// starting stream limit).
    package mutating func choose(applicationProtocol: String?, clientCertified: Bool = false, into actions: inout [ConnectionAction]) {
        guard case .sniffing(let box) = self else { return }
        box.codec.clientCertified = clientCertified
        guard let verdict = ProtocolSniffer.verdict(forApplicationProtocol: applicationProtocol) else { return }
        self = box.codec.makeCodec(for: verdict)
        start(into: &actions)
    }

    package var activity: ConnectionActivity {
        switch self {
        case .sniffing(let box): return box.codec.buffered.isEmpty ? .idle : .readingRequest
        case .http1(let box): return box.codec.activity
        case .http2(let box): return box.codec.activity
        case .http2Unavailable(let box): return box.codec.activity
        }
    }

    /// Request-body octets buffered and not yet handed to the handler.
    package var bufferedBodyBytes: Int {
        switch self {
        case .http1(let box): return box.codec.bufferedBodyBytes
        case .http2(let box): return box.codec.bufferedBodyBytes
        case .sniffing, .http2Unavailable: return 0
        }
    }

    /// HTTP/2 response DATA queued behind flow control (0 for HTTP/1.1).
    package var queuedResponseBytes: Int {
        switch self {
        case .http2(let box): return box.codec.queuedResponseBytes
        default: return 0
        }
    }

    /// Octets held in request bodies and (HTTP/2) queued response DATA, roughly: what
    /// dropping this codec frees.
    package var heldBufferBytes: Int {
        switch self {
        case .http2(let box): return box.codec.bufferedBodyBytes + box.codec.queuedResponseBytes
        default: return bufferedBodyBytes
        }
    }

    /// HTTP/2: when the longest-stalled queued response last made progress (see
    /// ``HTTP2Connection/oldestStalledSend``); nil for HTTP/1.1, whose unsent output is the shell's.
    package var oldestStalledSend: UInt64? {
        switch self {
        case .http2(let box): return box.codec.oldestStalledSend
        default: return nil
        }
    }

    /// HTTP/2: resets the streams whose response made no progress since `cutoff`.
    package mutating func resetStalledSends(madeNoProgressSince cutoff: UInt64, into actions: inout [ConnectionAction]) {
        switch self {
        case .http2(let box): box.codec.resetStalledSends(madeNoProgressSince: cutoff, into: &actions)
        default: break
        }
    }

    /// HTTP/2: the streams whose response waits for window (see ``HTTP2Connection/stalledSends``).
    package var stalledSends: [(stream: UInt32, since: UInt64)] {
        if case .http2(let box) = self { return box.codec.stalledSends }
        return []
    }

    /// HTTP/2: times the peer opened send window (see ``HTTP2Connection/windowGrants``).
    package var windowGrants: Int {
        if case .http2(let box) = self { return box.codec.windowGrants }
        return 0
    }

    /// HTTP/2: resets one stream whose response waits for window (RST_STREAM CANCEL).
    package mutating func resetStalledSend(_ stream: UInt32, into actions: inout [ConnectionAction]) {
        if case .http2(let box) = self { box.codec.resetStalledSend(stream, into: &actions) }
    }

    /// HTTP/2: refuses a request no handler has seen (RST_STREAM REFUSED_STREAM).
    package mutating func refuseRequest(_ stream: UInt32, into actions: inout [ConnectionAction]) {
        if case .http2(let box) = self { box.codec.refuseRequest(stream, into: &actions) }
    }

    /// HTTP/2: gives every body still buffered back to the process-wide
    /// ``RequestBodyBudget``; the connection is going away.
    package mutating func releaseBufferedBodies() {
        switch self {
        case .http2(let box): box.codec.releaseBufferedBodies()
        default: break
        }
    }

    /// Nothing to do while sniffing; the chosen codec is started once the protocol is known.
    package mutating func start(into actions: inout [ConnectionAction]) {
        switch self {
        case .http1(let box): box.codec.start(into: &actions)
        case .http2(let box): box.codec.start(into: &actions)
        case .http2Unavailable(let box): box.codec.start(into: &actions)
        case .sniffing: break
        }
    }

    package mutating func receive(_ bytes: UnsafeRawBufferPointer, into actions: inout [ConnectionAction]) {
        switch self {
        case .sniffing(let box):
            box.codec.buffered.append(contentsOf: bytes)
            guard box.codec.verdict != nil else { return }
            self = box.codec.makeCodec()
            start(into: &actions)
            box.codec.buffered.withUnsafeBytes { receive($0, into: &actions) }
        case .http1(let box): box.codec.receive(bytes, into: &actions)
        case .http2(let box): box.codec.receive(bytes, into: &actions)
        case .http2Unavailable(let box): box.codec.receive(bytes, into: &actions)
        }
    }

    package mutating func respond(_ response: HTTPResponse, stream: UInt32, into actions: inout [ConnectionAction]) {
        switch self {
        case .http1(let box): box.codec.respond(response, stream: stream, into: &actions)
        case .http2(let box): box.codec.respond(response, stream: stream, into: &actions)
        case .http2Unavailable(let box): box.codec.respond(response, stream: stream, into: &actions)
        case .sniffing: break
        }
    }

    package mutating func abandon(stream: UInt32, disposition: ResponseDisposition, into actions: inout [ConnectionAction]) {
        switch self {
        case .http1(let box): box.codec.abandon(stream: stream, disposition: disposition, into: &actions)
        case .http2(let box): box.codec.abandon(stream: stream, disposition: disposition, into: &actions)
        case .http2Unavailable(let box): box.codec.abandon(stream: stream, disposition: disposition, into: &actions)
        case .sniffing: break
        }
    }

    package mutating func peerClosed(into actions: inout [ConnectionAction]) {
        switch self {
        case .sniffing: actions.append(.close)
        case .http1(let box): box.codec.peerClosed(into: &actions)
        case .http2(let box): box.codec.peerClosed(into: &actions)
        case .http2Unavailable(let box): box.codec.peerClosed(into: &actions)
        }
    }

    package mutating func shutdown(into actions: inout [ConnectionAction]) {
        switch self {
        case .sniffing: actions.append(.close)
        case .http1(let box): box.codec.shutdown(into: &actions)
        case .http2(let box): box.codec.shutdown(into: &actions)
        case .http2Unavailable(let box): box.codec.shutdown(into: &actions)
        }
    }

    /// Delivers a handler's response according to its disposition (`.delay` and `.hang`
    /// are the shell's business and never arrive here; a delayed response arrives as `.send`).
    package mutating func deliver(_ response: HTTPResponse, stream: UInt32, into actions: inout [ConnectionAction]) {
        switch response.disposition {
        case .send, .delay, .hang, .stream:
            respond(response, stream: stream, into: &actions)
        case .goAway:
            if case .http1(let box) = self {
                // HTTP/1.1 has no GOAWAY: the response is written with `connection: close`.
                box.codec.respond(response, stream: stream, forceClose: true, into: &actions)
            } else {
                abandon(stream: stream, disposition: response.disposition, into: &actions)
            }
        case .reset, .loseResponse:
            abandon(stream: stream, disposition: response.disposition, into: &actions)
        }
    }

    /// The idle or request timeout fired. HTTP/1.1 answers a partial request with 408;
    /// other protocols shut down gracefully.
    package mutating func timedOut(into actions: inout [ConnectionAction]) {
        switch self {
        case .http1(let box): box.codec.requestTimedOut(into: &actions)
        case .http2(let box):
            box.codec.timedOut(into: &actions)
            actions.append(.close)
        default:
            shutdown(into: &actions)
            actions.append(.close)
        }
    }
}

/// One connection's codec behind a reference, mutated in place (see ``AnyConnectionCodec``).
/// Confined to the connection's loop thread, like the codec; every access is one call of the
/// codec's that does not reach back into its box, so the dynamic exclusivity check is left out.
package final class CodecBox<Codec> {
    @exclusivity(unchecked) package var codec: Codec
    package init(_ codec: Codec) { self.codec = codec }
}
/// Buffers a connection's first bytes until they show which protocol it speaks.
package struct ProtocolSniffer {
    /// The HTTP/2 client connection preface (RFC 9113 §3.4).
    package static let http2Preface: [UInt8] = HTTP2Frame.clientPreface

    package enum Verdict: Equatable { case http1, http2 }

    let configuration: HTTPServerConfiguration
    let connectionID: UInt64
    var buffered: [UInt8] = []
    /// Behind TLS: the client presented a certificate.
    var clientCertified = false

    /// nil while the bytes so far are a proper prefix of the preface.
    package var verdict: Verdict? { Self.verdict(for: buffered) }

    /// The verdict for a connection's first bytes.
    package static func verdict(for bytes: [UInt8]) -> Verdict? {
        for (index, byte) in bytes.prefix(http2Preface.count).enumerated() where http2Preface[index] != byte {
            return .http1
        }
        return bytes.count >= http2Preface.count ? .http2 : nil
    }

    /// The verdict ALPN gives (nil without ALPN: the first bytes decide).
    static func verdict(forApplicationProtocol applicationProtocol: String?) -> Verdict? {
        switch applicationProtocol {
        case "h2": .http2
        case "http/1.1": .http1
        default: nil
        }
    }

    func makeCodec() -> AnyConnectionCodec { makeCodec(for: verdict) }

    func makeCodec(for verdict: Verdict?) -> AnyConnectionCodec {
        switch verdict {
        case .http2:
            guard configuration.http2.enabled else { return .http2Unavailable(CodecBox(HTTP2PrefaceRefusal())) }
            return .http2(CodecBox(HTTP2Connection(configuration: configuration, connectionID: connectionID, clientCertified: clientCertified)))
        case .http1, nil: return .http1(CodecBox(HTTP1Codec(configuration: configuration, connectionID: connectionID)))
        }
    }
}
